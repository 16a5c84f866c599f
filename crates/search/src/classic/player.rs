//! Choosing a classic move within a depth and a time: depth-limited
//! alpha-beta over the classic [`Position`], exact wherever the game ends
//! inside the horizon, with a heuristic at the horizon.
//!
//! The root plays a win in one whenever there is one, and otherwise only
//! moves that do not lose at once ([`Position::non_losing_moves`]) unless
//! there are none; inside the tree the same rule prunes. Values are
//! [`WIN_UNIT`] times the solver's score where the game's end is in sight
//! (a faster win is worth more), and less than one unit either way at the
//! horizon, so the search prefers a sure result to any heuristic.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::ordering::ordered_moves;
use super::position::{CELL_COUNT, Position, column_of, win_now};
use super::work::Work;
use crate::book::Book;
use crate::outcome::SearchResult;
use crate::progress::Progress;
use crate::table::{Bound, Entry, TableTooLarge};
use maxconnect4_game::bitboard::{ALL_CELLS, column_cells};
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::rules::Rules;
use maxconnect4_game::value::Value;

/// One point of the solver's score in the values this search returns; a
/// heuristic value stays strictly between `-WIN_UNIT` and `WIN_UNIT`.
pub const WIN_UNIT: Value = 256;

/// Above any value.
const INFINITY: Value = WIN_UNIT * 64;

/// The table grows to one slot per this many nodes searched.
const NODES_PER_SLOT: usize = 8;

/// A depth-limited classic searcher with its own table, and perhaps an
/// opening book to play from.
pub struct ClassicPlayer {
    work: Work,
    book: Option<Arc<Book>>,
}

