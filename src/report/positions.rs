//! The positions a report searches from: the board files named, every file
//! of a directory named, or by default the course's positions. Those are
//! built into the program, so that a student can time their program from
//! their own folder: `input_files/` there is read instead when it exists, as
//! the files a student keeps beside their program are theirs to choose.

use std::path::{Path, PathBuf};

use super::timings::LabelledBoard;
use super::Error;
use crate::bounded::read_board_file;
use crate::format;

/// Where the positions come from when none are named, if it exists.
pub const DEFAULT_POSITIONS: &str = "input_files";

/// The course's positions, the files of the repository's `input_files/`, by
/// name: the default where there is no `input_files/` to read.
pub const BUILT_IN: [(&str, &str); 5] = [
    ("full.txt", include_str!("../../input_files/full.txt")),
    ("input1.txt", include_str!("../../input_files/input1.txt")),
    ("input2.txt", include_str!("../../input_files/input2.txt")),
    ("nearly_full.txt", include_str!("../../input_files/nearly_full.txt")),
    ("player2_next.txt", include_str!("../../input_files/player2_next.txt")),
];

/// Where the positions were read from, for the report to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Files and directories named with `--positions`.
    Named,
    /// The files of `input_files/` in the working directory.
    InputFiles,
    /// The course's positions built into the program.
    BuiltIn,
}

/// The position `name` of [`BUILT_IN`].
///
/// # Panics
/// When there is no such position: the names are this program's own.
#[must_use]
pub fn built_in(name: &str) -> LabelledBoard {
    let (_, text) = BUILT_IN.iter().find(|(n, _)| *n == name).expect("a built-in position");
    let board = format::parse(text.as_bytes()).expect("the built-in positions are valid board files").board;
    LabelledBoard { label: name.to_owned(), board }
}

/// Reads every position: each file named, every file of each directory
/// named (in name order), and when `paths` is empty, every file of
/// [`DEFAULT_POSITIONS`] if it is there, else [`BUILT_IN`].
///
/// # Errors
/// When a file or directory cannot be read, a directory holds no files, or
/// a file is not a board file.
pub fn load(paths: &[PathBuf]) -> Result<(Vec<LabelledBoard>, Source), Error> {
    let (paths, source) = if paths.is_empty() {
        let default = Path::new(DEFAULT_POSITIONS);
        if std::fs::symlink_metadata(default).is_err() {
            return Ok((BUILT_IN.iter().map(|(name, _)| built_in(name)).collect(), Source::BuiltIn));
        }
        let files = board_files_in(default)
            .map_err(|error| Error::DefaultPositions { folder: DEFAULT_POSITIONS, source: Box::new(error) })?;
        (files, Source::InputFiles)
    } else {
        let mut files = Vec::new();
        for path in paths {
            if path.is_dir() {
                files.extend(board_files_in(path)?);
            } else {
                files.push(path.clone());
            }
        }
        (files, Source::Named)
    };
    let name =
        |path: &Path| path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
    let names: Vec<String> = paths.iter().map(|path| name(path)).collect();
    let unique = (1..names.len()).all(|i| !names[..i].contains(&names[i]));
    let positions = paths
        .iter()
        .zip(names)
        .map(|(path, name)| {
            let label = if unique { name } else { path.display().to_string() };
            Ok(LabelledBoard { label, board: read_board_file(path)?.board })
        })
        .collect::<Result<_, Error>>()?;
    Ok((positions, source))
}

/// The files directly in `directory` (not its subdirectories), in name order.
fn board_files_in(directory: &Path) -> Result<Vec<PathBuf>, Error> {
    let error = |source| Error::ReadDirectory { path: directory.to_owned(), source };
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(directory).map_err(error)? {
        let entry = entry.map_err(error)?;
        if entry.file_type().map_err(error)?.is_file() {
            paths.push(entry.path());
        }
    }
    if paths.is_empty() {
        return Err(Error::NoBoardFiles(directory.to_owned()));
    }
    paths.sort();
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_positions_are_the_files_of_input_files() {
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_POSITIONS);
        let (files, _) = load(&[shipped]).unwrap();
        let built: Vec<LabelledBoard> = BUILT_IN.iter().map(|(name, _)| built_in(name)).collect();
        assert_eq!(files, built, "every file of input_files/, in name order, and nothing else");
    }
}
