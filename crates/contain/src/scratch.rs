//! The referee's temporary files: one folder per referee, locked while it
//! runs, holding a folder per player and the copy of this program that
//! plays `self`.
//!
//! A player owns its folder and may leave anything there (directories,
//! symbolic links, pipes), so the referee never trusts a path inside it:
//! every file of a turn is made through a handle on the folder itself, under
//! a fresh random name, never following a symbolic link, and an answer is
//! read only from a regular file, bounded. A referee killed with `kill -9`
//! cannot clean up; its folder's lock dies with it, and the next referee to
//! start removes every unlocked folder of this kind it finds.

use std::fs::File;
use std::io::{self, Read as _, Write as _};
use std::os::fd::{AsFd as _, OwnedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};

use super::home::Home;

/// What every referee's folder in the temporary directory is called, before
/// its random part.
const ROOT_PREFIX: &str = "maxconnect4-referee-";

/// What a referee's folder is called while it is made, until its lock is
/// held: other referees never look at it (see [`Root::new`]).
const MAKING_PREFIX: &str = "maxconnect4-starting-";

/// The file in a referee's folder that it holds locked while it runs.
const LOCK: &str = "lock";

/// A referee's folder in the system's temporary directory, locked for as
/// long as this value lives and removed when it is dropped.
pub struct Root {
    path: PathBuf,
    /// Holds the lock (`File::try_lock`) that tells other referees this folder is in use.
    _lock: File,
}

impl Root {
    /// Removes the folders of dead referees, then makes and locks a new one.
    ///
    /// # Errors
    /// When the folder or its lock cannot be made.
    pub fn new() -> io::Result<Root> {
        Root::new_in(&std::env::temp_dir())
    }

    /// [`new`](Root::new) in `temp`. The folder is made and locked under
    /// another name, then renamed into view: made under its own name, it
    /// stood a moment with its lock file made but not yet locked, and
    /// another referee starting then (GNU parallel starts shards together)
    /// took it for a dead referee's and removed it, so that the first
    /// could not copy its own executable there.
    fn new_in(temp: &Path) -> io::Result<Root> {
        remove_stale(temp);
        let making = tempfile::Builder::new().prefix(MAKING_PREFIX).tempdir_in(temp)?.keep();
        let made =
            File::create(making.join(LOCK)).and_then(|file| Ok(file.try_lock().map(|()| file)?)).and_then(|lock| {
                let name =
                    making.file_name().map(|name| name.as_bytes()[MAKING_PREFIX.len()..].to_vec()).unwrap_or_default();
                let path = temp.join(format!("{ROOT_PREFIX}{}", String::from_utf8_lossy(&name)));
                // An existing referee's folder is never empty: the rename fails.
                std::fs::rename(&making, &path)?;
                Ok((path, lock))
            });
        match made {
            Ok((path, lock)) => Ok(Root { path, _lock: lock }),
            Err(error) => {
                let _ = std::fs::remove_dir_all(&making);
                Err(error)
            }
        }
    }

    /// Where the folder is.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A copy of this program's executable in the folder, made now, so
    /// that `self` keeps playing this build even if the file it was started
    /// from is rebuilt or deleted. A hard link when the file is still there
    /// and on the same file system (checked to be the same file), a copy of
    /// the running image otherwise.
    ///
    /// # Errors
    /// When neither can be made.
    pub fn own_executable(&self) -> io::Result<PathBuf> {
        let copy = self.path.join("maxconnect4");
        let running = std::fs::metadata("/proc/self/exe")?;
        let linked = std::env::current_exe()
            .and_then(|path| std::fs::hard_link(path, &copy))
            .and_then(|()| std::fs::metadata(&copy))
            .is_ok_and(|linked| (linked.dev(), linked.ino()) == (running.dev(), running.ino()));
        if !linked {
            let _ = std::fs::remove_file(&copy);
            std::fs::copy("/proc/self/exe", &copy)?;
        }
        Ok(copy)
    }

    /// A new empty folder for one player, its name starting with `prefix`.
    ///
    /// # Errors
    /// When it cannot be made or opened.
    pub fn player_dir(&self, prefix: &str) -> io::Result<ScratchDir> {
        let path = tempfile::Builder::new().prefix(prefix).tempdir_in(&self.path)?.keep();
        let handle = open_at(None, &path, OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW, Mode::empty())?;
        Ok(ScratchDir { path, handle, home: Home::None, confined: false })
    }
}

impl Drop for Root {
    fn drop(&mut self) {
        remove_all(&self.path);
    }
}

