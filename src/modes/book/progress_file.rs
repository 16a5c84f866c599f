//! A book build's progress file on disk: `OUT.progress` (a shard's,
//! `OUT.shard-I-of-N.progress`), its first line naming the build and then a
//! `KEY VALUE MOVE` line for each position solved (`KEY VALUE` where the
//! rules' builds record no move), appended as it is solved
//! (what the lines mean is `search::book::build`'s). Opened locked, so that
//! one build at a time writes it, and read to its last whole line, so that
//! a build stopped while writing one resumes.

use std::collections::HashMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, BufRead as _, BufReader, Write};
use std::path::{Path, PathBuf};

use super::Error;
use crate::search::book::build::progress_values;
use crate::search::book::Known;
use crate::shard::Shard;

/// Opens the progress file at `path` of the build whose first line is
/// `header` for appending, locked for this build alone, and reads what an
/// earlier run of it solved; a new file gets the header.
///
/// # Errors
/// When the file is not a regular file, cannot be read or written, is the
/// progress of another build, or another build holds it (the same shard
/// run twice at once).
pub(super) fn open_progress(path: &Path, header: &str) -> Result<(File, HashMap<u64, Known>), Error> {
    let cannot = |source| Error::Write { path: path.to_owned(), source };
    // Read before it is opened for writing: a named pipe or another build's
    // file is refused untouched.
    read_known(path, header)?;
    let mut file = OpenOptions::new().create(true).append(true).open(path).map_err(cannot)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => return Err(Error::Busy { path: path.to_owned() }),
        Err(TryLockError::Error(error)) => return Err(cannot(error)),
    }
    // Read again now that no other build writes it.
    let (known, whole_lines) = read_known(path, header)?;
    // A last line cut short (the build stopped while writing it) goes, so
    // that the next line starts a line of its own.
    file.set_len(whole_lines).map_err(cannot)?;
    if whole_lines == 0 {
        writeln!(file, "{header}").map_err(cannot)?;
    }
    Ok((file, known))
}

/// The values the progress file at `path` gives and the bytes of its whole
/// lines, if it is the progress of the build whose first line is `header`;
/// none for no file (or no whole line).
///
/// # Errors
/// When the file cannot be read or is another build's.
fn read_known(path: &Path, header: &str) -> Result<(HashMap<u64, Known>, u64), Error> {
    match read_progress(path) {
        Ok(progress) if progress.header == header => Ok((progress.values, progress.whole_lines)),
        // Not one whole line: a build stopped before its first.
        Ok(progress) if progress.header.is_empty() => Ok((HashMap::new(), 0)),
        Ok(progress) => {
            Err(Error::OtherBuild { path: path.to_owned(), found: progress.header, wanted: header.to_owned() })
        }
        Err(Error::NoProgress { .. }) => Ok((HashMap::new(), 0)),
        Err(error) => Err(error),
    }
}

/// The progress file of a build writing `out`: `OUT.progress`, or a
/// shard's, `OUT.shard-I-of-N.progress`.
pub(super) fn progress_path(out: &Path, shard: Option<Shard>) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    if let Some(shard) = shard {
        name.push(format!(".shard-{}-of-{}", shard.index(), shard.count()));
    }
    name.push(".progress");
    PathBuf::from(name)
}

/// A progress file read: its first line and the values it gives, by key.
pub(super) struct Recorded {
    pub(super) header: String,
    pub(super) values: HashMap<u64, Known>,
    /// Bytes of its whole lines: a last line cut short lies beyond them.
    whole_lines: u64,
}

/// The progress file at `path`. A last line cut short (the build stopped
/// while writing it) is ignored; an empty file is a header of its own
/// (none), which no build names.
///
/// # Errors
/// When the file is absent ([`Error::NoProgress`]), cannot be read, or has
/// a bad line: not `KEY VALUE` or `KEY VALUE MOVE` with a value within the
/// rules' scores and a column, or a key given two values.
pub(super) fn read_progress(path: &Path) -> Result<Recorded, Error> {
    let cannot = |source| Error::Read { path: path.to_owned(), source };
    let file = match crate::bounded::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            return Err(Error::NoProgress { path: path.to_owned() })
        }
        Err(error) => return Err(cannot(error)),
    };
    let mut reader = BufReader::new(file);
    let mut lines = Vec::new();
    let mut whole_lines = 0;
    loop {
        let mut line = String::new();
        let read = reader.read_line(&mut line).map_err(cannot)?;
        if read == 0 || !line.ends_with('\n') {
            break;
        }
        whole_lines += read as u64;
        lines.push(line.trim_end().to_owned());
    }
    let Some(header) = lines.first().cloned() else {
        return Ok(Recorded { header: String::new(), values: HashMap::new(), whole_lines });
    };
    let values =
        progress_values(&header, &lines[1..]).map_err(|source| Error::BadLine { path: path.to_owned(), source })?;
    Ok(Recorded { header, values, whole_lines })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::search::book::build::{progress_header, ProgressLineError};
    use crate::search::book::BookSpec;

    #[test]
    fn a_shards_progress_file_is_named_for_it() {
        assert_eq!(progress_path(Path::new("b/max.book"), None), Path::new("b/max.book.progress"));
        let shard = "2/8".parse().ok();
        assert_eq!(progress_path(Path::new("max.book"), shard), Path::new("max.book.shard-2-of-8.progress"));
    }

    #[test]
    fn a_progress_file_is_read_to_its_last_whole_line_and_bad_lines_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.progress");
        let spec = BookSpec { rules: Rules::Classic, root: String::new(), depth: 1 };
        let first = progress_header(&spec, None);
        let read = |text: &str| {
            std::fs::write(&path, text).unwrap();
            match read_progress(&path) {
                Ok(progress) => Ok((progress.header, progress.values.len(), progress.whole_lines)),
                Err(Error::BadLine { source, .. }) => Err(source),
                Err(error) => panic!("{error}"),
            }
        };
        let whole = format!("{first}\n12 3\n13 -3\n");
        assert_eq!(read(&format!("{whole}14")), Ok((first.clone(), 2, whole.len() as u64)), "a cut line is not read");
        assert_eq!(read(&format!("{whole}12 3\n")), Ok((first.clone(), 2, whole.len() as u64 + 5)), "a line again");
        assert_eq!(read(""), Ok((String::new(), 0, 0)));
        assert_eq!(read(&format!("{whole}12 4\n")), Err(ProgressLineError::Again { line: 4, key: 12 }));
        let malformed = ProgressLineError::Malformed { line: 4, text: "12 19".to_owned() };
        assert_eq!(read(&format!("{whole}12 19\n")), Err(malformed));
        let max = progress_header(&BookSpec { rules: Rules::Max, ..spec }, None);
        assert_eq!(read(&format!("{max}\n12 19\n")).map(|read| read.1), Ok(1), "a Max value beyond a classic score");
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(read_progress(&path), Err(Error::NoProgress { .. })));
    }
}
