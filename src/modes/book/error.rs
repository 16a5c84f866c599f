//! Why a book was not read, built or merged: each kind names the file.

use std::io;
use std::path::PathBuf;

use crate::rules::Rules;
use crate::search::book::build::ProgressLineError;
use crate::search::book::format::BookError;
use crate::search::book::layers::RootError;
use crate::search::book::BookSpec;

/// Why a book, or a build's progress file, could not be used.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read the book {}", .path.display())]
    ReadBook {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{} is not a valid opening book", .path.display())]
    NotABook {
        path: PathBuf,
        #[source]
        source: BookError,
    },
    #[error(
        "{} is a {} book; --rules {} needs a {} one",
        .path.display(), .found.game_name(), .wanted.name(), .wanted.game_name()
    )]
    OtherRules { path: PathBuf, found: Rules, wanted: Rules },
    #[error("no book of depth {depth} from '{}'", .root.escape_debug())]
    NoBook {
        depth: u32,
        root: String,
        #[source]
        source: RootError,
    },
    #[error("cannot read {}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("cannot write {}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("cannot remove {}", .path.display())]
    Remove {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("cannot read {}: no such file", .path.display())]
    NoProgress { path: PathBuf },
    #[error("{} is being written by another build of the same book: let it finish", .path.display())]
    Busy { path: PathBuf },
    #[error(
        "{} is the progress of another build ('{found}', not '{wanted}'): remove it, or build what it names",
        .path.display()
    )]
    OtherBuild { path: PathBuf, found: String, wanted: String },
    #[error("{}, {source}", .path.display())]
    BadLine { path: PathBuf, source: ProgressLineError },
    #[error("{} is not a book's progress file: its first line is '{header}'", .path.display())]
    NotProgress { path: PathBuf, header: String },
    #[error(
        "{} is the progress of another build ({spec}) than {} ({first_spec}): merge the files of one build",
        .path.display(), .first.display()
    )]
    MixedBuilds { path: PathBuf, spec: BookSpec, first: PathBuf, first_spec: BookSpec },
    #[error(
        "{} and {} give the position {key} different values ({first_value} and {value}): they cannot both be right",
        .first.display(), .path.display()
    )]
    Disagree { first: PathBuf, path: PathBuf, key: u64, first_value: i32, value: i32 },
    #[error("no progress file to merge")]
    NothingToMerge,
    #[error(
        "{} names the position {key}, which is not {} moves from '{}': the file is damaged",
        .path.display(), .spec.depth, .spec.root
    )]
    Stranger { path: PathBuf, key: u64, spec: BookSpec },
    /// Positions of the deepest layer in none of the merged files;
    /// `shards` says which shards look absent, if any.
    #[error(
        "cannot write {}: {missing} of the {total} positions {depth} moves from the root are in none of the files{shards}",
        .path.display()
    )]
    Missing { path: PathBuf, missing: usize, total: usize, depth: u32, shards: String },
    #[error("{0} positions were not solved")]
    Unsolved(usize),
}
