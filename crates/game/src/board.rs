//! The position: whose pieces are where, who moves next, and each player's score.
//!
//! [`Board`] is `Copy`; the search makes a move by building the board after
//! it ([`Board::after`]), so there is no undo. Pieces are kept per player
//! (see [`crate::bitboard`] for the layout) because Max-Connect4 scores each
//! colour's windows; the scores and the evaluation are kept up to date line
//! by line as pieces are added (see [`crate::lines`]).

use std::fmt;

use crate::bitboard::{self, ALL_CELLS, BOTTOM_ROW, CELLS, HEIGHT, WIDTH};
use crate::lines::{Lines, Tally};
use crate::player::Player;

/// A column of the board. Players number columns 1 to 7 from the left;
/// [`Column::index`] is the 0-based index used inside the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(u8);

impl Column {
    /// All columns, left to right.
    pub const ALL: [Column; WIDTH] = [Column(0), Column(1), Column(2), Column(3), Column(4), Column(5), Column(6)];

    /// All columns, the centre first and then outwards, left before right.
    /// Central cells lie in more windows, so they are usually the better moves.
    pub const CENTRE_FIRST: [Column; WIDTH] =
        [Column(3), Column(2), Column(4), Column(1), Column(5), Column(0), Column(6)];

    /// The column with 0-based index `index`, if there is one.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Column> {
        if index < WIDTH { Some(Column(index as u8)) } else { None }
    }

    /// The column players call `number` (1 to 7), if there is one.
    #[must_use]
    pub const fn from_number(number: usize) -> Option<Column> {
        if number >= 1 { Column::from_index(number - 1) } else { None }
    }

    /// The 0-based index, 0 for the leftmost column.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The number players use, 1 for the leftmost column.
    #[must_use]
    pub const fn number(self) -> usize {
        self.0 as usize + 1
    }

    /// The column in the board's mirror image, left to right.
    #[must_use]
    pub const fn mirrored(self) -> Column {
        Column(WIDTH as u8 - 1 - self.0)
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A move into a column that has no room left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {0} is full")]
pub struct ColumnFull(pub Column);

/// Why a set of pieces is not a position any game reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPosition {
    /// Both players have a piece in the same cell.
    #[error("both players have a piece in column {column}, row {row}")]
    Overlap {
        /// The cell's column, from 1 at the left.
        column: usize,
        /// The cell's row, from 1 at the bottom.
        row: usize,
    },
    /// A piece with an empty cell below it.
    #[error("the piece in column {column}, row {row} floats above an empty cell")]
    Floating {
        /// The piece's column, from 1 at the left.
        column: usize,
        /// The piece's row, from 1 at the bottom.
        row: usize,
    },
    /// The player to move has neither as many pieces as the other player
    /// nor one fewer.
    #[error(
        "{to_move} is to move with {mover} pieces against {other}; the player to move must have as many pieces as the other player, or one fewer"
    )]
    PieceCounts {
        /// The player the position says is to move.
        to_move: Player,
        /// Pieces of the player to move.
        mover: u32,
        /// Pieces of the other player.
        other: u32,
    },
    /// The player who moved last has no piece on top of any column, so no
    /// move of theirs can have been the last.
    #[error("{last} moved last, but no column has {last}'s piece on top; no game reaches this position")]
    NoLastMove {
        /// The player who moved last: the one not to move.
        last: Player,
    },
    /// Taking the pieces off again, the players' turns alternating, always
    /// leaves a piece that is not on top of its column.
    #[error(
        "no order of moves, the players taking turns and each piece resting on the one below, reaches this position"
    )]
    Unreachable,
}

