//! The one-move protocol, both sides' files and no I/O: a program is given
//! a board file ([`board_file`]) and writes back the board after its move;
//! [`judge`] reads that file against the board it was given, and
//! [`judge_turn`] what a whole turn came to (run as `contain::turn` runs
//! it), in the referee's verdicts ([`Forfeit`]). The referee's one-move
//! players and the timing report's timed programs are judged here alike.
//!
//! A valid output is the board given plus exactly one legal move of the
//! player to move, its turn line naming the other player; whatever else a
//! program writes is why it forfeits, said precisely enough for its author
//! to find the bug.

use std::path::Path;

use super::verdict::{Cell, Forfeit, IllegalMove};
use maxconnect4_contain::Ending;
use maxconnect4_contain::turn::{Answer, describe, last_line};
use maxconnect4_game::bitboard::{self, COLUMN_BITS, HEIGHT};
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::format::{self, Grid, LineEnding};
use maxconnect4_game::player::Player;

/// The board file a program is given: the board and the player to move,
/// with Unix line endings.
#[must_use]
pub fn board_file(board: &Board) -> String {
    format::write(board, LineEnding::Lf)
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
    if let [column] = grew[..]
        && before.can_play(column)
        && same_cells(&grid, &Grid::of(&before.after(column)))
    {
        return Ok(column);
    }
    Err(Forfeit::Illegal(explain(before, &grid)))
}

/// What a one-move program's turn comes to: the column it played, or why
/// it forfeits. `out_of_time` is the forfeit for a program stopped at the
/// turn's time (its move's or its game clock's), and `kept` the file that
/// keeps what it printed, for a reason to send its author to, if one
/// outlives the run.
///
/// # Errors
/// The forfeit: in the order a turn is judged, a board its folder could not
/// take, a limit passed, a failure to start, the time out, then the file it
/// wrote ([`judge`]) or, when it wrote none, whether it could not start.
pub fn judge_turn(
    before: &Board,
    answer: &Answer,
    out_of_time: Forfeit,
    kept: Option<&Path>,
) -> Result<Column, Forfeit> {
    let (run, passed, written) = match answer {
        Answer::NotGiven(error) => {
            let reason = format!("the board cannot be put in the player's folder: {error}");
            return Err(Forfeit::FailedToStart(reason));
        }
        Answer::Ran { run, passed, written } => (run, passed, written),
    };
    if let Some((passed, limit)) = passed {
        return Err(Forfeit::Limit(*passed, *limit));
    }
    let ending = describe(&run.ending);
    let last_words = last_line(&run.stderr.tail);
    let said = last_words.as_ref().map(|line| format!("; its last line on stderr: '{line}'")).unwrap_or_default();
    match &run.ending {
        Ending::FailedToStart(reason) => Err(Forfeit::FailedToStart(reason.clone())),
        Ending::TimedOut => Err(out_of_time),
        Ending::Exited(_) | Ending::Signalled(_) => match written {
            Ok(Some(text)) => judge(before, text),
            Ok(None) => match could_not_start(&run.ending, &run.stderr.tail) {
                Some(cause) => Err(Forfeit::FailedToStart(format!("the program could not start ({ending}): {cause}"))),
                None => match kept {
                    Some(kept) => Err(Forfeit::NoOutput(format!(
                        "the program wrote no output file ({ending}){said}; its output is in {}",
                        kept.display()
                    ))),
                    None => Err(Forfeit::NoOutput(format!("the program wrote no output file ({ending}){said}"))),
                },
            },
            Err(error) => Err(Forfeit::NoOutput(format!("the output file cannot be read: {error}{said}"))),
        },
    }
}

