//! What only Linux adds to the runner: the referee is the
//! subreaper of the processes a contained program leaves, so whatever a
//! program starts ends up its child; a tree is found through `/proc` and
//! killed through process file descriptors, and every orphan no running
//! program owns is swept. A program dies with the referee, and is given no
//! descriptor the referee inherited.

use std::io;
use std::os::fd::OwnedFd;

use rustix::event::{PollFd, PollFlags, poll};
use rustix::io::Errno;
use rustix::process::{Pid, PidfdFlags, Signal, getpid};

use crate::children::{reap, registered};

/// `wait4`'s flag for any kind of child: the sandbox's first process,
/// adopted by the referee, is one bwrap started with `clone`.
pub const WAIT_ANY_CHILD: i32 = libc::__WALL;

/// Makes the referee the subreaper of whatever its players start.
pub fn become_subreaper() {
    let _ = rustix::process::set_child_subreaper(Some(getpid()));
}

/// The referee's own process id.
fn referee() -> libc::pid_t {
    getpid().as_raw_pid()
}

/// Asks, in a program about to start, for SIGKILL when the referee's
/// thread that started it ends, even by `kill -9`.
pub fn die_with_parent() {
    let _ = rustix::process::set_parent_process_death_signal(Some(Signal::KILL));
}

/// Marks, in a program about to start, every descriptor above standard
/// error to be closed at exec (Linux 5.11 and later; an older kernel's
/// refusal is ignored).
pub fn close_inherited() {
    // SAFETY: close_range only changes the flags of this process's
    // descriptors; it is async-signal-safe.
    unsafe {
        libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, libc::CLOSE_RANGE_CLOEXEC);
    }
}

pub fn pidfd_open(pid: libc::pid_t) -> io::Result<OwnedFd> {
    let pid = Pid::from_raw(pid).ok_or_else(|| io::Error::from(Errno::SRCH))?;
    Ok(rustix::process::pidfd_open(pid, PidfdFlags::empty())?)
}

/// Every process: its id, its parent's and its start time (which tells
/// a process from a later one given the same id).
fn processes() -> Vec<(libc::pid_t, libc::pid_t, u64)> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<libc::pid_t>().ok())
        .filter_map(|pid| stat(pid).map(|(parent, start)| (pid, parent, start)))
        .collect()
}

/// The parent and start time of `pid`, from `/proc/PID/stat`.
fn stat(pid: libc::pid_t) -> Option<(libc::pid_t, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name, in parentheses, may hold spaces and parentheses itself.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    Some((fields.get(1)?.parse().ok()?, fields.get(19)?.parse().ok()?))
}

/// A process file descriptor for the sandbox's first process `init`, if it
/// is still the child of `bwrap` (so not a later process given its id).
pub fn watch_init(init: libc::pid_t, bwrap: libc::pid_t) -> Option<OwnedFd> {
    let pidfd = pidfd_open(init).ok()?;
    stat(init).is_some_and(|(parent, _)| parent == bwrap).then_some(pidfd)
}

/// Kills the processes of `pidfds` with SIGKILL and waits until each has
/// ended.
pub fn kill_and_wait(pidfds: &[&OwnedFd]) {
    for pidfd in pidfds {
        let _ = rustix::process::pidfd_send_signal(pidfd, Signal::KILL);
    }
    for pidfd in pidfds {
        // Readable once the process has ended.
        while poll(&mut [PollFd::new(*pidfd, PollFlags::IN)], None).is_err() {}
    }
}

/// Kills `roots` and all their descendants with SIGKILL and waits until
/// each has ended. A process started after the descendants were listed
/// is adopted by the referee when its parent ends, for [`sweep`].
pub fn kill_trees(roots: &[libc::pid_t]) {
    let table = processes();
    let mut doomed: Vec<(libc::pid_t, u64)> = Vec::new();
    let mut queue: Vec<libc::pid_t> = roots.to_vec();
    while let Some(pid) = queue.pop() {
        let Some(&(_, _, start)) = table.iter().find(|(id, _, _)| *id == pid) else { continue };
        if doomed.iter().any(|(id, _)| *id == pid) {
            continue;
        }
        doomed.push((pid, start));
        queue.extend(table.iter().filter(|(_, parent, _)| *parent == pid).map(|(id, _, _)| *id));
    }
    let mut handles = Vec::new();
    for (pid, start) in doomed {
        let Ok(pidfd) = pidfd_open(pid) else { continue };
        // The same process, not a later one given its id.
        if stat(pid).is_some_and(|(_, now)| now == start) {
            let _ = rustix::process::pidfd_send_signal(&pidfd, Signal::KILL);
            handles.push(pidfd);
        }
    }
    for pidfd in handles {
        // Readable once the process has ended.
        while poll(&mut [PollFd::new(&pidfd, PollFlags::IN)], None).is_err() {}
    }
}

/// Kills and reaps every child of the referee that no running program
/// owns: orphans a player left, adopted by the subreaper. Repeats until
/// there are none, as killing one may orphan more.
pub fn sweep() {
    let registered = registered();
    let referee = referee();
    loop {
        let orphans: Vec<libc::pid_t> = processes()
            .into_iter()
            .filter(|&(pid, parent, _)| parent == referee && !registered.contains(&pid))
            .map(|(pid, _, _)| pid)
            .collect();
        if orphans.is_empty() {
            return;
        }
        kill_trees(&orphans);
        for orphan in orphans {
            reap(orphan);
        }
    }
}

/// Kills every child of the referee and all their descendants, registered
/// or not: what an interrupt does.
pub fn kill_children() {
    let referee = referee();
    let children: Vec<libc::pid_t> =
        processes().into_iter().filter(|&(_, parent, _)| parent == referee).map(|(pid, _, _)| pid).collect();
    kill_trees(&children);
}
