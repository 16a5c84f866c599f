//! Where a mode's position comes from (a board file or a move string) and
//! how a board is written back.

use std::path::Path;

use super::Error;
use crate::board::Board;
use crate::bounded::read_board_file;
use crate::format::{self, BoardFile, LineEnding};
use crate::moves::Moves;
use crate::rules::Rules;
use crate::whole;

/// Where a position comes from: a board file or a move string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    File(std::path::PathBuf),
    /// The columns played from the empty board, `1` to `7` (`4453`).
    Moves(String),
}

impl Source {
    /// The position, with the line endings to write it back with (LF for
    /// a move string).
    ///
    /// # Errors
    /// When the file cannot be read or parsed, or the move string is not a
    /// game under `rules`.
    pub fn load(&self, rules: Rules) -> Result<BoardFile, Error> {
        match self {
            Source::File(path) => Ok(read_board_file(path)?),
            Source::Moves(moves) => Ok(BoardFile {
                board: Moves::board(rules, moves)
                    .map_err(|source| Error::MoveString { moves: moves.clone(), source })?,
                line_ending: LineEnding::Lf,
            }),
        }
    }

    /// How the position is named in messages.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Source::File(path) => path.display().to_string(),
            Source::Moves(moves) => format!("the position after '{moves}'"),
        }
    }
}

/// Writes `board` to `path` atomically (see [`atomic`]): a reader never sees
/// half a file, and on failure whatever was at `path` before is left as it was.
///
/// # Errors
/// When the directory is not writable or the rename fails.
pub fn save_board(path: &Path, board: &Board, line_ending: LineEnding) -> Result<(), whole::Error> {
    whole::write(path, format::write(board, line_ending).as_bytes())
}
