//! Per-player resource limits, kept by the kernel: each program the referee
//! starts runs in a control group of its own with a memory limit and a
//! process limit, its sandbox `/tmp` is a tmpfs of a fixed size, and no file
//! it writes may grow past its folder's limit (`RLIMIT_FSIZE`); its folder's
//! size is measured after each turn. A player that passes a limit loses the
//! game with a verdict naming it, and the kernel stops it there: the
//! machine, the referee and the other player are untouched.
//!
//! Control groups are cgroup v1's `memory` and `pids` hierarchies or cgroup
//! v2's, where the referee may make groups below its own (as root, usually).
//! Where it may not, the limits the kernel cannot keep are named in one
//! warning line and the games go on.

use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// What each player may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allowance {
    /// Memory of all its processes together, its `/tmp` included, in bytes.
    pub memory: u64,
    /// Processes and threads at once.
    pub processes: u32,
    /// Its sandbox `/tmp`, in bytes.
    pub tmp: u64,
    /// Its folder, kept across turns, in bytes; also the largest file it
    /// may write anywhere.
    pub disk: u64,
    /// CPU time of all its processes on one move; none: the move's time
    /// limit, so that running on many cores buys nothing.
    pub cpu: Option<Duration>,
}

impl Allowance {
    /// Defaults a class would choose: far above what a Connect-4 program
    /// needs (a small Java program peaks at 20 MB and 21 to 24 threads on
    /// 2 cores, more threads on more cores), far below
    /// what would starve a machine running two games at once.
    pub const DEFAULT: Allowance =
        Allowance { memory: 1 << 30, processes: 256, tmp: 256 << 20, disk: 256 << 20, cpu: None };
}

impl Default for Allowance {
    fn default() -> Allowance {
        Allowance::DEFAULT
    }
}

/// The limit a player passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passed {
    /// Its processes together needed more than [`Allowance::memory`], as
    /// the kernel counted.
    Memory,
    /// It tried to have more than [`Allowance::processes`] processes and
    /// threads at once.
    Processes,
    /// Its folder grew past [`Allowance::disk`], or a file it wrote
    /// anywhere did.
    Disk,
    /// Its processes used more CPU time on one move than [`Allowance::cpu`],
    /// or than the move's time limit where that is unset.
    Cpu,
}

/// Where this referee makes its players' control groups.
#[derive(Clone, Debug)]
pub struct Groups {
    /// cgroup v2: one folder holds both controllers.
    unified: Option<PathBuf>,
    /// cgroup v1's memory and pids hierarchies.
    memory: Option<PathBuf>,
    pids: Option<PathBuf>,
    cpuacct: Option<PathBuf>,
}

/// A player's control groups, removed when dropped.
pub struct Group {
    folders: Vec<PathBuf>,
    /// `cgroup.procs` of each, open for the child to write itself into.
    procs: Vec<File>,
    unified: bool,
    /// The file that counts its CPU time: v2's `cpu.stat`, v1's
    /// `cpuacct.usage`.
    cpu: Option<PathBuf>,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

impl Groups {
    /// The control groups this referee may make, and a warning naming what
    /// will not be kept when it may make none.
    #[must_use]
    pub fn find() -> (Groups, Option<String>) {
        let listed = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        let mut groups = Groups { unified: None, memory: None, pids: None, cpuacct: None };
        for line in listed.lines() {
            let mut fields = line.splitn(3, ':');
            let (Some(_), Some(controllers), Some(path)) = (fields.next(), fields.next(), fields.next()) else {
                continue;
            };
            let path = path.trim_start_matches('/');
            let usable = |folder: PathBuf| try_group(&folder).then_some(folder);
            match controllers {
                "" => groups.unified = unified_mount().and_then(|mount| nearest_delegating(&mount, Path::new(path))),
                "memory" => groups.memory = usable(Path::new("/sys/fs/cgroup/memory").join(path)),
                "pids" => groups.pids = usable(Path::new("/sys/fs/cgroup/pids").join(path)),
                "cpuacct" | "cpu,cpuacct" | "cpuacct,cpu" => {
                    groups.cpuacct = usable(Path::new("/sys/fs/cgroup").join(controllers).join(path));
                }
                _ => {}
            }
        }
        let unified = groups.unified.is_some();
        let missing: Vec<&str> = [
            (groups.memory.is_some(), "memory (--memory)"),
            (groups.pids.is_some(), "processes (--processes)"),
            (groups.cpuacct.is_some(), "CPU time (--cpu)"),
        ]
        .into_iter()
        .filter(|&(found, _)| !unified && !found)
        .map(|(_, what)| what)
        .collect();
        let warning = (!missing.is_empty()).then(|| {
            // Elsewhere there is no sandbox either, whose /tmp is bounded.
            let (why, kept) = if cfg!(target_os = "linux") {
                ("no control group this referee may make", "their /tmp and folder sizes still are")
            } else {
                ("control groups are Linux's", "their folder sizes still are")
            };
            format!("warning: the limits of players' {} cannot be kept here ({why}); {kept}", missing.join(", "))
        });
        (groups, warning)
    }

