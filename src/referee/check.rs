//! The pre-flight check: each player started on a fresh board, as red, under
//! the same sandbox, limits and code as a game's (it is seated by
//! [`player::seat`] and asked by [`player::Competitor::play`]), and asked for one
//! move: it starts, it sees the files its command names, it answers a legal
//! move in time, or the verdict says what went wrong, before a tournament
//! plays a hundred games of forfeits.

use std::path::Path;
use std::time::Duration;

use super::game::{Game, Seat, Settings};
use super::log::Colour;
use super::player::{self, Ask, End};
use super::process::Containment;
use super::verdict::Forfeit;
use super::Error;
use crate::board::{Board, Column};

/// How one player did.
#[derive(Clone, Debug)]
pub struct Checked {
    pub name: String,
    /// The command, as given.
    pub command: String,
    /// Its move on the empty board, or why it forfeited.
    pub result: Result<Column, Forfeit>,
    pub wall: Duration,
}

impl Checked {
    /// One line for the terminal: `ok` or `FAILED`, the name and what
    /// happened.
    #[must_use]
    pub fn line(&self) -> String {
        match &self.result {
            Ok(column) => {
                let seconds = self.wall.as_secs_f64();
                format!(
                    "ok      {} ({}): started and played column {column} in {seconds:.3} s",
                    self.name, self.command
                )
            }
            Err(forfeit) => format!("FAILED  {} ({}): {forfeit}", self.name, self.command),
        }
    }
}

/// Checks every player of `seats` in turn, on the empty board, under
/// `settings`, each with its captured output in `output` (a folder per
/// player). A person is not checked.
///
/// # Errors
/// When the referee cannot do its part (its folders, `self`).
pub fn check(
    seats: &[Seat],
    settings: Settings,
    containment: Option<&Containment>,
    output: &Path,
) -> Result<Vec<Checked>, Error> {
    let board = Board::empty();
    let base = std::env::current_dir().map_err(|source| Error::Io { action: "find", path: ".".into(), source })?;
    let mut checked = Vec::new();
    for seat in seats.iter().filter(|seat| seat.spec != player::PlayerSpec::Human) {
        let pair = [seat.clone(), seat.clone()];
        let game = Game {
            id: "check".to_owned(),
            seats: &pair,
            start: board,
            history: Some(Vec::new()),
            opening: None,
            settings,
            output_directory: output.join(&seat.side.name),
            containment,
        };
        let mut competitor = player::seat(&game, Colour::Red, &base)?;
        let ask = Ask {
            board: &board,
            history: Some(&[]),
            ply: 1,
            time: settings.timeout,
            clock: None,
            left: [settings.timeout; 2],
        };
        let turn = competitor.play(&ask, None)?;
        competitor.finish(End { outcome: None, forfeited: true })?;
        let (name, command) = (seat.side.name.clone(), seat.side.command.clone());
        checked.push(Checked { name, command, result: turn.result, wall: turn.wall });
    }
    Ok(checked)
}
