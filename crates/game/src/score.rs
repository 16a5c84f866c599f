//! Values of positions: the heuristic evaluation at the search horizon and
//! the exact bounds on the final score.
//!
//! Values are [`Value`]s (see [`crate::value`]): seen from the player to
//! move, in [`POINT`]ths of a point. On a full board the evaluation is
//! exactly `POINT` times the final score difference.
//!
//! The evaluation never leaves the [`bounds`] of its position, and the bounds
//! only narrow as moves are made; so the depth-limited minimax value of a
//! position also lies within its bounds, and the search may cut on them.

use crate::bitboard::{ALL_CELLS, HEIGHT, WIDTH, cell};
use crate::board::Board;
use crate::features::{CLASSES, ODD_ROWS, WEIGHTS, Weights, WindowClass, playable_threats, playable_value};
use crate::lines::Tally;
use crate::player::Player;
use crate::value::{POINT, Value};

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
    value_after_tallied(board, cell, board.tally_after(cell))
}

/// [`value_after`] when the tally after the move, `tally`, is already known
/// ([`Board::tally_after`]).
#[inline]
#[must_use]
pub fn value_after_tallied(board: &Board, cell: u64, tally: Tally) -> Value {
    // After the move the opponent is to move, and the weights are theirs.
    let (mover, opponent) = (board.to_move(), board.to_move().other());
    let playable = (board.playable_cells() ^ cell) | ((cell << 1) & ALL_CELLS);
    for_mover(tally, mover, opponent)
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

// Counted window by window: the definition, for the fit and the tests.

/// For each player (by index) and class, how many of the player's open
/// windows `board` has: the evaluation's features, counted window by window.
#[must_use]
pub fn count(board: &Board) -> [[u32; CLASSES]; 2] {
    let mut counts = [[0; CLASSES]; 2];
    for window in windows(board) {
        let empty_on_odd_rows = (window.cells & !board.occupied() & ODD_ROWS).count_ones() as usize;
        for player in Player::BOTH {
            if window.pieces[player.other().index()] == 0
                && let Some(class) = WindowClass::of(window.pieces[player.index()], empty_on_odd_rows)
            {
                counts[player.index()][class.index()] += 1;
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
        for class in WindowClass::ALL {
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
    use crate::moves::Moves;
    use crate::rules::Rules;

    /// The counts of `moves`' position, player 1's then player 2's, in class order.
    fn check(moves: &str, expected: [[u32; CLASSES]; 2]) {
        let board = Moves::board(Rules::Max, moves).unwrap();
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
        let counts = count(&Moves::board(Rules::Max, board).unwrap());
        assert_eq!(counts[0][WindowClass::ThreeOnOddRow.index()], 1);
        assert_eq!(counts[0][WindowClass::ThreeOnEvenRow.index()], 0);
        assert_eq!(counts[1][WindowClass::ThreeOnEvenRow.index()], 1);
        assert_eq!(counts[1][WindowClass::ThreeOnOddRow.index()], 0);
        // Beside the threes, each player's twos on columns 2-3 have their
        // empty cells on columns 4-5 of the same row.
        assert_eq!(counts[0][WindowClass::TwoOnOddRows.index()], 1);
        assert_eq!(counts[1][WindowClass::TwoOnEvenRows.index()], 1);
        assert_eq!(counts[0][WindowClass::TwoOnEvenRows.index()] + counts[1][WindowClass::TwoOnOddRows.index()], 0);
        // A vertical three completes above itself: three of player 1's in
        // column 1 (rows 1-3) complete on row 4, an even row. Player 1's
        // other windows: a two upwards (empty rows 5 and 4: mixed) and four
        // ones (one along a row, two diagonals, one upwards). Player 2's two
        // in column 2: a two upwards (empty rows 3 and 4: mixed) and five
        // ones (two along rows, two diagonals, one upwards).
        check("12121", [[4, 0, 0, 1, 0, 1], [5, 0, 0, 1, 0, 0]]);
    }

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
