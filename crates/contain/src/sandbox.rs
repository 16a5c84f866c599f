//! Isolation of each player with bubblewrap (`bwrap`), the sandbox tool of
//! Flatpak, built on Linux namespaces.
//!
//! A sandboxed player gets its own PID namespace (everything it starts dies
//! when its program ends, `setsid` or not, and it sees no other process),
//! its own mount namespace, no network unless asked, and a session of its
//! own (no access to the terminal). bwrap dies with the referee, and the
//! namespace with it.
//!
//! What a player sees: the system read-only; its own folder read-write; the
//! files and folders its command names (the program, a script, a model
//! file), read-only, wherever they are; and nothing of the referee's working
//! directory, the log and the games' captured output, the referee's folder
//! (its opponent's folder among them), `/tmp`, the temporary directory or
//! the home directory, which are hidden under empty folders. With the
//! network cut, `/run` is hidden too and every other Unix socket the system
//! lists is covered: a socket is network too.
//!
//! A player runs with no capabilities, whoever runs the referee. Under a
//! root referee bwrap keeps root's powers only to build the sandbox, and
//! `setpriv` then makes the player `nobody` with an empty bounding set and
//! no way to gain privileges: a root player could read every file of the
//! system that it can see, whatever its capabilities, since it owns them.
//! Under any other user bwrap makes a user namespace, drops every capability
//! in it and forbids nested ones, and the player is that user.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::plan::{self, Facts, Kind, Mount, Privileges, Reached, Setting, Socket};

/// How players are run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isolation {
    /// Run each player in a sandbox when the system allows it.
    pub sandbox: bool,
    /// Let sandboxed players use the network.
    pub network: bool,
    /// What each player may use.
    pub limits: super::limits::Allowance,
    /// The variables of the referee's environment that players get too
    /// (`--env NAME`).
    pub env: Vec<String>,
    /// What players never see besides what the referee always hides: a
    /// class's folder, wherever it lies (each player has a copy of its
    /// own submission).
    pub hidden: Vec<PathBuf>,
}

impl Isolation {
    /// This isolation, with `folder` hidden from every player too.
    #[must_use]
    pub fn hiding(mut self, folder: &Path) -> Isolation {
        if !self.hidden.iter().any(|hidden| hidden == folder) {
            self.hidden.push(folder.to_owned());
        }
        self
    }
}

/// The user and group a player runs as under a root referee: the overflow
/// id, `nobody` and `nogroup` on every common distribution, which owns
/// nothing.
pub const PLAYER_ID: u32 = 65534;

/// bwrap, found and checked to work here.
#[derive(Clone, Debug)]
pub struct Sandbox {
    bwrap: PathBuf,
    network: bool,
    /// What every player's view of the file system is made of, besides the
    /// whole system read-only ([`plan::common`]).
    mounts: Vec<Mount>,
    /// The size of a player's `/tmp`, in bytes.
    tmp_size: u64,
    /// What players must never see, even in a folder a command names: the
    /// log, the captured output.
    private: Vec<PathBuf>,
    privileges: Privileges,
}

/// Why players cannot be sandboxed here.
#[derive(Debug, thiserror::Error)]
pub enum Unavailable {
    /// This system is not Linux, whose namespaces bwrap is built on.
    #[error("a sandbox needs Linux's namespaces (bubblewrap)")]
    NotLinux,
    /// No executable `bwrap` is on the PATH.
    #[error("bubblewrap (bwrap) is not installed")]
    NoBwrap,
    /// The referee runs as root, and no executable `setpriv` is on the
    /// PATH to make each player an unprivileged user.
    #[error("setpriv (util-linux), which takes root's powers from players, is not installed")]
    NoSetpriv,
    /// bwrap was found but could not be started to try a sandbox.
    #[error("bwrap cannot be run: {0}")]
    CannotRun(#[source] std::io::Error),
    /// bwrap ran but made no sandbox; what it said.
    #[error("bwrap cannot make a sandbox here ({0})")]
    Refused(String),
}

impl Sandbox {
    /// bwrap, if it is on the PATH and can make a sandbox on this system;
    /// otherwise why not, in words. `root` is the referee's folder and
    /// `private` what else players must not see (the log, the captured
    /// output).
    ///
    /// # Errors
    /// The reason the sandbox is unavailable.
    pub fn find(network: bool, root: &Path, private: &[&Path], tmp_size: u64) -> Result<Sandbox, Unavailable> {
        if !cfg!(target_os = "linux") {
            return Err(Unavailable::NotLinux);
        }
        let bwrap = find_program(Path::new("bwrap")).map_err(|_| Unavailable::NoBwrap)?;
        let privileges = if rustix::process::geteuid().is_root() {
            let setpriv = find_program(Path::new("setpriv")).map_err(|_| Unavailable::NoSetpriv)?;
            Privileges::Root { setpriv }
        } else {
            Privileges::User { namespace: true }
        };
        let mut hidden = vec![std::env::temp_dir(), root.to_owned()];
        hidden.extend(std::env::current_dir());
        hidden.extend(std::env::var_os("HOME").map(PathBuf::from));
        if !network {
            hidden.push(PathBuf::from("/run"));
        }
        let folders = hidden.iter().map(PathBuf::as_path).chain(private.iter().copied());
        let mounts = plan::common(folders.filter_map(folder_to_hide));
        // Made absolute now: a player runs elsewhere.
        let private = private.iter().filter_map(|path| std::path::absolute(path).ok()).collect();
        let mut sandbox = Sandbox { bwrap, network, mounts, tmp_size, private, privileges };
        let mut probe = sandbox.probe()?;
        if !probe.status.success() && sandbox.privileges == (Privileges::User { namespace: true }) {
            sandbox.privileges = Privileges::User { namespace: false };
            probe = sandbox.probe()?;
        }
        if probe.status.success() {
            Ok(sandbox)
        } else {
            Err(Unavailable::Refused(String::from_utf8_lossy(&probe.stderr).trim().to_owned()))
        }
    }

