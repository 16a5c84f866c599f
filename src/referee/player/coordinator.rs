//! An engine of the coordinator (seed 001), hosted: asked its `name` and
//! `isready` when the game starts, then each turn told `position startpos
//! MOVES` (columns 0-6 from the empty board), `isready`, and `go ftime X
//! stime Y` (each side's milliseconds left), and read until `bestmove Z V`;
//! `quit` at the end. Lines are written and read with
//! [`protocol::coordinator`]'s messages.

use std::fmt::Display;
use std::time::Instant;

use super::pipe::{
    failed_to_start, forfeit, next_line, nothing_unasked, one_answer, shortened, Conversation, Protocol, Silence,
};
use super::{Ask, End};
use crate::board::Column;
use crate::protocol::coordinator::{Command, Response};
use crate::referee::verdict::{self, Forfeit};

/// `coordinator:COMMAND`, the engine the real coordinator would call
/// `AI 0` (red) or `AI 1` (green).
pub struct Coordinator(pub usize);

/// Sends `command` and reads the answer, which `wanted` must accept (it is
/// described as `expected`); `late` is the forfeit for no answer.
fn ask<T>(
    talk: &mut Conversation,
    command: &Command,
    deadline: Instant,
    late: &dyn Fn(Silence) -> Forfeit,
    wanted: impl Fn(Response) -> Option<T>,
    expected: &str,
) -> Result<T, Forfeit> {
    talk.send(command).map_err(late)?;
    let line = talk.answer(deadline, next_line).map_err(late)?;
    talk.heard(&line);
    line.parse()
        .ok()
        .and_then(wanted)
        .ok_or_else(|| Forfeit::Garbage(format!("expected '{expected}' after '{command}', got '{}'", shortened(&line))))
}

/// `readyok`, as a `wanted` of [`ask`].
fn ready(response: Response) -> Option<()> {
    (response == Response::ReadyOk).then_some(())
}

impl Protocol for Coordinator {
    /// `name` and `isready`.
    fn greet(&mut self, talk: &mut Conversation, deadline: Instant) -> Result<(), Forfeit> {
        let startup = deadline.saturating_duration_since(Instant::now());
        let to_start = |forfeit| match forfeit {
            Forfeit::Garbage(reason) => Forfeit::FailedToStart(reason),
            other => other,
        };
        let name = |response| match response {
            Response::Name(name) => Some(name),
            _ => None,
        };
        let late = |silence| failed_to_start(silence, startup, "NAME");
        let engine = format!("AI {}", self.0);
        ask(talk, &Command::Name(engine.clone()), deadline, &late, name, "NAME").map_err(to_start)?;
        let late = |silence| failed_to_start(silence, startup, "readyok");
        ask(talk, &Command::IsReady(engine), deadline, &late, ready, "readyok").map_err(to_start)
    }

    fn turn(&mut self, talk: &mut Conversation, ask_: &Ask<'_>) -> Result<Column, Forfeit> {
        let deadline = Instant::now() + ask_.time;
        nothing_unasked(talk)?;
        let history = ask_.history.expect("a coordinator engine plays only games started from moves");
        let late = |silence| forfeit(silence, ask_);
        talk.send(&Command::Position(history.to_vec())).map_err(late)?;
        ask(talk, &Command::IsReady(format!("AI {}", self.0)), deadline, &late, ready, "readyok")?;
        let [first_ms, second_ms] = ask_.left.map(|left| u64::try_from(left.as_millis()).unwrap_or(u64::MAX));
        let best = |response| match response {
            Response::BestMove { column, .. } => Some(column),
            _ => None,
        };
        let column = ask(talk, &Command::Go { first_ms, second_ms }, deadline, &late, best, "bestmove Z V")?;
        one_answer(talk, &format!("bestmove {}", column.index()))?;
        verdict::judge_column(ask_.board, column)
    }

    fn goodbye(&self, _: End) -> Box<dyn Display> {
        Box::new(Command::Quit)
    }
}
