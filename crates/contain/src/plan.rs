//! The sandbox's plan for one player: what it sees of the file system,
//! made from [`Facts`] gathered first, so that what a player sees is a
//! value a test can look at without a file system, and bwrap's arguments
//! only its rendering.
//!
//! [`sandbox`](super::sandbox) gathers the facts (which paths exist, where
//! they lead, who may go through a folder, the sockets listed), [`plan`]
//! decides, and [`Plan::arguments`] writes bwrap's options.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// How a player's privileges are taken away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Privileges {
    /// The referee is root: the player becomes
    /// [`PLAYER_ID`](super::sandbox::PLAYER_ID) through this `setpriv`, run
    /// by bwrap with only the capabilities it needs for that.
    Root { setpriv: PathBuf },
    /// The referee is another user: a user namespace without capabilities
    /// and without nested ones, or, where the system allows no user
    /// namespace (a setuid bwrap), bwrap's own dropping of privileges.
    User { namespace: bool },
}

impl Privileges {
    /// Whether the player is another user than the referee's, who may not
    /// go through a folder only its owner may.
    pub(super) const fn changes_user(&self) -> bool {
        matches!(self, Privileges::Root { .. })
    }
}

/// One mount of a player's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Mount {
    /// The player's own empty `/tmp` (or `/dev/shm`), writable by anyone
    /// as `/tmp` is, of the size of [`Allowance::tmp`](super::limits::Allowance::tmp).
    Scratch(PathBuf),
    /// An empty read-only folder hides what is there.
    Hidden(PathBuf),
    /// An empty file covers a file or a socket.
    Covered(PathBuf),
    /// Shown again read-only, above an empty folder.
    Shown(PathBuf),
    /// Writable.
    Writable(PathBuf),
}

impl Mount {
    pub(super) fn path(&self) -> &Path {
        match self {
            Mount::Scratch(path)
            | Mount::Hidden(path)
            | Mount::Covered(path)
            | Mount::Shown(path)
            | Mount::Writable(path) => path,
        }
    }

    /// Mounts are made shallowest first, so that none is covered by one
    /// made later above it; at one depth, hiding a folder comes before showing one, and
    /// covering a file after.
    fn order(&self) -> (usize, u8) {
        let rank = match self {
            Mount::Scratch(_) | Mount::Hidden(_) => 0,
            Mount::Shown(_) => 1,
            // What must stay unseen stays so even when a command names it.
            Mount::Covered(_) => 2,
            Mount::Writable(_) => 3,
        };
        (self.path().components().count(), rank)
    }
}

/// Puts `mounts` in the order they are made, each once.
fn sort(mounts: &mut Vec<Mount>) {
    mounts.sort_by(|a, b| a.order().cmp(&b.order()).then_with(|| a.path().cmp(b.path())));
    mounts.dedup();
}

/// What every player's view is made of besides the whole system read-only:
/// its own `/tmp` and `/dev/shm`, and `hidden`, the folders it must not see
/// (canonical, none the root), in the order made.
pub(super) fn common(hidden: impl IntoIterator<Item = PathBuf>) -> Vec<Mount> {
    // bwrap's own /dev/shm is a folder of its /dev, a tmpfs as large as
    // the kernel's default (half the RAM): sized as /tmp is.
    let mut mounts = vec![Mount::Scratch(PathBuf::from("/tmp")), Mount::Scratch(PathBuf::from("/dev/shm"))];
    mounts.extend(hidden.into_iter().map(Mount::Hidden));
    // The referee's temporary folder is often /tmp itself: the player's
    // own /tmp hides it already, and hidden again it would be read-only.
    mounts.retain(|mount| !matches!(mount, Mount::Hidden(path) if path == Path::new("/tmp")));
    sort(&mut mounts);
    mounts
}

