//! Judging a turn: is the board a player wrote the previous board plus one
//! legal move, and if not, why the player forfeits.
//!
//! Programs written by others get no benefit of the doubt and no second try:
//! a valid output is a move, anything else ends the game against the player,
//! with a reason precise enough for its author to find the bug. The exit
//! code is not a verdict (the course's C++ starter exits 1 after a good move).

use std::fmt;
use std::time::Duration;

use crate::bitboard::{self, COLUMN_BITS, HEIGHT};
use crate::board::{Board, Column};
use crate::format::{self, Grid, ParseError};
use crate::player::Player;

/// Why a player loses the game without finishing it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Forfeit {
    #[error("failed to start: {0}")]
    FailedToStart(String),
    #[error("timeout: no move within {} s; the player was stopped", .0.as_secs_f64())]
    Timeout(Duration),
    #[error("timeout: its game clock of {} s ran out", .0.as_secs_f64())]
    OutOfTime(Duration),
    #[error("no output: {0}")]
    NoOutput(String),
    #[error("unparseable output: {error} ({quoted})")]
    Unparseable { error: ParseError, quoted: String },
    #[error("unparseable answer: {0}")]
    Garbage(String),
    #[error("illegal move: {0}")]
    Illegal(IllegalMove),
    #[error("quit: the player gave up at the prompt")]
    Quit,
    #[error("{}", describe_limit(*.0, *.1))]
    Limit(crate::contain::limits::Passed, u64),
}

/// A passed limit in words, with the limit (bytes or processes).
fn describe_limit(passed: crate::contain::limits::Passed, limit: u64) -> String {
    use crate::contain::limits::Passed;
    match passed {
        Passed::Memory => format!("memory limit: it used more than {} MB of memory (--memory)", limit >> 20),
        Passed::Processes => {
            format!("process limit: it ran more than {limit} processes and threads at once (--processes)")
        }
        Passed::Disk => format!("disk limit: its folder or a file it wrote grew past {} MB (--disk)", limit >> 20),
        Passed::Cpu => format!(
            "CPU limit: its processes used more than {} s of CPU time on one move (--cpu, or --timeout)",
            Duration::from_millis(limit).as_secs_f64()
        ),
    }
}

impl Forfeit {
    /// A one-word name for the kind of verdict, as written in the log.
    #[must_use]
    pub const fn kind(&self) -> &'static str {
        match self {
            Forfeit::FailedToStart(_) => "failed-to-start",
            Forfeit::Timeout(_) | Forfeit::OutOfTime(_) => "timeout",
            Forfeit::NoOutput(_) => "no-output",
            Forfeit::Unparseable { .. } | Forfeit::Garbage(_) => "unparseable",
            Forfeit::Illegal(_) => "illegal-move",
            Forfeit::Quit => "quit",
            Forfeit::Limit(crate::contain::limits::Passed::Memory, _) => "memory-limit",
            Forfeit::Limit(crate::contain::limits::Passed::Processes, _) => "process-limit",
            Forfeit::Limit(crate::contain::limits::Passed::Disk, _) => "disk-limit",
            Forfeit::Limit(crate::contain::limits::Passed::Cpu, _) => "cpu-limit",
        }
    }
}

/// A cell's content, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell(Option<Player>);

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(player) => write!(f, "{player}'s piece"),
            None => write!(f, "empty"),
        }
    }
}

/// The rule an output board breaks. Rows count from 1 at the bottom,
/// columns from 1 at the left.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("column {0} is full; a move goes in a column with room")]
    FullColumn(Column),
    #[error("column {column}, row {row} changed from {was} to {now}; a move changes nothing already on the board")]
    Changed { column: usize, row: usize, was: Cell, now: Cell },
    #[error("the board has no new piece; a move adds exactly one")]
    NoNewPiece,
    #[error("the board has {0} new pieces; a move adds exactly one")]
    NewPieces(u32),
    #[error("the new piece in column {column} is {owner}'s, but {mover} was to move")]
    WrongColour { column: Column, owner: Player, mover: Player },
    #[error("the new piece in column {column}, row {row} floats above an empty cell; a piece falls to the lowest empty cell")]
    Floating { column: Column, row: usize },
    #[error("the turn line names {named}; after {mover}'s move it is {}'s turn", .mover.other())]
    WrongTurn { named: Player, mover: Player },
}

/// Judges the bytes a player wrote as its output after being given `before`.
/// Returns the column played, or why the player forfeits.
///
/// # Errors
/// When `output` is empty, does not parse as a board file, or is not
/// `before` plus exactly one legal move of the player to move.
pub fn judge(before: &Board, output: &[u8]) -> Result<Column, Forfeit> {
    if output.trim_ascii().is_empty() {
        return Err(Forfeit::NoOutput("the output file is empty".to_owned()));
    }
    let grid = format::parse_grid(output)
        .map_err(|error| Forfeit::Unparseable { quoted: quote_line(output, error.line), error })?;
    let grew: Vec<Column> =
        Column::ALL.into_iter().filter(|&column| height(&grid, column) > before.height(column)).collect();
    if let [column] = grew[..] {
        if before.can_play(column) && same_cells(&grid, &Grid::of(&before.after(column))) {
            return Ok(column);
        }
    }
    Err(Forfeit::Illegal(explain(before, &grid)))
}

/// Whether two grids hold the same pieces and name the same player to move.
fn same_cells(a: &Grid, b: &Grid) -> bool {
    a.pieces == b.pieces && a.to_move == b.to_move
}

/// Number of occupied cells in `column` of `grid` (cells need not be stacked).
fn height(grid: &Grid, column: Column) -> usize {
    ((grid.pieces[0] | grid.pieces[1]) & bitboard::column_cells(column.index())).count_ones() as usize
}

