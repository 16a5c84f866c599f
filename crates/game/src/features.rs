//! What the evaluation weighs, and the weights, fitted to exact results.
//!
//! The evaluation adds up a weight for every *open* window (one that holds
//! pieces of one player only) by its [`WindowClass`]: how many pieces it holds, and
//! for a window one piece short of complete (a *threat*), whether the cell
//! that would complete it is on an odd or an even row, counted from 1 at the
//! bottom. In a game played to a full board every threat's cell is filled
//! sooner or later, and by whom depends largely on that row: when columns
//! fill up, player 1 (who moves on odd plies) tends to get the odd rows and
//! player 2 the even ones (zugzwang, as in classic Connect-4's endgames).
//! A class's weight depends on whose window it is and on who is to move.
//!
//! Every weight lies between 0 and [`POINT`](crate::value::POINT), in favour of the window's
//! owner: so the evaluation never leaves the score bounds of
//! [`crate::score::bounds`], which count each open window as at most a point
//! for its owner and nothing for the other player.
//!
//! [`WEIGHTS`] were fitted by `examples/eval_fit.rs` to the positions of
//! `examples/eval_data.rs`; `docs/evaluation.md` tells how, with the
//! figures. [`crate::score::count`] counts the classes window by window, for the fit and for
//! the tests; the search reads the same sums from [`crate::lines`].

use crate::bitboard::{ALL_CELLS, WIDTH, cell, completing_cells};
use crate::player::Player;
use crate::value::Value;

/// The kinds of open window the evaluation weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WindowClass {
    /// One piece and three empty cells.
    One,
    /// Two pieces, both empty cells on odd rows (1, 3 or 5).
    TwoOnOddRows,
    /// Two pieces, both empty cells on even rows (2, 4 or 6).
    TwoOnEvenRows,
    /// Two pieces, one empty cell on an odd row and one on an even row.
    TwoOnMixedRows,
    /// Three pieces, the empty cell on an odd row.
    ThreeOnOddRow,
    /// Three pieces, the empty cell on an even row.
    ThreeOnEvenRow,
}

/// Number of classes.
pub const CLASSES: usize = 6;

impl WindowClass {
    /// Every class, in the order of their indices.
    pub const ALL: [WindowClass; CLASSES] = [
        WindowClass::One,
        WindowClass::TwoOnOddRows,
        WindowClass::TwoOnEvenRows,
        WindowClass::TwoOnMixedRows,
        WindowClass::ThreeOnOddRow,
        WindowClass::ThreeOnEvenRow,
    ];

    /// The class of an open window holding `pieces` of one player and
    /// `empty_on_odd_rows` empty cells on odd rows; `None` for an empty or a
    /// complete window.
    #[must_use]
    pub const fn of(pieces: usize, empty_on_odd_rows: usize) -> Option<WindowClass> {
        match (pieces, empty_on_odd_rows) {
            (1, _) => Some(WindowClass::One),
            (2, 2) => Some(WindowClass::TwoOnOddRows),
            (2, 0) => Some(WindowClass::TwoOnEvenRows),
            (2, _) => Some(WindowClass::TwoOnMixedRows),
            (3, 1) => Some(WindowClass::ThreeOnOddRow),
            (3, _) => Some(WindowClass::ThreeOnEvenRow),
            _ => None,
        }
    }

    /// The class's index in [`WindowClass::ALL`] and in [`Weights`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The cells on odd rows (1, 3 and 5 counted from the bottom: row indices 0, 2 and 4).
pub const ODD_ROWS: u64 = {
    let mut cells = 0;
    let mut column = 0;
    while column < WIDTH {
        cells |= cell(column, 0) | cell(column, 2) | cell(column, 4);
        column += 1;
    }
    cells
};

/// What the evaluation gives each feature, in `POINT`ths of a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// For the player to move (by index), then the window's owner (by
    /// index), then the class: what an open window is worth to its owner.
    pub windows: [[[Value; CLASSES]; 2]; 2],
    /// For the player to move (by index): what a playable threat on the rows
    /// that parity gives the opponent (see [`playable_threats`]) is worth to
    /// the player to move beyond its window's weight, when it is theirs (they
    /// take it now) and when it is the opponent's (they block it now).
    pub playable: [[Value; 2]; 2],
}

