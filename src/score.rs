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

use crate::bitboard::ALL_CELLS;
use crate::board::{Board, Player};
use crate::features::{playable_value, weigh, WEIGHTS};
use crate::lines::Tally;

/// A position's value for the player to move, in `POINT`ths of a point.
pub type Value = i32;

/// One point, the worth of a complete window.
pub const POINT: Value = 32;

/// Larger than the magnitude of any value.
pub const INFINITY: Value = POINT * 100;

/// The heuristic value of `board` for the player to move: `POINT` for every
/// complete window, plus the [`WEIGHTS`] of every open window by its class,
/// minus the same for the opponent, plus the weights of the threats the
/// player to move can take or block at once (see [`crate::features`]). The
/// windows are read from the totals the board keeps (see [`crate::lines`]);
/// [`evaluate_from_scratch`] counts them.
#[inline]
#[must_use]
pub fn evaluate(board: &Board) -> Value {
    let (mover, opponent) = (board.to_move(), board.to_move().other());
    for_mover(board.tally(), mover, mover)
        + playable_value(board.pieces(mover), board.pieces(opponent), board.playable_cells(), mover)
}

/// The value for the player to move of the board after they put a piece on
/// `cell` (an empty cell's bit): `-evaluate(&board.after(column))`, without
/// making the move.
#[inline]
#[must_use]
pub fn value_after(board: &Board, cell: u64) -> Value {
    // After the move the opponent is to move, and the weights are theirs.
    let (mover, opponent) = (board.to_move(), board.to_move().other());
    let playable = (board.playable_cells() ^ cell) | ((cell << 1) & ALL_CELLS);
    for_mover(board.tally_after(cell), mover, opponent)
        - playable_value(board.pieces(opponent), board.pieces(mover) | cell, playable, opponent)
}

/// The evaluation in `tally` with `mover` to move, seen from `player`.
#[inline]
fn for_mover(tally: Tally, player: Player, mover: Player) -> Value {
    match player {
        Player::One => tally.evaluation(mover),
        Player::Two => -tally.evaluation(mover),
    }
}

/// [`evaluate`] by counting every window of the board: the definition,
/// kept for the tests to check the kept totals against.
#[must_use]
pub fn evaluate_from_scratch(board: &Board) -> Value {
    let value = weigh(board, &WEIGHTS);
    match board.to_move() {
        Player::One => value,
        Player::Two => -value,
    }
}

/// Bounds on the final score difference for the player to move, in points,
/// whatever is played from here: at best they complete every window the
/// opponent has not entered; at worst the opponent does.
#[inline]
#[must_use]
pub fn bounds(board: &Board) -> (i32, i32) {
    bounds_for(board.tally(), board.to_move())
}

/// [`bounds`] for `player`, from the windows counted in `tally`: for a
/// position not yet played to, such as the one a move would leave.
#[inline]
#[must_use]
pub fn bounds_for(tally: Tally, player: Player) -> (i32, i32) {
    let opponent = player.other();
    let lower = tally.complete(player) as i32 - tally.free_of(player) as i32;
    let upper = tally.free_of(opponent) as i32 - tally.complete(opponent) as i32;
    (lower, upper)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::count_windows;
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
        // Player 1 on 1, 2, 3 of the bottom row against 1, 2, 5, player 2
        // up column 7, player 1 to move both times. (With player 2 to move,
        // the three would be blocked at once, and is worth less.)
        let three = play_all("172737");
        let apart = play_all("172757");
        assert!(evaluate(&three) > evaluate(&apart));
        assert!(evaluate(&apart) > 0);
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
    fn kept_totals_match_counting_from_scratch_and_lie_within_the_bounds() {
        let mut seed = 7u64;
        for _ in 0..300 {
            let mut board = Board::empty();
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let moves = (seed >> 58) as usize % 43;
            for _ in 0..moves {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let legal: Vec<Column> = board.legal_columns().collect();
                board.play(legal[(seed >> 33) as usize % legal.len()]);
            }
            assert_eq!(evaluate(&board), evaluate_from_scratch(&board), "{board:?}");
            let (me, opponent) = (board.pieces(board.to_move()), board.pieces(board.to_move().other()));
            let free_of = |pieces: u64| count_windows(ALL_CELLS & !pieces) as i32;
            let expected = (
                board.score(board.to_move()) as i32 - free_of(me),
                free_of(opponent) - board.score(board.to_move().other()) as i32,
            );
            assert_eq!(bounds(&board), expected, "{board:?}");
            let (lower, upper) = bounds(&board);
            let value = evaluate(&board);
            assert!(lower * POINT <= value && value <= upper * POINT, "{lower} {value} {upper} {board:?}");
            for column in board.legal_columns() {
                let cell = board.landing_cell(column);
                assert_eq!(value_after(&board, cell), -evaluate(&board.after(column)), "{board:?} {column}");
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
