//! The position as the classic search sees it: two words and a move count.
//!
//! The classic searches make and test far more moves than they evaluate, so
//! they keep only what a move changes: the stones of the player to move
//! (`current`) and the occupied cells (`mask`), in the layout of
//! [`maxconnect4_game::bitboard`]. A move swaps the sides with one exclusive-or. The key
//! `current + mask` names one position (as in Pascal Pons' solver): adding
//! the occupied cells of a column to the mover's stones in it marks the
//! column's height with a carry, and the sum stays within the column's seven
//! bits, so columns never mix and mirroring the key mirrors the position.

use maxconnect4_game::bitboard::{
    self, ALL_CELLS, BOTTOM_ROW, CELLS, COLUMN_BITS, WIDTH, completing_cells, window_starts,
};
use maxconnect4_game::board::{Board, Column};

/// Cells on the board, as the move counts are kept.
pub const CELL_COUNT: u32 = CELLS as u32;

/// The score of the player to move when they complete a four with their
/// next stone, `moves` stones having been played: 22 minus the stones they
/// will have played.
#[inline]
#[must_use]
pub const fn win_now(moves: u32) -> i32 {
    ((CELL_COUNT + 1 - moves) / 2) as i32
}

/// A classic position: the mover's stones, the occupied cells and the moves played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    current: u64,
    mask: u64,
    moves: u32,
}

impl Position {
    /// The position of `board`.
    #[must_use]
    pub const fn of(board: &Board) -> Position {
        Position { current: board.pieces(board.to_move()), mask: board.occupied(), moves: board.pieces_played() }
    }

    /// Stones played so far.
    #[inline]
    #[must_use]
    pub const fn moves(&self) -> u32 {
        self.moves
    }

    /// The occupied cells.
    #[inline]
    #[must_use]
    pub const fn mask(&self) -> u64 {
        self.mask
    }

    /// The stones of the player to move.
    #[inline]
    #[must_use]
    pub const fn current(&self) -> u64 {
        self.current
    }

    /// The stones of the player who moved last.
    #[inline]
    #[must_use]
    pub const fn opponent(&self) -> u64 {
        self.current ^ self.mask
    }

    /// Whether the player who moved last has a four (the game is over).
    #[must_use]
    pub const fn last_mover_won(&self) -> bool {
        let stones = self.opponent();
        let mut i = 0;
        while i < bitboard::DIRECTIONS.len() {
            if window_starts(stones, bitboard::DIRECTIONS[i]) != 0 {
                return true;
            }
            i += 1;
        }
        false
    }

    /// The key naming this position (see the module docs); below 2^49.
    #[inline]
    #[must_use]
    pub const fn key(&self) -> u64 {
        self.current + self.mask
    }

    /// The lowest empty cell of every column that has one.
    #[inline]
    #[must_use]
    pub const fn playable(&self) -> u64 {
        (self.mask + BOTTOM_ROW) & ALL_CELLS
    }

    /// The empty cells where the player to move would complete a four.
    #[inline]
    #[must_use]
    pub const fn winning_cells(&self) -> u64 {
        completing_cells(self.current) & !self.mask
    }

    /// The empty cells where the opponent would complete a four.
    #[inline]
    #[must_use]
    pub const fn opponent_winning_cells(&self) -> u64 {
        completing_cells(self.opponent()) & !self.mask
    }

    /// Whether the player to move can complete a four with this move.
    #[inline]
    #[must_use]
    pub const fn can_win_next(&self) -> bool {
        self.winning_cells() & self.playable() != 0
    }

    /// The playable cells that do not lose at once, for a mover who cannot
    /// win at once: a move must block an opponent's four that is playable
    /// (none is left if there are two), and must not fill the cell under one
    /// (the opponent would play on it). Zero when every move loses next turn.
    #[inline]
    #[must_use]
    pub const fn non_losing_moves(&self) -> u64 {
        let threats = self.opponent_winning_cells();
        let mut possible = self.playable();
        let forced = possible & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        possible & !(threats >> 1)
    }

    /// The threats the mover has after playing `cell`: empty cells where
    /// they would then complete a four, except those right above one of
    /// the opponent's, `theirs` ([`opponent_winning_cells`](Position::opponent_winning_cells)):
    /// if that column fills, the opponent wins first.
    #[inline]
    #[must_use]
    pub const fn threats_after(&self, cell: u64, theirs: u64) -> u64 {
        completing_cells(self.current | cell) & !(self.mask | cell) & !((theirs & !cell) << 1)
    }

    /// The position after the mover plays `cell` (a playable cell).
    #[inline]
    #[must_use]
    pub const fn after(&self, cell: u64) -> Position {
        Position { current: self.current ^ self.mask, mask: self.mask | cell, moves: self.moves + 1 }
    }

    /// The position after the mover plays `column`, if it has room.
    #[must_use]
    pub const fn after_column(&self, column: Column) -> Option<Position> {
        let cell = self.playable() & bitboard::column_cells(column.index());
        if cell == 0 { None } else { Some(self.after(cell)) }
    }

