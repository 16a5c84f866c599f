//! What a program printed, kept in a file: a game's output directory has
//! one per colour, a report one per program timed.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The file that keeps what a program printed cannot be made or written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}", path.display())]
pub struct WriteError {
    /// The file that keeps what the program printed.
    pub path: PathBuf,
    /// The system's error.
    pub source: std::io::Error,
}

/// The file in a game's output directory that keeps what one side's
/// program printed, made when there is something to keep.
pub struct Captures {
    path: PathBuf,
    file: Option<File>,
    /// Whether the file outlives the referee's run, so that a reason may
    /// send the user to it.
    kept: bool,
}

impl Captures {
    /// The file at `path`, kept after the run, so that a reason may send
    /// the user to it; nothing is made until something is appended.
    #[must_use]
    pub const fn new(path: PathBuf) -> Captures {
        Captures { path, file: None, kept: true }
    }

    /// A file removed when the run ends (`check`'s): no reason names it.
    #[must_use]
    pub const fn passing(path: PathBuf) -> Captures {
        Captures { path, file: None, kept: false }
    }

    /// Whether the file is kept after the run.
    #[must_use]
    pub const fn kept(&self) -> bool {
        self.kept
    }

    /// Appends `text`, making the file (and its directory) first if need be.
    ///
    /// # Errors
    /// When it cannot be made or written.
    pub fn append(&mut self, text: &[u8]) -> Result<(), WriteError> {
        let error = |source| WriteError { path: self.path.clone(), source };
        if self.file.is_none() {
            if let Some(directory) = self.path.parent() {
                std::fs::create_dir_all(directory).map_err(error)?;
            }
            self.file = Some(File::create(&self.path).map_err(error)?);
        }
        self.file.as_mut().expect("made above").write_all(text).map_err(error)
    }

    /// Where the file is, or is made when something is appended.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}
