//! What a caller asks of a search, under either rules: how deep and how
//! long to look for a move ([`Limits`]), and how much of a position's value
//! a solve finds ([`Strength`]).

use std::time::Duration;

/// How far and how long to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Plies to search; capped at the number of empty cells.
    pub depth: u32,
    /// Stop when this much time has passed, and play the best move of the
    /// deepest finished iteration.
    pub time_limit: Option<Duration>,
}

impl Limits {
    /// A search to `depth` plies without a time limit.
    #[must_use]
    pub const fn depth(depth: u32) -> Limits {
        Limits { depth, time_limit: None }
    }
}

/// How much of a position's exact value a solve finds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strength {
    /// The score itself: the final score difference under Max-Connect4
    /// rules, the field's score under classic rules.
    #[default]
    Strong,
    /// Only whether the player to move wins, draws or loses (1, 0, -1):
    /// the sign of the score, which takes far fewer positions.
    Weak,
}

impl Strength {
    /// What a solve at this strength finds of the exact value `value`: the
    /// value itself, or its sign.
    #[must_use]
    pub const fn of(self, value: i32) -> i32 {
        match self {
            Strength::Strong => value,
            Strength::Weak => value.signum(),
        }
    }
}
