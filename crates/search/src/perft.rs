//! Perft under Max-Connect4 rules: the number of move sequences of a given
//! length, the standard check that move generation is right (the counts from
//! the empty board are known). [`Engine`](super::Engine)'s module picks
//! this one or the classic one by the rules.
//!
//! In Max-Connect4 no game ends before the board is full, so the count below
//! a position depends only on which cells are occupied; positions reached by
//! different move orders are counted once and remembered.

use std::collections::HashMap;

use maxconnect4_game::board::Board;

/// Number of sequences of `depth` legal moves from `board` (1 for depth 0)
/// under Max-Connect4 rules.
#[must_use]
pub(super) fn perft(board: &Board, depth: u32) -> u128 {
    count(board, depth, &mut HashMap::new())
}

fn count(board: &Board, depth: u32, seen: &mut HashMap<(u64, u32), u128>) -> u128 {
    match depth {
        0 => 1,
        1 => u128::from(board.playable_cells().count_ones()),
        _ => {
            let key = (board.occupied(), depth);
            if let Some(&known) = seen.get(&key) {
                return known;
            }
            let total = board.legal_columns().map(|column| count(&board.after(column), depth - 1, seen)).sum();
            seen.insert(key, total);
            total
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_from_the_empty_board() {
        let expected =
            [1, 7, 49, 343, 2401, 16807, 117_649, 823_536, 5_764_458, 40_344_150, 282_282_042, 1_974_069_174];
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(perft(&Board::empty(), depth as u32), count, "depth {depth}");
        }
    }

    #[test]
    fn every_way_to_fill_the_board() {
        // The multinomial coefficient 42! / (6!)^7: orders of 42 pieces, six per column.
        assert_eq!(perft(&Board::empty(), 42), 14_007_180_988_362_844_601_443_040_716_800);
        assert_eq!(perft(&Board::empty(), 43), 0);
    }
}
