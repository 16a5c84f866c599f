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
    /// The game log cannot be read, written or trusted.
    #[error(transparent)]
    Log(#[from] LogError),
    /// The standings chart cannot be made.
    #[error(transparent)]
    Chart(#[from] ChartError),
    /// An output file cannot be written, or its path is refused (a folder,
    /// a link, a missing folder).
    #[error(transparent)]
    Write(#[from] maxconnect4_io::whole::Error),
    /// A file or folder operation failed.
    #[error("cannot {action} {}", path.display())]
    Io {
        /// What was being done, as a verb: `read`, `make`.
        action: &'static str,
        /// What it was done to, a path or its description.
        path: PathBuf,
        /// Why it failed.
        source: io::Error,
    },
    /// The match's start position file does not parse.
    #[error("{} is not a valid board file", path.display())]
    StartFile {
        /// The board file.
        path: PathBuf,
        /// Why it does not parse.
        source: maxconnect4_game::format::ParseError,
    },
    /// The players cannot be contained: no folder, no sandbox, no copy of
    /// this program.
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
    /// The log's path, held here, is that of its own moves file.
    LogIsMovesFile(PathBuf),
    #[error(
        "the log {} and the folder for the programs' output, {}, would be the same path; give the log another extension, such as .jsonl",
        .log.display(), .folder.display()
    )]
    /// The log's path is that of its folder for the programs' output.
    LogIsOutputFolder {
        /// The log.
        log: PathBuf,
        /// The output folder it would be.
        folder: PathBuf,
    },
    /// Something other than a folder is where the programs' output goes.
    #[error("{} is where the programs' output goes, but it is not a folder", .0.display())]
    OutputNotAFolder(PathBuf),
    /// A player that cannot play from the game's start.
    #[error("{name}: {reason}")]
    CannotStart {
        /// The player's name.
        name: String,
        /// Why it cannot.
        reason: &'static str,
    },
    /// The class folder, held here, has no student's folder in it.
    #[error("the class folder {} holds no folder, one per student", .0.display())]
    NoStudents(PathBuf),
    /// A person is to play where there is no terminal to ask: in a
    /// tournament, or with no console given.
    #[error("a human player needs the terminal; tournaments have no human players")]
    NoTerminal,
    /// A person's move could not be read at the prompt.
    #[error("the terminal failed: {0}")]
    Terminal(#[source] maxconnect4_io::prompt::PromptError),
    /// Standard output or the terminal could not be written (its reader may
    /// have gone, as `| head` does).
    #[error("the terminal failed: {0}")]
    Output(#[source] io::Error),
    /// The log, held here, to show a game of has none.
    #[error("{} holds no games", .0.display())]
    NoGames(PathBuf),
    /// The game asked for is past the log's last.
    #[error("{} holds {count} {}; there is no game {number}", .log.display(), if *.count == 1 { "game" } else { "games" })]
    NoSuchGame {
        /// The log.
        log: PathBuf,
        /// The games it holds.
        count: usize,
        /// The game asked for, from 1.
        number: usize,
    },
    /// A logged game that its own moves do not give.
    #[error("game {number} of {}: {fault}", .log.display())]
    BadGame {
        /// The log.
        log: PathBuf,
        /// The game, from 1.
        number: usize,
        /// What does not hold up.
        fault: super::log::Fault,
    },
    /// The manifest beside a log is not JSON of a manifest.
    #[error("{} is not a tournament manifest: {source}", .path.display())]
    NotAManifest {
        /// The manifest file.
        path: PathBuf,
        /// Why it does not parse.
        source: serde_json::Error,
    },
    /// Boxed: its paths and names would make every `Result` of the referee large.
    #[error(transparent)]
    Merge(Box<MergeError>),
    /// The tournament cannot be played as asked.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// The adjudicating solver's table cannot be allocated.
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
    /// A log, at this path, is not a file.
    #[error("{}: no such log", .0.display())]
    NoSuchLog(PathBuf),
    /// A folder given for a log that is no tournament's nor its shards'.
    #[error(
        "{}: no games.jsonl in it, nor in a folder in it; give a tournament's folder, its log, or a folder of its shards' folders",
        .0.display()
    )]
    NoLogIn(PathBuf),
    /// Two logs' manifests describe different tournaments.
    #[error(
        "{} and {} are manifests of different tournaments ({difference}); merge the shards of one tournament",
        .first.display(), .beside.display()
    )]
    Tournaments {
        /// The first manifest read.
        first: PathBuf,
        /// The manifest that differs from it.
        beside: PathBuf,
        /// What differs, in words.
        difference: String,
    },
    /// A game is in two logs with different moves or results.
    #[error(
        "game {id} is in {} and in {} with different moves or results: these logs overlap; merge each shard's log once",
        .first.display(), .second.display()
    )]
    Overlap {
        /// The game's id.
        id: String,
        /// The log it was first read from.
        first: PathBuf,
        /// The log that has it otherwise.
        second: PathBuf,
    },
    /// The logs, listed here, hold no games and no manifest names a player.
    #[error("{}: no games, and no manifest to name the players", paths(.0))]
    NoPlayers(Vec<PathBuf>),
    /// The rating anchor, named here, plays in none of the logs.
    #[error("--anchor {0}: no player of these logs is named so")]
    NoAnchor(String),
    /// A game played under other settings than the first game's (or the
    /// manifest's, `said`).
    #[error(
        "{}: game {id} was played with {settings}, but {} says {want}; merge the games of one tournament",
        .log.display(), .said.display()
    )]
    Settings {
        /// The log holding the game.
        log: PathBuf,
        /// The game's id.
        id: String,
        /// The game's settings, in words.
        settings: String,
        /// The log or manifest that first gave the settings expected.
        said: PathBuf,
        /// The settings expected, in words.
        want: String,
    },
    /// A player played a game with another command than it has elsewhere.
    #[error("{}: '{name}' played game {id} as '{played}', but as '{command}' in {}", .log.display(), .said.display())]
    Command {
        /// The log holding the game.
        log: PathBuf,
        /// The player's name.
        name: String,
        /// The game's id.
        id: String,
        /// The command it played that game with.
        played: String,
        /// The command it has elsewhere.
        command: String,
        /// The log or manifest that first gave that command.
        said: PathBuf,
    },
}

