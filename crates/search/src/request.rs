//! What a caller asks of a search, under either rules: how deep and how
//! long to look for a move ([`Limits`]), and how much of a position's value
//! a solve finds ([`Strength`]).

use std::time::Duration;

/// How far and how long to search: for a move, or for each column of an
/// analysis (`search::analyse`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Plies to search, the move's own first (at least 1: depth 1 judges
    /// the board each move leaves); capped at the number of empty cells.
    /// Reaching the end of the game, a value is exact.
    pub depth: u32,
    /// Stop deepening when this much time has passed: a move search plays
    /// the best move of the deepest finished iteration, an analysis keeps
    /// each column's deepest value (depth 1 at least, which is never timed).
    pub time_limit: Option<Duration>,
}

impl Limits {
    /// The depth of a board's 42 cells: enough to reach the end of any game.
    pub const TO_THE_END: u32 = 42;

    /// The longest time limit a caller should give, in seconds (about 31
    /// years): far beyond any game, and far below what a clock reading plus
    /// a duration can hold (about 9.2e18 s), so that no deadline overflows.
    pub const LONGEST_SECONDS: f64 = 1e9;

    /// A search to `depth` plies without a time limit: the same result on
    /// any machine.
    #[must_use]
    pub const fn depth(depth: u32) -> Limits {
        Limits { depth, time_limit: None }
    }

    /// As deep as `time_limit` allows, up to the end of the game.
    #[must_use]
    pub const fn time(time_limit: Duration) -> Limits {
        Limits { depth: Limits::TO_THE_END, time_limit: Some(time_limit) }
    }

    /// An analysis's depth when neither a depth nor a time limit is given:
    /// under a second of one core from the empty board (0.4 s), the same
    /// values on any machine.
    pub const ANALYSIS_DEPTH: u32 = 16;

    /// The budget of an analysis given perhaps a depth and perhaps a time
    /// limit, as `analyse`, `annotate` and the Python module read them:
    /// with a time limit, as deep as it allows (up to `depth` if given);
    /// without, `depth` or [`ANALYSIS_DEPTH`](Limits::ANALYSIS_DEPTH).
    #[must_use]
    pub const fn analysis(depth: Option<u32>, time_limit: Option<Duration>) -> Limits {
        match (depth, time_limit) {
            (Some(depth), time_limit) => Limits { depth, time_limit },
            (None, Some(time_limit)) => Limits::time(time_limit),
            (None, None) => Limits::depth(Limits::ANALYSIS_DEPTH),
        }
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
