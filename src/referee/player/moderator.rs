//! A bot of the Connect 4 Moderator (seed 000), hosted: it prints `p`, is
//! told `1` (it moves first) or `2` (it answers `?`), then each of the
//! opponent's columns, and answers each with its own column 1-7; at the end
//! it is sent the end code (`-1`, `-2`, `-3`, or `0` after a forfeit). The
//! bot's output is read as the moderator reads it, one non-blank character
//! at a time, with [`protocol::moderator`]'s messages. Its protocol has no
//! start position, so it plays from the empty board only.

use std::time::{Duration, Instant};

use super::pipe::{Conversation, Silence};
use super::{Ask, Captures, Competitor, End, Turn};
use crate::protocol::moderator::{self as protocol, FromBot, ToBot};
use crate::referee::game::Console;
use crate::referee::log::Colour;
use crate::referee::verdict::{self, Forfeit};
use crate::referee::Error;

/// How long a bot has to exit by itself after the end code before it is
/// killed (the seed expects it to exit, without penalty if it does not).
pub const EXIT_GRACE: Duration = Duration::from_millis(500);

/// `moderator:COMMAND`.
pub struct Moderator {
    conversation: Conversation,
    colour: Colour,
    /// How long it has to say `p` (and `?`) when the game starts.
    startup: Duration,
    seated: bool,
    captures: Captures,
}

impl Moderator {
    #[must_use]
    pub const fn new(conversation: Conversation, colour: Colour, startup: Duration, captures: Captures) -> Moderator {
        Moderator { conversation, colour, startup, seated: false, captures }
    }

    /// Waits for the next message from the bot, one non-blank character.
    fn next(&mut self, deadline: Instant) -> Result<(String, Result<FromBot, protocol::ParseError>), Silence> {
        let character = self.conversation.answer(deadline, |pending, _| {
            let start = pending.iter().position(|byte| !byte.is_ascii_whitespace());
            let Some(start) = start else {
                pending.clear();
                return None;
            };
            let taken: Vec<u8> = pending.drain(..=start).skip(start).collect();
            Some(String::from_utf8_lossy(&taken).into_owned())
        })?;
        self.conversation.heard(&character);
        let message = character.parse();
        Ok((character, message))
    }

    /// Says where the bot sits and waits for its `p` (and `?` as green).
    fn seat(&mut self) -> Result<(), Forfeit> {
        let deadline = Instant::now() + self.startup;
        let expect = |moderator: &mut Moderator, wanted: FromBot| match moderator.next(deadline) {
            Ok((_, Ok(message))) if message == wanted => Ok(()),
            Ok((text, _)) => Err(Forfeit::FailedToStart(format!("it printed '{text}' where '{wanted}' was due"))),
            Err(Silence::Deadline) => Err(Forfeit::FailedToStart(format!(
                "it printed no '{wanted}' within {} s",
                moderator.startup.as_secs_f64()
            ))),
            Err(Silence::Gone(how)) => Err(Forfeit::FailedToStart(format!("{how} before printing '{wanted}'"))),
            Err(Silence::Flood) => Err(Forfeit::FailedToStart(format!("it printed too much before '{wanted}'"))),
        };
        expect(self, FromBot::Ready)?;
        let gone = |silence| match silence {
            Silence::Gone(how) => Forfeit::FailedToStart(how),
            _ => Forfeit::FailedToStart("it cannot be told its seat".to_owned()),
        };
        self.conversation.send(&ToBot::seat(self.colour.player())).map_err(gone)?;
        if self.colour == Colour::Green {
            expect(self, FromBot::Waiting)?;
        }
        self.seated = true;
        Ok(())
    }

    fn turn(&mut self, ask: &Ask<'_>) -> Result<crate::board::Column, Forfeit> {
        let deadline = Instant::now() + ask.time;
        // The opponent's last move; on red's first turn the seat asked, and
        // the answer may be there already.
        if let Some(&column) = ask.history.and_then(<[_]>::last) {
            if let Some(text) = self.conversation.unasked() {
                return Err(Forfeit::Garbage(format!("it printed '{}' when no move was asked", shortened(&text))));
            }
            self.conversation.send(&ToBot::Column(column)).map_err(|silence| super::pipe::forfeit(silence, ask))?;
        }
        let column = match self.next(deadline).map_err(|silence| super::pipe::forfeit(silence, ask))? {
            (_, Ok(FromBot::Move(column))) => column,
            (text, _) => return Err(Forfeit::Garbage(format!("expected a column 1-7, got '{text}'"))),
        };
        if let Some(text) = self.conversation.unasked() {
            return Err(Forfeit::Garbage(format!(
                "it answered {column} and then '{}'; one move a turn",
                shortened(&text)
            )));
        }
        verdict::judge_column(ask.board, column)
    }
}

impl Competitor for Moderator {
    fn play(&mut self, ask: &Ask<'_>, _: Option<&mut Console<'_>>) -> Result<Turn, Error> {
        if let Some(reason) = self.conversation.failed() {
            return Ok(Turn::lost(Forfeit::FailedToStart(reason.to_owned())));
        }
        if !self.seated {
            if let Err(forfeit) = self.seat() {
                return Ok(Turn::lost(forfeit));
            }
        }
        let started = Instant::now();
        let result = self.turn(ask);
        Ok(Turn { result, wall: started.elapsed(), cpu: None, ending: None })
    }

    fn finish(&mut self, end: End) -> Result<(), Error> {
        let mut grace = None;
        if !end.forfeited && self.seated {
            let code = end.outcome.map_or(protocol::End::Error, protocol::End::of);
            if self.conversation.send(&ToBot::End(code)).is_ok() {
                grace = Some(Instant::now() + EXIT_GRACE);
            }
        }
        self.conversation.finish(grace, &mut self.captures)
    }
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
