//! The bit layout of the 6x7 board and the window counts computed on it.
//!
//! A set of cells is one `u64`. Columns are stored one after another, seven
//! bits each, bottom cell first; the seventh bit of every column is a spare
//! that is always zero, so shifting a set sideways or diagonally never
//! carries a cell from the top of one column into the bottom of the next:
//!
//! ```text
//!   .  .  .  .  .  .  .     spare row (bits 6, 13, .., 48)
//!   5 12 19 26 33 40 47     top row
//!   4 11 18 25 32 39 46
//!   3 10 17 24 31 38 45
//!   2  9 16 23 30 37 44
//!   1  8 15 22 29 36 43
//!   0  7 14 21 28 35 42     bottom row
//!   1  2  3  4  5  6  7     column numbers as players see them
//! ```
//!
//! A *window* is four cells in a line: 24 horizontal, 21 vertical and 12 on
//! each diagonal, 69 in all. For a direction with bit step `s`, the windows of
//! a set `b` that are complete are the start cells of `b & b>>s & b>>2s &
//! b>>3s`; a window that crosses the spare row or the right edge contains a
//! cell that is never in any set, so it never counts.

/// Number of columns.
pub const WIDTH: usize = 7;
/// Number of rows.
pub const HEIGHT: usize = 6;
/// Number of cells.
pub const CELLS: usize = WIDTH * HEIGHT;
/// Bits per column: the rows plus the spare.
pub const COLUMN_BITS: usize = HEIGHT + 1;

/// The bottom cell of every column.
pub const BOTTOM_ROW: u64 = repeat_per_column(1);
/// Every playable cell (all bits except the spares).
pub const ALL_CELLS: u64 = repeat_per_column((1 << HEIGHT) - 1);

/// Bit steps of the four directions: vertical, horizontal, and the two
/// diagonals (up-right is `COLUMN_BITS + 1`, down-right `COLUMN_BITS - 1`).
pub const DIRECTIONS: [u32; 4] = [1, COLUMN_BITS as u32, COLUMN_BITS as u32 + 1, COLUMN_BITS as u32 - 1];

/// Number of windows of four cells on the board.
pub const WINDOWS: u32 = 69;

const fn repeat_per_column(pattern: u64) -> u64 {
    let mut set = 0;
    let mut column = 0;
    while column < WIDTH {
        set |= pattern << (column * COLUMN_BITS);
        column += 1;
    }
    set
}

/// The bit of the cell at `column` (0-based from the left) and `row`
/// (0-based from the bottom).
#[must_use]
pub const fn cell(column: usize, row: usize) -> u64 {
    1 << (column * COLUMN_BITS + row)
}

/// All cells of one column (0-based).
#[must_use]
pub const fn column_cells(column: usize) -> u64 {
    ((1 << HEIGHT) - 1) << (column * COLUMN_BITS)
}

/// The start cells of the windows in direction `step` whose four cells are
/// all in `set`.
#[inline(always)]
#[must_use]
pub const fn window_starts(set: u64, step: u32) -> u64 {
    let pairs = set & (set >> step);
    pairs & (pairs >> (2 * step))
}

/// Number of windows whose four cells are all in `set`.
#[inline]
#[must_use]
pub const fn count_windows(set: u64) -> u32 {
    window_starts(set, DIRECTIONS[0]).count_ones()
        + window_starts(set, DIRECTIONS[1]).count_ones()
        + window_starts(set, DIRECTIONS[2]).count_ones()
        + window_starts(set, DIRECTIONS[3]).count_ones()
}

/// The cells (of any state, on the board) that would complete a window whose
/// other three cells are in `set`: where a player scores by playing.
#[inline]
#[must_use]
pub const fn completing_cells(set: u64) -> u64 {
    let mut cells = 0;
    let mut i = 0;
    while i < DIRECTIONS.len() {
        let step = DIRECTIONS[i];
        // The two cells before and the two after each cell, in this direction.
        let before = (set << step) & (set << (2 * step));
        let after = (set >> step) & (set >> (2 * step));
        cells |= before & ((set << (3 * step)) | (set >> step));
        cells |= after & ((set >> (3 * step)) | (set << step));
        i += 1;
    }
    cells & ALL_CELLS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_69_windows() {
        assert_eq!(count_windows(ALL_CELLS), WINDOWS);
        let per_direction: Vec<u32> =
            DIRECTIONS.iter().map(|&step| window_starts(ALL_CELLS, step).count_ones()).collect();
        assert_eq!(per_direction, [21, 24, 12, 12]);
    }

    #[test]
    fn five_in_a_row_is_two_windows() {
        let row: u64 = (0..5).map(|column| cell(column, 0)).sum();
        assert_eq!(count_windows(row), 2);
        let column: u64 = (0..5).map(|row| cell(2, row)).sum();
        assert_eq!(count_windows(column), 2);
    }

    #[test]
    fn completing_cells_finish_a_window() {
        // Three on the bottom row, columns 2-4: columns 1 and 5 complete it.
        let row: u64 = (1..4).map(|column| cell(column, 0)).sum();
        assert_eq!(completing_cells(row), cell(0, 0) | cell(4, 0));
        // A gap: columns 1, 2 and 4 are completed by column 3.
        let gap = cell(0, 0) | cell(1, 0) | cell(3, 0);
        assert_eq!(completing_cells(gap), cell(2, 0));
        // Three stacked in column 7: the cell above, never across the spare bit.
        let stack: u64 = (0..3).map(|row| cell(6, row)).sum();
        assert_eq!(completing_cells(stack), cell(6, 3));
        let top: u64 = (3..6).map(|row| cell(0, row)).sum();
        assert_eq!(completing_cells(top), cell(0, 2));
    }

    #[test]
    fn masks_cover_the_board() {
        let columns: u64 = (0..WIDTH).map(column_cells).fold(0, |a, b| a | b);
        assert_eq!(columns, ALL_CELLS);
        assert_eq!(ALL_CELLS.count_ones() as usize, CELLS);
        assert_eq!(BOTTOM_ROW.count_ones() as usize, WIDTH);
    }
}
