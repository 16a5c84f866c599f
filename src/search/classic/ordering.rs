//! The order both classic searches try moves in: the move the table
//! remembers, then by the threats a move makes (cells where the mover would
//! then complete a four), centre first among equals. One order for the
//! player and the solver, kept in one short list on the stack.

use super::position::Position;
use crate::bitboard::{column_cells, WIDTH};
use crate::board::Column;

/// `candidates` (cells, one per column at most) ordered: the table's move
/// `first`, then by threats made, centre first.
#[inline]
pub(super) fn ordered_moves(position: &Position, candidates: u64, first: Option<Column>) -> MoveList {
    let mut ordered = MoveList::new();
    for column in Column::CENTRE_FIRST {
        let cell = candidates & column_cells(column.index());
        if cell != 0 {
            let first_bonus = if first == Some(column) { 1 << 8 } else { 0 };
            ordered.insert(cell, position.threats_after(cell) + first_bonus);
        }
    }
    ordered
}

/// Up to seven moves, kept sorted by score, best first; among equal scores
/// the one inserted first comes first.
pub(super) struct MoveList {
    cells: [u64; WIDTH],
    scores: [u32; WIDTH],
    len: usize,
}

impl MoveList {
    const fn new() -> MoveList {
        MoveList { cells: [0; WIDTH], scores: [0; WIDTH], len: 0 }
    }

    #[inline]
    fn insert(&mut self, cell: u64, score: u32) {
        let mut at = self.len;
        while at > 0 && self.scores[at - 1] < score {
            self.cells[at] = self.cells[at - 1];
            self.scores[at] = self.scores[at - 1];
            at -= 1;
        }
        self.cells[at] = cell;
        self.scores[at] = score;
        self.len += 1;
    }

    /// The moves' cells, best first.
    pub(super) fn cells(&self) -> &[u64] {
        &self.cells[..self.len]
    }
}
