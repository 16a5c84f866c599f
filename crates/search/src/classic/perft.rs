//! Classic perft: the number of move sequences from a position, a game
//! with a four not expanded, to test the classic move generation (the
//! counts from the empty board are published).

use std::collections::HashMap;

use super::position::Position;
use maxconnect4_game::board::Board;

/// Number of sequences of `depth` moves from `board` under classic rules: a
/// position with a four is not expanded (it counts only at depth 0).
#[must_use]
pub fn perft(board: &Board, depth: u32) -> u128 {
    count(&Position::of(board), depth, &mut HashMap::new())
}

fn count(position: &Position, depth: u32, seen: &mut HashMap<(u64, u32), u128>) -> u128 {
    if depth == 0 {
        return 1;
    }
    if position.last_mover_won() {
        return 0;
    }
    if depth == 1 {
        return u128::from(position.playable().count_ones());
    }
    let key = (position.key(), depth);
    if let Some(&known) = seen.get(&key) {
        return known;
    }
    let mut total = 0;
    let mut playable = position.playable();
    while playable != 0 {
        let cell = playable & playable.wrapping_neg();
        total += count(&position.after(cell), depth - 1, seen);
        playable &= playable - 1;
    }
    seen.insert(key, total);
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_stops_at_a_four() {
        let expected = [1, 7, 49, 343, 2401, 16807, 117_649, 823_536, 5_673_234];
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(perft(&Board::empty(), depth as u32), count, "depth {depth}");
        }
        assert_eq!(perft(&Board::empty(), 9), 39_394_572);
    }
}
