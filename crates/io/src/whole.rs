//! Files written whole or not at all, and nothing else left behind.
//!
//! Rival programs read the board files this program writes, and readers open
//! the report it writes, so a file must never be seen half written, and a
//! failure must leave whatever was there before as it was. Each file is
//! written in full to a temporary file in its own directory, then put in
//! place in one step. Staging and putting in place are separate steps so
//! that a set of files (a report) can all be written before any of them
//! replaces an old one.
//!
//! On Linux the temporary file has no name (`O_TMPFILE`) until it is put in
//! place, so a process killed while writing leaves nothing: a new file is
//! linked straight to its destination, and only an old file to replace needs
//! a name beside it for the moment between the link and the rename (the link
//! cannot replace a file). Elsewhere, or on a file system without unnamed
//! files, the temporary file is named from the start. A named temporary file
//! is removed when the program is stopped by SIGINT, SIGTERM or SIGHUP
//! ([`signals`]); only SIGKILL in that moment can leave one behind.
//!
//! A destination must be a regular file or nothing: a directory, a device,
//! a pipe or a symbolic link there is refused, never replaced or followed.
//! An output folder must be a folder or nothing: a symbolic link there is
//! refused too ([`check_folder`]).
//!
//! ```
//! use maxconnect4_io::whole;
//!
//! let folder = tempfile::tempdir().unwrap();
//! let report = folder.path().join("report.md");
//! whole::write(&report, b"# Old\n").unwrap();
//! whole::write(&report, b"# New\n").unwrap();
//! assert_eq!(std::fs::read(&report).unwrap(), b"# New\n");
//!
//! // A set of files, staged first, then put in place together.
//! let staged = ["a.csv", "b.csv"].map(|name| whole::stage(&folder.path().join(name), b"1,2\n").unwrap());
//! whole::put_all_in_place(staged.into()).unwrap();
//!
//! // A folder is never replaced, and one that is not there is not made.
//! let error = whole::write(folder.path(), b"").unwrap_err();
//! assert!(matches!(error, whole::Error::Directory { .. }));
//! let error = whole::write(&folder.path().join("missing/report.md"), b"").unwrap_err();
//! assert!(matches!(error, whole::Error::NoDirectory { .. }));
//!
//! // No temporary file is left behind.
//! let mut names: Vec<_> = std::fs::read_dir(folder.path()).unwrap().map(|entry| entry.unwrap().file_name()).collect();
//! names.sort();
//! assert_eq!(names, ["a.csv", "b.csv", "report.md"]);
//! ```

use std::fs::File;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use crate::signals;

/// Why a destination cannot be written, in the words of the path the user gave.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The destination is a directory, or a path that can only name one
    /// (ending in `/`, or `.`): a file's name is wanted.
    #[error("cannot write {path}: it is a directory; give the name of a file")]
    Directory {
        /// The destination, as given.
        path: PathBuf,
    },
    /// The directory a file or an output folder goes in does not exist; it
    /// is not made, so that a mistyped path is refused rather than grown
    /// into a tree of folders.
    #[error("cannot write {path}: the directory {directory} does not exist")]
    NoDirectory {
        /// The file or output folder, as given.
        path: PathBuf,
        /// The directory it goes in.
        directory: PathBuf,
    },
    /// What a file or an output folder goes in, or a folder on the way to
    /// it, is a file or something else that is not a directory.
    #[error("cannot write {path}: {directory} is not a directory")]
    NotADirectory {
        /// The file or output folder, as given.
        path: PathBuf,
        /// The directory it goes in.
        directory: PathBuf,
    },
    /// A symbolic link is at the destination: refused, never followed, so
    /// that nothing is written where the link points.
    #[error("cannot write {path}: it is a symbolic link; give the file it points to (only a regular file is replaced)")]
    SymbolicLink {
        /// The destination, as given.
        path: PathBuf,
    },
    /// A named pipe, a device, a socket or another special file is at the
    /// destination.
    #[error("cannot write {path}: it is {kind}, not a regular file")]
    NotARegularFile {
        /// The destination, as given.
        path: PathBuf,
        /// What is there, in words for the message (`a device`).
        kind: &'static str,
    },
    /// Something other than a folder is where an output folder goes.
    #[error("cannot write into {path}: it is {kind}, not a directory")]
    NotAFolder {
        /// The output folder, as given.
        path: PathBuf,
        /// What is there, in words for the message (`a file`, `a named pipe`).
        kind: &'static str,
    },
    /// An output folder is a symbolic link: refused, not followed, since
    /// the folder it points to may be of another's choosing.
    #[error(
        "cannot write into {path}: it is a symbolic link; give the folder it points to (an output folder is not followed)"
    )]
    LinkedFolder {
        /// The output folder, as given.
        path: PathBuf,
    },
    /// The system refused an operation on the destination or folder:
    /// looking at it, making it, writing, linking or renaming the file.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The destination or output folder, as given.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
}

