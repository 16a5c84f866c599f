//! Move ordering for the Max-Connect4 engine: which of a position's moves
//! to search first, and the list that carries them. Near the root, where a
//! good first move saves the most, moves are ranked by the evaluation of
//! the position they leave; nearer the horizon by threats; nearest not at
//! all; in a solve, the first player's answer on top of the second
//! player's last move first, then the rest by threats alone (see
//! [`super::negamax`]). The list ([`ColumnOrder`]) is one word, handed from the search to the
//! threads that share a position's moves ([`super::split`]).

use maxconnect4_game::bitboard::{WIDTH, column_cells, completing_cells};
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::lines::Tally;
use maxconnect4_game::score::value_after_tallied;

/// Moves are ordered by threats only this many plies or more from the horizon.
const THREAT_MIN_DEPTH: u32 = 4;

/// Moves this many plies or more from the horizon are ordered by the
/// evaluation of the position they leave.
const EVALUATION_ORDER_MIN_DEPTH: u32 = 5;

/// The legal moves of `board` except `first` (the table's move, searched
/// before the others are ordered), best-looking first: far from the
/// horizon by the evaluation of the position the move leaves, nearer by
/// threats, and nearest, where the subtrees are too small to repay the
/// work, not at all; then centre first.
///
/// Measured where the search reaches the end of the game: ordering by
/// the scoring cells a move leaves, or by a history of cuts, cost more
/// than it saved (`solve` at 28 empty cells took 1.1 to 1.25 times as long).
///
/// `tallies`, when given, holds the tally after each move, by column (see
/// [`Tallies`]).
pub(super) fn ordered_moves(
    board: &Board,
    depth: u32,
    first: Option<Column>,
    settled: u64,
    tallies: Option<&Tallies>,
) -> ColumnOrder {
    if depth < THREAT_MIN_DEPTH {
        return centre_first(board, first, settled);
    }
    if depth < EVALUATION_ORDER_MIN_DEPTH {
        return by_threats(board, first, settled);
    }
    let playable = board.playable_cells() & !settled;
    let mut ranking = Ranking { keys: [0; WIDTH], len: 0 };
    for column in Column::CENTRE_FIRST {
        let cell = playable & column_cells(column.index());
        if cell == 0 || Some(column) == first {
            continue;
        }
        let tally = tallies.map_or_else(|| board.tally_after(cell), |tallies| tallies[column.index()]);
        // The static value after the move, in eighths of a point.
        ranking.insert(column, (value_after_tallied(board, cell, tally) / 4 + 128).clamp(0, 255) as u32);
    }
    ranking.moves()
}

/// The tally after each legal move of a position ([`Board::tally_after`]),
/// by column (the others' meaningless): the search works them out for the
/// score bounds, and hands them on to the ordering and to the moves made
/// rather than working them out again (on `641463334773`, 30 empty cells,
/// value alone, 1,416 M instructions against 1,486 M, the same nodes).
pub(super) type Tallies = [Tally; WIDTH];

/// The legal moves of `board` but `first` and the `settled` ones, by
/// threats, then centre first: a move that completes a window of ours is
/// likely good, one that blocks a window of theirs too, and one that lets
/// them complete a window in the cell above likely bad.
#[inline]
pub(super) fn by_threats(board: &Board, first: Option<Column>, settled: u64) -> ColumnOrder {
    let mut playable = board.playable_cells() & !settled;
    if let Some(column) = first {
        playable &= !column_cells(column.index());
    }
    let mover = board.to_move();
    let (ours, theirs) = (completing_cells(board.pieces(mover)), completing_cells(board.pieces(mover.other())));
    let (take, block, give) = (playable & ours, playable & theirs, playable & (theirs >> 1));
    let (keep, unblocked, safe) = (playable ^ take, playable ^ block, playable ^ give);
    // The moves by their score, 2 for a window completed, 1 for one of
    // theirs blocked, -2 for one they complete above, highest first, each
    // score's centre first: the order of sorting them by score, without
    // the sort (on `641463334773`, 30 empty cells, value alone, 411
    // instructions a call against 443, the same nodes; most of the rest
    // is finding the cells that complete a window).
    let by_score = [
        take & block & safe,
        take & unblocked & safe,
        (keep & block & safe) | (take & block & give),
        (keep & unblocked & safe) | (take & unblocked & give),
        keep & block & give,
        keep & unblocked & give,
    ];
    let (mut moves, mut shift) = (0, 0);
    for cells in by_score {
        if cells == 0 {
            continue;
        }
        for column in Column::CENTRE_FIRST {
            if cells & column_cells(column.index()) != 0 {
                moves |= (column.index() as u64 + 1) << shift;
                shift += 4;
            }
        }
    }
    ColumnOrder(moves)
}

/// `moves` with `answer` (the column of the opponent's last move, where
/// the follow-up strategy answers) first, if it is among them.
#[inline]
pub(super) fn answer_first(moves: ColumnOrder, answer: Option<Column>) -> ColumnOrder {
    let Some(answer) = answer else { return moves };
    let code = answer.index() as u64 + 1;
    let mut rest = moves.0;
    let mut before = 0;
    let mut shift = 0;
    while rest != 0 {
        if rest & 0xF == code {
            return ColumnOrder(code | before << 4 | (rest >> 4) << (shift + 4));
        }
        before |= (rest & 0xF) << shift;
        rest >>= 4;
        shift += 4;
    }
    moves
}

