//! The forced line after a move in a classic solve: while the player to
//! move has one move that does not lose at once, it is played, and the
//! position where that ends bounds the move's value before any search (the
//! solver narrows it further with what costs no search: claimeven and the
//! table). A move its line settles is never searched.

use super::position::{CELL_COUNT, Position, win_now};

/// The forced line after a move ([`forced_line`]): where it ends and the bounds on the
/// move's value (for the player who made it) known so far.
#[derive(Clone, Copy)]
pub(super) struct Line {
    /// The position where the line ends: the player to move there has more
    /// than one move that does not lose at once, or none, or the board is
    /// all but full (the move's value is then known).
    pub(super) end: Position,
    /// Whether the player to move at `end` is the player who made the move
    /// (the line has an odd number of moves after it).
    pub(super) ours: bool,
    /// The least the move is worth, as far as is known.
    pub(super) lower: i32,
    /// The most the move is worth, as far as is known.
    pub(super) upper: i32,
}

impl Line {
    /// Whether the move's value is known (nothing is left to search).
    #[inline]
    pub(super) const fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The move's value within the window `(alpha, beta)` as a search
    /// would give it (fail-soft), if the bounds tell it.
    #[inline]
    pub(super) fn settled(&self, alpha: i32, beta: i32) -> Option<i32> {
        if self.lower >= beta || self.is_exact() {
            Some(self.lower)
        } else if self.upper <= alpha {
            Some(self.upper)
        } else {
            None
        }
    }

    /// The value at the line's end (for its mover) is at most `value`.
    #[inline]
    pub(super) fn end_at_most(&mut self, value: i32) {
        if self.ours {
            self.upper = self.upper.min(value);
        } else {
            self.lower = self.lower.max(-value);
        }
    }

    /// The value at the line's end (for its mover) is at least `value`.
    #[inline]
    pub(super) fn end_at_least(&mut self, value: i32) {
        if self.ours {
            self.lower = self.lower.max(value);
        } else {
            self.upper = self.upper.min(-value);
        }
    }
}

/// Follows the forced line after a move, `child` being the position it
/// leads to: while the player to move has only one move that does not lose
/// at once, it is played (counted as no node and stored nowhere: such a
/// position is worth what its one move is), and every position on the way
/// bounds the value: neither side wins with its next stone.
#[inline]
pub(super) fn forced_line(child: Position) -> Line {
    let mut position = child;
    // Whether the player to move in `position` made the move, and the
    // bounds on the value of `position` for its player to move.
    let mut ours = false;
    let (mut lower, mut upper) = (i32::MIN + 1, i32::MAX);
    loop {
        let moves = position.moves();
        let candidates = position.non_losing_moves();
        let exact = if candidates == 0 {
            Some(-win_now(moves + 1))
        } else if moves >= CELL_COUNT - 2 {
            Some(0)
        } else {
            None
        };
        if let Some(value) = exact {
            let value = if ours { value } else { -value };
            return Line { end: position, ours, lower: value, upper: value };
        }
        lower = lower.max(-win_now(moves + 3));
        upper = upper.min(win_now(moves + 2));
        if candidates & (candidates - 1) != 0 {
            break;
        }
        position = position.after(candidates);
        ours = !ours;
        (lower, upper) = (-upper, -lower);
    }
    let (lower, upper) = if ours { (lower, upper) } else { (-upper, -lower) };
    Line { end: position, ours, lower, upper }
}
