//! What the evaluation weighs, and the weights, fitted to exact results.
//!
//! The evaluation adds up a weight for every *open* window (one that holds
//! pieces of one player only) by its [`Class`]: how many pieces it holds, and
//! for a window one piece short of complete (a *threat*), whether the cell
//! that would complete it is on an odd or an even row, counted from 1 at the
//! bottom. In a game played to a full board every threat's cell is filled
//! sooner or later, and by whom depends largely on that row: when columns
//! fill up, player 1 (who moves on odd plies) tends to get the odd rows and
//! player 2 the even ones (zugzwang, as in classic Connect-4's endgames).
//! A class's weight depends on whose window it is and on who is to move.
//!
//! Every weight lies between 0 and [`POINT`], in favour of the window's
//! owner: so the evaluation never leaves the score bounds of
//! [`crate::score::bounds`], which count each open window as at most a point
//! for its owner and nothing for the other player.
//!
//! [`WEIGHTS`] were fitted by `examples/eval_fit.rs` to the positions of
//! `examples/eval_data.rs`; the README's "The evaluation" tells how, with the
//! figures. [`count`] counts the classes window by window, for the fit and for
//! the tests; the search reads the same sums from [`crate::lines`].

use crate::bitboard::{cell, completing_cells, ALL_CELLS, HEIGHT, WIDTH};
use crate::board::{Board, Player};
use crate::score::{Value, POINT};

/// The kinds of open window the evaluation weighs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
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

impl Class {
    /// Every class, in the order of their indices.
    pub const ALL: [Class; CLASSES] = [
        Class::One,
        Class::TwoOnOddRows,
        Class::TwoOnEvenRows,
        Class::TwoOnMixedRows,
        Class::ThreeOnOddRow,
        Class::ThreeOnEvenRow,
    ];

    /// The class of an open window holding `pieces` of one player and
    /// `empty_on_odd_rows` empty cells on odd rows; `None` for an empty or a
    /// complete window.
    #[must_use]
    pub const fn of(pieces: usize, empty_on_odd_rows: usize) -> Option<Class> {
        match (pieces, empty_on_odd_rows) {
            (1, _) => Some(Class::One),
            (2, 2) => Some(Class::TwoOnOddRows),
            (2, 0) => Some(Class::TwoOnEvenRows),
            (2, _) => Some(Class::TwoOnMixedRows),
            (3, 1) => Some(Class::ThreeOnOddRow),
            (3, _) => Some(Class::ThreeOnEvenRow),
            _ => None,
        }
    }

    /// The class's index in [`Class::ALL`] and in [`Weights`].
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
/// README's "The evaluation" for the errors and the match figures.
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

/// For each player (by index) and class, how many of the player's open
/// windows `board` has: the evaluation's features, counted window by window.
#[must_use]
pub fn count(board: &Board) -> [[u32; CLASSES]; 2] {
    let mut counts = [[0; CLASSES]; 2];
    for window in windows(board) {
        let empty_on_odd_rows = (window.cells & !board.occupied() & ODD_ROWS).count_ones() as usize;
        for player in Player::BOTH {
            if window.pieces[player.other().index()] == 0 {
                if let Some(class) = Class::of(window.pieces[player.index()], empty_on_odd_rows) {
                    counts[player.index()][class.index()] += 1;
                }
            }
        }
    }
    counts
}

/// A window of four cells on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Its cells.
    pub cells: u64,
    /// How many of its cells hold each player's pieces (by index).
    pub pieces: [usize; 2],
}

/// Every window of `board`, with the pieces in it.
pub fn windows(board: &Board) -> impl Iterator<Item = Window> + '_ {
    // Steps in columns and rows: up, right, up-right, down-right.
    const STEPS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let on_board =
        |column: isize, row: isize| (0..WIDTH as isize).contains(&column) && (0..HEIGHT as isize).contains(&row);
    STEPS.into_iter().flat_map(move |(dc, dr)| {
        (0..WIDTH as isize).flat_map(move |column| {
            (0..HEIGHT as isize).filter_map(move |row| {
                if !on_board(column + 3 * dc, row + 3 * dr) {
                    return None;
                }
                let cells: u64 = (0..4).map(|i| cell((column + i * dc) as usize, (row + i * dr) as usize)).sum();
                let pieces = Player::BOTH.map(|player| (board.pieces(player) & cells).count_ones() as usize);
                Some(Window { cells, pieces })
            })
        })
    })
}

