//! The memory this process can have, so that a transposition table asked
//! for with `--hash` is one the system can give.
//!
//! The table is allocated at once but mapped in only as the search fills
//! it, so a table larger than the memory at hand is not refused when it is
//! made: the kernel kills the program later, in the middle of a search. The
//! memory at hand is the smallest of what the system has available
//! (`MemAvailable` in `/proc/meminfo`) and the room left under the memory
//! limit of each control group the process is in (cgroup v2, or v1's
//! memory controller). Reading those files is Linux's; elsewhere nothing is
//! known and every size is accepted.

use std::path::{Path, PathBuf};

/// Memory the program needs besides its table: the binary, the stacks and
/// the buffers, with room to spare (its peak resident size with `--hash 0`
/// is under 8 MB).
pub const RESERVE_BYTES: u64 = 32 << 20;

/// How much memory is available, and which limit says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Available {
    /// The memory at hand, in bytes, before [`RESERVE_BYTES`] are set
    /// aside for the rest of the program.
    pub bytes: u64,
    /// Which figure was the smallest, as the message names it.
    pub limit: Limit,
}

/// Where the figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The memory the system has available (`MemAvailable`).
    System,
    /// Room under a control group's memory limit.
    ControlGroup,
}

/// A table too large for the memory at hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{asked} MB is more than the memory at hand: {} MB {}, of which the program needs {} MB besides its table; give {} or less", .available.bytes >> 20, .available.limit.describe(), RESERVE_BYTES >> 20, most_megabytes(*.available))]
pub struct TooLarge {
    /// The table asked for, in MB (2^20 bytes), as `--hash` gives it.
    pub asked: u64,
    /// The memory at hand, and which limit set it.
    pub available: Available,
}

impl Limit {
    fn describe(self) -> &'static str {
        match self {
            Limit::System => "available on this system",
            Limit::ControlGroup => "left under this process's memory limit (cgroup)",
        }
    }
}

/// The largest table, in MB, that fits in `available`.
#[must_use]
pub fn most_megabytes(available: Available) -> u64 {
    available.bytes.saturating_sub(RESERVE_BYTES) >> 20
}

/// Checks that a table of `megabytes` fits in `available` (`None`: not known).
///
/// # Errors
/// When it does not.
pub fn check_table(megabytes: u64, available: Option<Available>) -> Result<(), TooLarge> {
    match available {
        Some(available) if megabytes > most_megabytes(available) => Err(TooLarge { asked: megabytes, available }),
        _ => Ok(()),
    }
}

/// The memory available to this process now, if the system says.
#[must_use]
pub fn available() -> Option<Available> {
    let read = |path: &Path| std::fs::read_to_string(path).ok();
    let meminfo = read(Path::new("/proc/meminfo"));
    let mut groups = Vec::new();
    for directory in control_groups(read(Path::new("/proc/self/cgroup")).as_deref().unwrap_or("")) {
        let v2 = (read(&directory.join("memory.max")), read(&directory.join("memory.current")));
        let v1 = || (read(&directory.join("memory.limit_in_bytes")), read(&directory.join("memory.usage_in_bytes")));
        groups.push(if v2.0.is_some() { v2 } else { v1() });
    }
    let groups: Vec<(Option<&str>, Option<&str>)> =
        groups.iter().map(|(limit, usage)| (limit.as_deref(), usage.as_deref())).collect();
    from_figures(meminfo.as_deref(), &groups)
}

/// The directories of the control groups the process is in, with every
/// ancestor (whose limits apply too), from `/proc/self/cgroup`'s text.
fn control_groups(cgroup: &str) -> Vec<PathBuf> {
    let mut directories = Vec::new();
    for line in cgroup.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (fields.next(), fields.next(), fields.next()) else { continue };
        let root = match controllers {
            "" => Path::new("/sys/fs/cgroup").to_owned(),
            list if list.split(',').any(|c| c == "memory") => Path::new("/sys/fs/cgroup/memory").to_owned(),
            _ => continue,
        };
        let mut directory = root.join(path.trim_start_matches('/'));
        while directory.starts_with(&root) {
            directories.push(directory.clone());
            if !directory.pop() {
                break;
            }
        }
    }
    directories
}

/// The smallest of `MemAvailable` in `meminfo` and the room under each
/// control group's limit, given as the texts of its limit and usage files
/// (`max`, or a limit near 2^63 in v1, means none).
#[must_use]
pub fn from_figures(meminfo: Option<&str>, groups: &[(Option<&str>, Option<&str>)]) -> Option<Available> {
    let system = meminfo.and_then(|text| {
        let line = text.lines().find(|line| line.starts_with("MemAvailable:"))?;
        let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(Available { bytes: kilobytes.saturating_mul(1024), limit: Limit::System })
    });
    let groups = groups.iter().filter_map(|&(limit, usage)| {
        let limit: u64 = limit?.trim().parse().ok().filter(|&limit| limit < 1 << 62)?;
        let usage: u64 = usage.and_then(|usage| usage.trim().parse().ok()).unwrap_or(0);
        Some(Available { bytes: limit.saturating_sub(usage), limit: Limit::ControlGroup })
    });
    system.into_iter().chain(groups).min_by_key(|available| available.bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MEMINFO: &str = "MemTotal:       24000000 kB\nMemFree:         1000000 kB\nMemAvailable:    8000000 kB\n";

    fn check(meminfo: Option<&str>, groups: &[(Option<&str>, Option<&str>)], megabytes: u64, expected: &str) {
        let result = check_table(megabytes, from_figures(meminfo, groups));
        assert_eq!(result.map_or_else(|error| error.to_string(), |()| "fits".to_owned()), expected);
    }

    #[test]
    fn the_smallest_limit_decides() {
        let system = "4000 MB is more than the memory at hand: 7812 MB available on this system, of which the program needs 32 MB besides its table; give 7780 or less";
        check(Some(MEMINFO), &[], 7780, "fits");
        check(Some(MEMINFO), &[], 4000, "fits");
        check(Some(MEMINFO), &[], 8000, &system.replace("4000 MB is", "8000 MB is"));
        // A 1 GiB limit with 100 MiB in use.
        let group = (Some("1073741824\n"), Some("104857600\n"));
        check(
            Some(MEMINFO),
            &[(Some("max\n"), Some("5\n")), group],
            4000,
            "4000 MB is more than the memory at hand: 924 MB left under this process's memory limit (cgroup), of which the program needs 32 MB besides its table; give 892 or less",
        );
        check(Some(MEMINFO), &[group], 892, "fits");
        // cgroup v1's "no limit", and nothing known at all.
        check(None, &[(Some("9223372036854771712"), Some("1"))], 1 << 40, "fits");
        check(None, &[], u64::MAX, "fits");
    }

    #[test]
    fn control_groups_include_their_ancestors() {
        let v2 = control_groups("0::/user.slice/session-1.scope\n");
        let expected: Vec<PathBuf> =
            ["/sys/fs/cgroup/user.slice/session-1.scope", "/sys/fs/cgroup/user.slice", "/sys/fs/cgroup"]
                .map(PathBuf::from)
                .into();
        assert_eq!(v2, expected);
        assert_eq!(
            control_groups("4:memory:/docker/abc\n3:cpu:/x\n"),
            [
                PathBuf::from("/sys/fs/cgroup/memory/docker/abc"),
                PathBuf::from("/sys/fs/cgroup/memory/docker"),
                PathBuf::from("/sys/fs/cgroup/memory"),
            ]
        );
    }
}
