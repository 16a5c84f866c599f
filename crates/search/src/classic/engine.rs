//! The classic engine: what [`crate::Engine`] holds under classic
//! rules, the player ([`ClassicPlayer`]) for moves and the solver
//! ([`Solver`]), made the first time it is needed, for exact values, both
//! playing from an opening book and reporting to the engine's progress.
//!
//! The solver searches on as many threads as it is given
//! ([`Solver::with_threads`]); the player, whose depth-limited searches
//! take milliseconds, on one.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::player::{ClassicPlayer, heuristic};
use super::position::Position;
use super::solver::Solver;
use crate::book::Book;
use crate::outcome::{Bounded, ExactValue, MoveValues, OutOfTime, SearchResult, Solution};
use crate::progress::Progress;
use crate::request::{Limits, Strength};
use crate::table::TableTooLarge;
use maxconnect4_game::bitboard::WIDTH;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::rules::Rules;
use maxconnect4_game::value::Value;

/// The classic searches behind one interface: the player, and the solver
/// with its own table.
pub struct ClassicEngine {
    player: ClassicPlayer,
    solver: Option<Solver>,
    hash_bytes: usize,
    /// Threads the solver searches with.
    threads: usize,
    book: Option<Arc<Book>>,
    progress: Arc<Progress>,
    cancelled: Arc<AtomicBool>,
}

