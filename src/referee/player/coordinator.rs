//! An engine of the coordinator (seed 001), hosted: asked its `name` and
//! `isready` when the game starts, then each turn told `position startpos
//! MOVES` (columns 0-6 from the empty board), `isready`, and `go ftime X
//! stime Y` (each side's milliseconds left), and read until `bestmove Z V`;
//! `quit` at the end. Lines are written and read with
//! [`protocol::coordinator`]'s messages.

use std::time::{Duration, Instant};

use super::moderator::{shortened, EXIT_GRACE};
use super::pipe::{forfeit, next_line, Conversation, Silence};
use super::{Ask, Captures, Competitor, End, Turn};
use crate::protocol::coordinator::{Command, Response};
use crate::referee::game::Console;
use crate::referee::verdict::{self, Forfeit};
use crate::referee::Error;

/// `coordinator:COMMAND`.
pub struct Coordinator {
    conversation: Conversation,
    /// How long it has to answer `name` and `isready` when the game starts.
    startup: Duration,
    ready: bool,
    captures: Captures,
}

impl Coordinator {
    #[must_use]
    pub const fn new(conversation: Conversation, startup: Duration, captures: Captures) -> Coordinator {
        Coordinator { conversation, startup, ready: false, captures }
    }

    /// Sends `command` and reads the answer, which must be what `wanted`
    /// accepts; `late` is the forfeit for no answer in time.
    fn ask<T>(
        &mut self,
        command: &Command,
        deadline: Instant,
        late: &dyn Fn(Silence) -> Forfeit,
        wanted: impl Fn(Response) -> Option<T>,
        expected: &str,
    ) -> Result<T, Forfeit> {
        self.conversation.send(command).map_err(late)?;
        let line = self.conversation.answer(deadline, next_line).map_err(late)?;
        self.conversation.heard(&line);
        line.parse().ok().and_then(wanted).ok_or_else(|| {
            Forfeit::Garbage(format!("expected '{expected}' after '{command}', got '{}'", shortened(&line)))
        })
    }

    /// `name` and `isready`, answered within the startup time.
    fn greet(&mut self) -> Result<(), Forfeit> {
        let deadline = Instant::now() + self.startup;
        let seconds = self.startup.as_secs_f64();
        let late = |silence| match silence {
            Silence::Deadline => Forfeit::FailedToStart(format!("it did not answer within {seconds} s")),
            Silence::Gone(how) => Forfeit::FailedToStart(format!("{how} before answering")),
            Silence::Flood => Forfeit::FailedToStart("it printed too much without answering".to_owned()),
        };
        let name = |response| match response {
            Response::Name(name) => Some(name),
            _ => None,
        };
        let to_start = |forfeit| match forfeit {
            Forfeit::Garbage(reason) => Forfeit::FailedToStart(reason),
            other => other,
        };
        self.ask(&Command::Name, deadline, &late, name, "NAME").map_err(to_start)?;
        self.ask(&Command::IsReady, deadline, &late, |r| (r == Response::ReadyOk).then_some(()), "readyok")
            .map_err(to_start)?;
        self.ready = true;
        Ok(())
    }

    fn turn(&mut self, ask: &Ask<'_>) -> Result<crate::board::Column, Forfeit> {
        let deadline = Instant::now() + ask.time;
        if let Some(text) = self.conversation.unasked() {
            return Err(Forfeit::Garbage(format!("it printed '{}' when no move was asked", shortened(&text))));
        }
        let history = ask.history.expect("a coordinator engine plays only games started from moves");
        let late = |silence| forfeit(silence, ask);
        self.conversation.send(&Command::Position(history.to_vec())).map_err(late)?;
        self.ask(&Command::IsReady, deadline, &late, |r| (r == Response::ReadyOk).then_some(()), "readyok")?;
        let [first, second] = ask.left.map(|left| u64::try_from(left.as_millis()).unwrap_or(u64::MAX));
        let go = Command::Go { first_ms: first, second_ms: second };
        let best = |response| match response {
            Response::BestMove { column, .. } => Some(column),
            _ => None,
        };
        let column = self.ask(&go, deadline, &late, best, "bestmove Z V")?;
        if let Some(text) = self.conversation.unasked() {
            return Err(Forfeit::Garbage(format!(
                "it answered bestmove {} and then '{}'; one move a turn",
                column.index(),
                shortened(&text)
            )));
        }
        verdict::judge_column(ask.board, column)
    }
}

impl Competitor for Coordinator {
    fn play(&mut self, ask: &Ask<'_>, _: Option<&mut Console<'_>>) -> Result<Turn, Error> {
        if let Some(reason) = self.conversation.failed() {
            return Ok(Turn::lost(Forfeit::FailedToStart(reason.to_owned())));
        }
        if !self.ready {
            if let Err(forfeit) = self.greet() {
                return Ok(Turn::lost(forfeit));
            }
        }
        let started = Instant::now();
        let result = self.turn(ask);
        Ok(Turn { result, wall: started.elapsed(), cpu: None, ending: None })
    }

    fn finish(&mut self, end: End) -> Result<(), Error> {
        let mut grace = None;
        if !end.forfeited && self.ready && self.conversation.send(&Command::Quit).is_ok() {
            grace = Some(Instant::now() + EXIT_GRACE);
        }
        self.conversation.finish(grace, &mut self.captures)
    }
}
