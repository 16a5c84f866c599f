//! Interactive mode: the computer plays a person at the terminal, following
//! the assignment's loop. After every move the board is saved, to
//! `computer.txt` after the computer's and `human.txt` after the person's.

use std::io::{BufRead, Write};
use std::path::Path;

use anyhow::Context as _;

use super::{read_board_file, save_board, think, EngineSettings};
use crate::board::{Board, Column};
use crate::display;
use crate::format::{BoardFile, LineEnding};
use crate::search::Limits;

/// Who makes the next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstMove {
    Computer,
    Human,
}

/// Where the board is saved after each side's move.
const COMPUTER_FILE: &str = "computer.txt";
const HUMAN_FILE: &str = "human.txt";

/// Plays a game from the board in `input` (an empty board if there is no such
/// file) until the board is full, the person's input ends, or they quit.
/// The computer plays whichever side `first` and the file's turn line give it,
/// searching within `limits` with an engine set up as `settings`.
///
/// # Errors
/// When `input` exists but cannot be read or parsed, a board cannot be saved,
/// or the terminal fails.
pub fn interactive(
    input: &Path,
    first: FirstMove,
    limits: &Limits,
    settings: &EngineSettings,
    human: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let BoardFile { mut board, line_ending } = if input.exists() {
        read_board_file(input)?
    } else {
        writeln!(out, "{} does not exist; starting from an empty board.", input.display())?;
        BoardFile { board: Board::empty(), line_ending: LineEnding::Lf }
    };
    let computer = match first {
        FirstMove::Computer => board.to_move(),
        FirstMove::Human => board.to_move().other(),
    };
    let mut engine = settings.engine()?;
    writeln!(out, "The computer is player {}, you are player {}.", computer.number(), computer.other().number())?;

    loop {
        write!(out, "\n{}", display::board_and_score(&board))?;
        if board.is_full() {
            writeln!(out, "The game is over: {}", display::result_sentence(&board))?;
            return Ok(());
        }
        if board.to_move() == computer {
            let thought = think(&mut engine, &board, limits);
            board.play(thought.result.column);
            writeln!(out, "\nThe computer (player {}) plays column {}.", computer.number(), thought.result.column)?;
            thought.report(out)?;
            save_board(Path::new(COMPUTER_FILE), &board, line_ending)?;
        } else {
            let Some(column) = ask_column(&board, human, out)? else {
                writeln!(out, "\nThe game is left unfinished.")?;
                return Ok(());
            };
            board.play(column);
            save_board(Path::new(HUMAN_FILE), &board, line_ending)?;
        }
    }
}

/// Asks for a column until the answer is a playable one. `None` when input
/// ends or the person types `quit`.
///
/// # Errors
/// When the terminal cannot be read or written.
pub fn ask_column(board: &Board, human: &mut dyn BufRead, out: &mut dyn Write) -> anyhow::Result<Option<Column>> {
    loop {
        write!(out, "Your move, player {} (column 1-7, or quit): ", board.to_move().number())?;
        out.flush()?;
        let mut line = String::new();
        if human.read_line(&mut line).context("cannot read your move")? == 0 {
            return Ok(None);
        }
        match parse_column(board, line.trim()) {
            Ok(Some(column)) => return Ok(Some(column)),
            Ok(None) => return Ok(None),
            Err(reason) => writeln!(out, "{reason}")?,
        }
    }
}

/// Reads a person's answer: a playable column, `None` to quit, or why not.
fn parse_column(board: &Board, answer: &str) -> Result<Option<Column>, String> {
    if answer.eq_ignore_ascii_case("quit") || answer.eq_ignore_ascii_case("q") {
        return Ok(None);
    }
    if answer.is_empty() {
        return Err("Please type a column number from 1 to 7.".to_owned());
    }
    let number: usize = answer.parse().map_err(|_| format!("'{answer}' is not a column number; type 1 to 7."))?;
    let column = Column::from_number(number).ok_or_else(|| format!("There is no column {number}; type 1 to 7."))?;
    if board.can_play(column) {
        Ok(Some(column))
    } else {
        Err(format!("Column {column} is full; choose another."))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_checked() {
        let mut board = Board::empty();
        for _ in 0..6 {
            board.play(Column::from_number(2).unwrap());
        }
        assert_eq!(parse_column(&board, "4"), Ok(Column::from_number(4)));
        assert_eq!(parse_column(&board, "quit"), Ok(None));
        assert_eq!(parse_column(&board, "2"), Err("Column 2 is full; choose another.".to_owned()));
        assert_eq!(parse_column(&board, "8"), Err("There is no column 8; type 1 to 7.".to_owned()));
        assert_eq!(parse_column(&board, "0"), Err("There is no column 0; type 1 to 7.".to_owned()));
        assert_eq!(parse_column(&board, "x"), Err("'x' is not a column number; type 1 to 7.".to_owned()));
    }
}