/// What the file system says, when a player starts, of the paths its view
/// is made from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Facts {
    /// Each file or folder the command names that exists, canonical, in
    /// the order named.
    pub shown: Vec<Reached>,
    /// The folders on the way to the player's own folder that only their
    /// owner may go through, as [`Reached::closed`].
    pub dir_closed: Vec<PathBuf>,
    /// What players must never see, as it is now (the log and the captured
    /// output appear later): canonical, each a folder or not.
    pub private: Vec<(PathBuf, Kind)>,
    /// The Unix sockets the system lists that exist and are no folder. Not
    /// looked for when the player has the network.
    pub sockets: Vec<Socket>,
}

/// A Unix socket bound in the referee's network namespace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Socket {
    /// As the system lists it.
    pub listed: PathBuf,
    /// Canonical.
    pub path: PathBuf,
}

/// A file or folder the command names, and the folders on its way that
/// only their owner may go through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Reached {
    /// Canonical.
    pub path: PathBuf,
    /// Each such folder as it would be hidden (canonical, none the root),
    /// deepest first.
    pub closed: Vec<PathBuf>,
}

/// Whether a path is a folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Folder,
    /// A file, a socket, anything else.
    Other,
}

/// What a player of a sandbox sees and may do: its mounts in the order
/// made, where it starts, and what it is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Plan {
    pub privileges: Privileges,
    pub network: bool,
    pub mounts: Vec<Mount>,
    /// The size of the player's `/tmp` and `/dev/shm`, in bytes.
    pub tmp_size: u64,
    /// The player's folder, where it starts.
    pub dir: PathBuf,
    /// The variables set in its environment.
    pub env: Vec<(&'static str, &'static str)>,
}

/// The sandbox's settings, every player's: how privileges are taken away,
/// whether the network is cut, the [`common`] mounts, `/tmp`'s size.
pub(super) struct Setting<'a> {
    pub privileges: &'a Privileges,
    pub network: bool,
    pub common: &'a [Mount],
    pub tmp_size: u64,
}

/// The plan for a player in `dir` (writable, unless it is the root),
/// shown what `facts` found of what its command names.
pub(super) fn plan(setting: &Setting, dir: &Path, facts: &Facts) -> Plan {
    let mut mounts = setting.common.to_vec();
    // A folder that an unprivileged player could not go through anyway
    // is hidden, so that what it holds can be shown.
    let reach = |closed: &[PathBuf]| -> Vec<Mount> {
        if !setting.privileges.changes_user() {
            return Vec::new();
        }
        closed.iter().cloned().map(Mount::Hidden).collect()
    };
    for shown in &facts.shown {
        if shown.path.parent().is_none() || shown.path.starts_with(dir) {
            continue;
        }
        mounts.extend(reach(&shown.closed));
        mounts.push(Mount::Shown(shown.path.clone()));
    }
    // A private folder in a folder hidden already stays unseen, unless a
    // folder the command names shows it again: hiding it once more would
    // only make its path appear (in the player's own `/tmp`, say).
    let unseen = |path: &Path| {
        let hidden = setting
            .common
            .iter()
            .any(|mount| matches!(mount, Mount::Hidden(_) | Mount::Scratch(_)) && path.starts_with(mount.path()));
        hidden && !facts.shown.iter().any(|shown| path.starts_with(&shown.path))
    };
    mounts.extend(facts.private.iter().filter_map(|(path, kind)| match kind {
        Kind::Folder if unseen(path) => None,
        Kind::Folder => Some(Mount::Hidden(path.clone())),
        Kind::Other => Some(Mount::Covered(path.clone())),
    }));
    if !setting.network {
        // A socket in a hidden folder is hidden already (and may be gone by
        // the time bwrap would cover it).
        let hidden: Vec<&Path> = setting
            .common
            .iter()
            .filter(|mount| matches!(mount, Mount::Hidden(_) | Mount::Scratch(_)))
            .map(Mount::path)
            .collect();
        let sockets =
            facts.sockets.iter().filter(|socket| !hidden.iter().any(|folder| socket.listed.starts_with(folder)));
        mounts.extend(sockets.map(|socket| Mount::Covered(socket.path.clone())));
    }
    if dir.parent().is_some() {
        mounts.extend(reach(&facts.dir_closed));
        mounts.push(Mount::Writable(dir.to_owned()));
    }
    sort(&mut mounts);
    Plan {
        privileges: setting.privileges.clone(),
        network: setting.network,
        mounts,
        tmp_size: setting.tmp_size,
        dir: dir.to_owned(),
        env: vec![("TMPDIR", "/tmp")],
    }
}

