//! Isolation of each player with bubblewrap (`bwrap`), the sandbox tool of
//! Flatpak, built on Linux namespaces.
//!
//! A sandboxed player gets its own PID namespace (everything it starts dies
//! when its program ends, `setsid` or not, and it sees no other process),
//! its own mount namespace (the whole system read-only, only its own folder
//! writable, a private empty `/tmp`, the referee's other folders, the
//! opponent's among them, hidden), no network unless asked, and a session of
//! its own (no access to the terminal). bwrap dies with the referee, and
//! the namespace with it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// How players are run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isolation {
    /// Run each player in a sandbox when the system allows it.
    pub sandbox: bool,
    /// Let sandboxed players use the network.
    pub network: bool,
}

/// bwrap, found and checked to work here.
#[derive(Clone, Debug)]
pub struct Sandbox {
    bwrap: PathBuf,
    network: bool,
    /// What every player's view of the file system is made of, besides the
    /// whole system read-only.
    mounts: Vec<Mount>,
}

/// One mount of a player's view.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Mount {
    /// An empty folder hides what is there.
    Hidden(PathBuf),
    /// Shown again read-only, above an empty folder.
    Shown(PathBuf),
    /// Writable.
    Writable(PathBuf),
}

impl Mount {
    fn path(&self) -> &Path {
        match self {
            Mount::Hidden(path) | Mount::Shown(path) | Mount::Writable(path) => path,
        }
    }

    /// Mounts are made shallowest first, so that none is covered by one
    /// made later above it; at one depth, hiding comes before showing.
    fn order(&self) -> (usize, u8) {
        let rank = match self {
            Mount::Hidden(_) => 0,
            Mount::Shown(_) => 1,
            Mount::Writable(_) => 2,
        };
        (self.path().components().count(), rank)
    }
}

impl Sandbox {
    /// bwrap, if it is on the PATH and can make a sandbox on this system;
    /// otherwise why not, in words. `root` is the referee's folder.
    ///
    /// Players see the system read-only, with `/tmp` and the temporary
    /// directory empty (other referees' folders are there), the referee's
    /// working directory shown again (the files a command names are there),
    /// and the referee's own folder empty but for what each player is given.
    ///
    /// # Errors
    /// The reason the sandbox is unavailable.
    pub fn find(network: bool, root: &Path) -> Result<Sandbox, String> {
        let bwrap = find_program(Path::new("bwrap")).map_err(|_| "bubblewrap (bwrap) is not installed".to_owned())?;
        let mut mounts = vec![Mount::Hidden(PathBuf::from("/tmp"))];
        let temp = std::env::temp_dir();
        if temp.parent().is_some() && temp != Path::new("/tmp") {
            mounts.push(Mount::Hidden(temp));
        }
        if let Ok(cwd) = std::env::current_dir() {
            if cwd.parent().is_some() {
                mounts.push(Mount::Shown(cwd));
            }
        }
        mounts.push(Mount::Hidden(root.to_owned()));
        let sandbox = Sandbox { bwrap, network, mounts };
        let probe = Command::new(&sandbox.bwrap)
            .args(sandbox.arguments(Path::new("/"), &[]))
            .arg("true")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .output()
            .map_err(|error| format!("bwrap cannot be run: {error}"))?;
        if probe.status.success() {
            Ok(sandbox)
        } else {
            let said = String::from_utf8_lossy(&probe.stderr);
            Err(format!("bwrap cannot make a sandbox here ({})", said.trim()))
        }
    }

    #[must_use]
    pub fn bwrap(&self) -> &Path {
        &self.bwrap
    }

    /// bwrap's options to run a program in `dir`, writable, with `extra`
    /// files shown read-only; the program and its arguments follow.
    #[must_use]
    pub fn arguments(&self, dir: &Path, extra: &[&Path]) -> Vec<OsString> {
        let mut words: Vec<OsString> = ["--unshare-all", "--die-with-parent", "--new-session"].map(Into::into).into();
        if self.network {
            words.push("--share-net".into());
        }
        for (option, path) in [("--ro-bind", "/"), ("--dev", "/dev"), ("--proc", "/proc")] {
            words.push(option.into());
            words.push(path.into());
            if option == "--ro-bind" {
                words.push(path.into());
            }
        }
        let mut mounts = self.mounts.clone();
        mounts.extend(extra.iter().map(|path| Mount::Shown(path.to_path_buf())));
        if dir.parent().is_some() {
            mounts.push(Mount::Writable(dir.to_owned()));
        }
        mounts.sort_by_key(Mount::order);
        for mount in mounts {
            let path = mount.path().as_os_str().to_owned();
            match mount {
                Mount::Hidden(_) => words.extend(["--tmpfs".into(), path]),
                Mount::Shown(_) => words.extend(["--ro-bind".into(), path.clone(), path]),
                Mount::Writable(_) => words.extend(["--bind".into(), path.clone(), path]),
            }
        }
        words.extend(["--chdir".into(), dir.as_os_str().to_owned(), "--setenv".into(), "TMPDIR".into(), "/tmp".into()]);
        words
    }
}

/// The file a command's program name stands for, as `execvp` finds it: as
/// given when it has a `/`, else the first executable of that name on the
/// PATH.
///
/// # Errors
/// When there is no such executable file.
pub fn find_program(program: &Path) -> std::io::Result<PathBuf> {
    let executable = |path: &Path| {
        let name = std::ffi::CString::new(std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()));
        // SAFETY: access with a valid C string has no other preconditions.
        path.is_file() && name.is_ok_and(|name| unsafe { libc::access(name.as_ptr(), libc::X_OK) } == 0)
    };
    if program.as_os_str().as_encoded_bytes().contains(&b'/') {
        return if executable(program) {
            Ok(program.to_owned())
        } else if program.exists() {
            Err(std::io::Error::from_raw_os_error(libc::EACCES))
        } else {
            Err(std::io::Error::from_raw_os_error(libc::ENOENT))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|folder| folder.join(program))
        .find(|candidate| executable(candidate))
        .ok_or_else(|| std::io::Error::other("not found on the PATH"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deeper_mounts_come_after_the_folders_they_are_in() {
        let sandbox = Sandbox {
            bwrap: PathBuf::from("bwrap"),
            network: false,
            mounts: vec![
                Mount::Hidden(PathBuf::from("/tmp")),
                Mount::Hidden(PathBuf::from("/tmp/t/temp")),
                Mount::Shown(PathBuf::from("/tmp/t")),
                Mount::Hidden(PathBuf::from("/tmp/t/temp/referee")),
            ],
        };
        let words = sandbox.arguments(Path::new("/tmp/t/temp/referee/red"), &[Path::new("/tmp/t/temp/referee/self")]);
        let words: Vec<String> = words.iter().map(|word| word.to_string_lossy().into_owned()).collect();
        let mounts = words.join(" ");
        let expected = "--tmpfs /tmp --ro-bind /tmp/t /tmp/t --tmpfs /tmp/t/temp --tmpfs /tmp/t/temp/referee \
                        --ro-bind /tmp/t/temp/referee/self /tmp/t/temp/referee/self \
                        --bind /tmp/t/temp/referee/red /tmp/t/temp/referee/red --chdir /tmp/t/temp/referee/red";
        assert!(mounts.contains(expected), "{mounts}");
        assert!(
            mounts.starts_with("--unshare-all --die-with-parent --new-session --ro-bind / / --dev /dev --proc /proc")
        );
    }
}