/// The evaluation before the fit, kept to compare with: 1, 4 and 12 per 32
/// for one, two and three pieces, whoever owns the window and moves.
pub const HAND_SET: Weights = Weights { windows: [[[1, 4, 4, 4, 12, 12]; 2]; 2], playable: [[0; 2]; 2] };

/// The evaluation's weights, fitted by `examples/eval_fit.rs` (weighted
/// least squares, each solved position counted four times) to the 31 500
/// positions of `cargo run --release --example eval_data -- 1500 1`; see the
/// `reports/evaluation.md` for the errors and the match figures.
pub const WEIGHTS: Weights = Weights {
    windows: [
        // Player 1 to move: player 1's windows, then player 2's.
        [[3, 15, 3, 6, 27, 4], [5, 4, 16, 5, 4, 29]],
        // Player 2 to move: player 1's windows, then player 2's.
        [[2, 14, 3, 4, 27, 3], [5, 5, 19, 6, 5, 30]],
    ],
    playable: [[19, 19], [9, 15]],
};

/// The cells on even rows (2, 4 and 6).
pub const EVEN_ROWS: u64 = ALL_CELLS & !ODD_ROWS;

/// The rows that parity tends to give `player`: odd ones to player 1, who
/// moves on odd plies; even ones to player 2.
#[must_use]
pub const fn parity_rows(player: Player) -> u64 {
    match player {
        Player::One => ODD_ROWS,
        Player::Two => EVEN_ROWS,
    }
}

/// The playable cells on the rows parity gives the opponent of the player
/// to move (whose pieces are `mine`) that complete a threat of the player
/// to move, and that complete one of the opponent's (`theirs`): threats
/// weighed by their row would be theirs in the long run, but the player to
/// move takes or blocks them now. As counts: taken, blocked.
#[inline]
#[must_use]
pub const fn playable_threats(mine: u64, theirs: u64, playable: u64, mover: Player) -> [u32; 2] {
    let cells = playable & parity_rows(mover.other());
    [(completing_cells(mine) & cells).count_ones(), (completing_cells(theirs) & cells).count_ones()]
}

/// [`playable_threats`] weighed, for the player to move.
#[inline]
#[must_use]
pub const fn playable_value(mine: u64, theirs: u64, playable: u64, mover: Player) -> Value {
    let [taken, blocked] = playable_threats(mine, theirs, playable, mover);
    let [take, block] = WEIGHTS.playable[mover.index()];
    take * taken as Value + block * blocked as Value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Moves;
    use crate::rules::Rules;
    use crate::value::POINT;

    #[test]
    fn every_window_is_worth_between_nothing_and_a_point_to_its_owner() {
        for weights in [WEIGHTS, HAND_SET] {
            assert!(weights.windows.iter().flatten().flatten().all(|weight| (0..=POINT).contains(weight)));
            for mover in Player::BOTH {
                // The threats on the rows parity gives the opponent.
                let class = if mover == Player::One { WindowClass::ThreeOnEvenRow } else { WindowClass::ThreeOnOddRow };
                let [take, block] = weights.playable[mover.index()];
                let windows = weights.windows[mover.index()];
                assert!(take >= 0 && windows[mover.index()][class.index()] + take <= POINT);
                assert!(block >= 0 && windows[mover.other().index()][class.index()] - block >= 0);
            }
        }
    }

    /// [`playable_threats`] of `moves`' position: taken, blocked.
    fn check_playable(moves: &str, expected: [u32; 2]) {
        let board = Moves::board(Rules::Max, moves).unwrap();
        let mover = board.to_move();
        let found = playable_threats(board.pieces(mover), board.pieces(mover.other()), board.playable_cells(), mover);
        assert_eq!(found, expected, "{moves}");
    }

    #[test]
    fn playable_threats_on_the_opponents_rows_are_taken_or_blocked() {
        // Player 2 to move, with a three on row 1 (odd: player 1's) whose
        // empty cell, column 4, is playable: taken.
        check_playable("7112233", [1, 0]);
        // Player 1 to move, player 2's three on row 2 (even: player 2's)
        // playable at column 4: blocked.
        check_playable("11223374", [0, 1]);
        // Player 1 to move, their three up column 1 completes on row 4: taken.
        check_playable("121216", [1, 0]);
        // Player 1 to move, their three on row 1, an odd row: parity gives
        // it to them anyway, so it is not counted.
        check_playable("112233", [0, 0]);
    }
}
