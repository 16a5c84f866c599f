//! `maxconnect4 bot moderator` and `bot coordinator`: the program as a player
//! in the stdin/stdout arenas. The protocols themselves are in
//! [`crate::protocol`]; this is the thin layer that reads lines, runs the
//! search and flushes each answer. Only protocol messages go to stdout;
//! diagnostics go to stderr.

use std::io::{BufRead, Write};
use std::time::Duration;

use super::settings::Play;
use crate::board::{Board, Column};
use crate::protocol::coordinator::{self, Think};
use crate::protocol::moderator::{self, Step};
use crate::protocol::Mover;
use crate::rules::Rules;
use crate::search::TableTooLarge;
use crate::search::{Chosen, Limits};
use crate::value::Value;

/// The deepest search there is: every empty cell.
pub const FULL_DEPTH: u32 = crate::bitboard::CELLS as u32;

/// The moderator bot's time per move when neither `--depth` nor
/// `--time-limit` is given: the real moderator allows 10 s, and the search
/// overruns its limit by at most a few milliseconds.
pub const MODERATOR_TIME_LIMIT: Duration = Duration::from_secs(2);

use crate::protocol::LINE_LIMIT;

/// Why a bot stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read standard input")]
    Read(#[source] std::io::Error),
    #[error("cannot write to standard output")]
    Write(#[source] std::io::Error),
    /// A line from the moderator the bot cannot act on: the game cannot go on.
    #[error("line {number} from the moderator")]
    Moderator {
        number: u64,
        #[source]
        source: LineError,
    },
    #[error(transparent)]
    Table(#[from] TableTooLarge),
    /// Standard error, where the coordinator bot reports a line it skips.
    // The I/O error itself, also as the source, where `main` looks for a
    // broken pipe (a reader that stopped reading).
    #[error("{0}")]
    Errors(#[from] std::io::Error),
}

/// Why a line from the arena is not acted on.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error("a line of {0} bytes, over the limit of {LINE_LIMIT}, skipped")]
    TooLong(u64),
    #[error("a line that is not UTF-8 text, skipped")]
    NotUtf8,
    #[error(transparent)]
    Moderator(#[from] moderator::BotError),
    #[error(transparent)]
    Coordinator(#[from] coordinator::BotError),
}

/// One line from the arena.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    Text(String),
    /// Over [`LINE_LIMIT`] bytes, with this many: not kept.
    TooLong(u64),
    NotUtf8,
}

impl Line {
    /// The line's text, or why there is none.
    fn text(self) -> Result<String, LineError> {
        match self {
            Line::Text(text) => Ok(text),
            Line::TooLong(bytes) => Err(LineError::TooLong(bytes)),
            Line::NotUtf8 => Err(LineError::NotUtf8),
        }
    }
}

/// The next line of `input` without its line break (LF or CRLF), keeping at
/// most [`LINE_LIMIT`] bytes of it whatever its length; `None` at the end.
fn read_line(input: &mut dyn BufRead) -> std::io::Result<Option<Line>> {
    let (mut kept, mut length) = (Vec::new(), 0_u64);
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            return Ok((length > 0).then(|| finish(kept, length)));
        }
        let end = buffer.iter().position(|&byte| byte == b'\n');
        let part = &buffer[..end.unwrap_or(buffer.len())];
        kept.extend_from_slice(&part[..part.len().min(LINE_LIMIT + 1 - kept.len().min(LINE_LIMIT + 1))]);
        length += part.len() as u64;
        let used = end.map_or(buffer.len(), |end| end + 1);
        input.consume(used);
        if end.is_some() {
            return Ok(Some(finish(kept, length)));
        }
    }
}

/// The line read as `kept` bytes of `length`.
fn finish(mut kept: Vec<u8>, length: u64) -> Line {
    if length > LINE_LIMIT as u64 {
        return Line::TooLong(length);
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    String::from_utf8(kept).map_or(Line::NotUtf8, Line::Text)
}

/// Plays one game for the moderator: prints `p`, then answers each line of
/// `input` until an end code or the end of the input, searching with
/// `threads` threads. Playing perfectly, a move that is not perfect play is
/// said on `errors`.
///
/// # Errors
/// When a line cannot be acted on (it is named), or stdout is closed.
pub fn moderator(
    rules: Rules,
    limits: &Limits,
    play: Play,
    threads: usize,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> Result<(), Error> {
    let mut chooser = Chooser::new(rules, play, threads)?;
    let mut bot = moderator::Bot::new(rules);
    send(out, &moderator::Bot::greeting())?;
    let mut number = 0;
    while let Some(line) = read_line(input).map_err(Error::Read)? {
        number += 1;
        let at = |source: LineError| Error::Moderator { number, source };
        let line = line.text().map_err(at)?;
        let choose = |board: &Board| chooser.choose(board, limits).0;
        let step = bot.receive(&line, choose);
        chooser.write_notes(errors)?;
        match step.map_err(|error| at(error.into()))? {
            Step::Send(message) => send(out, &message)?,
            Step::Wait => {}
            Step::Exit(_) => return Ok(()),
        }
    }
    Ok(())
}

/// Speaks the coordinator's protocol on `input` and `out` until `quit` or
/// the end of the input, searching with `threads` threads. A line it
/// cannot act on is reported on `errors` and skipped: the coordinator
/// decides what a missing answer costs. Playing perfectly, a move that is
/// not perfect play is said there too.
///
/// # Errors
/// When stdin cannot be read or stdout is closed.
pub fn coordinator(
    rules: Rules,
    name: String,
    play: Play,
    threads: usize,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> Result<(), Error> {
    let mut engine = Clocked(Chooser::new(rules, play, threads)?);
    let mut bot = coordinator::Bot::new(rules, name);
    let mut number = 0;
    while let Some(line) = read_line(input).map_err(Error::Read)? {
        number += 1;
        let answer = line.text().and_then(|line| Ok(bot.receive(&line, &mut engine)?));
        engine.0.write_notes(errors)?;
        match answer {
            Ok(Some(answer)) => send(out, &answer)?,
            Ok(None) => {}
            Err(error) => {
                writeln!(errors, "error: line {number} from the coordinator: {error}")?;
            }
        }
        if bot.has_quit() {
            break;
        }
    }
    Ok(())
}

/// A bot's mover, choosing as `play` says, with the notes on its moves
/// not yet written.
struct Chooser {
    mover: Mover,
    play: Play,
    notes: Vec<String>,
}

impl Chooser {
    fn new(rules: Rules, play: Play, threads: usize) -> Result<Chooser, TableTooLarge> {
        let mut mover = Mover::new(rules, Mover::HASH_BYTES)?;
        mover.set_threads(threads);
        Ok(Chooser { mover, play, notes: Vec::new() })
    }

    /// The move and its value; the protocols call this only on unfinished
    /// games.
    fn choose(&mut self, board: &Board, limits: &Limits) -> (Column, Value) {
        const UNFINISHED: &str = "the protocol asks for moves only in unfinished games";
        let result = match self.play {
            // An arena compares bots on strength, not on the assignment's
            // search: a bot plays the book's move wherever it has one.
            Play::Search | Play::BookThenSearch => self.mover.choose(board, limits).expect(UNFINISHED),
            Play::Perfect => {
                let played = self.mover.choose_perfectly(board, limits).expect(UNFINISHED);
                if played.chosen == Chosen::Searched {
                    self.notes.push(not_perfect(board, limits));
                }
                played.result
            }
        };
        (result.column, result.value)
    }

    /// Writes the notes on the moves chosen since the last call.
    fn write_notes(&mut self, errors: &mut dyn Write) -> std::io::Result<()> {
        self.notes.drain(..).try_for_each(|note| writeln!(errors, "{note}"))
    }
}

/// The note on a move of `board` that is not perfect play.
fn not_perfect(board: &Board, limits: &Limits) -> String {
    let number = crate::bitboard::CELLS as u32 - board.empty_cells() + 1;
    let within = limits.time_limit.map_or_else(
        || "there was no time limit to solve within".to_owned(),
        |time| {
            let (share, of) = crate::search::SOLVE_SHARE;
            let solving = time * share / of;
            // A coordinator's clock can leave a move a few milliseconds.
            if solving < Duration::from_secs(1) {
                format!("no solve finished within {} ms", solving.as_millis())
            } else {
                format!("no solve finished within {:.1} s", solving.as_secs_f64())
            }
        },
    );
    format!(
        "note: move {number} is not perfect play: the book does not hold the position's best moves and \
         {within}; the depth-limited search's move"
    )
}

/// The chooser searching within a time given per move.
struct Clocked(Chooser);

impl Think for Clocked {
    fn best_move(&mut self, board: &Board, time: Duration) -> (Column, Value) {
        self.0.choose(board, &Limits { depth: FULL_DEPTH, time_limit: Some(time) })
    }

    fn perft(&mut self, board: &Board, depth: u32) -> u64 {
        self.0.mover.perft(board, depth)
    }
}

/// Prints one message and flushes it, so the other side sees it at once.
fn send(out: &mut dyn Write, message: &dyn std::fmt::Display) -> Result<(), Error> {
    writeln!(out, "{message}").and_then(|()| out.flush()).map_err(Error::Write)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_moderator(input: &str, expected: &str) {
        let mut out = Vec::new();
        let result = moderator(
            Rules::Classic,
            &Limits::depth(2),
            Play::BookThenSearch,
            1,
            &mut input.as_bytes(),
            &mut out,
            &mut Vec::new(),
        );
        let actual = match result {
            Ok(()) => String::from_utf8(out).unwrap(),
            Err(error) => {
                // As `main` says it: the error, then each cause after a colon.
                let mut said = error.to_string();
                let mut cause = std::error::Error::source(&error);
                while let Some(next) = cause {
                    said = format!("{said}: {next}");
                    cause = next.source();
                }
                format!("{}error: {said}", String::from_utf8(out).unwrap())
            }
        };
        assert_eq!(actual, expected, "input {input:?}");
    }

    #[test]
    fn moderator_games() {
        check_moderator("2\n-3\n", "p\n?\n");
        check_moderator("1\n0\n", "p\n4\n");
        check_moderator(
            "2\nx\n",
            "p\n?\nerror: line 2 from the moderator: expected a column 1-7 or an end code 0, -1, -2 or -3, got 'x'",
        );
    }

    #[test]
    fn a_move_not_perfect_is_said_with_the_time_its_solve_had() {
        let board = crate::moves::Moves::board(Rules::Max, "3764").unwrap();
        let said = |seconds: f64| not_perfect(&board, &Limits::time(Duration::from_secs_f64(seconds)));
        assert_eq!(
            said(2.0),
            "note: move 5 is not perfect play: the book does not hold the position's best moves and no solve finished \
             within 1.8 s; the depth-limited search's move"
        );
        assert!(said(0.02).contains(" within 18 ms; "), "{}", said(0.02));
    }

    #[test]
    fn coordinator_session() {
        let (mut out, mut errors) = (Vec::new(), Vec::new());
        let input = "name\nbogus\nposition startpos \nperft 3\nquit\nname\n";
        coordinator(
            Rules::Classic,
            "me-c1234567".into(),
            Play::BookThenSearch,
            1,
            &mut input.as_bytes(),
            &mut out,
            &mut errors,
        )
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "me-c1234567\nperft 3 343\nquitting\n");
        assert_eq!(String::from_utf8(errors).unwrap(), "error: line 2 from the coordinator: unknown command 'bogus'\n");
    }

    #[test]
    fn lines_are_read_bounded_and_bad_ones_skipped() {
        let long = "x".repeat(LINE_LIMIT + 1);
        let mut input = format!("name AI 0\r\n{long}\n").into_bytes();
        input.extend_from_slice(b"\xff\xfe\nisready AI 0\nquit");
        let (mut out, mut errors) = (Vec::new(), Vec::new());
        coordinator(
            Rules::Classic,
            "me-c1234567".into(),
            Play::BookThenSearch,
            1,
            &mut input.as_slice(),
            &mut out,
            &mut errors,
        )
        .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "me-c1234567\nreadyok\nquitting\n");
        assert_eq!(
            String::from_utf8(errors).unwrap(),
            "error: line 2 from the coordinator: a line of 65537 bytes, over the limit of 65536, skipped\n\
             error: line 3 from the coordinator: a line that is not UTF-8 text, skipped\n"
        );
        let exactly = "y".repeat(LINE_LIMIT);
        assert_eq!(read_line(&mut exactly.as_bytes()).unwrap(), Some(Line::Text(exactly.clone())));
    }
}