/// A file written in full beside its destination, not yet in its place. If
/// it is dropped without [`put_in_place`](StagedFile::put_in_place), the
/// temporary file is deleted (or never had a name) and the destination is
/// untouched.
#[derive(Debug)]
pub struct StagedFile {
    staging: Staging,
    destination: PathBuf,
}

#[derive(Debug)]
enum Staging {
    /// An open file with no name, in the destination's directory.
    #[cfg(target_os = "linux")]
    Unnamed(File),
    /// A named temporary file, removed if the program is stopped.
    Named(tempfile::NamedTempFile, signals::Listed),
}

/// Checks that `destination` can be written as a regular file: its
/// directory exists, and nothing but a regular file is there. Called before
/// any work whose result goes there, and again when it is written.
///
/// # Errors
/// When the directory does not exist or is not one, or something other than
/// a regular file is at `destination`.
pub fn check(destination: &Path) -> Result<(), Error> {
    let path = || destination.to_owned();
    let text = destination.as_os_str().as_encoded_bytes();
    if text.ends_with(b"/") || destination.file_name().is_none() {
        return Err(Error::Directory { path: path() });
    }
    folder_exists(destination, directory_of(destination))?;
    match std::fs::symlink_metadata(destination) {
        Ok(metadata) if metadata.is_file() => Ok(()),
        Ok(metadata) if metadata.is_dir() => Err(Error::Directory { path: path() }),
        Ok(metadata) if metadata.file_type().is_symlink() => Err(Error::SymbolicLink { path: path() }),
        Ok(metadata) => Err(Error::NotARegularFile { path: path(), kind: kind_of(&metadata) }),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(Error::Io { path: path(), source }),
    }
}

/// `ENOTDIR`: a directory part of a path is a file.
const NOT_A_DIRECTORY: i32 = 20;

/// What a file that is neither regular, a directory nor a link is.
fn kind_of(metadata: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        let file_type = metadata.file_type();
        if file_type.is_fifo() {
            return "a named pipe";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    let _ = metadata;
    "a special file"
}

/// Makes `folder`, an output folder the user named (`--out DIR`), unless
/// it is there. One rule for every output, a folder's as a file's: what is
/// named is made, but the folder it goes in must exist, so a mistyped path
/// is refused rather than grown into a tree of folders; and a symbolic link
/// there is refused ([`check_folder`]). Returns whether it made the folder,
/// for a caller that removes it again when nothing could be written in it.
///
/// # Errors
/// When the folder it goes in does not exist or is not one, something
/// other than a folder is at `folder`, or it cannot be made.
pub fn make_folder(folder: &Path) -> Result<bool, Error> {
    if check_folder(folder)? {
        return Ok(false);
    }
    // The parent of `out/` is `out`'s: the folder it goes in.
    folder_exists(folder, directory_of(folder.components().as_path()))?;
    std::fs::create_dir(folder).map_err(|source| Error::Io { path: folder.to_owned(), source })?;
    Ok(true)
}

/// Checks that `folder`, where output goes (a folder the user named, or
/// one beside a file the user named, such as a log's `games.output`), is a
/// folder or nothing yet; returns whether it is there. A symbolic link is
/// refused, as a file's is, not followed: whatever is written would land
/// wherever the link points, which may be a folder of another's choosing.
///
/// # Errors
/// When something other than a folder, a link among them, is at `folder`.
pub fn check_folder(folder: &Path) -> Result<bool, Error> {
    let path = || folder.to_owned();
    // `link/` names what the link points to; `link` names the link.
    match std::fs::symlink_metadata(folder.components().as_path()) {
        Ok(metadata) if metadata.is_dir() => Ok(true),
        Ok(metadata) if metadata.file_type().is_symlink() => Err(Error::LinkedFolder { path: path() }),
        Ok(metadata) if metadata.is_file() => Err(Error::NotAFolder { path: path(), kind: "a file" }),
        Ok(metadata) => Err(Error::NotAFolder { path: path(), kind: kind_of(&metadata) }),
        // Not there, or the folder it goes in is not (said by the caller).
        Err(error) if error.kind() == io::ErrorKind::NotFound || error.raw_os_error() == Some(NOT_A_DIRECTORY) => {
            Ok(false)
        }
        Err(source) => Err(Error::Io { path: path(), source }),
    }
}

/// Checks that `directory`, the folder `path` goes in, exists.
fn folder_exists(path: &Path, directory: &Path) -> Result<(), Error> {
    let refused = |directory: &Path| Error::NotADirectory { path: path.to_owned(), directory: directory.to_owned() };
    match std::fs::metadata(directory) {
        Ok(metadata) if metadata.is_dir() => Ok(()),
        Ok(_) => Err(refused(directory)),
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            Err(Error::NoDirectory { path: path.to_owned(), directory: directory.to_owned() })
        }
        Err(error) if error.raw_os_error() == Some(NOT_A_DIRECTORY) => Err(refused(directory)),
        Err(source) => Err(Error::Io { path: path.to_owned(), source }),
    }
}