/// The legal moves of `board` but `first` and the `settled` ones, centre first.
#[inline]
pub(super) fn centre_first(board: &Board, first: Option<Column>, settled: u64) -> ColumnOrder {
    let playable = board.playable_cells() & !settled;
    Column::CENTRE_FIRST
        .into_iter()
        .filter(|&column| playable & column_cells(column.index()) != 0 && Some(column) != first)
        .collect()
}

/// Columns in the order to search them, four bits each (the column's index
/// plus one), the first in the lowest bits: one word, which is passed in a
/// register (returning an array stalled on reading back what was just written).
#[derive(Clone, Copy)]
pub(super) struct ColumnOrder(u64);

impl ColumnOrder {
    /// The next column, left in place.
    pub(super) fn peek(self) -> Option<Column> {
        { self }.next()
    }
}

impl FromIterator<Column> for ColumnOrder {
    fn from_iter<I: IntoIterator<Item = Column>>(columns: I) -> ColumnOrder {
        ColumnOrder(
            columns
                .into_iter()
                .enumerate()
                .fold(0, |moves, (at, column)| moves | (column.index() as u64 + 1) << (4 * at)),
        )
    }
}

impl Iterator for ColumnOrder {
    type Item = Column;

    #[inline]
    fn next(&mut self) -> Option<Column> {
        let index = (self.0 & 0xF).checked_sub(1)?;
        self.0 >>= 4;
        Column::from_index(index as usize)
    }
}

/// Up to seven moves, kept sorted by score, highest first; equal scores keep
/// the order they were inserted in.
struct Ranking {
    /// The score, then the order of insertion reversed, then the column
    /// plus one: the keys sort as the moves should.
    keys: [u64; WIDTH],
    len: usize,
}

impl Ranking {
    #[inline]
    fn insert(&mut self, column: Column, score: u32) {
        let key = u64::from(score) << 32 | ((WIDTH - self.len) as u64) << 4 | (column.index() as u64 + 1);
        let mut at = self.len;
        while at > 0 && self.keys[at - 1] < key {
            self.keys[at] = self.keys[at - 1];
            at -= 1;
        }
        self.keys[at] = key;
        self.len += 1;
    }

    #[inline]
    fn moves(&self) -> ColumnOrder {
        ColumnOrder(self.keys[..self.len].iter().rev().fold(0, |moves, key| moves << 4 | (key & 0xF)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use maxconnect4_game::player::Player;

    /// [`by_threats`]'s order, by sorting: the moves centre first, then
    /// (a stable sort) by score, highest first.
    fn by_threats_sorted(board: &Board, first: Option<Column>, settled: u64) -> Vec<Column> {
        let playable = board.playable_cells() & !settled;
        let mover: Player = board.to_move();
        let (ours, theirs) = (completing_cells(board.pieces(mover)), completing_cells(board.pieces(mover.other())));
        let mut moves: Vec<(i32, Column)> = Column::CENTRE_FIRST
            .into_iter()
            .filter(|&column| playable & column_cells(column.index()) != 0 && Some(column) != first)
            .map(|column| {
                let cell = playable & column_cells(column.index());
                let score = 2 * i32::from(cell & ours != 0) + i32::from(cell & theirs != 0)
                    - 2 * i32::from((cell << 1) & theirs != 0);
                (score, column)
            })
            .collect();
        moves.sort_by_key(|&(score, _)| -score);
        moves.into_iter().map(|(_, column)| column).collect()
    }

    #[test]
    fn moves_by_threats_come_as_a_sort_by_score_would_give_them() {
        let mut seed: u64 = 31;
        let mut threatened = 0;
        for round in 0..4000_usize {
            let mut board = Board::empty();
            while board.empty_cells() as usize > 4 + round % 36 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let legal: Vec<Column> = board.legal_columns().collect();
                board.play(legal[(seed >> 33) as usize % legal.len()]);
            }
            let legal: Vec<Column> = board.legal_columns().collect();
            let first = (round % 3 == 0).then(|| legal[round % legal.len()]);
            let settled = if round % 5 == 0 { board.playable_cells() & column_cells(round % WIDTH) } else { 0 };
            let expected = by_threats_sorted(&board, first, settled);
            assert_eq!(by_threats(&board, first, settled).collect::<Vec<_>>(), expected, "{board:?}");
            threatened += usize::from(expected.first() != Column::CENTRE_FIRST.iter().find(|c| expected.contains(c)));
        }
        assert!(threatened > 500, "{threatened}");
    }

    #[test]
    fn the_answer_comes_first_and_the_other_moves_keep_their_order() {
        let column = |index| Column::from_index(index).unwrap();
        let moves: ColumnOrder = [3, 2, 4, 1, 5].into_iter().map(column).collect();
        let order = |answer: Option<usize>| answer_first(moves, answer.map(column)).collect::<Vec<_>>();
        let columns = |indices: &[usize]| indices.iter().map(|&index| column(index)).collect::<Vec<_>>();
        assert_eq!(order(Some(4)), columns(&[4, 3, 2, 1, 5]));
        assert_eq!(order(Some(5)), columns(&[5, 3, 2, 4, 1]));
        assert_eq!(order(Some(3)), columns(&[3, 2, 4, 1, 5]));
        // Not among the moves (a full column, the table's move, settled), or no last move.
        assert_eq!(order(Some(6)), columns(&[3, 2, 4, 1, 5]));
        assert_eq!(order(None), columns(&[3, 2, 4, 1, 5]));
        // All seven, the answer last: the highest place moves to the front.
        let all: ColumnOrder = [3, 2, 4, 1, 5, 0, 6].into_iter().map(column).collect();
        assert_eq!(answer_first(all, Some(column(6))).collect::<Vec<_>>(), columns(&[6, 3, 2, 4, 1, 5, 0]));
    }
}
