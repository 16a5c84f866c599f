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
//!   iterative deepening, move ordering), with a time limit and exact solving.
//!
//! [`perft`] counts move sequences, to test move generation and measure its speed.
//!
//! [`evaluate`]: crate::score::evaluate

mod alpha_beta;
pub mod classic;
mod engine;
mod follow_up;
mod minimax;
mod perft;
mod split;
mod table;

pub use alpha_beta::alpha_beta;
pub use engine::{Engine, Limits, OutOfTime, Progress, Solution};
pub use minimax::minimax;
pub use perft::perft;
pub use table::TableTooLarge;

use crate::board::{Board, Column};
use crate::value::{Value, INFINITY};

/// The outcome of a search from a position with at least one legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move chosen: the first, in centre-first order, of the best moves.
    pub column: Column,
    /// The value of the position for the player to move (see [`Value`]).
    pub value: Value,
    /// Positions visited, the root included.
    pub nodes: u64,
    /// Plies searched: the depth asked for, capped at the number of empty
    /// cells, or for a search stopped by its time limit the deepest finished.
    pub depth: u32,
}

/// Searches the children of `board` in centre-first order, asking
/// `child_value(child, best)` for the value of each from the root mover's
/// side given the best value so far, and keeps the first best. Returns `None`
/// on a full board.
fn best_child(board: &Board, mut child_value: impl FnMut(&Board, Value) -> Value) -> Option<(Column, Value)> {
    let mut best: Option<(Column, Value)> = None;
    for column in Column::CENTRE_FIRST {
        if !board.can_play(column) {
            continue;
        }
        let best_value = best.map_or(-INFINITY, |(_, value)| value);
        let value = child_value(&board.after(column), best_value);
        if value > best_value {
            best = Some((column, value));
        }
    }
    best
}
