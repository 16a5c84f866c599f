//! The order both classic searches try moves in: the move the table
//! remembers, then by the threats a move makes (cells where the mover would
//! then complete a four, weighted by how soon they can be reached:
//! [`threat_score`]), centre first among equals. One order for the
//! player and the solver, kept in one short list on the stack.

use super::position::Position;
use maxconnect4_game::bitboard::{ALL_CELLS, WIDTH, column_cells};
use maxconnect4_game::board::Column;
use maxconnect4_game::random::XorShift;

/// `candidates` (cells, one per column at most) ordered: the table's move
/// `first`, then by threats made, centre first.
#[inline]
pub(super) fn ordered_moves(position: &Position, candidates: u64, first: Option<Column>) -> MoveList {
    let mut ordered = MoveList::new();
    ordered.order(position, candidates, first, false);
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
    /// in the order of [`ordered_moves`], or in a race's (see
    /// [`RACE_WEIGHTS`]) if `racing`. The solver fills a list of its own
    /// with it: returned from [`ordered_moves`], even inlined, the list cost
    /// the solver 0.9% more instructions on the Middle-Medium benchmark set.
    #[inline(always)]
    pub(super) fn order(&mut self, position: &Position, candidates: u64, first: Option<Column>, racing: bool) {
        let theirs = position.opponent_winning_cells();
        let weights = if racing { RACE_WEIGHTS } else { THREAT_WEIGHTS };
        for column in Column::CENTRE_FIRST {
            let cell = candidates & column_cells(column.index());
            if cell != 0 {
                let first_bonus = if first == Some(column) { FIRST_BONUS } else { 0 };
                self.insert(cell, threat_score(position, cell, theirs, weights) + first_bonus);
            }
        }
    }

    /// Reorders the moves after the first at random (from `random`): a
    /// helper thread searches the first move with the
    /// main thread, where a cut is likeliest, and the others in another
    /// order than its.
    pub(super) fn shuffle(&mut self, random: &mut XorShift) {
        let moves = *self;
        // The first move keeps its place, above any score with noise.
        self.len = moves.len.min(1);
        self.scores[0] = u32::MAX;
        for at in 1..moves.len {
            self.insert(moves.cells[at], moves.scores[at] + random.below(4) as u32 * JITTER);
        }
    }

    /// The moves' cells, best first.
    pub(super) fn cells(&self) -> &[u64] {
        &self.cells[..self.len]
    }
}

/// The noise a helper thread adds to move scores near its root, at most
/// three times this: beyond the table's move ([`FIRST_BONUS`]) and the
/// threats a move makes, it reorders the moves after the first all but at
/// random.
const JITTER: u32 = 128;

/// How much the threats `cell` makes ([`Position::threats_after`]) are
/// worth to the mover, `theirs` being the opponent's threats: each counts
/// `weights` by how soon its cell can be reached: at once (the opponent
/// must answer it), right above a playable cell (nobody may fill that
/// cell), two cells above, and in any case.
#[inline(always)]
fn threat_score(position: &Position, cell: u64, theirs: u64, weights: [u32; 4]) -> u32 {
    let threats = position.threats_after(cell, theirs);
    let playable = position.after(cell).playable();
    let above_playable = (playable << 1) & ALL_CELLS;
    let [now, next, next_but_one, any] = weights;
    now * (threats & playable).count_ones()
        + next * (threats & above_playable).count_ones()
        + next_but_one * (threats & (above_playable << 1)).count_ones()
        + any * threats.count_ones()
}

/// The weights of a move's threats in [`threat_score`] in most searches,
/// Christophe Steininger's c4's. Against scoring a move by its number of
/// threats, they cut the nodes searched by 22% on the first 10 Begin-Hard
/// positions (6.83 M to 5.33 M a position, one thread) and 19% on the
/// empty board (174 M to 141 M); other weights measured there (20/5/3,
/// 12/8/3, 12/5/6) came within 0.3% of these, and counting threats above
/// the opponent's too, 9% more nodes. But Begin-Easy, whose positions are
/// won or lost early, took 1247 nodes a position against 877: see
/// [`RACE_WEIGHTS`].
const THREAT_WEIGHTS: [u32; 4] = [0, 12, 5, 3];

/// The weights of a move's threats in a race: a search whose window asks
/// whether a side wins by [`RACE`] points or more, that is, soon. Threats
/// that must be answered at once come first. Measured with races from 5, 6,
/// 7 and 8 points: Begin-Easy 598, 598, 790 and 1149 nodes a position,
/// Begin-Hard's first 10 5.50 M each (these weights in every search: 598
/// and 9.10 M; with 12 rather than 30, 712 and 6.16 M).
const RACE_WEIGHTS: [u32; 4] = [30, 12, 5, 3];

/// The score from which a search's window makes it a race (see [`RACE_WEIGHTS`]).
pub(super) const RACE: i32 = 6;

/// The score the table's move gets on top of its threats': it comes first
/// (a threat scores 33 at most in [`threat_score`], and a move that makes
/// more than a few has won). As a bonus of 5, as in c4, it made no
/// difference (0.04% more nodes on the first 10 Begin-Hard positions).
const FIRST_BONUS: u32 = 1 << 8;
