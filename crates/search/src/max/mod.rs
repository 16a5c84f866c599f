//! The Max-Connect4 engine: the game is played to the full board, so every
//! search looks ahead to a depth and judges the horizon by the evaluation,
//! and exact solving is the same search carried to the end of the game.
//! Reached through [`crate::Engine`].
//!
//! - [`engine`]: what the engine keeps between searches, iterative
//!   deepening, the exact solve, the threads;
//! - [`negamax`]: the tree search one thread runs;
//! - [`ordering`]: which moves to search first;
//! - [`split`]: positions whose moves several threads share;
//! - [`follow_up`]: bounds on the exact value that the search cuts on.

mod engine;
mod follow_up;
mod negamax;
mod ordering;
mod split;

pub use engine::MaxEngine;
