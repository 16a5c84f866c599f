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
use crate::player::Player;
use crate::rules::{Outcome, Rules};
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
/// file) until the game ends under `rules`, the person's input ends, or they quit.
/// The computer plays whichever side `first` and the file's turn line give it,
/// searching within `limits` with an engine set up as `settings`; on a
/// terminal, the progress line shows while it thinks.
///
/// # Errors
/// When `input` exists but cannot be read or parsed, a board cannot be saved,
/// or the terminal fails.
pub fn interactive(
    input: &Path,
    first: FirstMove,
    rules: Rules,
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
    // Found now, not after the first move.
    for saved in [COMPUTER_FILE, HUMAN_FILE] {
        crate::atomic::check(Path::new(saved))?;
    }
    let computer = match first {
        FirstMove::Computer => board.to_move(),
        FirstMove::Human => board.to_move().other(),
    };
    let mut engine = settings.engine(rules)?;
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
        let answer = match read_answer(human).context("cannot read your move")? {
            Answer::Line(line) => line,
            Answer::TooLong => {
                writeln!(out, "That answer is too long; type a column number from 1 to 7.")?;
                continue;
            }
            Answer::End => return Ok(None),
            Answer::Endless => {
                writeln!(out, "\nThe input has no line break in {} KiB; taking it as the end.", LINE_LIMIT >> 10)?;
                return Ok(None);
            }
        };
        let Ok(answer) = std::str::from_utf8(&answer) else {
            writeln!(out, "That answer is not text; type a column number from 1 to 7.")?;
            continue;
        };
        match parse_column(board, answer.trim()) {
            Ok(Some(column)) => return Ok(Some(column)),
            Ok(None) => return Ok(None),
            Err(reason) => writeln!(out, "{reason}")?,
        }
    }
}

/// The longest answer read: far more than any column number or `quit`.
const ANSWER_LIMIT: usize = 1 << 10;
/// The longest line skipped over after a too-long answer; past this the
/// input is no person typing (`< /dev/zero`) and is taken as ended.
const LINE_LIMIT: usize = 64 << 10;

/// One line of a person's input.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    /// A line of at most [`ANSWER_LIMIT`] bytes, without its line break.
    Line(Vec<u8>),
    /// A longer line, read to its end and dropped.
    TooLong,
    /// The input ended before the line began.
    End,
    /// More than [`LINE_LIMIT`] bytes without a line break.
    Endless,
}

/// Reads one line of at most [`ANSWER_LIMIT`] bytes, never holding more.
fn read_answer(human: &mut dyn BufRead) -> std::io::Result<Answer> {
    let mut line = Vec::new();
    let mut length = 0;
    loop {
        let buffer = match human.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() && length == 0 {
            return Ok(Answer::End);
        }
        let end = buffer.iter().position(|&byte| byte == b'\n');
        let part = &buffer[..end.unwrap_or(buffer.len())];
        let room = ANSWER_LIMIT.saturating_sub(line.len());
        line.extend_from_slice(&part[..part.len().min(room)]);
        length += part.len();
        let (used, ended) = match end {
            Some(end) => (end + 1, true),
            None => (buffer.len(), buffer.is_empty()),
        };
        human.consume(used);
        if ended {
            return Ok(if length > ANSWER_LIMIT { Answer::TooLong } else { Answer::Line(line) });
        }
        if length > LINE_LIMIT {
            return Ok(Answer::Endless);
        }
    }
}

/// An answer as it may be echoed: at most 20 characters, anything
/// unprintable escaped.
fn echo(answer: &str) -> String {
    const SHOWN: usize = 20;
    let shown: String = answer.chars().take(SHOWN).flat_map(char::escape_debug).collect();
    if answer.chars().count() > SHOWN {
        format!("{shown}...")
    } else {
        shown
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
    let number: usize =
        answer.parse().map_err(|_| format!("'{}' is not a column number; type 1 to 7.", echo(answer)))?;
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
        assert_eq!(
            parse_column(&board, "a\u{1b}[2Jbcdefghijklmnopqrstuvwxyz"),
            Err("'a\\u{1b}[2Jbcdefghijklmnop...' is not a column number; type 1 to 7.".to_owned())
        );
    }

    #[test]
    fn answers_are_read_a_bounded_line_at_a_time() {
        let long = "7".repeat(ANSWER_LIMIT + 1);
        let endless = vec![0u8; LINE_LIMIT + 2];
        let check = |input: &[u8], expected: &[Answer]| {
            let mut input = std::io::BufReader::with_capacity(16, input);
            let answers: Vec<Answer> = expected.iter().map(|_| read_answer(&mut input).unwrap()).collect();
            assert_eq!(answers, expected);
        };
        let line = |text: &[u8]| Answer::Line(text.to_vec());
        check(b"4\r\n\xff\n5", &[line(b"4\r"), line(b"\xff"), line(b"5"), Answer::End]);
        check(format!("{long}\n3\n").as_bytes(), &[Answer::TooLong, line(b"3"), Answer::End]);
        check(&endless, &[Answer::Endless]);
    }
}
