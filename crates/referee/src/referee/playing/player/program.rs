//! A one-move program (a command template, or `self`) as a player: each
//! turn is run by `contain::turn` (the board file in the player's own
//! folder, the program contained with the turn's time, what it printed kept
//! in the game's output directory) and judged by the one-move protocol
//! ([`one_move::judge_turn`]). Whatever a player leaves in its folder can
//! cost it the game, never stop the referee.

use std::path::Path;
use std::time::Duration;

use super::{Ask, Competitor, End, Turn};
use crate::protocol::one_move;
use crate::referee::Error;
use crate::referee::console::Console;
use crate::referee::settings::Settings;
use maxconnect4_contain::Containment;
use maxconnect4_contain::captures::Captures;
use maxconnect4_contain::scratch::ScratchDir;
use maxconnect4_contain::template::{OwnPlay, Template};
use maxconnect4_contain::turn::{self, Given};

// What `referee::class` reads of a run, where it was before `contain::turn`.
pub(crate) use maxconnect4_contain::turn::{CAPTURE_LIMIT, describe, last_line};

/// A side's command, ready to run, and its working directory.
pub struct Program<'a> {
    containment: &'a Containment,
    template: Template,
    /// How this program plays when it is `self` or `perfect`, whose
    /// template is made anew each turn.
    own: Option<OwnPlay>,
    directory: ScratchDir,
    settings: Settings,
    captures: Captures,
}

impl<'a> Program<'a> {
    /// The program `template` makes, run in `directory` as `containment`
    /// says, its output kept in `captures`.
    #[must_use]
    pub const fn new(
        containment: &'a Containment,
        directory: ScratchDir,
        template: Template,
        settings: Settings,
        captures: Captures,
    ) -> Program<'a> {
        Program { containment, template, own: None, directory, settings, captures }
    }

    /// This program's own one-move mode, playing as `play` says.
    ///
    /// # Errors
    /// When the referee has no copy of its own executable.
    pub fn engine(
        containment: &'a Containment,
        directory: ScratchDir,
        play: OwnPlay,
        settings: Settings,
        captures: Captures,
    ) -> Result<Program<'a>, Error> {
        let executable = turn::own_executable(containment)?;
        let template = Template::engine(executable, settings.rules, play, settings.timeout / 2);
        Ok(Program { containment, template, own: Some(play), directory, settings, captures })
    }
}

impl Competitor for Program<'_> {
    fn play(&mut self, ask: &Ask<'_>, _: Option<&mut Console<'_>>) -> Result<Turn, Error> {
        let base = std::env::current_dir().map_err(|source| Error::io("find", Path::new("."), source))?;
        if let Some(play) = self.own {
            // `self` stops searching at half the time it has, so that it
            // never loses on time, clock or not.
            let executable = turn::own_executable(self.containment)?;
            self.template = Template::engine(executable, self.settings.rules, play, ask.time / 2);
        }
        let board_file = one_move::board_file(ask.board);
        let given =
            Given { board_file: board_file.as_bytes(), ply: ask.ply, depth: self.settings.depth, time: ask.time };
        let answer = turn::play(self.containment, &self.directory, &self.template, &given, &base, &mut self.captures)?;
        let kept = self.captures.kept().then(|| self.captures.path());
        let result = one_move::judge_turn(ask.board, &answer, ask.out_of_time(), kept);
        Ok(match answer.run() {
            None => Turn { result, wall: Duration::ZERO, cpu: None, ending: None },
            Some(run) => Turn { result, wall: run.wall, cpu: Some(run.cpu), ending: Some(describe(&run.ending)) },
        })
    }

    fn finish(&mut self, _: End) -> Result<(), Error> {
        Ok(())
    }
}