    /// A player's control groups with `limits`, none where there is no
    /// hierarchy to make them in.
    ///
    /// # Errors
    /// When a group cannot be made or limited.
    pub fn make(&self, limits: &Allowance) -> io::Result<Option<Group>> {
        let name = format!("maxconnect4-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let mut group = Group { folders: Vec::new(), procs: Vec::new(), unified: self.unified.is_some(), cpu: None };
        // Settings marked optional are not on every system (swap accounting
        // may be off) and only make the limit stricter.
        let mut limit = |parent: &Path, settings: &[(&str, String, bool)]| -> io::Result<()> {
            let folder = parent.join(&name);
            std::fs::create_dir(&folder)?;
            group.folders.push(folder.clone());
            for (file, value, required) in settings {
                match std::fs::write(folder.join(file), value) {
                    Err(error) if *required => return Err(error),
                    _ => {}
                }
            }
            group.procs.push(std::fs::OpenOptions::new().write(true).open(folder.join("cgroup.procs"))?);
            Ok(())
        };
        if let Some(unified) = &self.unified {
            let settings = [
                ("memory.max", limits.memory.to_string(), true),
                ("memory.swap.max", "0".to_owned(), false),
                ("memory.oom.group", "1".to_owned(), false),
                ("pids.max", limits.processes.to_string(), true),
            ];
            limit(unified, &settings)?;
            group.cpu = Some(unified.join(&name).join("cpu.stat"));
        } else {
            if let Some(memory) = &self.memory {
                limit(memory, &[("memory.limit_in_bytes", limits.memory.to_string(), true)])?;
            }
            if let Some(pids) = &self.pids {
                limit(pids, &[("pids.max", limits.processes.to_string(), true)])?;
            }
            if let Some(cpuacct) = &self.cpuacct {
                limit(cpuacct, &[])?;
                group.cpu = Some(cpuacct.join(&name).join("cpuacct.usage"));
            }
        }
        Ok((!group.folders.is_empty()).then_some(group))
    }
}

/// Where the cgroup v2 hierarchy is mounted: `/sys/fs/cgroup` on a system
/// with v2 alone, `/sys/fs/cgroup/unified` beside v1's hierarchies.
fn unified_mount() -> Option<PathBuf> {
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    mounts.lines().find_map(|line| {
        // ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS [FIELDS] - TYPE ...
        let (before, after) = line.split_once(" - ")?;
        if after.split(' ').next() != Some("cgroup2") {
            return None;
        }
        before.split(' ').nth(4).map(PathBuf::from)
    })
}

/// The nearest group at or above `own` (a path in the v2 hierarchy mounted
/// at `mount`) that hands the memory and pids controllers to its children
/// and in which this referee may make groups. Its own group seldom does: a
/// group holding processes may not hand controllers down (v2's rule of no
/// internal processes), so under systemd a root referee's groups go in its
/// slice, beside its session.
fn nearest_delegating(mount: &Path, own: &Path) -> Option<PathBuf> {
    own.ancestors().map(|group| mount.join(group.strip_prefix("/").unwrap_or(group))).find(|folder| {
        let enabled = std::fs::read_to_string(folder.join("cgroup.subtree_control")).unwrap_or_default();
        let words: Vec<&str> = enabled.split_whitespace().collect();
        words.contains(&"memory") && words.contains(&"pids") && try_group(folder)
    })
}

/// Whether a group can be made (and removed) in `folder`; the groups a dead
/// referee left there (killed with `kill -9`: empty, since its players died
/// with it) are removed on the way.
fn try_group(folder: &Path) -> bool {
    for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let owner =
            name.to_str().and_then(|name| name.strip_prefix("maxconnect4-")?.split('-').next()?.parse::<u32>().ok());
        if owner.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = std::fs::remove_dir(entry.path());
        }
    }
    let probe = folder.join(format!("maxconnect4-probe-{}", std::process::id()));
    let made = std::fs::create_dir(&probe).is_ok();
    made && std::fs::remove_dir(&probe).is_ok()
}

