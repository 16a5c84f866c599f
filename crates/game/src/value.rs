//! The unit of every value the evaluation and the search deal in, below the
//! lines that keep the evaluation's totals and the score that reads them.
//!
//! A [`Value`] is always seen from the player to move and measured in
//! [`POINT`]ths of a point, so that a window worth less than a point can be
//! weighed.

/// A position's value for the player to move, in `POINT`ths of a point.
pub type Value = i32;

/// One point, the worth of a complete window.
pub const POINT: Value = 32;

/// Larger than the magnitude of any value.
pub const INFINITY: Value = POINT * 100;