/// A Max-Connect4 position.
///
/// ```
/// use maxconnect4_game::board::{Board, Column, ColumnFull};
/// use maxconnect4_game::player::Player;
///
/// let mut board = Board::empty();
/// // Player 1 fills the bottom row's first four cells, player 2 the three above.
/// for number in [1, 1, 2, 2, 3, 3, 4] {
///     board.play(Column::from_number(number).unwrap());
/// }
/// assert_eq!(board.score(Player::One), 1);
/// assert_eq!(board.score(Player::Two), 0);
/// assert_eq!(board.to_move(), Player::Two);
/// assert_eq!(board.score_difference(), -1, "seen from the player to move");
///
/// let column = Column::from_number(1).unwrap();
/// for _ in 0..4 {
///     board.try_play(column).unwrap();
/// }
/// assert_eq!(board.height(column), 6);
/// assert_eq!(board.try_play(column), Err(ColumnFull(column)));
/// assert_eq!(board.empty_cells(), 42 - 11);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Each player's pieces, indexed by [`Player::index`].
    pieces: [u64; 2],
    /// The contents of every line, and with them each player's score and the
    /// evaluation, kept up to date by [`Board::play`].
    lines: Lines,
    to_move: Player,
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    /// The empty board with player 1 to move.
    #[must_use]
    pub const fn empty() -> Board {
        Board { pieces: [0, 0], lines: Lines::EMPTY, to_move: Player::One }
    }

    /// Builds a position from each player's cells (see [`crate::bitboard`]).
    ///
    /// # Errors
    /// When the pieces overlap, a piece floats above an empty cell, or the
    /// piece counts cannot arise in a game with `to_move` to move.
    pub fn from_pieces(one: u64, two: u64, to_move: Player) -> Result<Board, InvalidPosition> {
        let one = one & ALL_CELLS;
        let two = two & ALL_CELLS;
        let overlap = one & two;
        if overlap != 0 {
            let (column, row) = position_of(overlap);
            return Err(InvalidPosition::Overlap { column: column + 1, row: row + 1 });
        }
        let occupied = one | two;
        // A cell is supported when it is on the bottom row or the cell below is occupied.
        let unsupported = occupied & !((occupied << 1) | BOTTOM_ROW);
        if unsupported != 0 {
            let (column, row) = position_of(unsupported);
            return Err(InvalidPosition::Floating { column: column + 1, row: row + 1 });
        }
        let mut board = Board { pieces: [one, two], lines: Lines::EMPTY, to_move };
        let mover = board.pieces(to_move).count_ones();
        let other = board.pieces(to_move.other()).count_ones();
        if mover != other && mover + 1 != other {
            return Err(InvalidPosition::PieceCounts { to_move, mover, other });
        }
        check_reachable([one, two], to_move.other())?;
        for player in Player::BOTH {
            let mut pieces = board.pieces(player);
            while pieces != 0 {
                board.lines.play(pieces.trailing_zeros(), player);
                pieces &= pieces - 1;
            }
        }
        Ok(board)
    }

    /// The player who moves next.
    #[must_use]
    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    /// The cells holding `player`'s pieces.
    #[must_use]
    pub const fn pieces(&self, player: Player) -> u64 {
        self.pieces[player.index()]
    }

    /// The cells holding a piece of either player.
    #[must_use]
    pub const fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// Who has a piece at `column` (0-based) and `row` (0-based from the bottom).
    #[must_use]
    pub const fn at(&self, column: usize, row: usize) -> Option<Player> {
        let cell = bitboard::cell(column, row);
        if self.pieces[0] & cell != 0 {
            Some(Player::One)
        } else if self.pieces[1] & cell != 0 {
            Some(Player::Two)
        } else {
            None
        }
    }

    /// Number of pieces on the board.
    #[must_use]
    pub const fn pieces_played(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// Number of empty cells, which is the number of moves left in the game.
    #[must_use]
    pub const fn empty_cells(&self) -> u32 {
        CELLS as u32 - self.pieces_played()
    }

    /// Whether the game is over: every cell holds a piece.
    #[must_use]
    pub const fn is_full(&self) -> bool {
        self.occupied() == ALL_CELLS
    }

    /// `player`'s score: the number of windows of four holding only their pieces.
    #[must_use]
    pub const fn score(&self, player: Player) -> u32 {
        self.lines.tally().complete(player)
    }

    /// The totals of the position's windows: the evaluation, the scores and
    /// the windows each player has not entered.
    #[inline]
    #[must_use]
    pub const fn tally(&self) -> Tally {
        self.lines.tally()
    }

    /// The [`tally`](Board::tally) after the player to move puts a piece on
    /// `cell` (an empty cell's bit), without playing it.
    #[inline(always)]
    #[must_use]
    pub fn tally_after(&self, cell: u64) -> Tally {
        self.lines.tally_after(cell.trailing_zeros(), self.to_move)
    }

    /// The player to move's score minus the opponent's.
    #[must_use]
    pub const fn score_difference(&self) -> i32 {
        self.score(self.to_move) as i32 - self.score(self.to_move.other()) as i32
    }

    /// The lowest empty cell of every column that has one.
    #[must_use]
    pub const fn playable_cells(&self) -> u64 {
        (self.occupied() + BOTTOM_ROW) & ALL_CELLS
    }

    /// The cell a piece played in `column` would fill, or 0 if it is full.
    #[inline]
    #[must_use]
    pub const fn landing_cell(&self, column: Column) -> u64 {
        self.playable_cells() & bitboard::column_cells(column.index())
    }

    /// Whether `column` has room for another piece.
    #[must_use]
    pub const fn can_play(&self, column: Column) -> bool {
        self.landing_cell(column) != 0
    }

    /// Number of pieces in `column`.
    #[must_use]
    pub const fn height(&self, column: Column) -> usize {
        (self.occupied() & bitboard::column_cells(column.index())).count_ones() as usize
    }

    /// Plays `column` for the player to move, if it has room.
    ///
    /// # Errors
    /// When the column is full; the board is unchanged.
    pub fn try_play(&mut self, column: Column) -> Result<(), ColumnFull> {
        if self.can_play(column) {
            self.play(column);
            Ok(())
        } else {
            Err(ColumnFull(column))
        }
    }

    /// Plays `column` for the player to move. The search's hot path.
    ///
    /// # Panics
    /// In debug builds, when the column is full; release builds then leave
    /// the board unchanged except that the turn passes.
    #[inline]
    pub fn play(&mut self, column: Column) {
        *self = self.after(column);
    }

    /// The board after the player to move plays `column`; see [`play`](Board::play).
    /// Always inlined, as [`after_tallied`](Board::after_tallied) is.
    #[inline(always)]
    #[must_use]
    pub fn after(&self, column: Column) -> Board {
        self.after_tallied(column, self.tally_after(self.landing_cell(column)))
    }

    /// [`after`](Board::after) when the tally after the move, `tally`, is
    /// already known ([`tally_after`](Board::tally_after)): the search reads
    /// it for the score bounds before it makes the move. Always inlined: a
    /// call from the search, another crate, cost 3.8% more instructions on
    /// `bench` (reports/build.md).
    #[inline(always)]
    #[must_use]
    pub fn after_tallied(&self, column: Column, tally: Tally) -> Board {
        let cell = self.landing_cell(column);
        debug_assert!(cell != 0, "column {column} is full");
        // Without indexing by the mover, which would store a word and read it back.
        let two_moves = (self.to_move.index() as u64).wrapping_neg();
        let pieces = [self.pieces[0] | (cell & !two_moves), self.pieces[1] | (cell & two_moves)];
        let lines = self.lines.after_tallied(cell.trailing_zeros(), self.to_move, tally);
        Board { pieces, lines, to_move: self.to_move.other() }
    }

    /// The columns with room, left to right.
    pub fn legal_columns(&self) -> impl Iterator<Item = Column> + '_ {
        Column::ALL.into_iter().filter(|&column| self.can_play(column))
    }

    /// A key that identifies the position up to colour: the mover's pieces
    /// plus all occupied cells (adding them keeps every position distinct,
    /// as in Pascal Pons' solver). Values seen from the mover are the same
    /// for two positions with the same key. Keys are below 2^49, since the
    /// cells lie in the low 48 bits.
    #[inline]
    #[must_use]
    pub const fn key(&self) -> u64 {
        self.pieces(self.to_move) + self.occupied()
    }

    /// The [`key`](Board::key) of the position after `column` is played,
    /// without playing it.
    #[inline]
    #[must_use]
    pub const fn key_after(&self, column: Column) -> u64 {
        let cell = self.landing_cell(column);
        self.pieces(self.to_move.other()) + (self.occupied() | cell)
    }
}