impl Group {
    /// The descriptors the child writes its process id to, before it runs
    /// the program: everything it starts then stays in the group. Copies,
    /// which the child's start-up code owns (and closes at `exec`).
    ///
    /// # Errors
    /// When no descriptor is left to copy them to.
    pub fn procs(&self) -> io::Result<Vec<OwnedFd>> {
        self.procs.iter().map(|file| file.try_clone().map(OwnedFd::from)).collect()
    }

    /// The CPU time the group's processes have used, as the kernel counts
    /// it, where it does.
    #[must_use]
    pub fn cpu(&self) -> Option<Duration> {
        let text = std::fs::read_to_string(self.cpu.as_ref()?).ok()?;
        if self.unified {
            let micros = text.lines().find_map(|line| line.strip_prefix("usage_usec ")?.trim().parse().ok())?;
            Some(Duration::from_micros(micros))
        } else {
            Some(Duration::from_nanos(text.trim().parse().ok()?))
        }
    }

    /// The limit the group's processes passed, if any, as the kernel counted.
    #[must_use]
    pub fn passed(&self) -> Option<Passed> {
        let count = |folder: &Path, file: &str, key: &str| -> u64 {
            let text = std::fs::read_to_string(folder.join(file)).unwrap_or_default();
            text.lines().filter_map(|line| line.strip_prefix(key)?.trim().parse::<u64>().ok()).next().unwrap_or(0)
        };
        for folder in &self.folders {
            // The kernel's count of processes it killed for want of memory
            // in the group (kernels before 4.13 have no such count in v1:
            // there, how often the limit was hit).
            let memory = if self.unified {
                count(folder, "memory.events", "oom_kill ")
            } else if std::fs::read_to_string(folder.join("memory.oom_control"))
                .is_ok_and(|text| text.contains("oom_kill "))
            {
                count(folder, "memory.oom_control", "oom_kill ")
            } else {
                count(folder, "memory.failcnt", "")
            };
            if memory > 0 {
                return Some(Passed::Memory);
            }
            if count(folder, "pids.events", "max ") > 0 {
                return Some(Passed::Processes);
            }
        }
        None
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        // Empty by now: every process of the player has been killed and
        // reaped.
        for folder in &self.folders {
            let _ = std::fs::remove_dir(folder);
        }
    }
}

/// Writes this process's id to each of `procs`, without allocating: it runs
/// in the child between `fork` and `exec`.
///
/// # Errors
/// When a write fails.
pub fn join(procs: &[OwnedFd]) -> io::Result<()> {
    // In decimal, on the stack.
    let pid = rustix::path::DecInt::new(rustix::process::getpid().as_raw_pid());
    for fd in procs {
        rustix::io::write(fd, pid.as_bytes())?;
    }
    Ok(())
}

