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
    ordered.order(position, candidates, first);
    ordered
}

/// Up to seven moves, kept sorted by score, best first; among equal scores
/// the one inserted first comes first.
#[derive(Clone, Copy)]
pub(super) struct MoveList {
    cells: [u64; WIDTH],
    scores: [u32; WIDTH],
    len: usize,
}

impl MoveList {
    pub(super) const fn new() -> MoveList {
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

    /// Adds `candidates` (cells of an empty list, one per column at most),
    /// in the order of [`ordered_moves`]. The solver fills a list of its own
    /// with it: returned from [`ordered_moves`], even inlined, the list cost
    /// the solver 0.9% more instructions on the Middle-Medium benchmark set.
    #[inline(always)]
    pub(super) fn order(&mut self, position: &Position, candidates: u64, first: Option<Column>) {
        for column in Column::CENTRE_FIRST {
            let cell = candidates & column_cells(column.index());
            if cell != 0 {
                let first_bonus = if first == Some(column) { 1 << 8 } else { 0 };
                self.insert(cell, position.threats_after(cell) + first_bonus);
            }
        }
    }

    /// Reorders the moves at random (from the xorshift state `state`),
    /// the table's move as much as any: a helper thread searches another part of the tree.
    pub(super) fn shuffle(&mut self, state: &mut u64) {
        for at in 0..self.len {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            self.scores[at] += (*state % 4) as u32 * JITTER;
        }
        let moves = *self;
        self.len = 0;
        for at in 0..moves.len {
            self.insert(moves.cells[at], moves.scores[at]);
        }
    }

    /// The moves' cells, best first.
    pub(super) fn cells(&self) -> &[u64] {
        &self.cells[..self.len]
    }
}

/// The noise a helper thread adds to move scores near its root, at most
/// three times this: beyond the table's move (256) and the threats a move
/// makes (one point each), it reorders the moves all but at random.
const JITTER: u32 = 128;