/// `paths`, comma-separated.
fn paths(paths: &[PathBuf]) -> String {
    paths.iter().map(|path| path.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// Why a tournament cannot be played as asked.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// Fewer than two players were given.
    #[error("a tournament needs at least two players")]
    TooFew,
    /// A player's name cannot be a tournament player's.
    #[error(transparent)]
    Name(#[from] NameError),
    /// The gauntlet's references cannot be played.
    #[error(transparent)]
    Gauntlet(#[from] super::fixtures::GauntletError),
    /// `--adjudicate` was given for a game other than classic Connect-4.
    #[error(
        "--adjudicate is for classic rules (--rules classic): only the classic solver proves a game's result early"
    )]
    AdjudicateClassicOnly,
    /// The log's games were played with other settings than the command line's.
    #[error(
        "the log of this tournament does not match the command line: {0}; resume with the same settings or use another --out directory"
    )]
    Resumed(String),
    /// Every reference of the gauntlet failed the pre-flight check and was
    /// dropped.
    #[error("the pre-flight check left none of the gauntlet's reference players")]
    NoReferenceLeft,
    /// Every player but the gauntlet's references was dropped.
    #[error("the pre-flight check left no player to meet the gauntlet's reference players")]
    NoOpponentLeft,
    /// Players failed the pre-flight check and were not to be dropped.
    #[error(
        "{} failed the pre-flight check (their output is in {}); fix them, or pass --drop-failing to play without them, or --no-check to let them forfeit their games",
        .names.join(", "), .output.display()
    )]
    Preflight {
        /// The players that failed.
        names: Vec<String>,
        /// The folder holding their output.
        output: PathBuf,
    },
    /// Dropping the players named here, which failed the pre-flight
    /// check, leaves fewer than two.
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
