//! Values of positions: the heuristic evaluation at the search horizon and
//! the exact bounds on the final score.
//!
//! A [`Value`] is always seen from the player to move and measured in
//! [`POINT`]ths of a point, so that a window worth less than a point can be
//! weighed. On a full board the evaluation is exactly `POINT` times the final
//! score difference.
//!
//! The evaluation never leaves the [`bounds`] of its position, and the bounds
//! only narrow as moves are made; so the depth-limited minimax value of a
//! position also lies within its bounds, and the search may cut on them.

use crate::bitboard::{window_starts, ALL_CELLS, DIRECTIONS};
use crate::board::Board;

/// A position's value for the player to move, in `POINT`ths of a point.
pub type Value = i32;

/// One point, the worth of a complete window.
pub const POINT: Value = 32;

/// Worth of an open window (one without opposing pieces) by how many of the
/// player's pieces it holds: none, one, two, three. Each is below a point, so
/// the evaluation stays within the bounds.
const OPEN_WINDOW: [Value; 4] = [0, 1, 4, 12];

/// Larger than the magnitude of any value.
pub const INFINITY: Value = POINT * 100;

/// The heuristic value of `board` for the player to move: `POINT` for every
/// complete window, plus the [`OPEN_WINDOW`] weights of every open window,
/// minus the same for the opponent.
#[must_use]
pub fn evaluate(board: &Board) -> Value {
    let me = board.pieces(board.to_move());
    let opponent = board.pieces(board.to_move().other());
    if board.is_full() {
        return POINT * board.score_difference();
    }
    potential(me, opponent) - potential(opponent, me)
}

/// The heuristic value, for the player to move on `board`, of the board after
/// they put a piece on `cell`: `-evaluate(&board.after(column))` without
/// making the move.
#[inline]
#[must_use]
pub fn evaluate_after(board: &Board, cell: u64) -> Value {
    let me = board.pieces(board.to_move()) | cell;
    let opponent = board.pieces(board.to_move().other());
    potential(me, opponent) - potential(opponent, me)
}

/// The weight of `me`'s windows that hold none of `opponent`'s pieces.
#[inline]
fn potential(me: u64, opponent: u64) -> Value {
    let free = ALL_CELLS & !opponent;
    let mut total = 0;
    for step in DIRECTIONS {
        let open = window_starts(free, step);
        // Add the four cells of each window bit-serially: the sum is 2*high + low.
        let (a, b, c, d) = (me, me >> step, me >> (2 * step), me >> (3 * step));
        let (low_ab, high_ab) = (a ^ b, a & b);
        let (low_cd, high_cd) = (c ^ d, c & d);
        let ones = low_ab ^ low_cd;
        let carry = low_ab & low_cd;
        let twos = high_ab ^ high_cd ^ carry;
        let four = a & b & c & d;
        let one = open & ones & !twos;
        let two = open & !ones & twos;
        let three = open & ones & twos;
        total += POINT * four.count_ones() as Value
            + OPEN_WINDOW[1] * one.count_ones() as Value
            + OPEN_WINDOW[2] * two.count_ones() as Value
            + OPEN_WINDOW[3] * three.count_ones() as Value;
    }
    total
}

/// Bounds on the final score difference for the player to move, in points,
/// whatever is played from here: at best they complete every window the
/// opponent has not entered; at worst the opponent does.
#[inline]
#[must_use]
pub fn bounds(board: &Board) -> (i32, i32) {
    let me = board.pieces(board.to_move());
    let opponent = board.pieces(board.to_move().other());
    let lower = board.score(board.to_move()) as i32 - windows_free_of(me) as i32;
    let upper = windows_free_of(opponent) as i32 - board.score(board.to_move().other()) as i32;
    (lower, upper)
}

/// Number of windows holding none of `pieces`.
#[inline]
fn windows_free_of(pieces: u64) -> u32 {
    crate::bitboard::count_windows(ALL_CELLS & !pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Column;

    fn play_all(columns: &str) -> Board {
        let mut board = Board::empty();
        for c in columns.bytes() {
            board.play(Column::from_number((c - b'0') as usize).unwrap());
        }
        board
    }

    #[test]
    fn the_empty_board_is_even() {
        assert_eq!(evaluate(&Board::empty()), 0);
        assert_eq!(bounds(&Board::empty()), (-69, 69));
    }

    #[test]
    fn three_in_a_row_is_worth_more_than_two() {
        // Player 1 on 1, 2, 3 of the bottom row against 1, 2, 5; player 2 to move both times.
        let three = play_all("17273");
        let apart = play_all("17275");
        assert!(evaluate(&three) < evaluate(&apart));
        assert!(evaluate(&apart) < 0);
    }

    #[test]
    fn evaluation_is_symmetric() {
        let board = play_all("4453");
        let mut mirrored = Board::empty();
        for c in "4435".bytes() {
            mirrored.play(Column::from_number((c - b'0') as usize).unwrap());
        }
        assert_eq!(evaluate(&board), evaluate(&mirrored));
    }

    #[test]
    fn evaluate_after_is_the_negated_child() {
        let board = play_all("4453112");
        for column in board.legal_columns() {
            let cell = board.playable_cells() & crate::bitboard::column_cells(column.index());
            assert_eq!(evaluate_after(&board, cell), -evaluate(&board.after(column)));
        }
    }

    #[test]
    fn evaluation_lies_within_the_bounds() {
        let board = play_all("1122334455667");
        let (lower, upper) = bounds(&board);
        let value = evaluate(&board);
        assert!(lower * POINT <= value && value <= upper * POINT, "{lower} {value} {upper}");
    }
}
