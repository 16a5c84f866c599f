//! A bound on a position's exact value from a strategy that fixes who gets
//! every empty cell: *follow-up* (Allis' "claimeven" in Connect-4).
//!
//! When every column has an even number of empty cells, the player not to
//! move can answer each move on top of it, in the same column: they get
//! every second empty cell of each column (the 2nd, 4th, ...) and the mover
//! the others, whatever the mover does. That final board is one the mover
//! cannot do better than, so its score difference is an upper bound on the
//! mover's value. A column with an odd number of empty cells breaks the
//! pattern at its lowest cell; two such columns can be paired (whoever plays
//! the lowest cell of one, the follower answers in the other), so the
//! follower still decides every cell but the lowest of each pair, and the
//! bound is the worst of the few ways the pairs' cells can go. When the
//! count of odd columns is odd, the mover plays in one of them first and is
//! the follower from then on: a lower bound.
//!
//! Where the search reaches the end of the game these bounds prune far more
//! than the window counts of [`maxconnect4_game::score::bounds`]: measured on three
//! 28-empty `solve` positions (`input_files/solve/empty28_[abc].txt`), 12
//! times fewer nodes (61 M against 5.0 M) and 7 times less time; using them
//! only with at most one odd column gave 2.3 times fewer nodes, with at most
//! four 7 times fewer. The search only needs to know whether a bound lies
//! beyond its window, so pairings are tried until one does.

use maxconnect4_game::bitboard::{ALL_CELLS, BOTTOM_ROW, WIDTH, count_windows};
use maxconnect4_game::board::Board;

/// Columns with an odd number of empty cells there can be.
const MAX_ODD_COLUMNS: usize = WIDTH;

/// A value, in points, beyond the window `(alpha, beta)` that the follow-up
/// strategy proves for `board` (for the player to move): at most `alpha`,
/// or at least `beta`. `None` when it proves neither.
#[inline]
#[must_use]
pub fn cut(board: &Board, alpha: i32, beta: i32) -> Option<i32> {
    let occupied = board.occupied();
    let mover = board.pieces(board.to_move());
    let opponent = occupied ^ mover;
    let columns = Columns::of(occupied);
    let odd = columns.odd_lowest;
    if odd.count_ones().is_multiple_of(2) {
        // The opponent follows up: the mover gets at most what they leave.
        return follower_guarantee(assign(mover, opponent, &columns), odd, -alpha).map(|value| -value);
    }
    // The mover plays the lowest cell of an odd column, then follows up.
    // Whichever cell they play, its column turns even with the cells above
    // it going as they went in the odd column, so each side gets the same
    // cells (worked out once) but the other lowest cells. When taking all
    // of those too would not be enough, no choice is (on `input2.txt`, the
    // same nodes in 0.98 times the time); when it would, that check is the
    // same for every choice and need not be made again.
    let sides = assign(opponent, mover, &columns);
    let best = count_windows(sides.follower | odd) as i32 - count_windows(sides.leader) as i32;
    if best < beta {
        return None;
    }
    let mut cells = odd;
    while cells != 0 {
        let cell = cells & cells.wrapping_neg();
        cells ^= cell;
        let sides = Sides { leader: sides.leader, follower: sides.follower | cell };
        if let Some(value) = shared_out(sides, odd ^ cell, beta) {
            return Some(value);
        }
    }
    None
}

/// The empty cells of a board, by how the follow-up strategy shares them.
#[derive(Clone, Copy)]
struct Columns {
    /// The cells an even number of places above their column's lowest
    /// empty cell, that cell included.
    even_offsets: u64,
    /// The other empty cells.
    odd_offsets: u64,
    /// The empty cells of the columns with an odd number of them.
    odd_columns: u64,
    /// The lowest empty cell of each of those columns.
    odd_lowest: u64,
}

