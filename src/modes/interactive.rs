//! Interactive mode: the computer plays a person at the terminal, following
//! the assignment's loop. After every move the board is saved, to
//! `computer.txt` after the computer's and `human.txt` after the person's.

use std::io::{BufRead, Write};
use std::path::Path;

use anyhow::Context as _;

use super::{read_board_file, save_board, think};
use crate::board::{Board, Column, Player};
use crate::display;
use crate::format::{BoardFile, LineEnding};
use crate::rules::{Outcome, Rules};
use crate::search::{Engine, Limits};

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
/// file) until the game ends under `rules`, the person's input ends, or they quit.
/// The computer plays whichever side `first` and the file's turn line give it,
/// searching within `limits` with a table of `hash_bytes`.
///
/// # Errors
/// When `input` exists but cannot be read or parsed, a board cannot be saved,
/// or the terminal fails.
pub fn interactive(
    input: &Path,
    first: FirstMove,
    rules: Rules,
    limits: &Limits,
    hash_bytes: usize,
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
    let mut engine = Engine::for_rules(rules, hash_bytes)?;
    let you = computer.other();
    writeln!(
        out,
        "You are player {} ({}); the computer is player {} ({}).\n\
         After each move the board is saved: the computer's to {COMPUTER_FILE}, yours to {HUMAN_FILE}.",
        you.number(),
        colour_name(you),
        computer.number(),
        colour_name(computer),
    )?;

    let mut last_computer_move = None;
    loop {
        write!(out, "\n{}", display::board_marking(&board, last_computer_move.take()))?;
        if rules.is_over(&board) {
            writeln!(out, "The game is over: {}", result_for_you(rules, &board, you))?;
            return Ok(());
        }
        if board.to_move() == computer {
            let thought = think(&mut engine, &board, limits);
            let column = thought.result.column;
            board.play(column);
            writeln!(
                out,
                "\nMove {}: the computer (player {}) plays column {column}.",
                board.pieces_played(),
                computer.number()
            )?;
            thought.report(out)?;
            save_board(Path::new(COMPUTER_FILE), &board, line_ending)?;
            last_computer_move = Some(column);
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

/// The colour of `player`'s pieces, as the assignment names them.
fn colour_name(player: Player) -> &'static str {
    match player {
        Player::One => "red",
        Player::Two => "green",
    }
}

/// Who won the finished game on `board`, said to the person playing `you`.
fn result_for_you(rules: Rules, board: &Board, you: Player) -> String {
    let (yours, computers) = (board.score(you), board.score(you.other()));
    let winner = match rules.outcome(board) {
        Some(Outcome::Win(player)) if player == you => "you win",
        Some(Outcome::Win(_)) => "the computer wins",
        _ => "a draw",
    };
    match rules {
        Rules::Max if yours == computers => format!("{winner}, {yours} all."),
        Rules::Max => format!("{winner}, {} to {}.", yours.max(computers), yours.min(computers)),
        Rules::Classic if winner == "a draw" => "a draw: the board is full without four in a row.".to_owned(),
        Rules::Classic => format!("{winner} with four in a row."),
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