/// The directory a file named `destination` goes in.
fn directory_of(destination: &Path) -> &Path {
    match destination.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Writes `contents` to a temporary file in the directory of `destination`.
///
/// # Errors
/// When [`check`] fails, the directory is not writable or the disk is full.
pub fn stage(destination: &Path, contents: &[u8]) -> Result<StagedFile, Error> {
    check(destination)?;
    let failed = |source| Error::Io { path: destination.to_owned(), source };
    let directory = directory_of(destination);
    let mut staging = unnamed(directory).map_err(failed)?.map_or_else(|| named(directory), Ok).map_err(failed)?;
    let file = staging.file();
    file.write_all(contents).map_err(failed)?;
    file.sync_all().map_err(failed)?;
    Ok(StagedFile { staging, destination: destination.to_owned() })
}

/// A file with no name in `directory`, or `None` where there are none.
#[cfg(target_os = "linux")]
fn unnamed(directory: &Path) -> io::Result<Option<Staging>> {
    use std::os::unix::fs::OpenOptionsExt as _;
    // Read-write, less the umask, like any other file the user creates.
    match std::fs::OpenOptions::new().write(true).mode(0o666).custom_flags(libc::O_TMPFILE).open(directory) {
        Ok(file) => Ok(Some(Staging::Unnamed(file))),
        // Kernels and file systems without unnamed files.
        Err(error) if matches!(error.raw_os_error(), Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL)) => Ok(None),
        Err(error) => Err(error),
    }
}

#[cfg(not(target_os = "linux"))]
fn unnamed(_directory: &Path) -> io::Result<Option<Staging>> {
    Ok(None)
}

/// A named temporary file in `directory`, removed if the program is stopped.
fn named(directory: &Path) -> io::Result<Staging> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMPORARY_PREFIX).suffix(".tmp");
    // A temporary file is private to its owner; the file it becomes should be
    // like any other the user creates (read-write, less the umask).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    // The error names the temporary file, which the user never asked for.
    let (file, listed) = signals::remove_on_stop(|| builder.tempfile_in(directory))
        .map_err(|error| io::Error::new(error.kind(), without_path(&error)))?;
    Ok(Staging::Named(file, listed))
}

/// How temporary files' names start.
const TEMPORARY_PREFIX: &str = ".maxconnect4-";

/// The operating system's message for `error`, without a path tempfile adds.
fn without_path(error: &io::Error) -> String {
    error.raw_os_error().map_or_else(|| error.to_string(), |code| io::Error::from_raw_os_error(code).to_string())
}

impl Staging {
    fn file(&mut self) -> &mut File {
        match self {
            #[cfg(target_os = "linux")]
            Staging::Unnamed(file) => file,
            Staging::Named(file, _) => file.as_file_mut(),
        }
    }
}

impl StagedFile {
    /// Puts the staged file in place of the destination in one step.
    ///
    /// # Errors
    /// When something other than a regular file has appeared at the
    /// destination, or the link or rename fails; the temporary file is then
    /// deleted and the destination left as it was.
    pub fn put_in_place(self) -> Result<(), Error> {
        let destination = self.destination;
        check(&destination)?;
        let failed = |source| Error::Io { path: destination.clone(), source };
        match self.staging {
            #[cfg(target_os = "linux")]
            Staging::Unnamed(file) => link_in_place(&file, &destination).map_err(failed),
            Staging::Named(file, listed) => {
                file.persist(&destination).map_err(|error| failed(error.error))?;
                drop(listed);
                Ok(())
            }
        }
    }
}

