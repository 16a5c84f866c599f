//! What the searches answer, under either rules: the move chosen
//! ([`SearchResult`]), a position solved ([`Solution`], [`ExactValue`],
//! [`MoveValues`]) or bounded ([`ValueBound`], [`Bounded`]), and
//! why a solve gave up ([`OutOfTime`], [`SolveError`]).

use maxconnect4_game::bitboard::WIDTH;
use maxconnect4_game::board::Column;
use maxconnect4_game::value::Value;

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

/// The exact result of a position: what perfect play by both sides gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The final score difference, player to move minus opponent, in points.
    pub value: i32,
    /// Every column that achieves it, left to right.
    pub best: Vec<Column>,
    /// Positions visited, by all threads.
    pub nodes: u64,
}

/// A position's exact value without its best moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactValue {
    /// As [`Solution::value`].
    pub value: i32,
    /// Positions visited, by all threads.
    pub nodes: u64,
}

/// The exact value of every move from a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValues {
    /// By column index: the value of the move for the player who makes it,
    /// as [`Solution::value`]; `None` for a column that cannot be played
    /// (every column, when the game is over).
    pub values: [Option<i32>; WIDTH],
    /// Positions visited, by all threads.
    pub nodes: u64,
}

/// Which side of a bound a position's exact value lies on (`solve --bound
/// V`: is it at least V?), with the tightest bound one search proved: at
/// least V or more, or below V.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueBound {
    /// The value is this or more.
    AtLeast(i32),
    /// The value is this or less.
    AtMost(i32),
}

impl ValueBound {
    /// The answer for an exact `value` asked whether it is at least
    /// `at_least`: the value itself as the bound.
    #[must_use]
    pub const fn of_exact(value: i32, at_least: i32) -> ValueBound {
        if value >= at_least { ValueBound::AtLeast(value) } else { ValueBound::AtMost(value) }
    }
}

/// A position's value bounded, and the search's cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounded {
    /// The side of the bound the value lies on, as tight as the search proved.
    pub bound: ValueBound,
    /// Positions visited, by all threads.
    pub nodes: u64,
}

/// The time limit ran out before a search finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the time limit ran out after {nodes} positions")]
pub struct OutOfTime {
    /// Positions visited before the time ran out, by all threads.
    pub nodes: u64,
}

/// Why a solve gave no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The time limit ran out first.
    #[error(transparent)]
    OutOfTime(#[from] OutOfTime),
    /// A result proven within a budget of nodes asked of the Max-Connect4
    /// engine, whose solver counts time, not nodes (see
    /// [`Engine::proven_result`](super::Engine::proven_result)).
    #[error("a budget of nodes is for classic rules only: the Max-Connect4 solver counts time, not nodes")]
    NodeBudgetUnsupported,
}
