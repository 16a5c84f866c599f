//! `maxconnect4 bot moderator` and `bot coordinator`: the program as a player
//! in the stdin/stdout arenas. The protocols themselves are in
//! [`crate::protocol`]; this is the thin layer that reads lines, runs the
//! search and flushes each answer. Only protocol messages go to stdout;
//! diagnostics go to stderr.

use std::io::{BufRead, Write};
use std::time::Duration;

use anyhow::Context as _;

use crate::board::{Board, Column};
use crate::protocol::coordinator::{self, Think};
use crate::protocol::moderator::{self, Step};
use crate::protocol::Mover;
use crate::rules::Rules;
use crate::score::Value;
use crate::search::Limits;

/// The deepest search there is: every empty cell.
pub const FULL_DEPTH: u32 = crate::bitboard::CELLS as u32;

/// The moderator bot's time per move when neither `--depth` nor
/// `--time-limit` is given: the real moderator allows 10 s, and the search
/// overruns its limit by at most a few milliseconds.
pub const MODERATOR_TIME_LIMIT: Duration = Duration::from_secs(2);

/// Plays one game for the moderator: prints `p`, then answers each line of
/// `input` until an end code or the end of the input.
///
/// # Errors
/// When a line cannot be acted on (it is named), or stdout is closed.
pub fn moderator(rules: Rules, limits: &Limits, input: &mut dyn BufRead, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut mover = Mover::new(rules, Mover::HASH_BYTES)?;
    let mut bot = moderator::Bot::new(rules);
    send(out, &moderator::Bot::greeting())?;
    for (number, line) in input.lines().enumerate() {
        let line = line.context("cannot read standard input")?;
        let choose = |board: &Board| choose(&mut mover, board, limits).0;
        match bot.receive(&line, choose).with_context(|| format!("line {} from the moderator", number + 1))? {
            Step::Send(message) => send(out, &message)?,
            Step::Wait => {}
            Step::Exit(_) => return Ok(()),
        }
    }
    Ok(())
}

/// Speaks the coordinator's protocol on `input` and `out` until `quit` or
/// the end of the input. A line it cannot act on is reported on `errors`
/// and skipped: the coordinator decides what a missing answer costs.
///
/// # Errors
/// When stdin cannot be read or stdout is closed.
pub fn coordinator(
    rules: Rules,
    name: String,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> anyhow::Result<()> {
    let mut engine = Clocked(Mover::new(rules, Mover::HASH_BYTES)?);
    let mut bot = coordinator::Bot::new(rules, name);
    for (number, line) in input.lines().enumerate() {
        let line = line.context("cannot read standard input")?;
        match bot.receive(&line, &mut engine) {
            Ok(Some(answer)) => send(out, &answer)?,
            Ok(None) => {}
            Err(error) => writeln!(errors, "error: line {} from the coordinator: {error}", number + 1)?,
        }
        if bot.has_quit() {
            break;
        }
    }
    Ok(())
}

/// The mover searching within a time given per move.
struct Clocked(Mover);

impl Think for Clocked {
    fn best_move(&mut self, board: &Board, time: Duration) -> (Column, Value) {
        choose(&mut self.0, board, &Limits { depth: FULL_DEPTH, time_limit: Some(time) })
    }

    fn perft(&mut self, board: &Board, depth: u32) -> u64 {
        self.0.perft(board, depth)
    }
}

/// The move and its value; the protocols call this only on unfinished games.
fn choose(mover: &mut Mover, board: &Board, limits: &Limits) -> (Column, Value) {
    let result = mover.choose(board, limits).expect("the protocol asks for moves only in unfinished games");
    (result.column, result.value)
}

/// Prints one message and flushes it, so the other side sees it at once.
fn send(out: &mut dyn Write, message: &dyn std::fmt::Display) -> anyhow::Result<()> {
    writeln!(out, "{message}").and_then(|()| out.flush()).context("cannot write to standard output")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_moderator(input: &str, expected: &str) {
        let mut out = Vec::new();
        let result = moderator(Rules::Classic, &Limits::depth(2), &mut input.as_bytes(), &mut out);
        let actual = match result {
            Ok(()) => String::from_utf8(out).unwrap(),
            Err(error) => format!("{}error: {error:#}", String::from_utf8(out).unwrap()),
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
    fn coordinator_session() {
        let (mut out, mut errors) = (Vec::new(), Vec::new());
        let input = "name\nbogus\nposition startpos \nperft 3\nquit\nname\n";
        coordinator(Rules::Classic, "me-c1234567".into(), &mut input.as_bytes(), &mut out, &mut errors).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "me-c1234567\nperft 3 343\nquitting\n");
        assert_eq!(String::from_utf8(errors).unwrap(), "error: line 2 from the coordinator: unknown command 'bogus'\n");
    }
}
