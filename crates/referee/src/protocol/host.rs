//! The host's side of the protocols, the parts they share: what a bot's
//! answers come to ([`Fault`], in the words of the verdict the referee
//! gives), and the shape of a host's state machine for a bot on a pipe
//! ([`PipeHost`]), fed the bot's answers and returning what to send.
//!
//! The referee hosts bots of each arena's protocol. Its process layer reads
//! and writes their pipes (against deadlines and limits, in
//! `referee::player::pipe`) and its HTTP layer POSTs to web bots; what the
//! bytes mean, what comes next and why a bot forfeits are decided here, so
//! that the tests drive the host's side without starting a process, as
//! they drive the bot's side.

use std::time::Duration;

use crate::protocol::LINE_LIMIT;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::rules::Outcome;

/// Why a bot loses the game, in the words of the referee's verdict: the
/// kinds map one to one onto the referee's forfeits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It could not get ready for the game.
    FailedToStart(String),
    /// It gave no answer: it ended, or closed its output.
    NoOutput(String),
    /// It answered something that is not an answer.
    Garbage(String),
    /// It named a full column.
    Illegal(Column),
    /// The turn's time ran out: the referee knows whether the move's or the
    /// game clock's.
    OutOfTime,
}

/// Why no answer came from a bot on a pipe, as its process layer saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Silence {
    /// The deadline passed.
    Deadline,
    /// The bot ended, closed its standard output or stopped reading its
    /// standard input; in words.
    Gone(String),
    /// It printed more than [`LINE_LIMIT`] bytes without an answer.
    Flood,
}

/// What the host does after a step: the lines of [`Step::send`] are sent
/// first, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Then {
    /// Read the bot's next answer, as [`PipeHost::take`] cuts its output,
    /// and give it to [`PipeHost::heard`]; if none comes, tell
    /// [`PipeHost::silent`].
    Listen,
    /// Look a moment whether the bot printed something no one asked for,
    /// and tell [`PipeHost::looked`].
    Look,
    /// The greeting is over: the bot is ready for its first turn.
    Ready,
    /// The bot's move, playable on the turn's board.
    Move(Column),
    /// The bot forfeits.
    Fault(Fault),
}

impl From<Result<Column, Fault>> for Then {
    /// The end of a turn: a move or a fault.
    fn from(result: Result<Column, Fault>) -> Then {
        result.map_or_else(Then::Fault, Then::Move)
    }
}

/// What a host's state machine asks its process layer to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Lines to send the bot, without their line breaks.
    pub send: Vec<String>,
    /// What to do once they are sent.
    pub then: Then,
}

impl Step {
    /// Nothing to send, then `then`.
    #[must_use]
    pub const fn then(then: Then) -> Step {
        Step { send: Vec::new(), then }
    }

    /// The bot forfeits.
    #[must_use]
    pub const fn fault(fault: Fault) -> Step {
        Step::then(Then::Fault(fault))
    }
}

/// A turn as a host tells it to a bot.
#[derive(Clone, Copy, Debug)]
pub struct Situation<'a> {
    /// The board the bot is to move on.
    pub board: &'a Board,
    /// The moves from the empty board to `board`, when the game started
    /// from moves.
    pub history: Option<&'a [Column]>,
    /// What each player (the first, the second) has left: its clock, or
    /// the time per move when the game has no clock.
    pub left: [Duration; 2],
}

/// The host's side of a protocol spoken on a bot's standard input and
/// output, without I/O: the process layer calls [`greet`](PipeHost::greet)
/// once, then [`turn`](PipeHost::turn) on each of the bot's turns, and
/// carries out each [`Step`] until it ends in [`Then::Ready`], a move or a
/// fault.
pub trait PipeHost {
    /// Takes the bot's next answer from its unread output `pending`
    /// (removing what it takes), if a whole one is there; `closed` says
    /// that no more will come.
    fn take(pending: &mut Vec<u8>, closed: bool) -> Option<String>;

    /// The exchange when the game starts.
    fn greet(&mut self) -> Step;

    /// The start of the bot's turn on `position`.
    fn turn(&mut self, position: &Situation<'_>) -> Step;

    /// The bot's answer, as [`take`](PipeHost::take) cut it.
    fn heard(&mut self, answer: &str) -> Step;

    /// What the bot printed when no answer was due (all of it, trimmed), or
    /// `None` when it printed nothing.
    fn looked(&mut self, unasked: Option<&str>) -> Step;

    /// No answer came.
    fn silent(&mut self, silence: Silence) -> Fault;

    /// A line of the last step could not be sent: the bot is gone, `how`.
    fn refused(&mut self, how: String) -> Fault {
        self.silent(Silence::Gone(how))
    }

    /// The line that ends the game for the bot: the outcome, `None` when
    /// the other player forfeited.
    fn goodbye(&self, outcome: Option<Outcome>) -> String;
}

/// The fault of a bot that did not print `wanted` while getting ready,
/// within `startup`.
#[must_use]
pub fn failed_to_start(silence: Silence, startup: Duration, wanted: &str) -> Fault {
    Fault::FailedToStart(match silence {
        Silence::Deadline => format!("it printed no '{wanted}' within {} s", startup.as_secs_f64()),
        Silence::Gone(how) => format!("{how} before printing '{wanted}'"),
        Silence::Flood => format!("it printed too much before '{wanted}'"),
    })
}

/// The fault of a bot that gave no answer on its turn.
#[must_use]
pub fn no_answer(silence: Silence) -> Fault {
    match silence {
        Silence::Deadline => Fault::OutOfTime,
        Silence::Gone(how) => Fault::NoOutput(format!("{how} without answering")),
        Silence::Flood => Fault::Garbage(format!("it printed more than {} KiB without an answer", LINE_LIMIT / 1024)),
    }
}

/// The fault of a bot that printed `text` before its turn: a turn starts
/// with no answer pending.
#[must_use]
pub fn unasked(text: &str) -> Fault {
    Fault::Garbage(format!("it printed '{}' when no move was asked", shortened(text)))
}

/// The fault of a bot that printed `text` after its answer `answered`.
#[must_use]
pub fn second_answer(answered: &str, text: &str) -> Fault {
    Fault::Garbage(format!("it answered {answered} and then '{}'; one move a turn", shortened(text)))
}

/// The bot's answer `column` on `board`, judged: the move.
///
/// # Errors
/// An illegal move when the column is full.
pub fn judged(board: &Board, column: Column) -> Result<Column, Fault> {
    if board.can_play(column) { Ok(column) } else { Err(Fault::Illegal(column)) }
}

/// What a bot printed, cut for a verdict.
#[must_use]
pub fn shortened(text: &str) -> String {
    const LIMIT: usize = 40;
    match text.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}...", text[..cut].escape_debug()),
        None => text.escape_debug().to_string(),
    }
}

