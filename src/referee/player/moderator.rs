//! A bot of the Connect 4 Moderator (seed 000), hosted: it prints `p`, is
//! told `1` (it moves first) or `2` (it answers `?`), then each of the
//! opponent's columns, and answers each with its own column 1-7; at the end
//! it is sent the end code (`-1`, `-2`, `-3`, or `0` after a forfeit). The
//! bot's output is read as the moderator reads it, one non-blank character
//! at a time, with [`protocol::moderator`]'s messages. Its protocol has no
//! start position, so it plays from the empty board only.

use std::fmt::Display;
use std::time::Instant;

use super::pipe::{failed_to_start, forfeit, nothing_unasked, one_answer, Conversation, Protocol, Silence};
use super::{Ask, End};
use crate::board::Column;
use crate::protocol::moderator::{self as protocol, FromBot, ToBot};
use crate::referee::log::Colour;
use crate::referee::verdict::{self, Forfeit};

/// `moderator:COMMAND`, playing `colour`.
pub struct Moderator(pub Colour);

/// The next message from the bot, one non-blank character, as printed and
/// as read.
fn next(talk: &mut Conversation, deadline: Instant) -> Result<(String, Option<FromBot>), Silence> {
    let character = talk.answer(deadline, |pending, _| {
        let Some(start) = pending.iter().position(|byte| !byte.is_ascii_whitespace()) else {
            pending.clear();
            return None;
        };
        let taken: Vec<u8> = pending.drain(..=start).skip(start).collect();
        Some(String::from_utf8_lossy(&taken).into_owned())
    })?;
    talk.heard(&character);
    let message = character.parse().ok();
    Ok((character, message))
}

impl Protocol for Moderator {
    /// `p`, the seat, and `?` from green.
    fn greet(&mut self, talk: &mut Conversation, deadline: Instant) -> Result<(), Forfeit> {
        let startup = deadline.saturating_duration_since(Instant::now());
        let expect = |talk: &mut Conversation, wanted: FromBot| match next(talk, deadline) {
            Ok((_, Some(message))) if message == wanted => Ok(()),
            Ok((text, _)) => Err(Forfeit::FailedToStart(format!("it printed '{text}' where '{wanted}' was due"))),
            Err(silence) => Err(failed_to_start(silence, startup, &wanted.to_string())),
        };
        expect(talk, FromBot::Ready)?;
        talk.send(&ToBot::seat(self.0.player())).map_err(|silence| failed_to_start(silence, startup, "p"))?;
        if self.0 == Colour::Green {
            expect(talk, FromBot::Waiting)?;
        }
        Ok(())
    }

    fn turn(&mut self, talk: &mut Conversation, ask: &Ask<'_>) -> Result<Column, Forfeit> {
        let deadline = Instant::now() + ask.time;
        // The opponent's last move; on red's first turn the seat asked, and
        // the answer may be there already.
        if let Some(&column) = ask.history.and_then(<[_]>::last) {
            nothing_unasked(talk)?;
            talk.send(&ToBot::Column(column)).map_err(|silence| forfeit(silence, ask))?;
        }
        let column = match next(talk, deadline).map_err(|silence| forfeit(silence, ask))? {
            (_, Some(FromBot::Move(column))) => column,
            (text, _) => return Err(Forfeit::Garbage(format!("expected a column 1-7, got '{text}'"))),
        };
        one_answer(talk, &column.to_string())?;
        verdict::judge_column(ask.board, column)
    }

    /// The end code: who won, or `0` when the opponent forfeited.
    fn goodbye(&self, end: End) -> Box<dyn Display> {
        Box::new(ToBot::End(end.outcome.map_or(protocol::End::Error, protocol::End::of)))
    }
}
