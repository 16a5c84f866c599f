//! The prompt for a person's move at the terminal, shared by `interactive`
//! and the referee's `human` player: a column asked for until the answer is
//! a playable one, read a bounded line at a time so that no input (a paste
//! of megabytes, `< /dev/zero`) is held whole.

use std::io::{self, BufRead, Write};

use maxconnect4_game::board::{Board, Column};

/// Why the prompt stopped without an answer.
#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    /// The cause is in the message, for the referee, which shows it alone.
    #[error("cannot read your move: {0}")]
    Read(#[source] io::Error),
    /// The terminal could not be written.
    // The I/O error itself, also as the source, where `main` looks for a
    // broken pipe (a reader that stopped reading).
    #[error("{0}")]
    Write(#[from] io::Error),
}

/// Asks for a column until the answer is a playable one. `None` when input
/// ends or the person types `quit`.
///
/// # Errors
/// When the terminal cannot be read or written.
pub fn ask_column(board: &Board, human: &mut dyn BufRead, out: &mut dyn Write) -> Result<Option<Column>, PromptError> {
    loop {
        write!(out, "Your move, player {} (column 1-7, or quit): ", board.to_move().number())?;
        out.flush()?;
        let answer = match read_answer(human).map_err(PromptError::Read)? {
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
    if answer.chars().count() > SHOWN { format!("{shown}...") } else { shown }
}

/// Why an answer is asked for again, said to the person.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
enum Retry {
    #[error("Please type a column number from 1 to 7.")]
    Empty,
    /// The answer, shortened and escaped ([`echo`]).
    #[error("'{0}' is not a column number; type 1 to 7.")]
    NotANumber(String),
    #[error("There is no column {0}; type 1 to 7.")]
    NoColumn(usize),
    #[error("Column {0} is full; choose another.")]
    Full(Column),
}

/// Reads a person's answer: a playable column, `None` to quit, or why not.
fn parse_column(board: &Board, answer: &str) -> Result<Option<Column>, Retry> {
    if answer.eq_ignore_ascii_case("quit") || answer.eq_ignore_ascii_case("q") {
        return Ok(None);
    }
    if answer.is_empty() {
        return Err(Retry::Empty);
    }
    let number: usize = answer.parse().map_err(|_| Retry::NotANumber(echo(answer)))?;
    let column = Column::from_number(number).ok_or(Retry::NoColumn(number))?;
    if board.can_play(column) { Ok(Some(column)) } else { Err(Retry::Full(column)) }
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
        // What the person reads.
        let said = |answer: &str| parse_column(&board, answer).map_err(|retry| retry.to_string());
        assert_eq!(said("4"), Ok(Column::from_number(4)));
        assert_eq!(said("quit"), Ok(None));
        assert_eq!(said("2"), Err("Column 2 is full; choose another.".to_owned()));
        assert_eq!(said("8"), Err("There is no column 8; type 1 to 7.".to_owned()));
        assert_eq!(said("0"), Err("There is no column 0; type 1 to 7.".to_owned()));
        assert_eq!(said("x"), Err("'x' is not a column number; type 1 to 7.".to_owned()));
        assert_eq!(
            said("a\u{1b}[2Jbcdefghijklmnopqrstuvwxyz"),
            Err("'a\\u{1b}[2Jbcdefghijklmnop...' is not a column number; type 1 to 7.".to_owned())
        );
        assert_eq!(parse_column(&board, ""), Err(Retry::Empty));
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
