//! A Kaggle ConnectX agent (`connectx:PATH.py`), hosted: the harness of
//! `protocol::connectx` is run with the user's `python3` (resolved as a
//! one-move program's is, in the sandbox), loads the agent's file once per
//! game and plays it on a pipe through `pipe`, like the arenas' bots.
//!
//! What this adds to a pipe bot is Kaggle's time: a move has `actTimeout`
//! (the referee's `--timeout`), and time beyond it is drawn from an
//! overage budget, the agent forfeiting on time only once that is spent.
//! The budget is the game's `--clock` when it has one (a move may then use
//! whatever is left on the clock, which the game counts as for any player),
//! else [`overage`]: Kaggle's 60 s would let a hostile agent hold a class
//! tournament a minute a game. The agent is told the real figure each move.

use std::path::Path;
use std::time::Duration;

use super::pipe::{Bot, Conversation, Protocol};
use super::{Ask, Competitor, End, STARTUP, Turn};
use crate::protocol::connectx::{Configuration, HARNESS, Host};
use crate::referee::Error;
use crate::referee::console::Console;
use crate::referee::settings::Settings;
use maxconnect4_contain::Containment;
use maxconnect4_contain::captures::Captures;
use maxconnect4_contain::scratch::ScratchDir;
use maxconnect4_contain::template::Template;

/// The overage budget of a game without a clock: one move's time again,
/// so that an agent holds a game at most one move longer than any other
/// player may.
#[must_use]
pub const fn overage(timeout: Duration) -> Duration {
    timeout
}

/// The protocol of a ConnectX agent, configured for its game.
struct Kaggle(Configuration);

impl Protocol for Kaggle {
    type Host = Host;

    fn host(&self, startup: Duration) -> Host {
        Host::new(self.0.clone(), startup)
    }
}

/// A ConnectX agent playing a game.
pub struct ConnectX {
    bot: Bot<Host>,
    /// The game's clock, which is the overage budget when there is one.
    clock: Option<Duration>,
    /// What is left of the overage budget of a game without a clock.
    overage: Duration,
}

impl ConnectX {
    /// Starts `template` (`python3 PATH.py`, which the harness is slipped
    /// into) in `directory`, to play a game under `settings`; a failure to
    /// start is its forfeit on its first turn.
    #[must_use]
    pub fn start(
        containment: &Containment,
        template: &Template,
        directory: ScratchDir,
        base: &Path,
        settings: Settings,
        captures: Captures,
    ) -> ConnectX {
        let leading = [("-c", "-c"), (HARNESS, "<the ConnectX harness>")];
        let conversation = Conversation::start_after(containment, template, settings.depth, directory, base, &leading);
        let protocol = Kaggle(Configuration::new(settings.timeout));
        ConnectX {
            bot: Bot::new(protocol, conversation, STARTUP.max(settings.timeout), captures),
            clock: settings.clock,
            overage: overage(settings.timeout),
        }
    }
}

impl Competitor for ConnectX {
    /// The turn's time with the overage left added, the agent told that
    /// overage; then what the move took beyond its time drawn from it.
    fn play(&mut self, ask: &Ask<'_>, console: Option<&mut Console<'_>>) -> Result<Turn, Error> {
        let overage = match self.clock {
            Some(_) => ask.left[ask.board.to_move().index()].saturating_sub(ask.time),
            None => self.overage,
        };
        self.bot.host_mut().set_overage(overage);
        // Out of time with a clock is out of its clock; else a timeout of
        // the move's time and the overage together.
        let extended = Ask { time: ask.time + overage, clock: self.clock, ..*ask };
        let turn = self.bot.play(&extended, console)?;
        if self.clock.is_none() {
            self.overage = self.overage.saturating_sub(turn.wall.saturating_sub(ask.time));
        }
        Ok(turn)
    }

    fn finish(&mut self, end: End) -> Result<(), Error> {
        self.bot.finish(end)
    }
}