/// Gives the unnamed `file` the name `destination`: directly when there is
/// no file there, else under a temporary name renamed over the old file.
#[cfg(target_os = "linux")]
fn link_in_place(file: &File, destination: &Path) -> io::Result<()> {
    match link(file, destination) {
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
        done => return done,
    }
    let directory = directory_of(destination);
    for _ in 0..100 {
        let temporary = directory.join(format!("{TEMPORARY_PREFIX}{:016x}.tmp", random()));
        let listed = match signals::remove_on_stop(|| link(file, &temporary).map(|()| &temporary)) {
            Ok((_, listed)) => listed,
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        };
        let renamed = std::fs::rename(&temporary, destination);
        if renamed.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        drop(listed);
        return renamed;
    }
    Err(io::Error::new(io::ErrorKind::AlreadyExists, "no free temporary name"))
}

/// Links the unnamed `file` at `path` (which must not exist), through its
/// entry in `/proc/self/fd`, or with `AT_EMPTY_PATH` where `/proc` is not
/// mounted (that needs the `CAP_DAC_READ_SEARCH` capability).
#[cfg(target_os = "linux")]
fn link(file: &File, path: &Path) -> io::Result<()> {
    use rustix::fs::{AtFlags, CWD, linkat};
    use std::os::fd::AsRawFd as _;
    let proc_path = format!("/proc/self/fd/{}", file.as_raw_fd());
    match linkat(CWD, proc_path.as_str(), CWD, path, AtFlags::SYMLINK_FOLLOW) {
        Err(rustix::io::Errno::NOENT) => {}
        linked => return Ok(linked?),
    }
    // The empty path names `file` itself.
    Ok(linkat(file, "", CWD, path, AtFlags::EMPTY_PATH)?)
}

/// A number for a temporary name: unlikely to repeat, not secret.
#[cfg(target_os = "linux")]
fn random() -> u64 {
    use std::hash::{BuildHasher as _, Hasher as _};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.finish()
}

/// Puts every staged file in place, or, if one fails, puts back what was
/// at the destinations already replaced (each old file's contents, read
/// first; a destination that had none is removed again), so a set of files
/// such as a report is replaced whole or not at all.
///
/// # Errors
/// The first failure; the destinations are then as they were, unless
/// putting them back failed too.
pub fn put_all_in_place(files: Vec<StagedFile>) -> Result<(), Error> {
    let mut replaced: Vec<(PathBuf, Option<Vec<u8>>)> = Vec::new();
    for file in files {
        let destination = file.destination.clone();
        if let Err(error) = check(&destination) {
            return Err(put_back(replaced, error));
        }
        let old = match std::fs::read(&destination) {
            Ok(contents) => Some(contents),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(source) => return Err(put_back(replaced, Error::Io { path: destination, source })),
        };
        if let Err(error) = file.put_in_place() {
            return Err(put_back(replaced, error));
        }
        replaced.push((destination, old));
    }
    Ok(())
}

/// Puts the old contents back at the `replaced` destinations; returns `error`.
fn put_back(replaced: Vec<(PathBuf, Option<Vec<u8>>)>, error: Error) -> Error {
    for (destination, old) in replaced.into_iter().rev() {
        let _ = match old {
            Some(contents) => write(&destination, &contents),
            None => std::fs::remove_file(&destination).map_err(|source| Error::Io { path: destination, source }),
        };
    }
    error
}