    /// Runs `true` in the sandbox.
    fn probe(&self) -> Result<std::process::Output, Unavailable> {
        Command::new(&self.bwrap)
            .args(self.arguments(Path::new("/"), &[], &[]))
            .args(self.command_prefix())
            .arg("true")
            .current_dir("/")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .output()
            .map_err(Unavailable::CannotRun)
    }

    /// The `bwrap` program found on the PATH, which starts each player.
    #[must_use]
    pub fn bwrap(&self) -> &Path {
        &self.bwrap
    }

    /// The user and group that own a player's folder: [`PLAYER_ID`] under a
    /// root referee, none to change otherwise.
    #[must_use]
    pub fn player_owner(&self) -> Option<u32> {
        self.privileges.changes_user().then_some(PLAYER_ID)
    }

    /// bwrap's options to run a program in `dir`, writable, with `shown`
    /// files and folders shown read-only and the folders `hidden` hidden
    /// (besides what every player never sees); the program and its
    /// arguments follow.
    #[must_use]
    pub fn arguments(&self, dir: &Path, shown: &[&Path], hidden: &[PathBuf]) -> Vec<OsString> {
        let setting = Setting {
            privileges: &self.privileges,
            network: self.network,
            common: &self.mounts,
            tmp_size: self.tmp_size,
        };
        plan::plan(&setting, dir, &self.facts(dir, shown, hidden)).arguments()
    }

    /// What the file system says now of what a player in `dir`, shown
    /// `shown`, is to see: looked at on every start, since the log and the
    /// output appear later, and sockets come and go.
    fn facts(&self, dir: &Path, shown: &[&Path], hidden: &[PathBuf]) -> Facts {
        let shown = shown
            .iter()
            .filter_map(|path| path.canonicalize().ok())
            .map(|path| Reached { closed: closed(&path), path })
            .collect();
        let private = self
            .private
            .iter()
            .chain(hidden)
            .filter_map(|path| path.canonicalize().ok())
            // The player's own folder is never among them.
            .filter(|path| !dir.starts_with(path))
            .filter_map(|path| {
                let kind = if std::fs::metadata(&path).ok()?.is_dir() { Kind::Folder } else { Kind::Other };
                Some((path, kind))
            })
            .collect();
        let sockets = if self.network { Vec::new() } else { listed_sockets() };
        let sockets = sockets
            .into_iter()
            .filter_map(|listed| {
                let path = listed.canonicalize().ok()?;
                (!std::fs::metadata(&path).ok()?.is_dir()).then_some(Socket { listed, path })
            })
            .collect();
        Facts { shown, dir_closed: closed(dir), private, sockets }
    }

