//! The pre-flight check: each player started on a fresh board, as red, under
//! the same sandbox, limits and code as a game's (it is seated by
//! [`player::seat`] and asked by [`player::Competitor::play`]), and asked for one
//! move: it starts, it sees the files its command names, it answers a legal
//! move in time, or the verdict says what went wrong, before a tournament
//! plays a hundred games of forfeits.

use maxconnect4_game::printable::{LINE, file_name, printable};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use crate::protocol::verdict::Forfeit;
use crate::referee::Error;
use crate::referee::gradebook::{self, Check, Row};
use crate::referee::player::{self, Ask, End, PlayerSpec, Seating};
use crate::referee::seat::{self, Seat};
use crate::referee::settings::Settings;
use maxconnect4_contain::Containment;
use maxconnect4_contain::sandbox::Isolation;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::player::Player;

/// How one player did.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The name shown for the player.
    pub name: String,
    /// The command, as given.
    pub command: String,
    /// Its move on the empty board, or why it forfeited.
    pub result: Result<Column, Forfeit>,
    /// The wall-clock time of the move.
    pub wall: Duration,
}

impl Checked {
    /// One line for the terminal: `ok` or `FAILED`, the name and what
    /// happened.
    #[must_use]
    pub fn line(&self) -> String {
        // A class's folder names may hold anything.
        let (name, command) = (printable(&self.name, LINE), printable(&self.command, LINE));
        match &self.result {
            Ok(column) => {
                let seconds = self.wall.as_secs_f64();
                format!("ok      {name} ({command}): started and played column {column} in {seconds:.3} s")
            }
            Err(forfeit) => format!("FAILED  {name} ({command}): {}", printable(&forfeit.to_string(), usize::MAX)),
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
    output_kept: bool,
) -> Result<Vec<Checked>, Error> {
    let board = Board::empty();
    let base = std::env::current_dir().map_err(|source| Error::Io { action: "find", path: ".".into(), source })?;
    let mut checked = Vec::new();
    for seat in seats.iter().filter(|seat| !seat.spec.is_human()) {
        let output_directory = output.join(file_name(&seat.name));
        let seating = Seating {
            game_id: "check",
            settings,
            output_directory: &output_directory,
            containment,
            base: &base,
            output_kept,
        };
        let mut competitor = player::seat(&seat.spec, Player::One, &seating)?;
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
        let (name, command) = (seat.name.clone(), seat.spec.command().to_owned());
        checked.push(Checked { name, command, result: turn.result, wall: turn.wall });
    }
    Ok(checked)
}

/// `maxconnect4 check --class CLASS`: the program in each folder of `class`
/// found and built ([`class`](crate::referee::class)), then each, and each of
/// `players`, checked as [`check_players`] does, one line each on `out`
/// saying what was found, the command and the move or why not. Returns how
/// many failed, and how many were checked.
///
/// # Errors
/// When the class folder cannot be read, or the referee cannot run the
/// check.
pub fn check_class(
    class: &Path,
    players: &[PlayerSpec],
    settings: Settings,
    isolation: Isolation,
    gradebook: Option<&Path>,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<(usize, usize), Error> {
    // Refused before a program is built, not after.
    if let Some(gradebook) = gradebook {
        maxconnect4_io::whole::check(gradebook)?;
    }
    // No player sees the class's folder: each has its own submission's copy.
    let isolation = isolation.hiding(class);
    let prepared = crate::referee::class::prepare(class, isolation.clone(), warnings)?;
    let mut seats: Vec<Seat> =
        prepared.entrants.iter().map(|entrant| Seat::new(&entrant.name, entrant.spec.clone())).collect();
    seats.extend(players.iter().enumerate().map(|(index, spec)| Seat::new(&(index + 1).to_string(), spec.clone())));
    let output = tempfile::tempdir().map_err(|source| Error::Io { action: "make", path: "a folder".into(), source })?;
    let containment = seat::containment(&seats, isolation, &[output.path()], warnings)?;
    let mut checked = check(&seats, settings, containment.as_ref(), output.path(), false)?;
    for (checked, entrant) in checked.iter_mut().zip(&prepared.entrants) {
        checked.name = format!("{} [{}]", entrant.name, entrant.found);
    }
    for checked in &checked {
        writeln!(out, "{}", checked.line()).map_err(Error::terminal)?;
    }
    if let Some(gradebook) = gradebook {
        let rows: Vec<Row> = checked
            .iter()
            .zip(&prepared.entrants)
            .map(|(checked, entrant)| Row {
                student: entrant.name.clone(),
                program: entrant.found.clone(),
                check: if checked.result.is_ok() { Check::Passed } else { Check::Failed },
                reason: checked.result.as_ref().err().map(ToString::to_string).unwrap_or_default(),
                earned: None,
            })
            .collect();
        maxconnect4_io::whole::write(gradebook, gradebook::csv(&rows).as_bytes())?;
        writeln!(out, "Gradebook written to {}.", gradebook.display()).map_err(Error::terminal)?;
    }
    Ok((checked.iter().filter(|checked| checked.result.is_err()).count(), checked.len()))
}

/// `maxconnect4 check`: each of `players` (named 1, 2, ... in the order
/// given) asked for one move on the empty board under `settings`, as in a
/// game, one line each on `out`. Returns how many failed; what each printed
/// is kept only while the check runs.
///
/// # Errors
/// When the referee cannot run the check.
pub fn check_players(
    players: &[PlayerSpec],
    settings: Settings,
    isolation: Isolation,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<usize, Error> {
    let seats: Vec<Seat> =
        players.iter().enumerate().map(|(index, spec)| Seat::new(&(index + 1).to_string(), spec.clone())).collect();
    let output = tempfile::tempdir().map_err(|source| Error::Io { action: "make", path: "a folder".into(), source })?;
    let containment = seat::containment(&seats, isolation, &[output.path()], warnings)?;
    let checked = check(&seats, settings, containment.as_ref(), output.path(), false)?;
    for checked in &checked {
        writeln!(out, "{}", checked.line()).map_err(|source| Error::Io {
            action: "write to",
            path: "standard output".into(),
            source,
        })?;
    }
    Ok(checked.iter().filter(|checked| checked.result.is_err()).count())
}