impl Columns {
    /// The empty cells of a board whose occupied cells are `occupied`.
    #[inline]
    fn of(occupied: u64) -> Columns {
        // Shifted up two or four rows, a cell lands in the same column only
        // from a low enough row; from higher ones it would wrap into the
        // next column.
        const ROWS_2_TO_5: u64 = ALL_CELLS & !(BOTTOM_ROW | BOTTOM_ROW << 1);
        const ROWS_4_TO_5: u64 = BOTTOM_ROW << 4 | BOTTOM_ROW << 5;
        let empty = ALL_CELLS & !occupied;
        let lowest = (occupied + BOTTOM_ROW) & ALL_CELLS;
        let even_offsets = empty & (lowest | (lowest << 2 & ROWS_2_TO_5) | (lowest << 4 & ROWS_4_TO_5));
        // A column's empty cells are odd in number when its top cell lies an
        // even number of cells above its lowest empty one. From each such
        // top cell, fill down through the empty cells below it: the spare
        // bit under a column's bottom cell is never empty, so the fill stays
        // in its column. (This, and working out the sides once in [`cut`]
        // where the mover leads, took the bound from 265 M instructions to
        // 150 M on `641463334773`, 30 empty cells, value alone, the same
        // nodes: 7% of the search's instructions.)
        let mut odd_columns = empty & !(empty >> 1) & even_offsets;
        let mut through = empty;
        odd_columns |= through & odd_columns >> 1;
        through &= through >> 1;
        odd_columns |= through & odd_columns >> 2;
        through &= through >> 2;
        odd_columns |= through & odd_columns >> 4;
        Columns { even_offsets, odd_offsets: empty ^ even_offsets, odd_columns, odd_lowest: odd_columns & lowest }
    }
}

/// The score difference, follower minus leader, that the follower can make
/// sure of when the leader is to move, each side has `sides` and `odd` (an
/// even number of cells) holds the lowest empty cell of each column with an
/// odd number of empty cells, if it is at least `at_least`. Going up a
/// column from its lowest empty cell, the cells alternate between the
/// players, the leader's first in an even column and, above the lowest
/// cell, in an odd one ([`assign`]); the lowest cells of the odd columns are
/// shared out by pairs.
#[inline]
fn follower_guarantee(sides: Sides, odd: u64, at_least: i32) -> Option<i32> {
    // Not even all the lowest cells would be enough: no need to pair them.
    if odd != 0 && count_windows(sides.follower | odd) as i32 - (count_windows(sides.leader) as i32) < at_least {
        return None;
    }
    shared_out(sides, odd, at_least)
}

/// [`follower_guarantee`] once its first check has passed.
#[inline]
fn shared_out(sides: Sides, odd: u64, at_least: i32) -> Option<i32> {
    let mut lowest_cells = [0; MAX_ODD_COLUMNS];
    let mut count = 0;
    let mut cells = odd;
    while cells != 0 {
        let cell = cells & cells.wrapping_neg();
        cells ^= cell;
        lowest_cells[count] = cell;
        count += 1;
    }
    let mut pairs = [(0, 0); MAX_ODD_COLUMNS / 2];
    some_pairing(&lowest_cells[..count], &mut pairs, 0, sides, at_least)
}

/// The cells each side gets in [`follower_guarantee`]'s strategy but the
/// lowest cells of the odd columns, which are shared out by pairs.
#[inline]
fn assign(leader: u64, follower: u64, columns: &Columns) -> Sides {
    // Even columns: the leader plays each lower cell of a pair, the follower
    // the one on top. Odd columns, once their lowest cell is taken: the same
    // one place higher.
    let Columns { even_offsets, odd_offsets, odd_columns, odd_lowest } = *columns;
    Sides {
        leader: leader | (even_offsets & !odd_columns) | (odd_offsets & odd_columns),
        follower: follower | (odd_offsets & !odd_columns) | (even_offsets & odd_columns & !odd_lowest),
    }
}

/// The cells each side gets.
#[derive(Clone, Copy)]
struct Sides {
    leader: u64,
    follower: u64,
}