    /// What runs the player's program inside the sandbox, before it: under
    /// a root referee, `setpriv` making it [`PLAYER_ID`] without
    /// capabilities. These words follow bwrap's options on its command
    /// line (bwrap reads only options from `--args`).
    #[must_use]
    pub fn command_prefix(&self) -> Vec<OsString> {
        let Privileges::Root { setpriv } = &self.privileges else { return Vec::new() };
        let id = PLAYER_ID.to_string();
        let mut words =
            vec![setpriv.as_os_str().to_owned(), format!("--reuid={id}").into(), format!("--regid={id}").into()];
        words.extend(
            ["--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"].map(Into::into),
        );
        words
    }
}

/// The folder `path` as it is hidden: itself, or the deepest folder holding
/// it when it is not one (yet), canonical; none for the root of the file
/// system.
fn folder_to_hide(path: &Path) -> Option<PathBuf> {
    let path = path.canonicalize().ok().or_else(|| path.parent()?.canonicalize().ok())?;
    let folder = if path.is_dir() { path } else { path.parent()?.to_owned() };
    folder.parent().is_some().then_some(folder)
}

/// The folders on the way to `path` that only their owner may go through,
/// as they are hidden, deepest first.
fn closed(path: &Path) -> Vec<PathBuf> {
    path.ancestors().skip(1).filter(|folder| !passable(folder)).filter_map(folder_to_hide).collect()
}

/// Whether anyone may go through the folder `path`: an unprivileged player
/// must, to reach a file in it.
fn passable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).is_ok_and(|metadata| metadata.permissions().mode() & 0o001 != 0)
}

/// The paths of the Unix sockets bound in the referee's network namespace,
/// from `/proc/net/unix` (abstract sockets, which have none, end with the
/// namespace).
fn listed_sockets() -> Vec<PathBuf> {
    let listed = std::fs::read_to_string("/proc/net/unix").unwrap_or_default();
    listed
        .lines()
        .skip(1)
        .filter_map(|line| line.split_whitespace().nth(7))
        .filter(|path| path.starts_with('/'))
        .map(PathBuf::from)
        .collect()
}

/// The file a command's program name stands for, as `execvp` finds it: as
/// given when it has a `/`, else the first executable of that name on the
/// PATH.
///
/// # Errors
/// When there is no such executable file.
pub fn find_program(program: &Path) -> std::io::Result<PathBuf> {
    let executable = |path: &Path| path.is_file() && rustix::fs::access(path, rustix::fs::Access::EXEC_OK).is_ok();
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
        let temp = tempfile::tempdir().unwrap();
        let base = temp.path().canonicalize().unwrap();
        for folder in ["shown/deep", "temp/referee/red", "temp/referee/self"] {
            std::fs::create_dir_all(base.join(folder)).unwrap();
        }
        let path = |name: &str| base.join(name);
        // With the network, so that no socket of the system is covered.
        let sandbox = Sandbox {
            bwrap: PathBuf::from("bwrap"),
            network: true,
            mounts: vec![Mount::Hidden(path("temp/referee")), Mount::Hidden(base.clone())],
            tmp_size: 1 << 20,
            private: Vec::new(),
            privileges: Privileges::User { namespace: true },
        };
        let words =
            sandbox.arguments(&path("temp/referee/red"), &[&path("temp/referee/self"), &path("shown/deep")], &[]);
        let words: Vec<String> = words.iter().map(|word| word.to_string_lossy().into_owned()).collect();
        let expected = [
            format!("--tmpfs {}", path("").display()),
            format!("--perms 0755 --dir {}", path("temp").display()),
            format!("--tmpfs {}", path("temp/referee").display()),
            format!("--perms 0755 --dir {}", path("shown").display()),
            format!("--ro-bind {0} {0}", path("shown/deep").display()),
            format!("--ro-bind {0} {0}", path("temp/referee/self").display()),
            format!("--bind {0} {0}", path("temp/referee/red").display()),
            format!("--remount-ro {}", path("").display()),
            format!("--remount-ro {}", path("temp/referee").display()),
            format!("--chdir {}", path("temp/referee/red").display()),
        ]
        .join(" ")
        .replace(&format!("{}/ ", base.display()), &format!("{} ", base.display()));
        assert!(words.join(" ").contains(&expected), "{}\n{expected}", words.join(" "));
        assert!(words.join(" ").starts_with(
            "--unshare-all --unshare-user --disable-userns --cap-drop ALL --share-net --die-with-parent \
             --new-session --ro-bind / / --dev /dev --proc /proc"
        ));
    }

    #[test]
    fn under_a_root_referee_the_player_is_nobody_without_capabilities() {
        let sandbox = Sandbox {
            bwrap: PathBuf::from("bwrap"),
            network: false,
            mounts: Vec::new(),
            tmp_size: 1 << 20,
            private: Vec::new(),
            privileges: Privileges::Root { setpriv: PathBuf::from("/usr/bin/setpriv") },
        };
        let mut words = sandbox.arguments(Path::new("/"), &[], &[]);
        words.extend(sandbox.command_prefix());
        let words = words.join(std::ffi::OsStr::new(" "));
        let words = words.to_string_lossy();
        assert!(words.contains("--cap-drop ALL --cap-add CAP_SETUID --cap-add CAP_SETGID --cap-add CAP_SETPCAP"));
        assert!(!words.contains("--unshare-user"), "{words}");
        assert!(words.ends_with(
            "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
             --no-new-privs --"
        ));
    }
}
