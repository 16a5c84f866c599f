//! The referee's children: which of them belong to a running program, a
//! program's process group killed, and its end reaped with what it cost.

use std::io;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rustix::process::{Pid, Signal};

use super::os;

/// The referee's children that belong to a running program (the program,
/// or bwrap and its sandbox's first process), each the leader of its
/// process group: what an interrupt kills, and, on Linux, what the sweep of
/// orphans spares. Held while a program starts, so that it is registered
/// before anyone looks.
static REGISTERED: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

pub(super) fn registered() -> MutexGuard<'static, Vec<libc::pid_t>> {
    REGISTERED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Sends SIGKILL to the process group `leader` leads.
pub(super) fn kill_group(leader: libc::pid_t) {
    if let Some(group) = Pid::from_raw(leader) {
        let _ = rustix::process::kill_process_group(group, Signal::KILL);
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
            if libc::wait4(pid, &mut status, os::WAIT_ANY_CHILD, &mut usage) == pid {
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
