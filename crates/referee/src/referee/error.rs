//! What stops the referee itself, as opposed to a player's failure, which
//! is a forfeit in the game's record and never an error.

use std::io;
use std::path::{Path, PathBuf};

use super::chart::ChartError;
use super::log::LogError;
use maxconnect4_contain::ContainError;

/// Writes `warning` on a line of its own to `warnings`: what the person
/// running the referee is told beside its results (standard error, from
/// the command line). The library prints nothing itself, so that a caller
/// (a test, another front end) keeps what it is told. A warning that cannot
/// be written stops nothing.
pub fn warn(warnings: &mut dyn io::Write, warning: &dyn std::fmt::Display) {
    let _ = writeln!(warnings, "{warning}");
}

/// What stops the referee itself (a player's failure is a forfeit, not an error).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Log(#[from] LogError),
    #[error(transparent)]
    Chart(#[from] ChartError),
    #[error(transparent)]
    Write(#[from] maxconnect4_io::atomic::Error),
    #[error("cannot {action} {}", path.display())]
    Io { action: &'static str, path: PathBuf, source: io::Error },
    #[error("{} is not a valid board file", path.display())]
    StartFile { path: PathBuf, source: maxconnect4_game::format::ParseError },
    #[error(transparent)]
    Contain(#[from] ContainError),
    /// A one-move turn could not be run (`self` failing to start).
    #[error(transparent)]
    Turn(#[from] maxconnect4_contain::turn::TurnError),
    /// What a player printed cannot be kept.
    #[error(transparent)]
    Captures(#[from] maxconnect4_contain::captures::WriteError),
    #[error(
        "the log {} and the file of the games' moves would be the same path; give the log another extension, such as .jsonl",
        .0.display()
    )]
    LogIsMovesFile(PathBuf),
    #[error(
        "the log {} and the folder for the programs' output, {}, would be the same path; give the log another extension, such as .jsonl",
        .log.display(), .folder.display()
    )]
    LogIsOutputFolder { log: PathBuf, folder: PathBuf },
    #[error("{} is where the programs' output goes, but it is not a folder", .0.display())]
    OutputNotAFolder(PathBuf),
    /// A player that cannot play from the game's start.
    #[error("{name}: {reason}")]
    CannotStart { name: String, reason: &'static str },
    #[error("the class folder {} holds no folder, one per student", .0.display())]
    NoStudents(PathBuf),
    #[error("a human player needs the terminal; tournaments have no human players")]
    NoTerminal,
    #[error("the terminal failed: {0}")]
    Terminal(#[source] maxconnect4_io::prompt::PromptError),
    /// Standard output or the terminal could not be written (its reader may
    /// have gone, as `| head` does).
    #[error("the terminal failed: {0}")]
    Output(#[source] io::Error),
    #[error("{} holds no games", .0.display())]
    NoGames(PathBuf),
    #[error("{} holds {count} {}; there is no game {number}", .log.display(), if *.count == 1 { "game" } else { "games" })]
    NoSuchGame { log: PathBuf, count: usize, number: usize },
    /// A logged game that its own moves do not give.
    #[error("game {number} of {}: {fault}", .log.display())]
    BadGame { log: PathBuf, number: usize, fault: super::log::Fault },
    #[error("{} is not a tournament manifest: {source}", .path.display())]
    NotAManifest { path: PathBuf, source: serde_json::Error },
    /// Boxed: its paths and names would make every `Result` of the referee large.
    #[error(transparent)]
    Merge(Box<MergeError>),
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    #[error("the solver that adjudicates games cannot have its memory: {0}")]
    Adjudicator(#[from] maxconnect4_search::TableTooLarge),
}

/// Why a name cannot be a tournament player's.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Not usable as a file name, or holding the `+` of a game's id.
    #[error("'{0}' cannot be a player's name: use letters, digits, '-', '_' and '.', not '-' or '.' first")]
    Unusable(String),
    /// Given to two players.
    #[error("two players are named '{0}'")]
    Twice(String),
}

/// Why logs cannot be merged into one tournament's results.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{}: no such log", .0.display())]
    NoSuchLog(PathBuf),
    /// A folder given for a log that is no tournament's nor its shards'.
    #[error(
        "{}: no games.jsonl in it, nor in a folder in it; give a tournament's folder, its log, or a folder of its shards' folders",
        .0.display()
    )]
    NoLogIn(PathBuf),
    #[error(
        "{} and {} are manifests of different tournaments ({difference}); merge the shards of one tournament",
        .first.display(), .beside.display()
    )]
    Tournaments { first: PathBuf, beside: PathBuf, difference: String },
    #[error(
        "game {id} is in {} and in {} with different moves or results: these logs overlap; merge each shard's log once",
        .first.display(), .second.display()
    )]
    Overlap { id: String, first: PathBuf, second: PathBuf },
    #[error("{}: no games, and no manifest to name the players", paths(.0))]
    NoPlayers(Vec<PathBuf>),
    #[error("--anchor {0}: no player of these logs is named so")]
    NoAnchor(String),
    /// A game played under other settings than the first game's (or the
    /// manifest's, `said`).
    #[error(
        "{}: game {id} was played with {settings}, but {} says {want}; merge the games of one tournament",
        .log.display(), .said.display()
    )]
    Settings { log: PathBuf, id: String, settings: String, said: PathBuf, want: String },
    #[error("{}: '{name}' played game {id} as '{played}', but as '{command}' in {}", .log.display(), .said.display())]
    Command { log: PathBuf, name: String, id: String, played: String, command: String, said: PathBuf },
}

/// `paths`, comma-separated.
fn paths(paths: &[PathBuf]) -> String {
    paths.iter().map(|path| path.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// Why a tournament cannot be played as asked.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    #[error("a tournament needs at least two players")]
    TooFew,
    #[error(transparent)]
    Name(#[from] NameError),
    #[error(transparent)]
    Gauntlet(#[from] super::fixtures::GauntletError),
    #[error(
        "--adjudicate is for classic rules (--rules classic): only the classic solver proves a game's result early"
    )]
    AdjudicateClassicOnly,
    /// The log's games were played with other settings than the command line's.
    #[error(
        "the log of this tournament does not match the command line: {0}; resume with the same settings or use another --out directory"
    )]
    Resumed(String),
    #[error("the pre-flight check left none of the gauntlet's reference players")]
    NoReferenceLeft,
    #[error("the pre-flight check left no player to meet the gauntlet's reference players")]
    NoOpponentLeft,
    #[error(
        "{} failed the pre-flight check (their output is in {}); fix them, or pass --drop-failing to play without them, or --no-check to let them forfeit their games",
        .names.join(", "), .output.display()
    )]
    Preflight { names: Vec<String>, output: PathBuf },
    #[error("{} failed the pre-flight check, which leaves fewer than two players", .0.join(", "))]
    PreflightLeavesTooFew(Vec<String>),
}

impl From<MergeError> for Error {
    fn from(error: MergeError) -> Error {
        Error::Merge(Box::new(error))
    }
}

impl Error {
    pub(super) fn io(action: &'static str, path: &Path, source: io::Error) -> Error {
        Error::Io { action, path: path.to_owned(), source }
    }

    pub(super) fn terminal(error: io::Error) -> Error {
        Error::Output(error)
    }
}
