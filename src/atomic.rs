//! Files written whole or not at all.
//!
//! Rival programs read the board files this program writes, and readers open
//! the report it writes, so a file must never be seen half written, and a
//! failure must leave whatever was there before as it was. Each file is
//! written in full to a temporary file in its own directory, then renamed over
//! the destination. Staging and renaming are separate steps so that a set of
//! files (a report) can all be written before any of them replaces an old one.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use tempfile::NamedTempFile;

/// A file written in full beside its destination, not yet in its place. If
/// it is dropped without [`put_in_place`](StagedFile::put_in_place), the
/// temporary file is deleted and the destination is untouched.
#[derive(Debug)]
pub struct StagedFile {
    temporary: NamedTempFile,
    destination: PathBuf,
}

/// Writes `contents` to a temporary file in the directory of `destination`.
///
/// # Errors
/// When the directory is not writable or the disk is full.
pub fn stage(destination: &Path, contents: &[u8]) -> anyhow::Result<StagedFile> {
    let context = || format!("cannot write {}", destination.display());
    let directory = match destination.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".maxconnect4-").suffix(".tmp");
    // A temporary file is private to its owner; the file it becomes should be
    // like any other the user creates (read-write, less the umask).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temporary = builder.tempfile_in(directory).with_context(context)?;
    temporary.write_all(contents).with_context(context)?;
    temporary.as_file().sync_all().with_context(context)?;
    Ok(StagedFile { temporary, destination: destination.to_owned() })
}

impl StagedFile {
    /// Renames the temporary file over the destination.
    ///
    /// # Errors
    /// When the rename fails; the temporary file is then deleted.
    pub fn put_in_place(self) -> anyhow::Result<()> {
        let destination = self.destination;
        self.temporary
            .persist(&destination)
            .map_err(|error| error.error)
            .with_context(|| format!("cannot write {}", destination.display()))?;
        Ok(())
    }
}

/// Writes `contents` to `destination` atomically: [`stage`], then put in place.
///
/// # Errors
/// When the directory is not writable or the rename fails.
pub fn write(destination: &Path, contents: &[u8]) -> anyhow::Result<()> {
    stage(destination, contents)?.put_in_place()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staged_file_replaces_the_old_one_only_when_put_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file.txt");
        std::fs::write(&path, "old").unwrap();
        let staged = stage(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        staged.put_in_place().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file is left behind");
    }

    #[cfg(unix)]
    #[test]
    fn a_written_file_has_the_permissions_of_any_new_file() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let mode = |name: &str| std::fs::metadata(dir.path().join(name)).unwrap().permissions().mode();
        std::fs::write(dir.path().join("plain.txt"), "text").unwrap();
        write(&dir.path().join("atomic.txt"), b"text").unwrap();
        assert_eq!(format!("{:o}", mode("atomic.txt")), format!("{:o}", mode("plain.txt")));
    }

    #[test]
    fn a_dropped_staged_file_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file.txt");
        std::fs::write(&path, "old").unwrap();
        drop(stage(&path, b"new").unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
