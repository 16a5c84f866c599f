//! Stand-ins, on a Unix other than Linux, for what `linux.rs`
//! adds to the runner: no sandbox (so no process file descriptor is asked
//! for), no subreaper and no `/proc`. A program is stopped through its
//! process group alone.

use std::io;
use std::os::fd::OwnedFd;

/// `wait4`'s flags: the plain ones.
pub const WAIT_ANY_CHILD: i32 = 0;

pub fn become_subreaper() {}

/// Nothing: a program outlives a referee killed by `kill -9` here (an
/// interrupt still stops it).
pub fn die_with_parent() {}

/// Marks, in a program about to start, the descriptors above standard
/// error that it may have inherited to be closed at exec: std opens its own
/// so already.
pub fn close_inherited() {
    for fd in 3..1024 {
        // SAFETY: fcntl on a number that may not be a descriptor fails
        // harmlessly; it is async-signal-safe.
        unsafe {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
}

pub fn pidfd_open(_: libc::pid_t) -> io::Result<OwnedFd> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

pub fn watch_init(_: libc::pid_t, _: libc::pid_t) -> Option<OwnedFd> {
    None
}

pub fn kill_and_wait(_: &[&OwnedFd]) {}

pub fn kill_trees(_: &[libc::pid_t]) {}

pub fn sweep() {}

pub fn kill_children() {}
