//! The board's lines, and the totals that are kept up to date line by line as
//! pieces are played: the evaluation, both scores, and the window counts the
//! score bounds need.
//!
//! Every window of four lies within exactly one *line*: a column (six cells),
//! a row (seven), or a diagonal of four to six cells; there are 25 of them.
//! Read as a number in base 3, one digit per cell from the line's first cell
//! (0 empty, 1 player 1, 2 player 2), a line's cells are its *contents*, and a
//! table built at compile time holds what the windows of a line with those
//! contents add to each total. The evaluation weighs a threat by the row of
//! its empty cell (see [`crate::features`]), so lines of one length whose
//! cells lie on rows of different parities have tables of their own: one
//! per kind of line. A piece changes only the four lines through
//! its cell, so playing it updates the totals with four pairs of lookups, and
//! the evaluation of any position is read, not counted.
//!
//! `score::evaluate_from_scratch` counts the same totals window by window; the
//! tests hold the two equal.

use crate::bitboard::{COLUMN_BITS, HEIGHT, WIDTH};
use crate::features::{WEIGHTS, WindowClass};
use crate::player::Player;
use crate::value::{POINT, Value};

/// Number of lines that hold at least one window.
pub const LINES: usize = 25;

/// Sums over a set of lines, packed into one word so that a move updates
/// them all with one addition per line: each field is a sum of small
/// non-negative numbers and never carries into the next, so the packed word
/// adds and subtracts as the fields would.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tally(u64);

/// Bit offsets of the fields of a [`Tally`]: 16 bits of evaluation for
/// player 1 with player 1 to move, plus [`EVALUATION_BIAS`] per line so that
/// it is never negative; then 8 bits each for the windows complete for player
/// 1 and for player 2, and the windows without a piece of player 1 and of
/// player 2 (at most 69); then the evaluation with player 2 to move.
const EVALUATION: [u32; 2] = [0, 48];
const COMPLETE: [u32; 2] = [16, 24];
const FREE_OF: [u32; 2] = [32, 40];

/// Added to each line's evaluation: a line holds at most four windows.
const EVALUATION_BIAS: Value = 4 * POINT;

impl Tally {
    /// The evaluation for player 1 with `mover` to move, in `POINT`ths of a
    /// point: what player 1's windows are worth minus what player 2's are.
    #[inline]
    #[must_use]
    pub const fn evaluation(self, mover: Player) -> Value {
        ((self.0 >> EVALUATION[mover.index()]) & 0xFFFF) as Value - EVALUATION_BIAS * LINES as Value
    }

    /// Number of windows complete for `player`: their score.
    #[inline]
    #[must_use]
    pub const fn complete(self, player: Player) -> u32 {
        ((self.0 >> COMPLETE[player.index()]) & 0xFF) as u32
    }

    /// Number of windows without a piece of `player`.
    #[inline]
    #[must_use]
    pub const fn free_of(self, player: Player) -> u32 {
        ((self.0 >> FREE_OF[player.index()]) & 0xFF) as u32
    }

    /// The tally changed by the difference between a line's contents `old` and `new`.
    #[inline(always)]
    const fn replace(self, old: u16, new: u16) -> Tally {
        let (old, new) = (old as usize % TABLE_LEN, new as usize % TABLE_LEN);
        Tally(self.0.wrapping_add(TABLE[new].0.wrapping_sub(TABLE[old].0)))
    }
}

/// The contents of every line of a position, and their [`Tally`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lines {
    tally: Tally,
    /// For each line, where in [`TABLE`] its contents are; lane [`LINES`] is a
    /// line of no windows, for the cells on no diagonal long enough. A move
    /// adds a vector to all lanes (see [`DELTAS`]): a few wide additions, and
    /// whole-width stores that a later read of the board never waits on, as
    /// it would for a store to a single lane.
    contents: [u16; LANES],
}