/// What programs that cannot start say, each with the fix it most likely
/// needs: a command not found or not executable, the sandbox unable to run
/// it, an interpreter unable to open its script or class or to find a
/// module beside it, a program for another interpreter or machine. Looked
/// for anywhere in what the program wrote on stderr (a JVM's first line
/// says it, its last is a stack frame), the first match winning.
const CANNOT_START: [(&str, &str); 16] = [
    (
        "(wrong name:",
        "the class is in a package: run `java -cp ROOT package.Class` from the folder above the package's",
    ),
    (
        "Could not find or load main class",
        "compile the program (javac) in its folder, or give -cp the folder that holds the class (a class in a package runs as `java -cp ROOT package.Class`)",
    ),
    (
        "ClassNotFoundException",
        "compile the program (javac) in its folder, or give -cp the folder that holds the class",
    ),
    (
        "UnsupportedClassVersionError",
        "the classes were compiled by a newer Java than this `java`: compile them again here",
    ),
    ("Unable to access jarfile", "the jar is not where the command says; relative paths start in the program's folder"),
    (
        "ModuleNotFoundError",
        "the module is neither beside the script in the program's folder nor installed for this interpreter",
    ),
    (
        "ImportError: No module named",
        "the module is neither beside the script in the program's folder nor installed for this interpreter",
    ),
    ("Missing parentheses in call to 'print'", "a Python 2 program: run it with python2"),
    ("can't open file", "the script is not where the command says; relative paths start in the program's folder"),
    ("Cannot find module", "the script is not where the command says; relative paths start in the program's folder"),
    ("Can't open perl script", "the script is not where the command says"),
    ("No such file or directory -- ", "the script is not where the command says"),
    ("bwrap: ", "the sandbox could not run the program"),
    ("exec format error", "the executable is for another machine or system: build it here"),
    ("cannot execute binary file", "the executable is for another machine or system: build it here"),
    ("command not found", "the program is not installed, or not on the PATH"),
];

/// Why a program that wrote no output could not start, with the likely
/// fix, if it could not: it ended with status 126 or 127 (a command not
/// found or not executable, by the convention of shells and `env`) or said
/// one of [`CANNOT_START`]'s lines on stderr. A program that ran and failed
/// says something else, and is `no-output`.
fn could_not_start(ending: &Ending, stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let said = text.lines().map(str::trim).filter(|line| !line.is_empty());
    let found = CANNOT_START.iter().find_map(|(says, fix)| {
        let says = says.to_lowercase();
        said.clone().find(|line| line.to_lowercase().contains(&says)).map(|line| (line, *fix))
    });
    match found {
        Some((line, fix)) => Some(format!("{}; {fix}", last_line(line.as_bytes()).unwrap_or_default())),
        None if matches!(ending, Ending::Exited(126 | 127)) => {
            Some(last_line(stderr).unwrap_or_else(|| "it said nothing".to_owned()))
        }
        None => None,
    }
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
    let Some(line) = maxconnect4_game::format::lines(text).nth(number - 1) else {
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
            Err(
                "unparseable output: line 3: the file ends before the six board rows and the turn line (expected 7 lines, found 2) (the file has no such line)",
            ),
        );
        check(
            "1000000\n1000000\n2000000\n1000000\n2000000\n1000000\n2\n",
            Err("illegal move: column 1 is full; a move goes in a column with room"),
        );
        check(
            "2000000\n1000000\n2000000\n1000000\n2000000\n2100000\n2\n",
            Err(
                "illegal move: column 1, row 1 changed from player 1's piece to player 2's piece; a move changes nothing already on the board",
            ),
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
            Err(
                "illegal move: the new piece in column 3, row 2 floats above an empty cell; a piece falls to the lowest empty cell",
            ),
        );
        check(
            "2000000\n1000000\n2000000\n1000000\n2000000\n1001000\n1\n",
            Err("illegal move: the turn line names player 1; after player 1's move it is player 2's turn"),
        );
    }

    #[test]
    fn a_program_that_cannot_start_is_told_the_likely_fix() {
        let java = b"Error: Could not find or load main class maxconnect4\n\
                     Caused by: java.lang.ClassNotFoundException: maxconnect4\n";
        let cause = could_not_start(&Ending::Exited(1), java).unwrap();
        assert!(
            cause.starts_with("Error: Could not find or load main class maxconnect4; compile the program"),
            "{cause}"
        );
        let package = b"Error: Could not find or load main class maxconnect4\n\
                        Caused by: java.lang.NoClassDefFoundError: hw4/maxconnect4 (wrong name: maxconnect4)\n";
        let cause = could_not_start(&Ending::Exited(1), package).unwrap();
        assert!(cause.contains("(wrong name: maxconnect4); the class is in a package"), "{cause}");
        let python = b"Traceback (most recent call last):\n  File \"maxconnect4.py\", line 4, in <module>\n    \
                       from MaxConnect4Game import *\nModuleNotFoundError: No module named 'MaxConnect4Game'\n";
        let cause = could_not_start(&Ending::Exited(1), python).unwrap();
        assert!(cause.starts_with("ModuleNotFoundError: No module named 'MaxConnect4Game'; the module is neither"));
        assert_eq!(could_not_start(&Ending::Exited(127), b""), Some("it said nothing".to_owned()));
        let crashed = b"Traceback (most recent call last):\nZeroDivisionError: division by zero\n";
        assert_eq!(could_not_start(&Ending::Exited(1), crashed), None, "a crash is no-output");
    }
}
