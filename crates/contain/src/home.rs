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

/// How deep folders may nest in a program's folder: far beyond a Java
/// package's, and a bound on the referee's own recursion.
pub const DEEPEST: usize = 32;

/// Copies the folder `from` into the empty folder `to`, or says why not:
/// `Ok(false)` when what it holds comes to more than `budget` bytes, and
/// nothing is copied. Every file counts at its apparent size
/// ([`limits::cost`](super::limits::cost)): a sparse file is refused here,
/// before a byte is written, as it would be written out in full. Paths in
/// `skip` (canonical) and version control's folders are left out; symbolic
/// links are copied as links, never followed; what is neither a file, a
/// folder nor a link is left out. What is made is given to `owner` (user
/// and group) when there is one. A file that grew since it was measured is
/// not copied past its measure: the copy fails.
///
/// # Errors
/// When something cannot be read or made, naming it, or folders nest more
/// than [`DEEPEST`] deep.
pub fn copy(from: &Path, to: &Path, budget: u64, skip: &[PathBuf], owner: Option<u32>) -> io::Result<bool> {
    let mut total = 0;
    if !measure(from, skip, budget, &mut total, 0)? {
        return Ok(false);
    }
    let mut left = budget;
    copy_folder(from, to, skip, owner, &mut left)?;
    Ok(true)
}

/// Whether `path` is left out of a copy.
fn skipped(path: &Path, skip: &[PathBuf]) -> bool {
    skip.iter().any(|skipped| path == skipped)
        || path.file_name().is_some_and(|name| NOT_THE_PROGRAMS.iter().any(|vcs| name == *vcs))
}

/// Adds the size of what `folder` holds to `total`; false as soon as it
/// passes `budget`. `depth` is how deep `folder` lies.
fn measure(folder: &Path, skip: &[PathBuf], budget: u64, total: &mut u64, depth: usize) -> io::Result<bool> {
    if depth > DEEPEST {
        return Err(named(folder, io::Error::other(format!("folders nest more than {DEEPEST} deep"))));
    }
    for entry in std::fs::read_dir(folder).map_err(|error| named(folder, error))? {
        let entry = entry.map_err(|error| named(folder, error))?;
        let path = entry.path();
        if skipped(&path, skip) {
            continue;
        }
        let metadata = entry.metadata().map_err(|error| named(&path, error))?;
        // Counted as the player's folder is (`limits::size_of`).
        *total += super::limits::cost(&metadata);
        if *total > budget || (metadata.is_dir() && !measure(&path, skip, budget, total, depth + 1)?) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Copies what `from` holds into `to`, each file charged against `left`.
fn copy_folder(from: &Path, to: &Path, skip: &[PathBuf], owner: Option<u32>, left: &mut u64) -> io::Result<()> {
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
            copy_folder(&path, &target, skip, owner, left)?;
            // Writable by its owner, the player, whatever the original was.
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(mode | 0o700))
                .map_err(|error| named(&target, error))?;
        } else if metadata.is_symlink() {
            let link = std::fs::read_link(&path).map_err(|error| named(&path, error))?;
            std::os::unix::fs::symlink(link, &target).map_err(|error| named(&target, error))?;
        } else if metadata.is_file() {
            copy_file(&path, &target, left)?;
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

/// Copies the regular file `from` to the new file `to`: opened without
/// following a link or waiting on a pipe put in its place since it was
/// listed, and never more than what is `left` of the budget.
fn copy_file(from: &Path, to: &Path, left: &mut u64) -> io::Result<()> {
    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let source = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(from)
        .map_err(|error| named(from, error))?;
    let metadata = source.metadata().map_err(|error| named(from, error))?;
    let cost = super::limits::cost(&metadata);
    if !metadata.is_file() || cost > *left {
        return Err(named(from, io::Error::other("it changed while the folder was copied")));
    }
    *left -= cost;
    let mut target =
        std::fs::OpenOptions::new().write(true).create_new(true).open(to).map_err(|error| named(to, error))?;
    let mut source = source.take(metadata.len());
    io::copy(&mut source, &mut target).map_err(|error| named(from, error))?;
    if source.into_inner().read(&mut [0])? != 0 {
        return Err(named(from, io::Error::other("it grew while the folder was copied")));
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

    #[test]
    fn a_sparse_file_is_refused_before_a_byte_is_written() {
        let temp = tempfile::tempdir().unwrap();
        let (from, to) = (temp.path().join("from"), temp.path().join("to"));
        std::fs::create_dir_all(&from).unwrap();
        std::fs::create_dir(&to).unwrap();
        std::fs::write(from.join("bot.py"), "print(4)").unwrap();
        std::fs::File::create(from.join("zbig")).unwrap().set_len(30 << 30).unwrap();
        assert!(!copy(&from, &to, 128 << 20, &[], None).unwrap());
        assert_eq!(std::fs::read_dir(&to).unwrap().count(), 0);
    }

    #[test]
    fn folders_nested_too_deep_are_refused() {
        let temp = tempfile::tempdir().unwrap();
        let (from, to) = (temp.path().join("from"), temp.path().join("to"));
        let deep: PathBuf = std::iter::repeat_n("d", DEEPEST + 2).collect();
        std::fs::create_dir_all(from.join(deep)).unwrap();
        std::fs::create_dir(&to).unwrap();
        let error = copy(&from, &to, 1 << 30, &[], None).unwrap_err();
        assert!(error.to_string().contains("nest more than 32 deep"), "{error}");
    }
}