/// Checks that some game reaches `pieces` (which rest on each other and
/// whose counts fit) with `last` having made the last move: taking the
/// pieces off again, last move first, the players' turns alternating, each
/// piece taken must be on top of its column.
///
/// A search over the column heights, at most 7^7 states, each failed one
/// remembered; most positions succeed on the first path tried. Board files
/// and logs call this, never the search.
fn check_reachable(pieces: [u64; 2], last: Player) -> Result<(), InvalidPosition> {
    let occupied = pieces[0] | pieces[1];
    if occupied != 0 && top_cells(occupied) & pieces[last.index()] == 0 {
        return Err(InvalidPosition::NoLastMove { last });
    }
    let mut failed = Vec::new();
    if unplay(pieces, last, &mut failed) { Ok(()) } else { Err(InvalidPosition::Unreachable) }
}

/// The top piece of every occupied column.
const fn top_cells(occupied: u64) -> u64 {
    occupied & !(occupied >> 1)
}

/// Whether the pieces can be taken off down to the empty board, `last`
/// first. `failed` is a bit set of the column heights (as a base-7 number)
/// already found to lead nowhere, allocated at the first failure.
fn unplay(pieces: [u64; 2], last: Player, failed: &mut Vec<u64>) -> bool {
    let occupied = pieces[0] | pieces[1];
    if occupied == 0 {
        return true;
    }
    let state = (0..WIDTH).fold(0, |state, column| {
        state * (HEIGHT + 1) + (occupied & bitboard::column_cells(column)).count_ones() as usize
    });
    if failed.get(state / 64).is_some_and(|word| word & (1 << (state % 64)) != 0) {
        return false;
    }
    let mut candidates = top_cells(occupied) & pieces[last.index()];
    while candidates != 0 {
        let cell = candidates & candidates.wrapping_neg();
        let mut before = pieces;
        before[last.index()] &= !cell;
        if unplay(before, last.other(), failed) {
            return true;
        }
        candidates &= candidates - 1;
    }
    if failed.is_empty() {
        failed.resize((HEIGHT + 1).pow(WIDTH as u32).div_ceil(64), 0);
    }
    failed[state / 64] |= 1 << (state % 64);
    false
}