/// Tries every way to pair up `cells` (an even number), after the `paired`
/// pairs already in `pairs`: the follower commits to the pairing before any
/// of these cells is played, and the leader then chooses, pair by pair,
/// which cell of each to take. Returns the worst outcome for the follower
/// (their score minus the leader's) of the first pairing whose every
/// outcome is at least `at_least`.
fn some_pairing(cells: &[u64], pairs: &mut [(u64, u64)], paired: usize, sides: Sides, at_least: i32) -> Option<i32> {
    let Some((&first, rest)) = cells.split_first() else {
        return worst_outcome(&pairs[..paired], sides, at_least);
    };
    for (index, &partner) in rest.iter().enumerate() {
        let mut others = [0; MAX_ODD_COLUMNS];
        let mut count = 0;
        for (other_index, &other) in rest.iter().enumerate() {
            if other_index != index {
                others[count] = other;
                count += 1;
            }
        }
        pairs[paired] = (first, partner);
        if let Some(value) = some_pairing(&others[..count], pairs, paired + 1, sides, at_least) {
            return Some(value);
        }
    }
    None
}

/// The worst outcome for the follower, over the leader's choices of one
/// cell from each pair, if none is below `at_least`.
fn worst_outcome(pairs: &[(u64, u64)], sides: Sides, at_least: i32) -> Option<i32> {
    let mut worst = i32::MAX;
    for choices in 0..1u32 << pairs.len() {
        let mut leader = sides.leader;
        let mut follower = sides.follower;
        for (index, &(one, other)) in pairs.iter().enumerate() {
            let (taken, left) = if choices >> index & 1 == 0 { (one, other) } else { (other, one) };
            leader |= taken;
            follower |= left;
        }
        let outcome = count_windows(follower) as i32 - count_windows(leader) as i32;
        if outcome < at_least {
            return None;
        }
        worst = worst.min(outcome);
    }
    Some(worst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alpha_beta;
    use maxconnect4_game::board::Column;
    use maxconnect4_game::moves::Moves;
    use maxconnect4_game::rules::Rules;

    fn board(moves: &str) -> Board {
        Moves::board(Rules::Max, moves).unwrap()
    }

    /// Plays random moves from the empty board until `empty` cells are left.
    fn random_board(seed: &mut u64, empty: u32) -> Board {
        let mut board = Board::empty();
        while board.empty_cells() > empty {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let legal: Vec<Column> = board.legal_columns().collect();
            board.play(legal[(*seed >> 33) as usize % legal.len()]);
        }
        board
    }

    #[test]
    fn odd_columns_are_found_by_their_lowest_empty_cell() {
        // Column 1 holds two pieces (four empty), column 2 one (five empty),
        // the rest none (six empty).
        let odd = Columns::of(board("112").occupied()).odd_lowest;
        assert_eq!(odd, maxconnect4_game::bitboard::cell(1, 1));
        assert_eq!(Columns::of(0).odd_lowest, 0);
    }

    #[test]
    fn a_full_board_is_bounded_by_its_score() {
        let full = board(&"1234567".repeat(6));
        let score = full.score_difference();
        assert_eq!(cut(&full, score, score + 1), Some(score));
        assert_eq!(cut(&full, score - 1, score), None);
    }

    /// Checks every cut `cut` makes on `board` with null windows around its
    /// value against a full search, and returns how many it made.
    fn check_cuts(board: &Board) -> usize {
        let value = alpha_beta(board, board.empty_cells()).unwrap().value / maxconnect4_game::value::POINT;
        let mut cuts = 0;
        for alpha in value - 3..=value + 2 {
            match cut(board, alpha, alpha + 1) {
                Some(bound) if bound <= alpha => assert!(value <= bound, "{value} > {bound}\n{board:?}"),
                Some(bound) => assert!(bound > alpha && value >= bound, "{value} < {bound}\n{board:?}"),
                None => continue,
            }
            cuts += 1;
        }
        cuts
    }

    #[test]
    fn cuts_agree_with_a_full_search() {
        let mut seed = 17;
        let cuts: usize = (0..400).map(|round| check_cuts(&random_board(&mut seed, 2 + round % 11))).sum();
        assert!(cuts > 300, "{cuts} cuts");
    }

    #[test]
    fn cuts_agree_with_a_full_search_with_many_odd_columns() {
        // Columns with one or three empty cells, or full: up to seven odd
        // columns, where the pairings are many. (A follower who chose how to
        // pair the later cells only after the leader's choice in the first
        // pair, which is no strategy, fails this within these rounds.)
        let mut seed: u64 = 23;
        let mut cuts = 0;
        for _ in 0..3000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let heights: Vec<usize> =
                (0..7).map(|column| [5, 5, 5, 3, 6][(seed >> (8 + 3 * column)) as usize % 5]).collect();
            let mut board = Board::empty();
            loop {
                let open: Vec<Column> =
                    Column::ALL.into_iter().filter(|&column| board.height(column) < heights[column.index()]).collect();
                if open.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                board.play(open[(seed >> 33) as usize % open.len()]);
            }
            if board.empty_cells() <= 13 {
                cuts += check_cuts(&board);
            }
        }
        assert!(cuts > 200, "{cuts} cuts");
    }

    /// The implementation before the follow-up bound was made cheaper,
    /// which [`cut`] must agree with exactly: the value too, which the
    /// search returns fail-soft and stores.
    mod reference {
        // The sharing out by pairs did not change: the production one.
        use super::super::{Sides, some_pairing};
        use maxconnect4_game::bitboard::{ALL_CELLS, BOTTOM_ROW, COLUMN_BITS, WIDTH, column_cells, count_windows};
        use maxconnect4_game::board::Board;

        const MAX_ODD_COLUMNS: usize = WIDTH;

        /// A value, in points, beyond the window `(alpha, beta)` that the follow-up
        /// strategy proves for `board` (for the player to move): at most `alpha`,
        /// or at least `beta`. `None` when it proves neither.
        #[inline]
        #[must_use]
        pub(super) fn cut(board: &Board, alpha: i32, beta: i32) -> Option<i32> {
            let occupied = board.occupied();
            let mover = board.pieces(board.to_move());
            let opponent = occupied ^ mover;
            let odd = odd_columns_lowest_cells(occupied);
            if odd.count_ones().is_multiple_of(2) {
                // The opponent follows up: the mover gets at most what they leave.
                return follower_guarantee(mover, opponent, occupied, odd, -alpha).map(|value| -value);
            }
            // The mover plays the lowest cell of an odd column, then follows up.
            // Whichever they play, each side gets the same cells but the other
            // lowest cells: when taking all of those too would not be enough, no
            // choice is (on `input2.txt`, the same nodes in 0.98 times the time).
            if odd.count_ones() > 1 {
                let (sides, _, _) = assign(opponent, mover, occupied, odd);
                if (count_windows(sides.follower | odd) as i32) - (count_windows(sides.leader) as i32) < beta {
                    return None;
                }
            }
            let mut cells = odd;
            while cells != 0 {
                let cell = cells & cells.wrapping_neg();
                cells ^= cell;
                if let Some(value) = follower_guarantee(opponent, mover | cell, occupied | cell, odd ^ cell, beta) {
                    return Some(value);
                }
            }
            None
        }

        /// The cells of `empty` an even number of places above their column's
        /// lowest empty cell (one of `lowest`), that cell included.
        #[inline]
        fn even_offsets(empty: u64, lowest: u64) -> u64 {
            // Shifted up two or four rows, a cell lands in the same column only from
            // a low enough row; from higher ones it would wrap into the next column.
            const ROWS_2_TO_5: u64 = ALL_CELLS & !(BOTTOM_ROW | BOTTOM_ROW << 1);
            const ROWS_4_TO_5: u64 = BOTTOM_ROW << 4 | BOTTOM_ROW << 5;
            empty & (lowest | (lowest << 2 & ROWS_2_TO_5) | (lowest << 4 & ROWS_4_TO_5))
        }

        /// The lowest empty cell of each column with an odd number of empty cells.
        #[inline]
        fn odd_columns_lowest_cells(occupied: u64) -> u64 {
            let empty = ALL_CELLS & !occupied;
            let lowest = (occupied + BOTTOM_ROW) & ALL_CELLS;
            // A column's empty cells are odd in number when its top cell lies an
            // even number of cells above its lowest empty one.
            let even_offsets = even_offsets(empty, lowest);
            let odd_tops = empty & !(empty >> 1) & even_offsets;
            // Bring each such top cell down to the column's lowest empty cell.
            let mut odd = 0;
            let mut tops = odd_tops;
            while tops != 0 {
                let top = tops & tops.wrapping_neg();
                tops ^= top;
                odd |= lowest & column_cells(top.trailing_zeros() as usize / COLUMN_BITS);
            }
            odd
        }

        /// The score difference, follower minus leader, that the follower can make
        /// sure of when the leader is to move and `odd` (an even number of cells)
        /// holds the lowest empty cell of each column with an odd number of empty
        /// cells. Going up a column from its lowest empty cell, the cells alternate
        /// between the players, the leader's first in an even column and, above the
        /// lowest cell, in an odd one; the lowest cells of the odd columns are
        /// shared out by pairs.
        fn follower_guarantee(leader: u64, follower: u64, occupied: u64, odd: u64, at_least: i32) -> Option<i32> {
            let (sides, lowest_cells, count) = assign(leader, follower, occupied, odd);
            // Not even all the lowest cells would be enough: no need to pair them.
            if odd != 0 && count_windows(sides.follower | odd) as i32 - (count_windows(sides.leader) as i32) < at_least
            {
                return None;
            }
            let mut pairs = [(0, 0); MAX_ODD_COLUMNS / 2];
            some_pairing(&lowest_cells[..count], &mut pairs, 0, sides, at_least)
        }

        /// The cells each side gets in [`follower_guarantee`]'s strategy but the
        /// lowest cells of the odd columns, which are shared out by pairs: those
        /// cells, and how many they are.
        #[inline]
        fn assign(leader: u64, follower: u64, occupied: u64, odd: u64) -> (Sides, [u64; MAX_ODD_COLUMNS], usize) {
            let empty = ALL_CELLS & !occupied;
            let lowest = (occupied + BOTTOM_ROW) & ALL_CELLS;
            let even_offsets = even_offsets(empty, lowest);
            let odd_offsets = empty ^ even_offsets;
            let mut odd_columns = 0;
            let mut lowest_cells = [0; MAX_ODD_COLUMNS];
            let mut count = 0;
            let mut cells = odd;
            while cells != 0 {
                let cell = cells & cells.wrapping_neg();
                cells ^= cell;
                odd_columns |= column_cells(cell.trailing_zeros() as usize / COLUMN_BITS);
                lowest_cells[count] = cell;
                count += 1;
            }
            // Even columns: the leader plays each lower cell of a pair, the follower
            // the one on top. Odd columns, once their lowest cell is taken: the same
            // one place higher.
            let sides = Sides {
                leader: leader | (even_offsets & !odd_columns) | (odd_offsets & odd_columns),
                follower: follower | (odd_offsets & !odd_columns) | (even_offsets & odd_columns & !odd),
            };
            (sides, lowest_cells, count)
        }
    }

    #[test]
    fn cuts_agree_with_the_reference_implementation() {
        let mut seed = 29;
        let mut cuts = 0;
        for round in 0..20_000 {
            let board = random_board(&mut seed, 1 + round % 30);
            for alpha in -6..=5 {
                for width in [1, 3] {
                    let expected = reference::cut(&board, alpha, alpha + width);
                    assert_eq!(cut(&board, alpha, alpha + width), expected, "({alpha}, +{width})\n{board:?}");
                    cuts += usize::from(expected.is_some());
                }
            }
        }
        assert!(cuts > 10_000, "{cuts} cuts");
    }
}