impl Plan {
    /// bwrap's options for this plan; the program and its arguments follow.
    pub(super) fn arguments(&self) -> Vec<OsString> {
        let mut words: Vec<OsString> = match self.privileges {
            // No user namespace: the player is a real, unprivileged user of
            // the system, and bwrap keeps only what setpriv needs.
            Privileges::Root { .. } => [
                "--unshare-ipc",
                "--unshare-pid",
                "--unshare-uts",
                "--unshare-cgroup-try",
                "--cap-drop",
                "ALL",
                "--cap-add",
                "CAP_SETUID",
                "--cap-add",
                "CAP_SETGID",
                "--cap-add",
                "CAP_SETPCAP",
            ]
            .map(Into::into)
            .into(),
            Privileges::User { namespace: true } => {
                ["--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"].map(Into::into).into()
            }
            // A setuid bwrap keeps no capability for an unprivileged user,
            // and takes no capability options.
            Privileges::User { namespace: false } => vec!["--unshare-all".into()],
        };
        if !self.network {
            words.push("--unshare-net".into());
        } else if matches!(self.privileges, Privileges::User { .. }) {
            words.push("--share-net".into());
        }
        words.extend(["--die-with-parent", "--new-session"].map(Into::into));
        words.extend(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"].map(Into::into));
        let mut made: Vec<&Path> = Vec::new();
        for mount in &self.mounts {
            let path = mount.path();
            // bwrap makes the folders on the way to a mount point with mode
            // 700, which only root could go through.
            let hidden = made
                .iter()
                .filter(|&&hidden| path.starts_with(hidden))
                .max_by_key(|hidden| hidden.components().count());
            if let Some(hidden) = hidden {
                let between: Vec<&Path> = path.ancestors().skip(1).take_while(|folder| folder != hidden).collect();
                for folder in between.into_iter().rev() {
                    words.extend(["--perms".into(), "0755".into(), "--dir".into(), folder.into()]);
                }
            }
            let path = path.as_os_str().to_owned();
            match mount {
                Mount::Scratch(_) => {
                    let size = self.tmp_size.to_string();
                    words.extend([
                        "--perms".into(),
                        "1777".into(),
                        "--size".into(),
                        size.into(),
                        "--tmpfs".into(),
                        path,
                    ]);
                    made.push(mount.path());
                }
                Mount::Hidden(_) => {
                    words.extend(["--tmpfs".into(), path]);
                    made.push(mount.path());
                }
                Mount::Covered(_) => words.extend(["--ro-bind".into(), "/dev/null".into(), path]),
                Mount::Shown(_) => words.extend(["--ro-bind".into(), path.clone(), path]),
                Mount::Writable(_) => words.extend(["--bind".into(), path.clone(), path]),
            }
        }
        // Once what they hold is mounted, hiding folders are made read-only,
        // so that a write there fails as it would on the system around them.
        for mount in &self.mounts {
            if let Mount::Hidden(path) = mount {
                words.extend(["--remount-ro".into(), path.into()]);
            }
        }
        words.extend(["--chdir".into(), self.dir.as_os_str().to_owned()]);
        for (name, value) in &self.env {
            words.extend(["--setenv".into(), name.into(), value.into()]);
        }
        words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TMP_SIZE: u64 = 1 << 26;

    fn paths(paths: &[&str]) -> Vec<PathBuf> {
        paths.iter().map(PathBuf::from).collect()
    }

    /// A referee run by `privileges` from `/home/u/work`, its folder in `/tmp`.
    fn plan_for(privileges: Privileges, network: bool, dir: &str, facts: &Facts) -> Plan {
        let common = common(paths(&["/tmp", "/tmp/maxconnect4-1", "/home/u/work", "/home/u", "/run"]));
        let setting = Setting { privileges: &privileges, network, common: &common, tmp_size: TMP_SIZE };
        plan(&setting, Path::new(dir), facts)
    }

    fn user() -> Privileges {
        Privileges::User { namespace: true }
    }

    fn root() -> Privileges {
        Privileges::Root { setpriv: PathBuf::from("/usr/bin/setpriv") }
    }

    fn words(plan: &Plan) -> String {
        plan.arguments().join(std::ffi::OsStr::new(" ")).to_string_lossy().into_owned()
    }

    fn shown(path: &str, closed: &[&str]) -> Reached {
        Reached { path: PathBuf::from(path), closed: paths(closed) }
    }

    #[test]
    fn the_player_writes_only_in_its_own_folder() {
        let dir = "/tmp/maxconnect4-1/red-1";
        let facts = Facts { shown: vec![shown("/tmp/maxconnect4-1/red-1/a.out", &[])], ..Facts::default() };
        let plan = plan_for(user(), false, dir, &facts);
        let writable: Vec<&Mount> = plan.mounts.iter().filter(|mount| matches!(mount, Mount::Writable(_))).collect();
        assert_eq!(writable, [&Mount::Writable(PathBuf::from(dir))]);
        // What the command names in its own folder is there already.
        assert!(!plan.mounts.iter().any(|mount| matches!(mount, Mount::Shown(_))), "{plan:?}");
        let words = words(&plan);
        let end = format!(
            "--bind {dir} {dir} --remount-ro /run --remount-ro /home/u --remount-ro /tmp/maxconnect4-1 \
             --remount-ro /home/u/work --chdir {dir} --setenv TMPDIR /tmp"
        );
        assert!(words.ends_with(&end), "{words}");
        // The probe runs at the root, which it may not write.
        let plan = plan_for(user(), false, "/", &Facts::default());
        assert!(!plan.mounts.iter().any(|mount| matches!(mount, Mount::Writable(_))), "{plan:?}");
    }

    #[test]
    fn the_home_is_hidden_and_tmp_is_the_players_own() {
        let plan = plan_for(user(), false, "/tmp/maxconnect4-1/red-1", &Facts::default());
        assert!(plan.mounts.contains(&Mount::Hidden(PathBuf::from("/home/u"))));
        for scratch in ["/tmp", "/dev/shm"] {
            assert!(plan.mounts.contains(&Mount::Scratch(PathBuf::from(scratch))));
        }
        // The referee's temporary folder is /tmp: not hidden again read-only.
        assert!(!plan.mounts.contains(&Mount::Hidden(PathBuf::from("/tmp"))));
        let words = words(&plan);
        assert!(words.contains(&format!("--perms 1777 --size {TMP_SIZE} --tmpfs /tmp ")), "{words}");
        assert!(words.contains("--tmpfs /home/u ") && words.contains("--remount-ro /home/u "), "{words}");
        assert!(!words.contains("--remount-ro /tmp "), "{words}");
        // The referee's own folder stays hidden in the player's /tmp, read-only.
        assert!(words.contains("--tmpfs /tmp/maxconnect4-1 --"), "{words}");
        assert!(words.contains("--remount-ro /tmp/maxconnect4-1 "), "{words}");
    }

    #[test]
    fn an_interpreter_outside_the_folder_is_shown_read_only() {
        let pyenv = "/home/u/.pyenv/versions/3.12.1";
        let facts = Facts {
            shown: vec![shown(&format!("{pyenv}/bin/python3.12"), &["/home/u"]), shown(pyenv, &["/home/u"])],
            ..Facts::default()
        };
        // A player of a root referee is another user, who could not go
        // through the home: hidden, with the interpreter shown in it.
        let plan = plan_for(root(), false, "/tmp/maxconnect4-1/red-1", &facts);
        assert!(plan.mounts.contains(&Mount::Shown(PathBuf::from(pyenv))));
        let words = words(&plan);
        let hidden = words.find("--tmpfs /home/u ").unwrap();
        let through = format!(
            "--perms 0755 --dir /home/u/.pyenv --perms 0755 --dir /home/u/.pyenv/versions --ro-bind {pyenv} {pyenv} "
        );
        assert!(words.find(&through).is_some_and(|shown| hidden < shown), "{words}");
        assert!(!words.contains("--bind /home"), "{words}");
        // A conda environment elsewhere is shown where it is.
        let conda = "/opt/conda/envs/bots";
        let facts = Facts { shown: vec![shown(conda, &[])], ..Facts::default() };
        let words = self::words(&plan_for(user(), false, "/tmp/maxconnect4-1/red-1", &facts));
        assert!(words.contains(&format!(" --ro-bind {conda} {conda} ")) && !words.contains("--dir /opt"), "{words}");
        assert!(words.starts_with("--unshare-all --unshare-user --disable-userns --cap-drop ALL --unshare-net"));
    }

    #[test]
    fn a_closed_folder_is_hidden_only_for_a_player_of_another_user() {
        let facts = Facts { shown: vec![shown("/srv/own/bots/bot.py", &["/srv/own"])], ..Facts::default() };
        let closed = Mount::Hidden(PathBuf::from("/srv/own"));
        // The player of a root referee is nobody, who could not go through.
        assert!(plan_for(root(), false, "/tmp/maxconnect4-1/red-1", &facts).mounts.contains(&closed));
        // The referee's own user goes through its folders.
        assert!(!plan_for(user(), false, "/tmp/maxconnect4-1/red-1", &facts).mounts.contains(&closed));
    }

    #[test]
    fn the_root_of_the_system_is_never_shown_again() {
        let facts = Facts { shown: vec![shown("/", &[])], ..Facts::default() };
        let plan = plan_for(user(), true, "/tmp/maxconnect4-1/red-1", &facts);
        assert!(!plan.mounts.iter().any(|mount| matches!(mount, Mount::Shown(_))), "{plan:?}");
    }

    #[test]
    fn sockets_are_covered_only_when_the_network_is_cut() {
        let socket = |path: &str| Socket { listed: PathBuf::from(path), path: PathBuf::from(path) };
        let facts = Facts {
            sockets: vec![socket("/run/dbus/system_bus_socket"), socket("/var/lib/mysql/mysql.sock")],
            ..Facts::default()
        };
        let cut = plan_for(user(), false, "/tmp/maxconnect4-1/red-1", &facts);
        let covered: Vec<&Mount> = cut.mounts.iter().filter(|mount| matches!(mount, Mount::Covered(_))).collect();
        // The one in /run is hidden with /run.
        assert_eq!(covered, [&Mount::Covered(PathBuf::from("/var/lib/mysql/mysql.sock"))]);
        assert!(words(&cut).contains("--ro-bind /dev/null /var/lib/mysql/mysql.sock"));
        let open = plan_for(user(), true, "/tmp/maxconnect4-1/red-1", &facts);
        assert!(!open.mounts.iter().any(|mount| matches!(mount, Mount::Covered(_))), "{open:?}");
        assert!(words(&open).contains("--share-net") && !words(&open).contains("--unshare-net"));
    }

    #[test]
    fn the_log_stays_covered_in_a_folder_the_command_names() {
        let facts = Facts {
            shown: vec![shown("/srv/contest", &[])],
            private: vec![(PathBuf::from("/srv/contest/games.jsonl"), Kind::Other)],
            ..Facts::default()
        };
        let words = words(&plan_for(user(), false, "/tmp/maxconnect4-1/red-1", &facts));
        let shown = words.find("--ro-bind /srv/contest /srv/contest").unwrap();
        let covered = words.find("--ro-bind /dev/null /srv/contest/games.jsonl").unwrap();
        assert!(shown < covered, "{words}");
    }
}
