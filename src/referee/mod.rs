//! The referee: plays any one-move programs against each other, safely,
//! through board files, and keeps a log of every game.
//!
//! Programs written by others may hang, crash, print garbage or cheat; the
//! referee survives all of it, gives the game to the other side with a
//! reason, and leaves no process behind. [`game`] plays one game from
//! [`player`]s it runs through [`process`] (in a [`sandbox`], in folders of
//! [`scratch`]) and judges with [`verdict`]; [`log`] records it, [`replay`]
//! shows it again, and [`tournament`] plays every pair from a set of
//! openings and ranks them, with a [`chart`].

pub mod chart;
pub mod check;
pub mod game;
pub mod limits;
pub mod log;
pub mod player;
pub mod process;
pub mod replay;
pub mod sandbox;
pub mod scratch;
pub mod tournament;
pub mod verdict;

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use game::{Console, Game, Seat, Settings};
use log::{GameRecord, Log, LogError};
use player::{PlayerSpec, TemplateError};
use process::{ContainError, Containment};
use sandbox::Isolation;

/// What stops the referee itself (a player's failure is a forfeit, not an error).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error(transparent)]
    Log(#[from] LogError),
    #[error(transparent)]
    Chart(#[from] chart::ChartError),
    #[error("cannot {action} {}", path.display())]
    Io { action: &'static str, path: PathBuf, source: io::Error },
    #[error("{} is not a valid board file", path.display())]
    StartFile { path: PathBuf, source: crate::format::ParseError },
    #[error(transparent)]
    Contain(#[from] ContainError),
    #[error("`self`, this program's own executable, cannot be started: {0}")]
    OwnExecutable(String),
    #[error("{0}")]
    Clash(String),
    #[error("a human player needs the terminal; tournaments have no human players")]
    NoTerminal,
    #[error("the terminal failed: {0}")]
    Terminal(String),
    #[error("{0}")]
    Replay(String),
    #[error("{0}")]
    Tournament(String),
}

impl Error {
    fn io(action: &'static str, path: &Path, source: io::Error) -> Error {
        Error::Io { action, path: path.to_owned(), source }
    }

    fn terminal(error: io::Error) -> Error {
        Error::Terminal(error.to_string())
    }
}

/// Where a match starts.
pub enum Start {
    /// A board file, read when the match starts.
    File(PathBuf),
    /// The position after these moves from the empty board (none: the
    /// empty board).
    Moves(Vec<crate::board::Column>),
}

/// One game as the `match` command plays it.
pub struct MatchOptions {
    /// `self`, `human` or a command template for each colour.
    pub red: String,
    pub green: String,
    pub settings: Settings,
    pub start: Start,
    pub log: PathBuf,
    /// Print only the result, not every move.
    pub quiet: bool,
    pub isolation: Isolation,
}

/// Plays one game, showing it on `output` (and asking people on `input`),
/// appends it to the log and prints the result.
///
/// # Errors
/// When a player is not a usable command, the start file or the log cannot
/// be read, or the referee cannot write its files or use the terminal.
pub fn play_match(
    options: &MatchOptions,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<GameRecord, Error> {
    let seats = [Seat::new(&options.red, &options.red)?, Seat::new(&options.green, &options.green)?];
    let (start, history) = match &options.start {
        Start::File(path) => {
            let text = crate::bounded::board_file_bytes(path).map_err(|source| Error::io("read", path, source))?;
            let board =
                crate::format::parse(&text).map_err(|source| Error::StartFile { path: path.clone(), source })?.board;
            (board, None)
        }
        Start::Moves(moves) => {
            (moves.iter().fold(crate::board::Board::empty(), |board, &column| board.after(column)), Some(moves.clone()))
        }
    };
    for seat in &seats {
        if let Some(reason) = seat.spec.cannot_start(&start, history.as_deref()) {
            return Err(Error::Clash(format!("{}: {reason}", seat.side.name)));
        }
    }
    let output_root = log::output_directory(&options.log);
    if log::moves_file(&options.log) == options.log {
        return Err(Error::Clash(format!(
            "the log {} and the file of the games' moves would be the same path; \
             give the log another extension, such as .jsonl",
            options.log.display()
        )));
    }
    if output_root == options.log {
        return Err(Error::Clash(format!(
            "the log {} and the folder for the programs' output, {}, would be the same path; \
             give the log another extension, such as .jsonl",
            options.log.display(),
            output_root.display()
        )));
    }
    if output_root.exists() && !output_root.is_dir() {
        return Err(Error::Clash(format!(
            "{} is where the programs' output goes, but it is not a folder",
            output_root.display()
        )));
    }
    let mut log = Log::open(&options.log)?;
    let records = log.records()?;
    for warning in records.warnings(&options.log) {
        eprintln!("{warning}");
    }
    let id = next_id(&records, &output_root);
    let private = [options.log.as_path(), &log::moves_file(&options.log), &output_root];
    let containment = start_containment(&seats, options.isolation, &private)?;
    let output_directory = output_root.join(&id);
    let opening = history.as_ref().filter(|moves| !moves.is_empty()).map(|moves| moves_string(moves));
    let game = Game {
        id,
        seats: &seats,
        start,
        history,
        opening,
        settings: options.settings,
        output_directory,
        containment: containment.as_ref(),
    };
    let mut console = Console { input, output, show_moves: !options.quiet };
    let record = game.play(Some(&mut console))?;
    log.append(&record)?;
    let last = replay::positions(&record).map_err(Error::Replay)?.pop().expect("the start position");
    let kept = if game.output_directory.exists() {
        format!("; the programs' output is in {}", game.output_directory.display())
    } else {
        String::new()
    };
    let logged = format!("Game {} appended to {}{kept}.", record.id, options.log.display());
    // A blank line parts the summary from the boards above it, if any were shown.
    let shown = console.show_moves || seats.iter().any(|seat| matches!(seat.spec, PlayerSpec::Human));
    let separator = if shown { "\n" } else { "" };
    writeln!(console.output, "{separator}{}{logged}", game::summary(&record, &last)).map_err(Error::terminal)?;
    Ok(record)
}

/// Moves as a move string: one digit 1-7 each.
#[must_use]
pub fn moves_string(moves: &[crate::board::Column]) -> String {
    moves.iter().map(ToString::to_string).collect()
}

/// The number of the next game of a match log: one more than any number
/// used by a record or a line, skipping any whose output folder is there
/// already (a game whose line was lost).
fn next_id(records: &log::Records, output_root: &Path) -> String {
    let used = records.games.iter().filter_map(|record| record.id.parse::<usize>().ok());
    let lines = records.games.len() + records.skipped.len();
    let mut id = used.chain(std::iter::once(lines)).max().unwrap_or(0) + 1;
    while output_root.join(id.to_string()).exists() {
        id += 1;
    }
    id.to_string()
}

/// `maxconnect4 check`: each of `players` (named 1, 2, ... in the order
/// given) asked for one move on the empty board under `settings`, as in a
/// game, one line each on `out`. Returns how many failed; what each printed
/// is kept only while the check runs.
///
/// # Errors
/// When a player cannot be understood or the referee cannot run the check.
pub fn check_players(
    players: &[String],
    settings: Settings,
    isolation: Isolation,
    out: &mut dyn std::io::Write,
) -> Result<usize, Error> {
    let seats: Vec<Seat> = players
        .iter()
        .enumerate()
        .map(|(index, command)| Seat::new(&(index + 1).to_string(), command))
        .collect::<Result<_, _>>()?;
    let output = tempfile::tempdir().map_err(|source| Error::Io { action: "make", path: "a folder".into(), source })?;
    let containment = start_containment(&seats, isolation, &[output.path()])?;
    let checked = check::check(&seats, settings, containment.as_ref(), output.path())?;
    for checked in &checked {
        writeln!(out, "{}", checked.line()).map_err(|source| Error::Io {
            action: "write to",
            path: "standard output".into(),
            source,
        })?;
    }
    Ok(checked.iter().filter(|checked| checked.result.is_err()).count())
}

/// The means to run the programs among `seats`, none if there are none,
/// with the sandbox's warning printed when it is unavailable. Players never
/// see the `private` files.
fn start_containment(seats: &[Seat], isolation: Isolation, private: &[&Path]) -> Result<Option<Containment>, Error> {
    if seats.iter().all(|seat| matches!(seat.spec, PlayerSpec::Human | PlayerSpec::Http(_))) {
        return Ok(None);
    }
    let with_self = seats.iter().any(|seat| seat.spec == PlayerSpec::Engine);
    let (containment, warning) = Containment::start(isolation, with_self, private)?;
    if let Some(warning) = warning {
        eprintln!("{warning}");
    }
    Ok(Some(containment))
}
