//! Classic Connect-4: the first four-in-a-row wins, a full board without one
//! is a draw. Its searches live here, beside the Max-Connect4 engine, because
//! the rule that ends the game early makes a different search fast: a
//! position is two words, most moves are pruned as losing at once, and
//! values are exact wherever the game's end is in sight.
//!
//! Callers reach them through [`crate::search::Engine`], built for the rules
//! of the game: `Engine::for_rules(Rules::Classic, hash_bytes)` and then the
//! same calls as for Max-Connect4:
//! - `engine.search(&board, &Limits { depth, time_limit })` chooses a move
//!   ([`ClassicPlayer`]): a win in one whenever there is one, never a move
//!   that lets the opponent win at once if another move does not; the
//!   [`SearchResult`](crate::search::SearchResult)'s value is
//!   [`WIN_UNIT`] times the score below where the result is certain, and
//!   strictly between `-WIN_UNIT` and `WIN_UNIT` otherwise;
//! - `engine.solve(&board, time_limit)` gives the exact value and every best
//!   column ([`Solver`]).
//!
//! Values follow the field's convention, so they compare with published
//! ones: 0 is a draw; a win scores 22 minus the number of stones the winner
//! has played when it completes its first four (its winning stone
//! included); a loss is the negative of the opponent's win score. `--weak`
//! solving gives only the sign.

pub mod book;
mod player;
mod position;
mod solver;
mod work;

pub use book::Book;
pub use player::{ClassicPlayer, WIN_UNIT};
pub use position::{mirror, Position};
pub use solver::{win_now, Solver};

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use crate::board::Board;
use crate::search::table::TableTooLarge;
use crate::search::{Limits, OutOfTime, SearchResult, Solution};

/// The six public benchmark sets by name, and their files (see
/// `../shared/data/connect4-benchmarks/README.md`).
pub const BENCHMARK_SETS: [(&str, &str); 6] = [
    ("End-Easy", "Test_L3_R1"),
    ("Middle-Easy", "Test_L2_R1"),
    ("Middle-Medium", "Test_L2_R2"),
    ("Begin-Easy", "Test_L1_R1"),
    ("Begin-Medium", "Test_L1_R2"),
    ("Begin-Hard", "Test_L1_R3"),
];

/// What [`crate::search::Engine`] holds for classic rules: the player, and
/// the solver, made (with its own table) the first time it is needed.
pub struct Classic {
    player: ClassicPlayer,
    solver: Option<Solver>,
    hash_bytes: usize,
    book: Option<Arc<Book>>,
}

impl Classic {
    /// Searches whose tables use at most `hash_bytes` each, playing and
    /// solving from `book` where it holds the position.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn new(hash_bytes: usize, book: Option<Arc<Book>>) -> Result<Classic, TableTooLarge> {
        let player = ClassicPlayer::new(hash_bytes)?.with_book(book.clone());
        Ok(Classic { player, solver: None, hash_bytes, book })
    }

    /// See [`ClassicPlayer::search`].
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        cancelled: &Arc<std::sync::atomic::AtomicBool>,
    ) -> Option<SearchResult> {
        self.player.cancel_with(Arc::clone(cancelled));
        self.player.search(board, limits.depth, limits.time_limit)
    }

    /// See [`Solver::solve`].
    ///
    /// # Errors
    /// When the time limit runs out first.
    pub fn solve(&mut self, board: &Board, weak: bool, time_limit: Option<Duration>) -> Result<Solution, OutOfTime> {
        if self.solver.is_none() {
            // The table was allocatable a moment ago; if it no longer is,
            // solving without one is still correct, only slower.
            let solver = Solver::new(self.hash_bytes).or_else(|_| Solver::new(0)).expect("an empty table");
            self.solver = Some(solver.with_book(self.book.clone()));
        }
        self.solver.as_mut().expect("made above").solve(board, weak, time_limit)
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

/// Number of sequences of `depth` moves from `board` under classic rules: a
/// position with a four is not expanded (it counts only at depth 0).
#[must_use]
pub fn perft(board: &Board, depth: u32) -> u128 {
    count(&Position::of(board), depth, &mut HashMap::new())
}

fn count(position: &Position, depth: u32, seen: &mut HashMap<(u64, u32), u128>) -> u128 {
    if depth == 0 {
        return 1;
    }
    if position.last_mover_won() {
        return 0;
    }
    if depth == 1 {
        return u128::from(position.playable().count_ones());
    }
    let key = (position.key(), depth);
    if let Some(&known) = seen.get(&key) {
        return known;
    }
    let mut total = 0;
    let mut playable = position.playable();
    while playable != 0 {
        let cell = playable & playable.wrapping_neg();
        total += count(&position.after(cell), depth - 1, seen);
        playable &= playable - 1;
    }
    seen.insert(key, total);
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_stops_at_a_four() {
        let expected = [1, 7, 49, 343, 2401, 16807, 117_649, 823_536, 5_673_234];
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(perft(&Board::empty(), depth as u32), count, "depth {depth}");
        }
        assert_eq!(perft(&Board::empty(), 9), 39_394_572);
    }
}
