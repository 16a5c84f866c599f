//! A program's own folder, as its student ran it: each game the program
//! runs in a fresh copy of it, so that it reads every file beside it (the
//! classes of `java -cp .`, the module a Python script imports, a model
//! file) and writes where it always has (`computer.txt`, logs), while the
//! folder itself is never changed and no game sees what another left.
//!
//! The copy leaves out what is not the program's: version control's own
//! folders, and whatever players must never see (the log, the games'
//! output, the referee's own folder) when they lie inside it. A folder
//! larger than a player may hold is not copied: the program then runs in an
//! empty folder with its own shown read-only, as a program given by a path
//! into a large build tree needs.

use std::io;
use std::path::{Path, PathBuf};

/// Folders that belong to version control, not to the program.
const NOT_THE_PROGRAMS: [&str; 3] = [".git", ".hg", ".svn"];

/// What a player's folder holds besides the turn's files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Home {
    /// Nothing: this program's own engine, or a bot of the web arena.
    #[default]
    None,
    /// A copy of this folder (canonical).
    Copied(PathBuf),
    /// This folder (canonical), too large to copy, shown read-only.
    Shown(PathBuf),
    /// The program cannot be given its folder: why, in words.
    Missing(String),
}

/// Copies the folder `from` into the empty folder `to`, or says why not:
/// `Ok(false)` when what it holds comes to more than `budget` bytes, and
/// nothing is copied. Paths in `skip` (canonical) and version control's
/// folders are left out; symbolic links are copied as links, never
/// followed; what is neither a file, a folder nor a link is left out. What
/// is made is given to `owner` (user and group) when there is one.
///
/// # Errors
/// When something cannot be read or made, naming it.
pub fn copy(from: &Path, to: &Path, budget: u64, skip: &[PathBuf], owner: Option<u32>) -> io::Result<bool> {
    let mut total = 0;
    if !measure(from, skip, budget, &mut total)? {
        return Ok(false);
    }
    copy_folder(from, to, skip, owner)?;
    Ok(true)
}

/// Whether `path` is left out of a copy.
fn skipped(path: &Path, skip: &[PathBuf]) -> bool {
    skip.iter().any(|skipped| path == skipped)
        || path.file_name().is_some_and(|name| NOT_THE_PROGRAMS.iter().any(|vcs| name == *vcs))
}

/// Adds the size of what `folder` holds to `total`; false as soon as it
/// passes `budget`.
fn measure(folder: &Path, skip: &[PathBuf], budget: u64, total: &mut u64) -> io::Result<bool> {
    for entry in std::fs::read_dir(folder).map_err(|error| named(folder, error))? {
        let entry = entry.map_err(|error| named(folder, error))?;
        let path = entry.path();
        if skipped(&path, skip) {
            continue;
        }
        let metadata = entry.metadata().map_err(|error| named(&path, error))?;
        // Counted as the player's folder is (`limits::size_of`).
        *total += super::limits::cost(&metadata);
        if *total > budget || (metadata.is_dir() && !measure(&path, skip, budget, total)?) {
            return Ok(false);
        }
    }
    Ok(true)
}

fn copy_folder(from: &Path, to: &Path, skip: &[PathBuf], owner: Option<u32>) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    for entry in std::fs::read_dir(from).map_err(|error| named(from, error))? {
        let entry = entry.map_err(|error| named(from, error))?;
        let (path, target) = (entry.path(), to.join(entry.file_name()));
        if skipped(&path, skip) {
            continue;
        }
        let metadata = entry.metadata().map_err(|error| named(&path, error))?;
        // Permissions as they were, without set-user-id and the like.
        let mode = metadata.permissions().mode() & 0o777;
        if metadata.is_dir() {
            std::fs::create_dir(&target).map_err(|error| named(&target, error))?;
            copy_folder(&path, &target, skip, owner)?;
            // Writable by its owner, the player, whatever the original was.
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(mode | 0o700))
                .map_err(|error| named(&target, error))?;
        } else if metadata.is_symlink() {
            let link = std::fs::read_link(&path).map_err(|error| named(&path, error))?;
            std::os::unix::fs::symlink(link, &target).map_err(|error| named(&target, error))?;
        } else if metadata.is_file() {
            std::fs::copy(&path, &target).map_err(|error| named(&path, error))?;
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(mode | 0o600))
                .map_err(|error| named(&target, error))?;
        } else {
            continue;
        }
        if let Some(owner) = owner {
            std::os::unix::fs::lchown(&target, Some(owner), Some(owner)).map_err(|error| named(&target, error))?;
        }
    }
    Ok(())
}

/// `error`, with the path it happened at.
fn named(path: &Path, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_files_folders_and_links_and_leaves_out_the_rest() {
        let temp = tempfile::tempdir().unwrap();
        let (from, to) = (temp.path().join("from"), temp.path().join("to"));
        for folder in ["from/pkg", "from/.git", "from/games.output", "to"] {
            std::fs::create_dir_all(temp.path().join(folder)).unwrap();
        }
        std::fs::write(from.join("pkg/Main.class"), "classes").unwrap();
        std::fs::write(from.join(".git/HEAD"), "ref").unwrap();
        std::fs::write(from.join("games.jsonl"), "the log").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", from.join("link")).unwrap();
        let skip = [from.join("games.jsonl"), from.join("games.output")];
        assert!(copy(&from, &to, 1 << 20, &skip, None).unwrap());
        assert_eq!(std::fs::read_to_string(to.join("pkg/Main.class")).unwrap(), "classes");
        assert_eq!(std::fs::read_link(to.join("link")).unwrap(), Path::new("/etc/hostname"));
        for left_out in [".git", "games.jsonl", "games.output"] {
            assert!(!to.join(left_out).exists(), "{left_out} was copied");
        }
    }

    #[test]
    fn a_folder_over_the_budget_is_not_copied() {
        let temp = tempfile::tempdir().unwrap();
        let (from, to) = (temp.path().join("from"), temp.path().join("to"));
        std::fs::create_dir_all(from.join("deep")).unwrap();
        std::fs::create_dir(&to).unwrap();
        std::fs::write(from.join("deep/big"), vec![1u8; 100_000]).unwrap();
        assert!(!copy(&from, &to, 50_000, &[], None).unwrap());
        assert_eq!(std::fs::read_dir(&to).unwrap().count(), 0);
    }
}
