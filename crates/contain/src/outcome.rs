//! What watching a contained program tells: which of its streams spoke,
//! whether it ended, and how.

use std::time::Duration;

use super::limits::Passed;

/// How one run of a program ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this status.
    Exited(i32),
    /// A signal ended it: this one (9 when the referee killed it).
    Signalled(i32),
    /// Its time ran out before it ended, and it was killed.
    TimedOut,
    /// It never ran; why, in words.
    FailedToStart(String),
}

/// One of a program's output streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Its standard output.
    Stdout,
    /// Its standard error.
    Stderr,
}

/// What [`Contained::poll`](super::Contained::poll) saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Polled {
    /// Some output was read (and given to the caller), or an output stream
    /// was closed.
    Output,
    /// The program has ended.
    Ended,
    /// The deadline passed first.
    Deadline,
}

/// How a stopped program ended and what it cost.
#[derive(Clone, Debug)]
pub struct Stopped {
    /// `Exited` or `Signalled`; killed by the referee is signal 9.
    pub ending: Ending,
    /// From the start to the end seen by [`Contained::poll`](super::Contained::poll), or to the stop.
    pub wall: Duration,
    /// User plus system time of the program and the children it waited for.
    pub cpu: Duration,
    /// The limit it passed, if it passed one.
    pub passed: Option<Passed>,
}
