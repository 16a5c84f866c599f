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

use crate::bitboard::{starts_through, window_starts, ALL_CELLS, DIRECTIONS};
use crate::board::Board;

/// A position's value for the player to move, in `POINT`ths of a point.
pub type Value = i32;

/// One point, the worth of a complete window.
pub const POINT: Value = 32;

/// Worth of a window without opposing pieces by how many of the player's
/// pieces it holds, none to four. Below four pieces each is under a point, so
/// the evaluation stays within the bounds.
const WINDOW: [Value; 5] = [0, 1, 4, 12, POINT];

/// Larger than the magnitude of any value.
pub const INFINITY: Value = POINT * 100;

/// The heuristic value of `board` for the player to move: `POINT` for every
/// complete window, plus the [`WINDOW`] weights of every open window,
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

/// The weight of `me`'s windows that hold none of `opponent`'s pieces.
#[inline]
fn potential(me: u64, opponent: u64) -> Value {
    let mut total = 0;
    for step in DIRECTIONS {
        let planes = windows_by_count(me, opponent, step);
        for (plane, weight) in planes.iter().zip(WINDOW).skip(1) {
            total += weight * plane.count_ones() as Value;
        }
    }
    total
}

/// The start cells of `me`'s windows in direction `step` that hold none of
/// `opponent`'s pieces, by the number of `me`'s pieces they hold (0 to 4).
#[inline(always)]
fn windows_by_count(me: u64, opponent: u64, step: u32) -> [u64; 5] {
    let open = window_starts(ALL_CELLS & !opponent, step);
    // Add the four cells of each window bit-serially: the sum is 2*twos + ones,
    // or four when all are set.
    let (a, b, c, d) = (me, me >> step, me >> (2 * step), me >> (3 * step));
    let (low_ab, high_ab) = (a ^ b, a & b);
    let (low_cd, high_cd) = (c ^ d, c & d);
    let ones = low_ab ^ low_cd;
    let twos = high_ab ^ high_cd ^ (low_ab & low_cd);
    let four = high_ab & high_cd;
    [open & !(ones | twos | four), open & ones & !twos, open & !ones & twos, open & ones & twos, four]
}

/// The children of one position, evaluated quickly: the windows of the
/// position are counted once, and each child differs only in the windows
/// through the cell played.
pub struct Horizon {
    /// `evaluate` of the position.
    base: Value,
    /// By direction, the binary digits of what each window (by its start
    /// cell) adds to the mover's value when the mover plays into it: a
    /// window of theirs is closed, or one of ours gains a piece.
    digits: [[u64; 5]; 4],
}

impl Horizon {
    /// Counts the windows of `board`.
    #[inline]
    #[must_use]
    pub fn new(board: &Board) -> Horizon {
        let me = board.pieces(board.to_move());
        let opponent = board.pieces(board.to_move().other());
        let mut horizon = Horizon { base: 0, digits: [[0; 5]; 4] };
        for (direction, step) in DIRECTIONS.into_iter().enumerate() {
            let mine = windows_by_count(me, opponent, step);
            let theirs = windows_by_count(opponent, me, step);
            for count in 1..5 {
                horizon.base +=
                    WINDOW[count] * (mine[count].count_ones() as Value - theirs[count].count_ones() as Value);
            }
            // A window of ours with k pieces gains WINDOW[k + 1] - WINDOW[k]
            // (1, 3, 8, 20); one of theirs with k pieces loses WINDOW[k] (0,
            // 1, 4, 12); an empty window is both, 1 + 0. No other window is
            // both ours and theirs, so the digits are unions of the sets.
            const _: () = assert!(matches!(WINDOW, [0, 1, 4, 12, 32]));
            horizon.digits[direction] =
                [mine[0] | mine[1] | theirs[1], mine[1], mine[3] | theirs[2] | theirs[3], mine[2] | theirs[3], mine[3]];
        }
        horizon
    }

    /// The value, for the player to move, of the board after they put a
    /// piece on `cell`: `-evaluate(&board.after(column))`.
    #[inline]
    #[must_use]
    pub fn value_after(&self, cell: u64) -> Value {
        let mut value = self.base;
        for (digits, step) in self.digits.iter().zip(DIRECTIONS) {
            let through = starts_through(cell, step);
            for (place, digit) in digits.iter().enumerate() {
                value += ((digit & through).count_ones() as Value) << place;
            }
        }
        value
    }
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
    fn horizon_values_are_the_negated_children() {
        let mut seed = 7u64;
        for _ in 0..300 {
            let mut board = Board::empty();
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let moves = (seed >> 58) as usize % 42;
            for _ in 0..moves {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let legal: Vec<Column> = board.legal_columns().collect();
                board.play(legal[(seed >> 33) as usize % legal.len()]);
            }
            let horizon = Horizon::new(&board);
            for column in board.legal_columns() {
                let cell = board.landing_cell(column);
                assert_eq!(horizon.value_after(cell), -evaluate(&board.after(column)), "{board:?} {column}");
            }
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