/// The evaluation with `weights` for player 1, counted window by window:
/// a point for each complete window, the weights of [`count`]'s classes and
/// of [`playable_threats`], player 1's minus player 2's.
#[must_use]
pub fn weigh(board: &Board, weights: &Weights) -> Value {
    let mover = board.to_move();
    let counts = count(board);
    let mut total = POINT * board.score(Player::One) as Value - POINT * board.score(Player::Two) as Value;
    let sign = |player: Player| if player == Player::One { 1 } else { -1 };
    for owner in Player::BOTH {
        for class in Class::ALL {
            total += sign(owner)
                * weights.windows[mover.index()][owner.index()][class.index()]
                * counts[owner.index()][class.index()] as Value;
        }
    }
    let (mine, theirs) = (board.pieces(mover), board.pieces(mover.other()));
    let [taken, blocked] = playable_threats(mine, theirs, board.playable_cells(), mover);
    let [take, block] = weights.playable[mover.index()];
    total + sign(mover) * (take * taken as Value + block * blocked as Value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// The counts of `moves`' position, player 1's then player 2's, in class order.
    fn check(moves: &str, expected: [[u32; CLASSES]; 2]) {
        let board = Board::from_moves(Rules::Max, moves).unwrap();
        assert_eq!(count(&board), expected, "{moves}");
    }

    #[test]
    fn the_empty_board_has_no_open_windows() {
        check("", [[0; CLASSES]; 2]);
    }

    #[test]
    fn a_lone_corner_piece_opens_three_windows() {
        // Column 1's bottom cell: one window up, one right, one up-right.
        check("1", [[3, 0, 0, 0, 0, 0], [0; CLASSES]]);
    }

    #[test]
    fn threats_and_twos_are_classed_by_the_rows_of_their_empty_cells() {
        // Player 1 on columns 1-3 of row 1, player 2 on the same of row 2:
        // player 1's three completes on row 1 (odd), player 2's on row 2 (even).
        let board = "112233";
        let counts = count(&Board::from_moves(Rules::Max, board).unwrap());
        assert_eq!(counts[0][Class::ThreeOnOddRow.index()], 1);
        assert_eq!(counts[0][Class::ThreeOnEvenRow.index()], 0);
        assert_eq!(counts[1][Class::ThreeOnEvenRow.index()], 1);
        assert_eq!(counts[1][Class::ThreeOnOddRow.index()], 0);
        // Beside the threes, each player's twos on columns 2-3 have their
        // empty cells on columns 4-5 of the same row.
        assert_eq!(counts[0][Class::TwoOnOddRows.index()], 1);
        assert_eq!(counts[1][Class::TwoOnEvenRows.index()], 1);
        assert_eq!(counts[0][Class::TwoOnEvenRows.index()] + counts[1][Class::TwoOnOddRows.index()], 0);
        // A vertical three completes above itself: three of player 1's in
        // column 1 (rows 1-3) complete on row 4, an even row. Player 1's
        // other windows: a two upwards (empty rows 5 and 4: mixed) and four
        // ones (one along a row, two diagonals, one upwards). Player 2's two
        // in column 2: a two upwards (empty rows 3 and 4: mixed) and five
        // ones (two along rows, two diagonals, one upwards).
        check("12121", [[4, 0, 0, 1, 0, 1], [5, 0, 0, 1, 0, 0]]);
    }

    #[test]
    fn every_window_is_worth_between_nothing_and_a_point_to_its_owner() {
        for weights in [WEIGHTS, HAND_SET] {
            assert!(weights.windows.iter().flatten().flatten().all(|weight| (0..=POINT).contains(weight)));
            for mover in Player::BOTH {
                // The threats on the rows parity gives the opponent.
                let class = if mover == Player::One { Class::ThreeOnEvenRow } else { Class::ThreeOnOddRow };
                let [take, block] = weights.playable[mover.index()];
                let windows = weights.windows[mover.index()];
                assert!(take >= 0 && windows[mover.index()][class.index()] + take <= POINT);
                assert!(block >= 0 && windows[mover.other().index()][class.index()] - block >= 0);
            }
        }
    }

    /// [`playable_threats`] of `moves`' position: taken, blocked.
    fn check_playable(moves: &str, expected: [u32; 2]) {
        let board = Board::from_moves(Rules::Max, moves).unwrap();
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
