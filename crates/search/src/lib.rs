//! Choosing a move by looking ahead.
//!
//! Every algorithm here searches to a depth counted in plies, the mover's own
//! move being the first: depth 1 looks at each move and evaluates the board
//! it leaves. Positions at the depth limit get [`evaluate`]; full boards get
//! their exact score. All algorithms look at moves in the same order (centre
//! first) and keep the first of equally good moves, so they are deterministic,
//! and at equal depth they agree on the value of the position.
//!
//! - [`minimax`]: plain negamax that looks at every line; the baseline the
//!   timing report compares against.
//! - [`alpha_beta`]: the same with alpha-beta pruning, as the assignment asks.
//! - [`Engine`]: alpha-beta made fast (score bounds, transposition table,
//!   iterative deepening, move ordering), with a time limit and exact solving;
//!   the one interface to the searches of either rules (the Max-Connect4
//!   engine of `max` and the classic searches of [`classic`]).
//!
//! - [`analyse`]: the value of every column of a position within a budget,
//!   exact where it can be had, for people and bots.
//!
//! - [`book`]: opening books under either rules, their file format, their
//!   layers and the build that solves their deepest layer;
//!   [`Engine::play_perfectly`] and [`Engine::book_move`] (`perfect`):
//!   playing from a book, and solving past it.
//!
//! [`perft`] counts move sequences, to test move generation and measure its speed.
//!
//! This file only declares the modules and re-exports what callers use.
//!
//! [`evaluate`]: maxconnect4_game::score::evaluate

#![warn(missing_docs)]

mod alpha_beta;
mod analysis;
pub mod book;
pub mod classic;
mod engine;
mod max;
mod minimax;
mod outcome;
mod perfect;
mod perft;
mod progress;
mod request;
mod table;

pub use alpha_beta::alpha_beta;
pub use analysis::{Analysis, ColumnValue, Judgement, Reach, SOLVE_NODES, analyse, from_book, solve_columns};
pub use engine::{Engine, perft};
pub use minimax::minimax;
pub use outcome::{Bounded, ExactValue, MoveValues, OutOfTime, SearchResult, Solution, SolveError, ValueBound};
pub use perfect::{Chosen, PerfectMove, SOLVE_SHARE};
pub use progress::Progress;
pub use request::{Limits, Strength};
pub use table::TableTooLarge;