/// Lanes of [`Lines::contents`]: one for every line and the empty one,
/// rounded up to a power of two so that a masked index needs no bounds check.
const LANES: usize = (LINES + 1).next_power_of_two();

impl Lines {
    /// The lines of the empty board.
    pub const EMPTY: Lines = empty();

    /// The totals over all lines.
    #[inline]
    #[must_use]
    pub const fn tally(&self) -> Tally {
        self.tally
    }

    /// Puts a piece of `player` on the cell with bit index `cell`, which must be empty.
    #[inline(always)]
    pub fn play(&mut self, cell: u32, player: Player) {
        *self = self.after(cell, player);
    }

    /// The lines after [`play`](Lines::play).
    #[inline(always)]
    #[must_use]
    pub fn after(&self, cell: u32, player: Player) -> Lines {
        self.after_tallied(cell, player, self.tally_after(cell, player))
    }

    /// [`after`](Lines::after) when the tally after the move, `tally`, is
    /// already known ([`tally_after`](Lines::tally_after)).
    #[inline(always)]
    #[must_use]
    pub fn after_tallied(&self, cell: u32, player: Player, tally: Tally) -> Lines {
        debug_assert_eq!(tally, self.tally_after(cell, player));
        let delta = &DELTAS[player.index()][cell as usize];
        Lines { tally, contents: std::array::from_fn(|lane| self.contents[lane].wrapping_add(delta[lane])) }
    }

    /// The tally after [`play`](Lines::play), without playing.
    #[inline(always)]
    #[must_use]
    pub fn tally_after(&self, cell: u32, player: Player) -> Tally {
        let mut tally = self.tally;
        for place in STEPS[player.index()][cell as usize] {
            let old = self.contents[place.line as usize % LANES];
            tally = tally.replace(old, old.wrapping_add(place.digit));
        }
        tally
    }
}

/// Where a cell lies on its line in one direction: the line, and the value
/// of the cell's base-3 digit in the line's contents.
#[derive(Clone, Copy)]
struct Place {
    line: u8,
    digit: u16,
}

/// The line that holds no windows, and the place of every cell on it.
const NO_LINE: Place = Place { line: LINES as u8, digit: 0 };

/// Number of kinds of line. A line's *kind* is what its table entries
/// depend on: its length (4 to 7) and the parity of its first cell's row.
/// Rows are the only lines of seven cells, and the only ones whose cells all
/// lie on one row; along the others (columns and diagonals) the parity of
/// the row alternates from cell to cell. Kinds 0 to 5 are the lines of four
/// to six cells, two per length (first row even, then odd); 6 and 7 the rows.
const KINDS: usize = 8;

/// The kind of a line of `length` cells whose first cell is on row index `first_row`.
const fn kind(length: usize, first_row: usize) -> usize {
    2 * (length - 4) + first_row % 2
}

/// The length of the lines of `kind`.
const fn kind_length(kind: usize) -> usize {
    4 + kind / 2
}

/// Where each kind's contents start in [`TABLE`]: a line of `n` cells has
/// `3^n` possible contents.
const TABLE_START: [usize; KINDS + 1] = {
    let mut starts = [0; KINDS + 1];
    let mut kind = 0;
    while kind < KINDS {
        starts[kind + 1] = starts[kind] + 3usize.pow(kind_length(kind) as u32);
        kind += 1;
    }
    starts
};

/// For each kind of line and each of its contents, the totals of its
/// windows; padded to a power of two, so that a masked index needs no bounds
/// check. 8192 entries of 8 bytes, twice the size of one table per length
/// (before threats were weighed by row): `bench` took 0.97 to 1.02 times as
/// long, within the noise (see `reports/evaluation.md`).
static TABLE: [Tally; TABLE_LEN] = table();

const TABLE_LEN: usize = TABLE_START[KINDS].next_power_of_two();

/// For each player and cell by bit index, what a piece of the player's there
/// adds to [`Lines::contents`].
static DELTAS: [[[u16; LANES]; 65]; 2] = deltas();

