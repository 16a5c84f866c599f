//! Playing from the opening book, and playing perfectly: the moves of an
//! [`Engine`] that holds a book, under either rules.
//!
//! The depth-limited search ([`Engine::search`]) is what the assignment
//! compares programs by, so under Max-Connect4 rules it never reads a book.
//! Bots, the server and the referee's own player want the strongest move
//! instead: where the book holds a position and its children, its best move
//! is known at once ([`Engine::book_move`]); [`Engine::play_perfectly`] goes
//! on past the book by solving within the move's time, and only when that
//! is not enough falls back to the depth-limited search, saying which it
//! did ([`Chosen`]).

use std::time::{Duration, Instant};

use super::analysis::Analysis;
use super::{Engine, Limits, SearchResult, Solution, SolveError};
use maxconnect4_game::board::{Board, Column};

/// The share of a move's time limit that [`Engine::play_perfectly`] gives
/// the solve, as a fraction: nine tenths.
pub const SOLVE_SHARE: (u32, u32) = (9, 10);

/// How [`Engine::play_perfectly`] chose its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chosen {
    /// The opening book holds the position and its children, or a best
    /// move of it (its deepest positions): that move, perfect.
    Book,
    /// A solve within the time: a best move, perfect.
    Solved,
    /// The depth-limited search: the book does not hold the position's
    /// best moves and there was no time limit, or the solve did not finish
    /// within it.
    Searched,
}

/// A move played perfectly where it could be, and how it was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerfectMove {
    /// The move; for [`Chosen::Book`] and [`Chosen::Solved`] its value is
    /// exact (in the units of [`Engine::search`]'s values) and its depth
    /// reaches the end of the game.
    pub result: SearchResult,
    /// Whether the book, a solve or the depth-limited search chose it.
    pub chosen: Chosen,
}

impl Engine {
    /// The book's move on `board`, when the engine's book holds the
    /// position and its children (the first, in centre-first order, of the
    /// best moves) or, at its deepest positions, a best move: its exact
    /// value, no node visited.
    #[must_use]
    pub fn book_move(&self, board: &Board) -> Option<SearchResult> {
        let solution = self.book()?.one_best(self.rules(), board)?;
        Some(self.perfect_result(board, &solution))
    }

    /// A move on `board` played as well as the engine can within `limits`:
    /// the book's ([`book_move`](Engine::book_move)) where it holds the
    /// position; else, with a time limit, a best move solved within nine
    /// tenths of it ([`Engine::best_move`]); else (no time limit, or the
    /// solve did not finish) the depth-limited search within `limits`
    /// (with what is left of the time). `None` when the game is over.
    ///
    /// # Panics
    /// When `limits.depth` is 0.
    pub fn play_perfectly(&mut self, board: &Board, limits: &Limits) -> Option<PerfectMove> {
        if self.rules().is_over(board) {
            return None;
        }
        if let Some(result) = self.book_move(board) {
            return Some(PerfectMove { result, chosen: Chosen::Book });
        }
        let Some(time_limit) = limits.time_limit else {
            let result = self.search(board, limits)?;
            return Some(PerfectMove { result, chosen: Chosen::Searched });
        };
        let start = Instant::now();
        // One best move, not every one: the proof of which moves tie with
        // it is most of a solve's work where several do. Nine tenths of
        // the time: solves 6 and 7 moves deep take 0.5 to 35 s on two
        // threads, many of them 5 to 10 s (reports/solving.md), so each
        // second more makes more moves perfect; a search after a solve
        // that did not finish still has a tenth (a second of 10) to find
        // a good move, a ply or two short of what it would reach in a
        // quarter. (It was three quarters, and half before.)
        let spent = match self.best_move(board, Some(time_limit * SOLVE_SHARE.0 / SOLVE_SHARE.1)) {
            Ok(solution) => {
                let result = self.perfect_result(board, &solution);
                return Some(PerfectMove { result, chosen: Chosen::Solved });
            }
            Err(SolveError::OutOfTime(out)) => out.nodes,
            // A solve asks for no budget of nodes: never returned here.
            Err(SolveError::NodeBudgetUnsupported) => 0,
        };
        let left = time_limit.saturating_sub(start.elapsed()).max(Duration::from_millis(1));
        let result = self.search(board, &Limits { depth: limits.depth, time_limit: Some(left) })?;
        let result = SearchResult { nodes: result.nodes + spent, ..result };
        Some(PerfectMove { result, chosen: Chosen::Searched })
    }

    /// The move of `solution` of `board` as a search reports it: the first
    /// best move in centre-first order, the exact value in the search's
    /// units, to the end of the game.
    fn perfect_result(&self, board: &Board, solution: &Solution) -> SearchResult {
        let column = Column::CENTRE_FIRST
            .into_iter()
            .find(|column| solution.best.contains(column))
            .expect("a game that goes on has a best move");
        let value = solution.value * Analysis::unit(self.rules());
        SearchResult { column, value, nodes: solution.nodes, depth: board.empty_cells() }
    }
}
