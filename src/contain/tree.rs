//! The processes a contained program leaves: the referee is their
//! subreaper, so whatever a program starts ends up its child; a tree is
//! found through `/proc` and killed through process file descriptors, and
//! every orphan no running program owns is swept.

use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt as _;
use std::process::Stdio;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rustix::event::{poll, PollFd, PollFlags};
use rustix::io::Errno;
use rustix::process::{getpid, Pid, PidfdFlags, Signal};

/// The referee's children that belong to a running program (the
/// program, or bwrap and its sandbox's first process): every other
/// child is an orphan a player left, to be killed. Held while a program
/// starts, so that it is registered before anyone looks.
static REGISTERED: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

pub(super) fn registered() -> MutexGuard<'static, Vec<libc::pid_t>> {
    REGISTERED.lock().unwrap_or_else(PoisonError::into_inner)
}

pub fn become_subreaper() {
    let _ = rustix::process::set_child_subreaper(Some(getpid()));
}

pub fn run_aside(command: &mut std::process::Command) -> io::Result<std::process::Output> {
    /// The longest a helper may take: a version manager answers in a
    /// fraction of a second, unless something it reads hangs it.
    const LIMIT: Duration = Duration::from_secs(10);
    let child = {
        let mut registered = registered();
        let child =
            command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0).spawn()?;
        registered.push(libc::pid_t::try_from(child.id()).expect("process ids fit in pid_t"));
        child
    };
    let pid = libc::pid_t::try_from(child.id()).expect("process ids fit in pid_t");
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(child.wait_with_output()));
    let output = receive.recv_timeout(LIMIT).unwrap_or_else(|_| {
        // Its whole group, so that no process of it keeps the pipes open.
        if let Some(group) = Pid::from_raw(pid) {
            let _ = rustix::process::kill_process_group(group, Signal::KILL);
        }
        let _ = receive.recv();
        Err(io::Error::other(format!("it took more than {} s and was stopped", LIMIT.as_secs())))
    });
    registered().retain(|&id| id != pid);
    output
}

/// The referee's own process id.
pub(super) fn referee() -> libc::pid_t {
    getpid().as_raw_pid()
}

pub(super) fn pidfd_open(pid: libc::pid_t) -> io::Result<OwnedFd> {
    let pid = Pid::from_raw(pid).ok_or_else(|| io::Error::from(Errno::SRCH))?;
    Ok(rustix::process::pidfd_open(pid, PidfdFlags::empty())?)
}

/// Every process: its id, its parent's and its start time (which tells
/// a process from a later one given the same id).
pub(super) fn processes() -> Vec<(libc::pid_t, libc::pid_t, u64)> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<libc::pid_t>().ok())
        .filter_map(|pid| stat(pid).map(|(parent, start)| (pid, parent, start)))
        .collect()
}

/// The parent and start time of `pid`, from `/proc/PID/stat`.
pub(super) fn stat(pid: libc::pid_t) -> Option<(libc::pid_t, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name, in parentheses, may hold spaces and parentheses itself.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    Some((fields.get(1)?.parse().ok()?, fields.get(19)?.parse().ok()?))
}

/// Kills `roots` and all their descendants with SIGKILL and waits until
/// each has ended. A process started after the descendants were listed
/// is adopted by the referee when its parent ends, for [`sweep`].
pub(super) fn kill_trees(roots: &[libc::pid_t]) {
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
pub(super) fn sweep() {
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

/// Reaps the child `pid`: its wait status (none if it was not ours to
/// reap) and CPU time.
pub(super) fn reap(pid: libc::pid_t) -> (Option<i32>, Duration) {
    let mut status = 0;
    // SAFETY: wait4 fills `status` and `usage` (zeroed: a valid value of
    // that plain C struct), both valid for writing. It stays libc's: the
    // waits of rustix and std do not give the resource usage, which is
    // where a program's CPU time comes from.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        loop {
            if libc::wait4(pid, &mut status, libc::__WALL, &mut usage) == pid {
                break usage;
            }
            if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return (None, Duration::ZERO);
            }
        }
    };
    let seconds = |time: libc::timeval| {
        Duration::from_secs(u64::try_from(time.tv_sec).unwrap_or(0))
            + Duration::from_micros(u64::try_from(time.tv_usec).unwrap_or(0))
    };
    (Some(status), seconds(usage.ru_utime) + seconds(usage.ru_stime))
}