/// What an entry of a folder costs at least, in bytes: a filesystem's
/// block. Empty files and links are not free (each takes an inode), and
/// counting them so bounds a walk of a folder within its limit (65,536
/// entries under the default 256 MB).
pub const LEAST_PER_ENTRY: u64 = 4096;

/// What an entry costs a player's folder: the larger of its blocks and
/// its apparent size, at least [`LEAST_PER_ENTRY`]. A sparse file counts
/// whole: copied, or read by a program that copies it, it is written out
/// in full (a 1 GiB file of a few blocks made the referee write 1 GB a
/// game), so it is refused before, not charged after.
#[must_use]
pub fn cost(metadata: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt as _;
    (metadata.blocks() * 512).max(metadata.len()).max(LEAST_PER_ENTRY)
}

/// The bytes under `folder` (itself included), not following links, each
/// entry counting at least [`LEAST_PER_ENTRY`], stopping once past `limit`.
#[must_use]
pub fn size_of(folder: &Path, limit: u64) -> u64 {
    let mut total = std::fs::symlink_metadata(folder).map_or(0, |metadata| cost(&metadata));
    let mut folders = vec![folder.to_owned()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let Ok(metadata) = entry.metadata() else { continue };
            total += cost(&metadata);
            if metadata.is_dir() {
                folders.push(entry.path());
            }
            if total > limit {
                return total;
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A v2 hierarchy as systemd lays it out, in a plain folder: the
    /// referee's session holds processes and hands nothing down, its slice
    /// hands memory and pids down.
    #[test]
    fn v2_groups_are_made_in_the_nearest_group_that_hands_memory_and_pids_down() {
        let mount = tempfile::tempdir().unwrap();
        let slice = mount.path().join("user.slice/user-0.slice");
        let session = slice.join("session-1.scope");
        std::fs::create_dir_all(&session).unwrap();
        std::fs::write(mount.path().join("cgroup.subtree_control"), "cpu io memory pids\n").unwrap();
        std::fs::write(mount.path().join("user.slice/cgroup.subtree_control"), "memory pids\n").unwrap();
        std::fs::write(slice.join("cgroup.subtree_control"), "memory pids\n").unwrap();
        std::fs::write(session.join("cgroup.subtree_control"), "").unwrap();
        let own = Path::new("/user.slice/user-0.slice/session-1.scope");
        assert_eq!(nearest_delegating(mount.path(), own), Some(slice.clone()));

        // A slice that hands down memory alone is passed over.
        std::fs::write(slice.join("cgroup.subtree_control"), "memory\n").unwrap();
        assert_eq!(nearest_delegating(mount.path(), own), Some(mount.path().join("user.slice")));

        // A container's own root that hands nothing down: no group.
        assert_eq!(nearest_delegating(&session, Path::new("/")), None);
    }

    #[test]
    fn a_folder_counts_its_entries_at_least_a_block_each() {
        let folder = tempfile::tempdir().unwrap();
        for number in 0..10 {
            std::fs::File::create(folder.path().join(number.to_string())).unwrap();
        }
        // The folder itself and ten empty files.
        assert!(size_of(folder.path(), u64::MAX) >= 11 * LEAST_PER_ENTRY);
        // Stops once past the limit.
        assert!(size_of(folder.path(), 2 * LEAST_PER_ENTRY) <= 3 * LEAST_PER_ENTRY);
    }

    #[test]
    fn a_sparse_file_counts_at_its_apparent_size() {
        let folder = tempfile::tempdir().unwrap();
        let sparse = std::fs::File::create(folder.path().join("sparse")).unwrap();
        sparse.set_len(1 << 30).unwrap();
        assert!(size_of(folder.path(), u64::MAX) >= 1 << 30);
    }
}