    /// An upper bound on the value for the first player to move (an even
    /// number of stones played), from the second player's claimeven
    /// (Allis): whenever the first player plays on an odd row (counting
    /// rows from 1), the second answers right above. Columns whose lowest
    /// empty cell is even come in pairs (the empty cells are even in
    /// number): when the first player plays one such cell, the second
    /// plays another, and both columns then follow claimeven. So the second
    /// player gets every empty even cell but those playable now, which the
    /// bound grants to the first player with every other cell. If the first
    /// player's cells then hold no four, he cannot win (at most 0), and if
    /// the second's hold one, he loses, at the latest when the last empty
    /// cell of that four is filled: with the last stone if it is on the top
    /// row (at most -1), sooner if it is lower, since the cells above it
    /// are filled after it (as Christophe Steininger's c4 bounds it).
    /// `None` when the first player's cells hold a four.
    #[inline]
    #[must_use]
    pub const fn claimeven_bound(&self) -> Option<i32> {
        debug_assert!(self.moves.is_multiple_of(2));
        let opponent = self.current ^ self.mask;
        let claimed = EVEN_ROWS & !self.mask & !self.playable();
        let second = opponent | claimed;
        let first = ALL_CELLS & !second;
        if has_four(first) {
            None
        } else if !has_four(second) {
            Some(0)
        } else if has_four(opponent | (claimed & ROWS_TO_2)) {
            Some(-CLAIMEVEN_LOSS)
        } else if has_four(opponent | (claimed & ROWS_TO_4)) {
            Some(-win_now(CELL_COUNT - 3))
        } else {
            Some(-win_now(CELL_COUNT - 1))
        }
    }

    /// The key of the position mirrored left to right.
    #[inline]
    #[must_use]
    pub const fn mirrored_key(&self) -> u64 {
        mirror(self.key())
    }
}

/// The cells of the even rows, counting from 1 at the bottom.
const EVEN_ROWS: u64 = BOTTOM_ROW * 0b10_1010;

/// The greatest loss [`Position::claimeven_bound`] shows: a four of the
/// second player's whose empty cells are all at most 2 rows up, the last of
/// them filled by the 38th stone at the latest, with the 4 above it left.
pub const CLAIMEVEN_LOSS: i32 = win_now(CELL_COUNT - 5);

/// The cells of the bottom two rows, and of the bottom four.
const ROWS_TO_2: u64 = BOTTOM_ROW * 0b11;
const ROWS_TO_4: u64 = BOTTOM_ROW * 0b1111;

/// Whether `set` holds a four in any direction.
#[inline]
const fn has_four(set: u64) -> bool {
    window_starts(set, bitboard::DIRECTIONS[0])
        | window_starts(set, bitboard::DIRECTIONS[1])
        | window_starts(set, bitboard::DIRECTIONS[2])
        | window_starts(set, bitboard::DIRECTIONS[3])
        != 0
}

/// `set` (or a key, whose columns never mix) mirrored left to right.
#[inline]
#[must_use]
pub const fn mirror(set: u64) -> u64 {
    const COLUMN: u64 = (1 << COLUMN_BITS) - 1;
    let mut mirrored = 0;
    let mut column = 0;
    while column < WIDTH {
        let bits = (set >> (column * COLUMN_BITS)) & COLUMN;
        mirrored |= bits << ((WIDTH - 1 - column) * COLUMN_BITS);
        column += 1;
    }
    mirrored
}

/// The column of a cell's bit.
#[inline]
#[must_use]
pub const fn column_of(cell: u64) -> Column {
    match Column::from_index(cell.trailing_zeros() as usize / COLUMN_BITS) {
        Some(column) => column,
        None => panic!("a cell lies in a column"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use maxconnect4_game::moves::Moves;
    use maxconnect4_game::rules::Rules;

    fn position(moves: &str) -> Position {
        Position::of(&Moves::board(Rules::Classic, moves).unwrap())
    }

    #[test]
    fn keys_name_positions_and_mirror() {
        assert_ne!(position("44").key(), position("4").key());
        assert_ne!(position("12").key(), position("21").key());
        assert_eq!(position("1234").key(), position("3214").key());
        assert_eq!(position("12").mirrored_key(), position("76").key());
        assert_eq!(position("4455").mirrored_key(), position("4433").key());
    }

    #[test]
    fn wins_and_non_losing_moves() {
        // Player 1 has three in column 1: it wins there, and player 2 must block.
        let three = position("121212");
        assert!(three.can_win_next());
        let blocker = three.after(bitboard::cell(4, 0));
        assert_eq!(blocker.non_losing_moves(), bitboard::cell(0, 3));
        // Two open ends of a row of three: no move saves player 2.
        let open = position("37475");
        assert!(open.opponent_winning_cells().count_ones() >= 2);
        assert_eq!(open.non_losing_moves(), 0);
        assert!(position("1212121").last_mover_won());
        assert!(!position("121212").last_mover_won());
    }
}