/// For each player, cell by bit index (index 64, no cell, lies on no line)
/// and direction of `bitboard::DIRECTIONS`: the cell's line, and its digit
/// times the player's number, which a piece of theirs there adds to the
/// line's contents.
static STEPS: [[[Place; 4]; 65]; 2] = steps();

const fn steps() -> [[[Place; 4]; 65]; 2] {
    let places = geometry().0;
    let mut steps = [[[NO_LINE; 4]; 65]; 2];
    let mut cell = 0;
    while cell < 65 {
        let mut direction = 0;
        while direction < 4 {
            let Place { line, digit } = places[cell][direction];
            steps[0][cell][direction] = Place { line, digit };
            steps[1][cell][direction] = Place { line, digit: 2 * digit };
            direction += 1;
        }
        cell += 1;
    }
    steps
}

const fn deltas() -> [[[u16; LANES]; 65]; 2] {
    let steps = steps();
    let mut deltas = [[[0; LANES]; 65]; 2];
    let mut player = 0;
    while player < 2 {
        let mut cell = 0;
        while cell < 65 {
            let mut direction = 0;
            while direction < 4 {
                let Place { line, digit } = steps[player][cell][direction];
                deltas[player][cell][line as usize] += digit;
                direction += 1;
            }
            cell += 1;
        }
        player += 1;
    }
    deltas
}

/// The cells' places, and the start in [`TABLE`] of each line's length.
const fn geometry() -> ([[Place; 4]; 65], [u16; LINES]) {
    // Column and row steps of `bitboard::DIRECTIONS`: up, right, up-right, down-right.
    const STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut places = [[NO_LINE; 4]; 65];
    let mut starts = [0; LINES];
    let mut line = 0;
    let mut direction = 0;
    while direction < 4 {
        let (dc, dr) = STEPS[direction];
        let mut column = 0;
        while column < WIDTH as i32 {
            let mut row = 0;
            while row < HEIGHT as i32 {
                // A line starts where the cell before it is off the board.
                if !on_board(column - dc, row - dr) {
                    let mut length = 0;
                    while on_board(column + length * dc, row + length * dr) {
                        length += 1;
                    }
                    if length >= 4 {
                        let mut i = 0;
                        let mut digit = 1;
                        while i < length {
                            let bit = (column + i * dc) as usize * COLUMN_BITS + (row + i * dr) as usize;
                            places[bit][direction] = Place { line: line as u8, digit };
                            digit *= 3;
                            i += 1;
                        }
                        starts[line] = TABLE_START[kind(length as usize, row as usize)] as u16;
                        line += 1;
                    }
                }
                row += 1;
            }
            column += 1;
        }
        direction += 1;
    }
    assert!(line == LINES);
    (places, starts)
}

const fn on_board(column: i32, row: i32) -> bool {
    0 <= column && column < WIDTH as i32 && 0 <= row && row < HEIGHT as i32
}

/// The lines of the empty board.
const fn empty() -> Lines {
    let starts = geometry().1;
    let mut contents = [0; LANES];
    let mut tally = 0;
    let mut line = 0;
    while line < LINES {
        contents[line] = starts[line];
        tally += table_entry(starts[line] as usize).0;
        line += 1;
    }
    Lines { tally: Tally(tally), contents }
}

const fn table() -> [Tally; TABLE_LEN] {
    let mut table = [Tally(0); TABLE_LEN];
    let mut index = 0;
    while index < TABLE_START[KINDS] {
        table[index] = table_entry(index);
        index += 1;
    }
    table
}