/// Names the rule `grid` breaks, given that it is not `before` plus a legal move.
fn explain(before: &Board, grid: &Grid) -> IllegalMove {
    let mover = before.to_move();
    let was = [before.pieces(Player::One), before.pieces(Player::Two)];
    let occupied_before = before.occupied();
    let changed = ((was[0] ^ grid.pieces[0]) | (was[1] ^ grid.pieces[1])) & occupied_before;
    let added = (grid.pieces[0] | grid.pieces[1]) & !occupied_before;
    let cell_of =
        |pieces: [u64; 2], bit: u64| Cell(Player::BOTH.into_iter().find(|player| pieces[player.index()] & bit != 0));

    if changed != 0 {
        let bit = changed & changed.wrapping_neg();
        let (column, row) = column_and_row(bit);
        let column_was_full = !before.can_play(column);
        let now = cell_of(grid.pieces, bit);
        // A program that "plays" a full column usually overwrites its top cell.
        if added == 0 && changed == bit && column_was_full && row == HEIGHT && now == Cell(Some(mover)) {
            return IllegalMove::FullColumn(column);
        }
        return IllegalMove::Changed { column: column.number(), row, was: cell_of(was, bit), now };
    }
    match added.count_ones() {
        0 => return IllegalMove::NoNewPiece,
        1 => {}
        many => return IllegalMove::NewPieces(many),
    }
    let (column, row) = column_and_row(added);
    if grid.pieces[mover.index()] & added == 0 {
        return IllegalMove::WrongColour { column, owner: mover.other(), mover };
    }
    if before.playable_cells() & added == 0 {
        return IllegalMove::Floating { column, row };
    }
    IllegalMove::WrongTurn { named: grid.to_move, mover }
}

/// The column and the row (from 1 at the bottom) of a single cell.
fn column_and_row(bit: u64) -> (Column, usize) {
    let index = bit.trailing_zeros() as usize;
    let column = Column::from_index(index / COLUMN_BITS).expect("a cell of the board");
    (column, index % COLUMN_BITS + 1)
}

/// Line `number` (from 1) of `text`, quoted and escaped for a message.
fn quote_line(text: &[u8], number: usize) -> String {
    const LIMIT: usize = 60;
    // Numbered as the board file's reader numbers them.
    let Some(line) = crate::format::lines(text).nth(number - 1) else {
        return "the file has no such line".to_owned();
    };
    let shown: String = line.iter().take(LIMIT).flat_map(|&b| std::ascii::escape_default(b)).map(char::from).collect();
    let more = if line.len() > LIMIT { "..." } else { "" };
    format!("the line reads \"{shown}{more}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Column 1 full (player 2's piece on top), player 1 to move.
    const BEFORE: &str = "2000000\n1000000\n2000000\n1000000\n2000000\n1000000\n1\n";

    fn check(output: &str, expected: Result<usize, &str>) {
        let before = format::parse(BEFORE.as_bytes()).unwrap().board;
        let verdict = judge(&before, output.as_bytes()).map(Column::number).map_err(|forfeit| forfeit.to_string());
        assert_eq!(verdict, expected.map_err(str::to_owned), "for output\n{output}");
    }

    #[test]
    fn one_legal_move_is_accepted() {
        check("2000000\n1000000\n2000000\n1000000\n2000000\n1000100\n2\n", Ok(5));
        check("2000000\r\n1000000\r\n2000000\r\n1000000\r\n2000000\r\n1100000\r\n2", Ok(2));
    }

    #[test]
    fn every_broken_rule_is_named() {
        check("", Err("no output: the output file is empty"));
        check(
            "hello\n",
            Err("unparseable output: line 1: column 1: expected 0, 1 or 2, found 'h' (the line reads \"hello\")"),
        );
        check(
            "2000000\n1000000\n2000000\n1000000\n2000000\n1000000\nx\r\n",
            Err("unparseable output: line 7: expected the player to move, 1 or 2, found 'x' (the line reads \"x\")"),
        );
        check(
            "2000000\n1000000\n",
            Err("unparseable output: line 3: the file ends before the six board rows and the turn line (expected 7 lines, found 2) (the file has no such line)"),
        );
        check(
            "1000000\n1000000\n2000000\n1000000\n2000000\n1000000\n2\n",
            Err("illegal move: column 1 is full; a move goes in a column with room"),
        );
        check(
            "2000000\n1000000\n2000000\n1000000\n2000000\n2100000\n2\n",
            Err("illegal move: column 1, row 1 changed from player 1's piece to player 2's piece; a move changes nothing already on the board"),
        );
        check(
            "2000000\n1000000\n2000000\n1000000\n2000000\n1000000\n2\n",
            Err("illegal move: the board has no new piece; a move adds exactly one"),
        );
        check(
            "2000000\n1000000\n2000000\n1000000\n2000000\n1110000\n2\n",
            Err("illegal move: the board has 2 new pieces; a move adds exactly one"),
        );
        check(
            "2000000\n1000000\n2000000\n1000000\n2000000\n1000002\n2\n",
            Err("illegal move: the new piece in column 7 is player 2's, but player 1 was to move"),
        );
        check(
            "2000000\n1000000\n2000000\n1000000\n2010000\n1000000\n2\n",
            Err("illegal move: the new piece in column 3, row 2 floats above an empty cell; a piece falls to the lowest empty cell"),
        );
        check(
            "2000000\n1000000\n2000000\n1000000\n2000000\n1001000\n1\n",
            Err("illegal move: the turn line names player 1; after player 1's move it is player 2's turn"),
        );
    }
}
