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
    /// Folders hidden behind an empty one: `/tmp` and the temporary
    /// directory, then the referee's own folder.
    hidden: Vec<PathBuf>,
    /// The referee's working directory, shown again read-only when it lies
    /// in a hidden folder, so that players find the files their commands
    /// name there.
    shown: Option<PathBuf>,
}

impl Sandbox {
    /// bwrap, if it is on the PATH and can make a sandbox on this system;
    /// otherwise why not, in words. `root` is the referee's folder.
    ///
    /// # Errors
    /// The reason the sandbox is unavailable.
    pub fn find(network: bool, root: &Path) -> Result<Sandbox, String> {
        let bwrap = find_program(Path::new("bwrap")).map_err(|_| "bubblewrap (bwrap) is not installed".to_owned())?;
        let mut hidden: Vec<PathBuf> = vec![PathBuf::from("/tmp")];
        let temp = std::env::temp_dir();
        if temp != Path::new("/") && !hidden.contains(&temp) {
            hidden.push(temp);
        }
        let cwd = std::env::current_dir().ok();
        let shown = cwd.filter(|cwd| hidden.iter().any(|folder| cwd.starts_with(folder)));
        hidden.push(root.to_owned());
        let sandbox = Sandbox { bwrap, network, hidden, shown };
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
        let mut mount = |option: &str, paths: &[&Path]| {
            words.push(option.into());
            words.extend(paths.iter().map(|path| path.as_os_str().to_owned()));
        };
        mount("--ro-bind", &[Path::new("/"), Path::new("/")]);
        mount("--dev", &[Path::new("/dev")]);
        mount("--proc", &[Path::new("/proc")]);
        let (referee, shared) = self.hidden.split_last().expect("the referee's folder is hidden");
        for folder in shared {
            mount("--tmpfs", &[folder]);
        }
        if let Some(cwd) = &self.shown {
            mount("--ro-bind", &[cwd, cwd]);
        }
        mount("--tmpfs", &[referee]);
        for path in extra {
            mount("--ro-bind", &[path, path]);
        }
        if dir != Path::new("/") {
            mount("--bind", &[dir, dir]);
        }
        mount("--chdir", &[dir]);
        mount("--setenv", &[Path::new("TMPDIR"), Path::new("/tmp")]);
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