/// Removes every referee folder in `temp` whose lock nobody holds: its
/// referee is dead. Folders not owned by this user, not plain directories
/// or without a lock file are left alone.
fn remove_stale(temp: &Path) {
    let Ok(entries) = std::fs::read_dir(temp) else { return };
    let me = rustix::process::geteuid().as_raw();
    for entry in entries.flatten() {
        if !entry.file_name().as_bytes().starts_with(ROOT_PREFIX.as_bytes()) {
            continue;
        }
        let path = entry.path();
        let Ok(metadata) = std::fs::symlink_metadata(&path) else { continue };
        if !metadata.is_dir() || metadata.uid() != me {
            continue;
        }
        let Ok(handle) = open_at(None, &path.join(LOCK), OFlags::RDONLY | OFlags::NOFOLLOW, Mode::empty()) else {
            continue;
        };
        // Its referee holds it until it ends.
        if File::from(handle).try_lock().is_ok() {
            remove_all(&path);
        }
    }
}

/// Removes a folder and everything in it, as far as it can: a player may
/// have taken away its own permissions on what it made, so they are given
/// back first. Never follows a symbolic link.
fn remove_all(path: &Path) {
    if std::fs::remove_dir_all(path).is_ok() {
        return;
    }
    fn grant(path: &Path) {
        let Ok(metadata) = std::fs::symlink_metadata(path) else { return };
        if metadata.is_dir() {
            use std::os::unix::fs::PermissionsExt as _;
            let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700));
            for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
                grant(&entry.path());
            }
        }
    }
    grant(path);
    let _ = std::fs::remove_dir_all(path);
}

/// One player's folder, and a handle on it that stays on this folder
/// whatever the player renames or replaces.
pub struct ScratchDir {
    path: PathBuf,
    handle: OwnedFd,
    /// The program's own folder, copied into this one or shown beside it.
    home: Home,
    /// Whether the command is a submission's (a class's): it is shown
    /// nothing outside this folder, whatever paths it names.
    confined: bool,
}

impl ScratchDir {
    /// Where the folder is. The player may rename or replace what is in it,
    /// so a turn's files are made and read through the folder's handle
    /// ([`create`](ScratchDir::create), [`read`](ScratchDir::read)), not
    /// through this path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The program's own folder, and how the player has it.
    #[must_use]
    pub const fn home(&self) -> &Home {
        &self.home
    }

    /// Records how the player has its program's own folder
    /// ([`Containment::furnish`](crate::Containment::furnish)).
    pub(crate) fn set_home(&mut self, home: Home) {
        self.home = home;
    }

    /// Whether the command is a submission's, shown nothing outside this folder.
    #[must_use]
    pub const fn confined(&self) -> bool {
        self.confined
    }

    /// Marks the command as a submission's, shown nothing outside this folder.
    pub(crate) fn confine(&mut self) {
        self.confined = true;
    }

    /// The program's own folder and this folder, when this one is its copy.
    #[must_use]
    pub fn copy_of_home(&self) -> Option<(&Path, &Path)> {
        match &self.home {
            Home::Copied(home) => Some((home, &self.path)),
            _ => None,
        }
    }

    /// Writes `contents` to a new file named `PREFIX-RANDOM.txt` and returns
    /// its name. The file is created, never opened if something is there
    /// already, so no name the player prepared can redirect it.
    ///
    /// # Errors
    /// When no new file can be made in the folder (the player may have
    /// filled it, or taken away its permissions).
    pub fn create(&self, prefix: &str, contents: &[u8]) -> io::Result<String> {
        let mut last = io::Error::from(io::ErrorKind::AlreadyExists);
        for _ in 0..16 {
            let name = fresh_name(prefix);
            let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW;
            match open_at(
                Some(&self.handle),
                Path::new(&name),
                flags,
                Mode::RUSR | Mode::WUSR | Mode::RGRP | Mode::ROTH,
            ) {
                Ok(handle) => {
                    File::from(handle).write_all(contents)?;
                    return Ok(name);
                }
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last = error,
                Err(error) => return Err(error),
            }
        }
        Err(last)
    }

    /// A name `PREFIX-RANDOM.txt` that nothing in the folder has now.
    ///
    /// # Errors
    /// When the folder cannot be looked at.
    pub fn unused_name(&self, prefix: &str) -> io::Result<String> {
        loop {
            let name = fresh_name(prefix);
            match rustix::fs::statat(&self.handle, name.as_str(), rustix::fs::AtFlags::SYMLINK_NOFOLLOW) {
                Err(rustix::io::Errno::NOENT) => return Ok(name),
                Err(error) => return Err(error.into()),
                Ok(_) => {}
            }
        }
    }

