//! Seating a player for a game: from its [`PlayerSpec`] and its colour, the
//! [`Competitor`] that plays it, whatever it is. A bot that talks on its
//! standard input is started here, once per game.

use std::path::Path;

use super::{Competitor, PlayerKind, PlayerSpec, STARTUP};
use super::{connectx, coordinator, http, human, moderator, pipe, program};
use crate::referee::Error;
use crate::referee::settings::Settings;
use maxconnect4_contain::captures::Captures;
use maxconnect4_contain::scratch::ScratchDir;
use maxconnect4_contain::{ContainError, Containment};
use maxconnect4_game::player::Player;

/// What every player of a game is seated with.
pub struct Seating<'a> {
    /// The game's name (a web bot is told it).
    pub game_id: &'a str,
    /// The rules and the limits the game is played under.
    pub settings: Settings,
    /// Where the captured output of the programs goes: one file per colour.
    pub output_directory: &'a Path,
    /// How programs are run; none when no program plays.
    pub containment: Option<&'a Containment>,
    /// The referee's working directory, which relative paths in commands
    /// are found from.
    pub base: &'a Path,
    /// Whether the captured output is kept after the run (not `check`'s).
    pub output_kept: bool,
}

/// The player `spec` as `colour`, ready for its first turn (a bot that
/// talks on its standard input is started now). Whether it can play from
/// the game's start was checked before the game ([`PlayerSpec::cannot_start`]).
///
/// # Errors
/// When the referee cannot run it (no containment, no copy of itself for
/// `self`, no folder).
pub fn seat<'a>(spec: &PlayerSpec, colour: Player, at: &Seating<'a>) -> Result<Box<dyn Competitor + 'a>, Error> {
    let path = at.output_directory.join(format!("{}.txt", colour.colour_name()));
    let captures = if at.output_kept { Captures::new(path) } else { Captures::passing(path) };
    let contained = || -> Result<(&'a Containment, ScratchDir), Error> {
        let containment = at.containment.ok_or(ContainError::Unsupported)?;
        let directory = containment
            .player_dir(&format!("{}-", colour.colour_name()))
            .map_err(|source| Error::io("create a player's folder in", &std::env::temp_dir(), source))?;
        Ok((containment, directory))
    };
    let (settings, base) = (at.settings, at.base);
    Ok(match spec.kind() {
        PlayerKind::Human => Box::new(human::Human),
        PlayerKind::Engine(play) => {
            let (containment, directory) = contained()?;
            Box::new(program::Program::engine(containment, directory, *play, settings, captures)?)
        }
        PlayerKind::Command(template) => {
            let (containment, mut directory) = contained()?;
            template.furnish(containment, &mut directory, base);
            Box::new(program::Program::new(containment, directory, template.clone(), settings, captures))
        }
        PlayerKind::Moderator(template) => {
            let (containment, directory) = contained()?;
            let conversation = pipe::Conversation::start(containment, template, settings.depth, directory, base);
            let protocol = moderator::Moderator(colour);
            Box::new(pipe::Bot::new(protocol, conversation, STARTUP.max(settings.timeout), captures))
        }
        PlayerKind::Coordinator(template) => {
            let (containment, directory) = contained()?;
            let conversation = pipe::Conversation::start(containment, template, settings.depth, directory, base);
            let protocol = coordinator::Coordinator(if colour == Player::One { 0 } else { 1 });
            Box::new(pipe::Bot::new(protocol, conversation, STARTUP.max(settings.timeout), captures))
        }
        PlayerKind::Http(url) => Box::new(http::Http::new(url, at.game_id, colour, settings, captures)),
        PlayerKind::ConnectX(template) => {
            let (containment, directory) = contained()?;
            Box::new(connectx::ConnectX::start(containment, template, directory, base, settings, captures))
        }
    })
}
