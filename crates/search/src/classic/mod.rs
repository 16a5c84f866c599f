//! Classic Connect-4: the first four-in-a-row wins, a full board without one
//! is a draw. Its searches live here, beside the Max-Connect4 engine, because
//! the rule that ends the game early makes a different search fast: a
//! position is two words, most moves are pruned as losing at once, and
//! values are exact wherever the game's end is in sight.
//!
//! Callers reach them through [`crate::Engine`], built for the rules
//! of the game: `Engine::for_rules(Rules::Classic, hash_bytes)` and then the
//! same calls as for Max-Connect4:
//! - `engine.search(&board, &Limits { depth, time_limit })` chooses a move
//!   ([`ClassicPlayer`]): a win in one whenever there is one, never a move
//!   that lets the opponent win at once if another move does not; the
//!   [`SearchResult`](crate::SearchResult)'s value is
//!   [`WIN_UNIT`] times the score below where the result is certain, and
//!   strictly between `-WIN_UNIT` and `WIN_UNIT` otherwise;
//! - `engine.solve(&board, strength, time_limit)` gives the exact value and
//!   every best column ([`Solver`]).
//!
//! Values follow the field's convention, so they compare with published
//! ones: 0 is a draw; a win scores 22 minus the number of stones the winner
//! has played when it completes its first four (its winning stone
//! included); a loss is the negative of the opponent's win score. Weak
//! solving ([`Strength::Weak`](crate::Strength)) gives only the sign.

mod benchmarks;
mod busy;
mod engine;
mod forced_line;
mod ordering;
mod perft;
mod player;
mod position;
mod solver;
mod work;

pub use benchmarks::BENCHMARK_SETS;
pub use engine::ClassicEngine;
pub use perft::perft;
pub use player::{ClassicPlayer, WIN_UNIT};
pub use position::{Position, mirror, win_now};
pub use solver::Solver;