    /// The file `name` in the folder, up to `limit` bytes; none if there is
    /// nothing of that name. Anything but a regular file (a directory, a
    /// symbolic link, a pipe) is refused without being followed or waited on.
    ///
    /// # Errors
    /// When it is not a regular file or cannot be read.
    pub fn read(&self, name: &str, limit: u64) -> io::Result<Option<Vec<u8>>> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK;
        let file = match open_at(Some(&self.handle), Path::new(name), flags, Mode::empty()) {
            Ok(handle) => File::from(handle),
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) if error.raw_os_error() == Some(libc::ELOOP) => {
                return Err(io::Error::other("it is a symbolic link, not a regular file"));
            }
            Err(error) => return Err(error),
        };
        if !file.metadata()?.is_file() {
            return Err(io::Error::other("it is not a regular file"));
        }
        let mut text = Vec::new();
        file.take(limit).read_to_end(&mut text)?;
        Ok(Some(text))
    }

    /// Removes the file `name` if it is there (never what a link points to).
    pub fn remove(&self, name: &str) {
        let _ = rustix::fs::unlinkat(&self.handle, name, rustix::fs::AtFlags::empty());
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        remove_all(&self.path);
    }
}

/// `PREFIX-` and twelve hexadecimal digits a player cannot foresee, then
/// `.txt`: a count hashed with std's hash keys, which the system's random
/// source seeds (every Unix has one; `getrandom(2)` is not everywhere).
fn fresh_name(prefix: &str) -> String {
    use std::hash::{BuildHasher as _, Hasher as _};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::hash::RandomState::new().build_hasher();
    hasher.write_u64(COUNT.fetch_add(1, Ordering::Relaxed));
    format!("{prefix}-{:012x}.txt", hasher.finish() >> 16)
}

/// `openat(2)`: `path` relative to the folder `directory`, or as given,
/// with the permissions `mode` if it is made.
fn open_at(directory: Option<&OwnedFd>, path: &Path, flags: OFlags, mode: Mode) -> io::Result<OwnedFd> {
    let directory = directory.map_or(rustix::fs::CWD, |directory| directory.as_fd());
    Ok(rustix::fs::openat(directory, path, flags | OFlags::CLOEXEC, mode)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A referee starting removes a dead referee's folder (its lock held by
    /// nobody), never one being made (not yet locked, under another name)
    /// nor a running referee's.
    #[test]
    fn a_starting_referee_removes_only_dead_referees_folders() {
        let temp = tempfile::tempdir().unwrap();
        let dead = temp.path().join(format!("{ROOT_PREFIX}dead01"));
        std::fs::create_dir(&dead).unwrap();
        File::create(dead.join(LOCK)).unwrap();
        let making = temp.path().join(format!("{MAKING_PREFIX}new001"));
        std::fs::create_dir(&making).unwrap();
        File::create(making.join(LOCK)).unwrap();
        let running = Root::new_in(temp.path()).unwrap();
        assert!(running.path.file_name().unwrap().as_bytes().starts_with(ROOT_PREFIX.as_bytes()));
        assert!(running.path.join(LOCK).is_file());
        assert!(!dead.exists(), "the dead referee's folder is removed");
        assert!(making.exists(), "a folder being made is left alone");
        let second = Root::new_in(temp.path()).unwrap();
        assert!(running.path.is_dir(), "a running referee's folder is left alone");
        drop(second);
        drop(running);
        let left: Vec<_> = std::fs::read_dir(temp.path()).unwrap().flatten().map(|entry| entry.file_name()).collect();
        assert_eq!(left, [making.file_name().unwrap()], "each referee removes its own folder when it ends");
    }

    #[test]
    fn turn_files_ignore_what_the_player_left() {
        let root = tempfile::tempdir().unwrap();
        let handle = open_at(None, root.path(), OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty()).unwrap();
        let dir = ScratchDir { path: root.path().join("gone-on-drop"), handle, home: Home::None, confined: false };
        let name = dir.create("in-01", b"board").unwrap();
        assert!(name.starts_with("in-01-") && name.ends_with(".txt"), "{name}");
        assert_eq!(dir.read(&name, 3).unwrap(), Some(b"boa".to_vec()));
        let target = root.path().join("target");
        std::fs::write(&target, "keep").unwrap();
        std::os::unix::fs::symlink(&target, root.path().join("link")).unwrap();
        assert_eq!(dir.read("link", 10).unwrap_err().to_string(), "it is a symbolic link, not a regular file");
        std::fs::create_dir(root.path().join("folder")).unwrap();
        assert_eq!(dir.read("folder", 10).unwrap_err().to_string(), "it is not a regular file");
        assert_eq!(dir.read("missing", 10).unwrap(), None);
        dir.remove("link");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        let unused = dir.unused_name("out-01").unwrap();
        assert!(!root.path().join(unused).exists());
    }
}
