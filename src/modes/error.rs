//! Why a mode stopped, as a kind: each names what the user gave (a file, a
//! move string, a line of a batch) and what was wrong with it; the cause,
//! where there is one, is its source, which `main` prints after a colon.

use std::io;
use std::path::PathBuf;

use crate::bounded::BoardFileError;
use crate::moves::MoveStringError;
use crate::prompt::PromptError;
use crate::search::SolveError;
use crate::search::TableTooLarge;
use crate::whole;

/// Why a mode stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The terminal, standard input or standard output.
    // The I/O error itself, also as the source, where `main` looks for a
    // broken pipe (a reader that stopped reading).
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("cannot read {name}")]
    Read {
        /// The file, or `standard input`.
        name: String,
        #[source]
        source: io::Error,
    },
    #[error(transparent)]
    BoardFile(#[from] BoardFileError),
    #[error("bad move string '{}'", .moves.escape_debug())]
    MoveString {
        moves: String,
        #[source]
        source: MoveStringError,
    },
    /// An output that cannot be written where it was named.
    #[error(transparent)]
    Output(#[from] whole::Error),
    #[error(transparent)]
    Table(#[from] TableTooLarge),
    #[error(transparent)]
    Book(#[from] super::book::Error),
    /// A solve stopped by its time limit; `what` says which position, and
    /// what to try instead.
    #[error("{what}")]
    GaveUp {
        what: String,
        #[source]
        source: SolveError,
    },
    #[error(transparent)]
    Prompt(#[from] PromptError),
    /// Standard output failed after the move was made; `saved` is where it
    /// went. Not a source: `main` takes a broken pipe among the sources for
    /// a reader that stopped reading, but this one's move was the point.
    #[error(
        "standard output failed ({failure}){}",
        .saved.as_ref().map_or(String::new(), |path| format!("; the move was saved to {}", path.display()))
    )]
    Console { failure: io::Error, saved: Option<PathBuf> },
}