impl ClassicPlayer {
    /// A searcher whose table uses at most `hash_bytes`.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn new(hash_bytes: usize) -> Result<ClassicPlayer, TableTooLarge> {
        Ok(ClassicPlayer { work: Work::new(hash_bytes, NODES_PER_SLOT)?, book: None })
    }

    /// The searcher playing from `book` wherever it holds the values of
    /// every move: a best move, the central-most, with no search.
    #[must_use]
    pub fn with_book(self, book: Option<Arc<Book>>) -> ClassicPlayer {
        ClassicPlayer { book, ..self }
    }

    /// Forgets everything learned.
    pub fn clear(&mut self) {
        self.work.table_mut().clear();
    }

    /// Maps all the table's memory in now (for benchmarks).
    pub fn map_in_table(&mut self) {
        self.work.table_mut().map_in();
    }

    /// The searcher keeping `progress` up to date while it searches, and
    /// ending its searches with a time limit early once `cancelled` is set,
    /// as if the time had run out.
    #[must_use]
    pub fn watched(mut self, progress: Arc<Progress>, cancelled: Arc<AtomicBool>) -> ClassicPlayer {
        self.work.progress = progress;
        self.work.cancelled = Some(cancelled);
        self
    }

    /// Chooses a move by iterative deepening to `depth` plies (at least 1)
    /// within `time_limit`; `None` when the game on `board` is over.
    pub fn search(&mut self, board: &Board, depth: u32, time_limit: Option<Duration>) -> Option<SearchResult> {
        if Rules::Classic.is_over(board) {
            return None;
        }
        // The first iteration runs without the clock, so there is always a move.
        self.work.start(None);
        let position = Position::of(board);
        if let Some(children) = self.book.as_ref().and_then(|book| book.children(&position)) {
            let value = children.iter().flatten().max().copied().expect("a game that goes on has a move");
            let column = Column::CENTRE_FIRST
                .into_iter()
                .find(|column| children[column.index()] == Some(value))
                .expect("the best value is some column's");
            // The book's values are exact to the end of the game.
            let depth = CELL_COUNT - position.moves();
            self.work.progress.finished(depth, column);
            return Some(SearchResult { column, value: value * WIN_UNIT, nodes: 0, depth });
        }
        self.work.nodes = 1;
        let moves = position.moves();
        let wins = position.winning_cells() & position.playable();
        if wins != 0 {
            let column = centre_first(wins);
            return Some(SearchResult { column, value: win_now(moves) * WIN_UNIT, nodes: 1, depth: 1 });
        }
        let candidates = position.non_losing_moves();
        if candidates == 0 {
            // Every move loses at once: block one of the threats, if one can be.
            let blocks = position.playable() & position.opponent_winning_cells();
            let column = centre_first(if blocks != 0 { blocks } else { position.playable() });
            return Some(SearchResult { column, value: -win_now(moves + 1) * WIN_UNIT, nodes: 1, depth: 1 });
        }
        let deadline = time_limit.map(|limit| Instant::now() + limit);
        let mut result = None;
        for iteration in 1..=depth.min(CELL_COUNT - moves).max(1) {
            let Some((column, value)) = self.root(&position, candidates, iteration) else { break };
            self.work.progress.finished(iteration, column);
            result = Some(SearchResult { column, value, nodes: 0, depth: iteration });
            self.work.deadline = deadline;
            if value.abs() >= WIN_UNIT {
                // The result is certain; deeper searches cannot change it.
                break;
            }
        }
        result.map(|result| SearchResult { nodes: self.work.nodes, ..result })
    }

    /// One iteration at the root over `candidates`: the best move and its
    /// value, or `None` if the time ran out.
    fn root(&mut self, position: &Position, candidates: u64, depth: u32) -> Option<(Column, Value)> {
        let first = self.work.table.probe(position.key()).and_then(|entry| entry.best);
        let ordered = ordered_moves(position, candidates, first);
        let mut best: Option<(Column, Value)> = None;
        for &cell in ordered.cells() {
            let alpha = best.map_or(-INFINITY, |(_, value)| value);
            let value = -self.negamax(&position.after(cell), depth - 1, -INFINITY, -alpha);
            if self.work.stopped {
                return None;
            }
            if value > alpha {
                best = Some((column_of(cell), value));
            }
        }
        let (column, value) = best?;
        self.work.table.store(position.key(), Entry { value, bound: Bound::Exact, depth, best: Some(column) });
        Some((column, value))
    }

    /// Fail-soft alpha-beta for a position whose mover cannot win at once,
    /// with the usual contract: with `v` the depth-limited value and `r` the
    /// result, `r <= alpha` means `v <= r`, `r >= beta` means `v >= r`, and
    /// in between `r == v`.
    fn negamax(&mut self, position: &Position, depth: u32, mut alpha: Value, beta: Value) -> Value {
        if self.work.visit() {
            return 0;
        }
        let moves = position.moves();
        let candidates = position.non_losing_moves();
        if candidates == 0 {
            return -win_now(moves + 1) * WIN_UNIT;
        }
        if moves >= CELL_COUNT - 2 {
            return 0;
        }
        if depth == 0 {
            return heuristic(position);
        }
        let key = position.key();
        let mut first = None;
        if let Some(entry) = self.work.table.probe(key) {
            first = entry.best;
            if entry.depth >= depth {
                match entry.bound {
                    Bound::Exact => return entry.value,
                    Bound::Lower if entry.value >= beta => return entry.value,
                    Bound::Upper if entry.value <= alpha => return entry.value,
                    _ => {}
                }
            }
        }
        let searched_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for &cell in ordered_moves(position, candidates, first).cells() {
            let value = -self.negamax(&position.after(cell), depth - 1, -beta, -alpha);
            if self.work.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(column_of(cell));
                if value >= beta {
                    break;
                }
                alpha = alpha.max(value);
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > searched_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.work.table.store(key, Entry { value: best, bound, depth, best: best_move });
        best
    }
}

/// The first column of `cells`, centre first.
fn centre_first(cells: u64) -> Column {
    Column::CENTRE_FIRST
        .into_iter()
        .find(|column| cells & column_cells(column.index()) != 0)
        .expect("at least one cell")
}

/// The horizon's judgement, from the mover's side, within one [`WIN_UNIT`]:
/// cells where each side would complete a four (threats), counting double
/// those on the rows where the side's threats win the endgame by parity
/// (odd rows, counting from 1, for player 1; even rows for player 2), and
/// stones in the centre column.
pub(super) fn heuristic(position: &Position) -> Value {
    // Rows 1, 3 and 5 (0-based 0, 2, 4) of every column.
    const ODD_ROWS: u64 = ALL_CELLS & (maxconnect4_game::bitboard::BOTTOM_ROW * 0b10101);
    const CENTRE: u64 = column_cells(3);
    let first_to_move = position.moves().is_multiple_of(2);
    let (mine_good, theirs_good) = if first_to_move { (ODD_ROWS, !ODD_ROWS) } else { (!ODD_ROWS, ODD_ROWS) };
    let mine = position.winning_cells();
    let theirs = position.opponent_winning_cells();
    let threats = |cells: u64, good: u64| (cells.count_ones() + (cells & good).count_ones()) as Value;
    let centre =
        (position.current() & CENTRE).count_ones() as Value - (position.opponent() & CENTRE).count_ones() as Value;
    (24 * (threats(mine, mine_good) - threats(theirs, theirs_good)) + 6 * centre).clamp(-(WIN_UNIT - 1), WIN_UNIT - 1)
}
