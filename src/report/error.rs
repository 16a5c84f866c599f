//! What stops a report, as a kind; the text is what the user is shown
//! (with its causes after it, as `main` prints every error). A program's
//! run that gives no move is not an error: it is a failed cell of the
//! report, in the referee's words.

use std::io;
use std::path::PathBuf;

use super::chart::ChartError;
use super::measure::Algorithm;
use crate::bounded::BoardFileError;
use crate::contain::turn::TurnError;
use crate::contain::ContainError;

/// What stops a report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    BoardFile(#[from] BoardFileError),
    #[error("cannot read the directory {}", path.display())]
    ReadDirectory { path: PathBuf, source: io::Error },
    #[error("{} holds no board files", .0.display())]
    NoBoardFiles(PathBuf),
    /// The default positions' folder is there but cannot be read.
    #[error(
        "no --positions given, and the positions in {folder}/ cannot be read (without {folder}/ the course's \
         positions, built in, are used)"
    )]
    DefaultPositions { folder: &'static str, source: Box<Error> },
    #[error("every position is a finished game: there is nothing to search")]
    NothingToSearch,
    /// The program to time cannot be run here.
    #[error("cannot run the program")]
    Run(#[source] RunError),
    #[error(transparent)]
    Write(#[from] crate::whole::Error),
    #[error(transparent)]
    Csv(#[from] csv::Error),
    #[error(transparent)]
    Chart(#[from] ChartError),
    /// Standard output or standard error could not be written (its reader
    /// may have gone, as `| head` does): the error itself is the cause, so
    /// that `main` can tell.
    #[error("{0}")]
    Output(#[source] io::Error),
    /// A program played no move at all: the report is written, but has
    /// nothing to say of it. `program` is what the report calls it.
    #[error("{program} never played a move; the first failure, {first}; {} has every run", .report.display())]
    NeverPlayed { algorithm: Algorithm, program: String, first: String, report: PathBuf },
}

/// Why the program to time cannot be run at all (its runs' failures are
/// the report's cells, not errors).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("cannot {action} {}", path.display())]
    Io { action: &'static str, path: PathBuf, source: io::Error },
    #[error(transparent)]
    Contain(#[from] ContainError),
    #[error(transparent)]
    Turn(#[from] TurnError),
}