/// Column and row (both 0-based) of the lowest set bit.
fn position_of(set: u64) -> (usize, usize) {
    let bit = set.trailing_zeros() as usize;
    (bit / bitboard::COLUMN_BITS, bit % bitboard::COLUMN_BITS)
}

const _: () = assert!(HEIGHT * WIDTH == CELLS);

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(columns: &str) -> Board {
        let mut board = Board::empty();
        for c in columns.bytes() {
            board.try_play(Column::from_number((c - b'0') as usize).unwrap()).unwrap();
        }
        board
    }

    #[test]
    fn pieces_fall_to_the_lowest_empty_cell() {
        let board = play_all("4445");
        assert_eq!(board.at(3, 0), Some(Player::One));
        assert_eq!(board.at(3, 1), Some(Player::Two));
        assert_eq!(board.at(3, 2), Some(Player::One));
        assert_eq!(board.at(4, 0), Some(Player::Two));
        assert_eq!(board.height(Column::from_number(4).unwrap()), 3);
        assert_eq!(board.to_move(), Player::One);
    }

    #[test]
    fn a_full_column_rejects_a_move() {
        let mut board = play_all("111111");
        let first = Column::from_number(1).unwrap();
        assert_eq!(board.try_play(first), Err(ColumnFull(first)));
        assert_eq!(board.legal_columns().count(), 6);
    }

    #[test]
    fn scores_count_every_window() {
        // Player 1 plays 1..5 on the bottom row while player 2 stacks on top.
        let board = play_all("1122334455");
        assert_eq!(board.score(Player::One), 2);
        assert_eq!(board.score(Player::Two), 2);
    }

    #[test]
    fn from_pieces_rejects_floating_and_bad_counts() {
        let floating = Board::from_pieces(bitboard::cell(2, 1), bitboard::cell(0, 0), Player::One);
        assert_eq!(floating, Err(InvalidPosition::Floating { column: 3, row: 2 }));
        let counts = Board::from_pieces(bitboard::cell(0, 0) | bitboard::cell(1, 0), 0, Player::One);
        assert!(matches!(counts, Err(InvalidPosition::PieceCounts { .. })));
        let fine = Board::from_pieces(bitboard::cell(0, 0), 0, Player::Two).unwrap();
        assert_eq!(fine.to_move(), Player::Two);
    }

    /// `rows` top first as in a board file, `1` and `2` for the pieces.
    fn check_reachable(rows: [&str; 6], to_move: Player, expected: Result<(), InvalidPosition>) {
        let mut pieces = [0, 0];
        for (top_down, row) in rows.iter().enumerate() {
            for (column, cell) in row.bytes().enumerate() {
                if let Some(player) = Player::from_number(cell - b'0') {
                    pieces[player.index()] |= bitboard::cell(column, HEIGHT - 1 - top_down);
                }
            }
        }
        assert_eq!(Board::from_pieces(pieces[0], pieces[1], to_move).map(drop), expected, "{rows:?}");
    }

    #[test]
    fn positions_no_game_reaches_are_rejected() {
        let empty = "0000000";
        let [e1, e2, e3, e4] = [empty; 4];
        // Player 2 moved last, but player 1's pieces are on top of both columns.
        let no_last_move = Err(InvalidPosition::NoLastMove { last: Player::Two });
        check_reachable([e1, e2, e3, e4, "1010000", "2020000"], Player::One, no_last_move);
        check_reachable([e1, e2, e3, e4, "1000000", "2200000"], Player::One, Ok(()));
        // Player 2 is on top, but under it player 1 would have to have moved
        // twice in a row: 1 then 1 again under player 2's top pieces.
        check_reachable([e1, e2, e3, "2000000", "1000000", "1200000"], Player::One, Ok(()));
        check_reachable(
            [e1, e2, "2200000", "1100000", "1100000", "2200000"],
            Player::One,
            Err(InvalidPosition::Unreachable),
        );
        check_reachable([e1, e2, e3, e4, e4, e4], Player::Two, Ok(()));
    }
}
