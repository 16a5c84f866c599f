//! What stops the referee itself, as opposed to a player's failure, which
//! is a forfeit in the game's record and never an error.

use std::io;
use std::path::{Path, PathBuf};

use super::chart::ChartError;
use super::log::LogError;
use crate::contain::ContainError;

/// What stops the referee itself (a player's failure is a forfeit, not an error).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Log(#[from] LogError),
    #[error(transparent)]
    Chart(#[from] ChartError),
    #[error(transparent)]
    Write(#[from] crate::atomic::Error),
    #[error("cannot {action} {}", path.display())]
    Io { action: &'static str, path: PathBuf, source: io::Error },
    #[error("{} is not a valid board file", path.display())]
    StartFile { path: PathBuf, source: crate::format::ParseError },
    #[error(transparent)]
    Contain(#[from] ContainError),
    /// A one-move turn could not be run (`self` failing to start).
    #[error(transparent)]
    Turn(#[from] crate::contain::turn::TurnError),
    /// What a player printed cannot be kept.
    #[error(transparent)]
    Captures(#[from] crate::contain::captures::WriteError),
    #[error("{0}")]
    Clash(String),
    #[error("a human player needs the terminal; tournaments have no human players")]
    NoTerminal,
    #[error("the terminal failed: {0}")]
    Terminal(String),
    /// Standard output or the terminal could not be written (its reader may
    /// have gone, as `| head` does).
    #[error("the terminal failed: {0}")]
    Output(#[source] io::Error),
    #[error("{0}")]
    Replay(String),
    #[error("{0}")]
    Tournament(String),
    #[error("the solver that adjudicates games cannot have its memory: {0}")]
    Adjudicator(#[from] crate::search::TableTooLarge),
}

impl Error {
    pub(super) fn io(action: &'static str, path: &Path, source: io::Error) -> Error {
        Error::Io { action, path: path.to_owned(), source }
    }

    pub(super) fn terminal(error: io::Error) -> Error {
        Error::Output(error)
    }
}