/// The totals of the windows of the line whose contents are at `index` in [`TABLE`].
const fn table_entry(index: usize) -> Tally {
    let mut kind = 0;
    while index >= TABLE_START[kind + 1] {
        kind += 1;
    }
    let length = kind_length(kind);
    let mut contents = index - TABLE_START[kind];
    let mut cells = [0; 7];
    let mut i = 0;
    while i < length {
        cells[i] = contents % 3;
        contents /= 3;
        i += 1;
    }
    // The parity of each cell's row index: the first cell's, alternating
    // along every line but a row.
    let mut rows = [kind % 2; 7];
    if length < 7 {
        let mut i = 0;
        while i < length {
            rows[i] = (kind + i) % 2;
            i += 1;
        }
    }
    let mut evaluation = [EVALUATION_BIAS; 2];
    let mut fields = 0;
    let mut start = 0;
    while start + 4 <= length {
        let mut pieces = [0; 3];
        // Row index 0, 2 or 4 (even) is row 1, 3 or 5 (odd).
        let mut empty_on_odd_rows = 0;
        let mut j = 0;
        while j < 4 {
            pieces[cells[start + j]] += 1;
            if cells[start + j] == 0 && rows[start + j] == 0 {
                empty_on_odd_rows += 1;
            }
            j += 1;
        }
        let (one, two) = (pieces[1], pieces[2]);
        let mut mover = 0;
        while mover < 2 {
            if two == 0
                && let Some(class) = WindowClass::of(one, empty_on_odd_rows)
            {
                evaluation[mover] += WEIGHTS.windows[mover][0][class.index()];
            }
            if one == 0
                && let Some(class) = WindowClass::of(two, empty_on_odd_rows)
            {
                evaluation[mover] -= WEIGHTS.windows[mover][1][class.index()];
            }
            if one == 4 {
                evaluation[mover] += POINT;
            }
            if two == 4 {
                evaluation[mover] -= POINT;
            }
            mover += 1;
        }
        if two == 0 {
            fields += 1 << FREE_OF[1];
        }
        if one == 0 {
            fields += 1 << FREE_OF[0];
        }
        if one == 4 {
            fields += 1 << COMPLETE[0];
        }
        if two == 4 {
            fields += 1 << COMPLETE[1];
        }
        start += 1;
    }
    Tally(fields | (evaluation[0] as u64) << EVALUATION[0] | (evaluation[1] as u64) << EVALUATION[1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::WINDOWS;

    #[test]
    fn the_empty_board_has_every_window_free_and_nothing_else() {
        let tally = Lines::EMPTY.tally();
        assert_eq!(tally.evaluation(Player::One), 0);
        assert_eq!(tally.evaluation(Player::Two), 0);
        for player in Player::BOTH {
            assert_eq!(tally.complete(player), 0);
            assert_eq!(tally.free_of(player), WINDOWS);
        }
    }

    #[test]
    fn every_playable_cell_lies_on_a_column_and_a_row() {
        for column in 0..WIDTH {
            for row in 0..HEIGHT {
                let [up, right, ..] = STEPS[0][column * COLUMN_BITS + row];
                assert_eq!(usize::from(up.line), column);
                assert_eq!(up.digit, 3u16.pow(row as u32));
                assert_eq!(usize::from(right.line), WIDTH + row);
                assert_eq!(right.digit, 3u16.pow(column as u32));
            }
        }
    }

    #[test]
    fn a_full_line_of_one_colour_is_all_its_windows() {
        // Player 2 on a whole row of seven cells: four windows.
        let mut lines = Lines::EMPTY;
        for column in 0..WIDTH {
            lines.play((column * COLUMN_BITS) as u32, Player::Two);
        }
        let tally = lines.tally();
        assert_eq!(tally.complete(Player::Two), 4);
        assert_eq!(tally.complete(Player::One), 0);
        // Four row windows complete, and each cell's column window open.
        assert!(tally.evaluation(Player::One) <= -4 * POINT);
    }

    #[test]
    fn tally_after_is_the_tally_of_the_played_lines() {
        let mut lines = Lines::EMPTY;
        for (bit, player) in [(21, Player::One), (22, Player::Two), (14, Player::One), (28, Player::Two)] {
            let expected = lines.tally_after(bit, player);
            lines.play(bit, player);
            assert_eq!(lines.tally(), expected);
        }
    }
}