/// Writes `contents` to `destination` atomically: [`stage`], then put in place.
///
/// # Errors
/// When [`check`] fails, the directory is not writable or the rename fails.
pub fn write(destination: &Path, contents: &[u8]) -> Result<(), Error> {
    stage(destination, contents)?.put_in_place()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    }

    #[test]
    fn a_staged_file_replaces_the_old_one_only_when_put_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file.txt");
        std::fs::write(&path, "old").unwrap();
        let staged = stage(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        staged.put_in_place().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(names(dir.path()), ["file.txt"], "no temporary file is left behind");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_staged_file_has_no_name_until_it_is_put_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old.txt");
        std::fs::write(&old, "old").unwrap();
        let new = dir.path().join("new.txt");
        let staged = [stage(&old, b"replaced").unwrap(), stage(&new, b"created").unwrap()];
        assert_eq!(names(dir.path()), ["old.txt"], "a process killed now would leave nothing behind");
        for file in staged {
            file.put_in_place().unwrap();
        }
        assert_eq!(names(dir.path()), ["new.txt", "old.txt"]);
        assert_eq!(std::fs::read_to_string(&old).unwrap(), "replaced");
        assert_eq!(std::fs::read_to_string(&new).unwrap(), "created");
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
        // Replacing goes through a temporary name: the same.
        write(&dir.path().join("atomic.txt"), b"again").unwrap();
        assert_eq!(format!("{:o}", mode("atomic.txt")), format!("{:o}", mode("plain.txt")));
    }

    #[test]
    fn a_dropped_staged_file_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file.txt");
        std::fs::write(&path, "old").unwrap();
        drop(stage(&path, b"new").unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(names(dir.path()), ["file.txt"]);
    }

    #[test]
    fn a_named_temporary_file_is_removed_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let staging = named(dir.path()).unwrap();
        assert_eq!(names(dir.path()).len(), 1);
        drop(staging);
        assert!(names(dir.path()).is_empty());
    }

    #[test]
    fn a_set_of_files_is_replaced_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        std::fs::write(at("a"), "old a").unwrap();
        std::fs::write(at("c"), "old c").unwrap();
        let staged = ["a", "b", "c"].map(|name| stage(&at(name), format!("new {name}").as_bytes()).unwrap());
        // Something that cannot be replaced appears at c after it was checked.
        std::fs::remove_file(at("c")).unwrap();
        std::fs::create_dir(at("c")).unwrap();
        let error = put_all_in_place(staged.into()).unwrap_err();
        assert!(error.to_string().ends_with("/c: it is a directory; give the name of a file"), "{error}");
        assert_eq!(std::fs::read_to_string(at("a")).unwrap(), "old a");
        assert_eq!(names(dir.path()), ["a", "c"], "b was not there before and is gone again");
        let staged = ["a", "b"].map(|name| stage(&at(name), format!("new {name}").as_bytes()).unwrap());
        put_all_in_place(staged.into()).unwrap();
        assert_eq!(std::fs::read_to_string(at("b")).unwrap(), "new b");
    }

    #[test]
    fn only_a_regular_file_or_nothing_is_a_destination() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        std::fs::create_dir(at("adir")).unwrap();
        std::fs::write(at("afile"), "").unwrap();
        let check = |path: PathBuf, expected: &str| {
            let message = check(&path).map_or_else(|error| error.to_string(), |()| "fine".to_owned());
            let expected = expected.replace("DIR", &dir.path().display().to_string());
            assert_eq!(message, expected, "for {}", path.display());
        };
        check(at("afile"), "fine");
        check(at("new"), "fine");
        check(at("adir"), "cannot write DIR/adir: it is a directory; give the name of a file");
        check(at("new/"), "cannot write DIR/new/: it is a directory; give the name of a file");
        check(PathBuf::from("."), "cannot write .: it is a directory; give the name of a file");
        check(at("missing/out"), "cannot write DIR/missing/out: the directory DIR/missing does not exist");
        check(at("afile/out"), "cannot write DIR/afile/out: DIR/afile is not a directory");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(at("afile"), at("link")).unwrap();
            check(
                at("link"),
                "cannot write DIR/link: it is a symbolic link; give the file it points to (only a regular file is replaced)",
            );
            check(PathBuf::from("/dev/null"), "cannot write /dev/null: it is a device, not a regular file");
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_output_folder_that_is_a_symbolic_link_is_refused_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        std::fs::create_dir(at("elsewhere")).unwrap();
        std::os::unix::fs::symlink(at("elsewhere"), at("link")).unwrap();
        std::os::unix::fs::symlink(at("nowhere"), at("dangling")).unwrap();
        for name in ["link", "link/", "dangling"] {
            let error = make_folder(&at(name)).unwrap_err().to_string();
            let expected = format!(
                "cannot write into {}: it is a symbolic link; give the folder it points to (an output folder is not followed)",
                at(name).display()
            );
            assert_eq!(error, expected);
        }
        assert!(!at("nowhere").exists(), "a dangling link's target is not made");
        assert!(!check_folder(&at("new")).unwrap());
        assert!(make_folder(&at("new")).unwrap());
        assert!(check_folder(&at("new/")).unwrap());
        assert!(!make_folder(&at("new")).unwrap(), "a folder there is used");
    }
}