/// Takes the next line that is not blank from `pending`, trimmed; the last
/// line need not end with a line break when no more will come.
pub fn next_line(pending: &mut Vec<u8>, closed: bool) -> Option<String> {
    loop {
        let line: Vec<u8> = match pending.iter().position(|&byte| byte == b'\n') {
            Some(end) => pending.drain(..=end).collect(),
            None if closed && !pending.is_empty() => std::mem::take(pending),
            None => return None,
        };
        let text = String::from_utf8_lossy(&line).trim().to_owned();
        if !text.is_empty() {
            return Some(text);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Takes every line `next_line` finds in `output`, as if the bot had
    /// ended (`closed`) or not.
    fn check(output: &str, closed: bool, expected: &[&str], left: &str) {
        let mut pending = output.as_bytes().to_vec();
        let lines: Vec<String> = std::iter::from_fn(|| next_line(&mut pending, closed)).collect();
        assert_eq!(lines, expected, "output {output:?}");
        assert_eq!(String::from_utf8(pending).unwrap(), left, "output {output:?}");
    }

    #[test]
    fn lines_are_taken_whole_and_blank_ones_skipped() {
        check("readyok\r\n\n  bestmove 3 0 \nbest", false, &["readyok", "bestmove 3 0"], "best");
        check("bestmove 3 0", false, &[], "bestmove 3 0");
        check("\n\nbestmove 3 0", true, &["bestmove 3 0"], "");
        check("\n \n", true, &[], "");
        assert_eq!(shortened("a\tb"), "a\\tb");
        assert_eq!(shortened(&"x".repeat(100)), format!("{}...", "x".repeat(40)));
    }

    /// Runs `host` from `step` as its process layer would, the bot's side
    /// scripted by `script`, one item each time a line is sent, the host
    /// listens or the host looks: when a line is sent, `!refuses HOW` (the
    /// bot no longer reads) or nothing; when it listens, `!deadline`,
    /// `!gone HOW`, `!flood` or the answer; when it looks, what the bot
    /// printed unasked (`` for nothing). Returns the lines sent (`> LINE`),
    /// the answers (`< ANSWER`), what was found unasked (`? TEXT`) and how
    /// the step ended, the fault in the verdict's words.
    pub fn drive<H: PipeHost>(host: &mut H, mut step: Step, script: &[&str]) -> Vec<String> {
        let mut script = script.iter().copied();
        let mut said = Vec::new();
        let end = loop {
            let mut refused = None;
            for line in &step.send {
                said.push(format!("> {line}"));
                if let Some(how) = script.clone().next().and_then(|item| item.strip_prefix("!refuses ")) {
                    script.next();
                    refused = Some(how.to_owned());
                    break;
                }
            }
            if let Some(how) = refused {
                break Then::Fault(host.refused(how));
            }
            step = match step.then {
                Then::Listen => match script.next().expect("the script goes on") {
                    "!deadline" => Step::fault(host.silent(Silence::Deadline)),
                    "!flood" => Step::fault(host.silent(Silence::Flood)),
                    item => match item.strip_prefix("!gone ") {
                        Some(how) => Step::fault(host.silent(Silence::Gone(how.to_owned()))),
                        None => {
                            said.push(format!("< {item}"));
                            host.heard(item)
                        }
                    },
                },
                Then::Look => {
                    let text = script.next().expect("the script goes on");
                    if !text.is_empty() {
                        said.push(format!("? {text}"));
                    }
                    host.looked((!text.is_empty()).then_some(text))
                }
                end => break end,
            };
        };
        assert_eq!(script.next(), None, "the script was not played to its end: {said:?}");
        said.push(match end {
            Then::Ready => "ready".to_owned(),
            Then::Move(column) => format!("move {}", column.number()),
            Then::Fault(Fault::FailedToStart(reason)) => format!("failed to start: {reason}"),
            Then::Fault(Fault::NoOutput(reason)) => format!("no output: {reason}"),
            Then::Fault(Fault::Garbage(reason)) => format!("unparseable answer: {reason}"),
            Then::Fault(Fault::Illegal(column)) => format!("illegal move: column {column} is full"),
            Then::Fault(Fault::OutOfTime) => "timeout".to_owned(),
            Then::Listen | Then::Look => unreachable!("the loop goes on"),
        });
        said
    }
}