impl ClassicEngine {
    /// Searches whose tables use at most `hash_bytes` each, playing and
    /// solving from `book` where it holds the position.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn new(hash_bytes: usize, book: Option<Arc<Book>>) -> Result<ClassicEngine, TableTooLarge> {
        let (progress, cancelled) = (Arc::<Progress>::default(), Arc::<AtomicBool>::default());
        let player = ClassicPlayer::new(hash_bytes)?
            .with_book(book.clone())
            .watched(Arc::clone(&progress), Arc::clone(&cancelled));
        Ok(ClassicEngine { player, solver: None, hash_bytes, threads: 1, book, progress, cancelled })
    }

    /// Solves with `threads` threads (at least one) from now on.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        if let Some(solver) = self.solver.take() {
            self.solver = Some(solver.with_threads(self.threads));
        }
    }

    /// The threads the solver searches with.
    pub const fn threads(&self) -> usize {
        self.threads
    }

    /// See [`Engine::progress`](crate::Engine::progress).
    pub fn progress(&self) -> Arc<Progress> {
        Arc::clone(&self.progress)
    }

    /// See [`Engine::canceller`](crate::Engine::canceller).
    pub fn canceller(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancelled)
    }

    /// See [`ClassicPlayer::search`].
    pub fn search(&mut self, board: &Board, limits: &Limits) -> Option<SearchResult> {
        self.player.search(board, limits.depth, limits.time_limit)
    }

    /// See [`Solver::solve`].
    ///
    /// # Errors
    /// When the time limit runs out first.
    pub fn solve(
        &mut self,
        board: &Board,
        strength: Strength,
        time_limit: Option<Duration>,
    ) -> Result<Solution, OutOfTime> {
        self.solver().solve(board, strength == Strength::Weak, time_limit)
    }

    /// See [`Solver::board_value`]: the value alone, without searching for
    /// the best moves.
    ///
    /// # Errors
    /// When the time limit runs out first.
    pub fn exact_value(
        &mut self,
        board: &Board,
        strength: Strength,
        time_limit: Option<Duration>,
    ) -> Result<ExactValue, OutOfTime> {
        let solver = self.solver();
        let value = solver.board_value(board, strength == Strength::Weak, time_limit)?;
        Ok(ExactValue { value, nodes: solver.nodes() })
    }

    /// See [`Solver::bound`].
    ///
    /// # Errors
    /// When the time limit runs out first.
    pub fn bound(&mut self, board: &Board, at_least: i32, time_limit: Option<Duration>) -> Result<Bounded, OutOfTime> {
        let solver = self.solver();
        let bound = solver.bound(board, at_least, time_limit)?;
        Ok(Bounded { bound, nodes: solver.nodes() })
    }

    /// See [`Solver::board_value_within`].
    ///
    /// # Errors
    /// When the nodes are spent first.
    pub fn exact_value_within(&mut self, board: &Board, strength: Strength, nodes: u64) -> Result<i32, OutOfTime> {
        self.solver().board_value_within(board, strength == Strength::Weak, nodes)
    }

    /// The exact value of every move from `board` (with
    /// [`Strength::Weak`], its sign), each child solved by
    /// [`Solver::board_value`] (or read from the book) within what is left
    /// of `time_limit`. A finished game has no moves.
    ///
    /// # Errors
    /// When the time limit runs out first.
    pub fn move_values(
        &mut self,
        board: &Board,
        strength: Strength,
        time_limit: Option<Duration>,
    ) -> Result<MoveValues, OutOfTime> {
        let deadline = time_limit.and_then(|limit| Instant::now().checked_add(limit));
        let mut moves = MoveValues { values: [None; WIDTH], nodes: 0 };
        if Rules::Classic.is_over(board) {
            return Ok(moves);
        }
        for column in board.legal_columns() {
            let left = deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()));
            let value = self
                .move_value(board, column, strength, left)
                .map_err(|out| OutOfTime { nodes: moves.nodes + out.nodes })?;
            moves.nodes += value.nodes;
            moves.values[column.index()] = Some(value.value);
        }
        Ok(moves)
    }

    /// The exact value of the move `column` (which must be playable) from
    /// `board` for the player who makes it (with [`Strength::Weak`], its
    /// sign), as [`move_values`](ClassicEngine::move_values) finds it.
    ///
    /// # Errors
    /// When the time limit runs out first.
    pub fn move_value(
        &mut self,
        board: &Board,
        column: Column,
        strength: Strength,
        time_limit: Option<Duration>,
    ) -> Result<ExactValue, OutOfTime> {
        let solver = self.solver();
        let value = solver.board_value(&board.after(column), strength == Strength::Weak, time_limit)?;
        Ok(ExactValue { value: -value, nodes: solver.nodes() })
    }

    /// As [`move_value`](ClassicEngine::move_value) (strong), if the
    /// solver proves it within `nodes` positions (see
    /// [`Solver::board_value_within`]).
    ///
    /// # Errors
    /// When the nodes are spent first.
    pub fn move_value_within(&mut self, board: &Board, column: Column, nodes: u64) -> Result<ExactValue, OutOfTime> {
        let solver = self.solver();
        let value = solver.board_value_within(&board.after(column), false, nodes)?;
        Ok(ExactValue { value: -value, nodes: solver.nodes() })
    }

    /// The heuristic value of `board` for the player to move at the
    /// search's horizon, in the units of [`search`](ClassicEngine::search)'s
    /// values (strictly between `-WIN_UNIT` and `WIN_UNIT`).
    #[must_use]
    pub fn horizon_value(board: &Board) -> Value {
        heuristic(&Position::of(board))
    }

    /// The solver, made now if it is not yet.
    fn solver(&mut self) -> &mut Solver {
        self.solver.get_or_insert_with(|| {
            // The table was allocatable a moment ago; if it no longer is,
            // solving without one is still correct, only slower.
            Solver::new(self.hash_bytes)
                .or_else(|_| Solver::new(0))
                .expect("an empty table")
                .with_book(self.book.clone())
                .with_threads(self.threads)
                .watched(Arc::clone(&self.progress), Arc::clone(&self.cancelled))
        })
    }

    /// Forgets everything learned.
    pub fn clear(&mut self) {
        self.player.clear();
        if let Some(solver) = &mut self.solver {
            solver.clear();
        }
    }

    /// Maps the player's table in now (for benchmarks).
    pub fn map_in_table(&mut self) {
        self.player.map_in_table();
    }
}
