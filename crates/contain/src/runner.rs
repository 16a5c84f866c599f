//! Starting and watching one program, on every Unix: its own process group,
//! its output read with `poll(2)` on non-blocking pipes, its end seen with
//! `waitid(WNOWAIT)`, its stop a `SIGKILL` to the group and a `wait4` for
//! its exit status and CPU time. This is the whole runner where the system
//! offers nothing more (macOS, the BSDs), and what `--no-sandbox` uses on
//! Linux too, so that it is tested here.
//!
//! What only Linux can do is layered on by `os`: a sandboxed
//! program (bwrap) is watched through a process file descriptor, and a stop
//! there also kills the program's whole tree found through `/proc`, `setsid`
//! or not, and sweeps the orphans the referee adopted as a subreaper.
//! Without it, a process that left the program's group (`setsid`) outlives
//! the program: what the sandbox is for.

use std::io::{self, BufRead as _, PipeReader, PipeWriter};
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt as _;
use std::process::Stdio;
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::{Errno, FdFlags};
use rustix::process::{Pid, Signal, WaitIdOptions, getpid, getppid};

use super::children::{kill_group, reap, registered};
use super::interrupt::stop_if_interrupted;
use super::os;
use super::outcome::{Ending, Polled, Stopped, Stream};

/// How long a program without a process file descriptor waits at first
/// between looks at whether it has ended, when nothing it writes wakes the
/// referee: doubled at each look, up to [`LOOK_LONGEST`]. A program's end
/// usually closes its pipes, which wakes the referee at once.
const LOOK_FIRST: Duration = Duration::from_millis(1);
/// At most 50 looks a second at a program that holds its pipes open.
const LOOK_LONGEST: Duration = Duration::from_millis(20);

/// A started program: our child (the program itself, or bwrap), the
/// sandbox's first process if any, and the pipes.
pub struct Process {
    child: libc::pid_t,
    /// The sandbox's init, our grandchild, adopted by us when bwrap ends.
    init: Option<libc::pid_t>,
    /// A process file descriptor for the sandbox's init: it ends only once
    /// every process of its PID namespace has, so a stop that waits for it
    /// needs no look through `/proc` for what the program started.
    init_pidfd: Option<OwnedFd>,
    /// Becomes readable when the child ends: a sandboxed program's, on
    /// Linux, and only theirs (so it also says the program is sandboxed).
    /// Without it the child is looked at ([`exited`]).
    pidfd: Option<OwnedFd>,
    /// bwrap's status pipe, kept open so that its last report never
    /// meets a closed pipe.
    _status: Option<PipeReader>,
    stdout: Option<OwnedFd>,
    stderr: Option<OwnedFd>,
    started: Instant,
    ended: Option<Instant>,
    stopped: bool,
}

/// Starts `command` in a process group of its own; `status` is the pipe
/// bwrap was told to report the sandbox's first process on, for a
/// sandboxed program (Linux only).
pub fn spawn(
    mut command: std::process::Command,
    stdin: bool,
    status: Option<(PipeReader, PipeWriter)>,
) -> io::Result<(Process, Option<std::process::ChildStdin>)> {
    stop_if_interrupted();
    let sandboxed = status.is_some();
    let (status, report) = status.unzip();
    let referee = getpid();
    // SAFETY: between fork and exec only async-signal-safe calls are
    // allowed: these are plain system calls through rustix, and nothing
    // allocates. A closure run there is unsafe whatever it calls; no
    // crate makes it safe.
    unsafe {
        command.pre_exec(move || {
            // bwrap's end of the status pipe stays open through exec.
            if let Some(report) = &report {
                rustix::io::fcntl_setfd(report, FdFlags::empty())?;
            }
            os::die_with_parent();
            // The referee may have died before that was asked for.
            if getppid() != Some(referee) {
                rustix::process::kill_process(getpid(), Signal::KILL)?;
            }
            Ok(())
        });
    }
    command
        .stdin(if stdin { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);

    let mut registered = registered();
    let mut child = command.spawn()?;
    // Closes the referee's copy of bwrap's end of the status pipe, held
    // by the closure above.
    drop(command);
    let pid = libc::pid_t::try_from(child.id()).expect("process ids fit in pid_t");
    registered.push(pid);
    let pidfd = if sandboxed {
        match os::pidfd_open(pid) {
            Ok(pidfd) => Some(pidfd),
            Err(error) => {
                // A kernel before 5.3: the sandbox cannot be watched.
                drop(registered);
                kill_group(pid);
                os::kill_trees(&[pid]);
                reap(pid);
                self::registered().retain(|&id| id != pid);
                return Err(error);
            }
        }
    } else {
        None
    };
    let (status, init) = match status {
        Some(read) => {
            let mut reader = io::BufReader::new(read);
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            let init = serde_json::from_str::<serde_json::Value>(&line)
                .ok()
                .and_then(|report| report.get("child-pid")?.as_i64())
                .and_then(|pid| libc::pid_t::try_from(pid).ok());
            registered.extend(init);
            (Some(reader.into_inner()), init)
        }
        None => (None, None),
    };
    drop(registered);
    let init_pidfd = init.and_then(|init| os::watch_init(init, pid));
    let take = |stream: Option<OwnedFd>| {
        stream.inspect(|fd| {
            let _ = rustix::fs::fcntl_setfl(fd, rustix::fs::OFlags::NONBLOCK);
        })
    };
    let process = Process {
        child: pid,
        init,
        init_pidfd,
        pidfd,
        _status: status,
        stdout: take(child.stdout.take().map(OwnedFd::from)),
        stderr: take(child.stderr.take().map(OwnedFd::from)),
        started: Instant::now(),
        ended: None,
        stopped: false,
    };
    Ok((process, child.stdin.take()))
}

impl Process {
    pub fn poll(&mut self, deadline: Option<Instant>, sink: &mut dyn FnMut(Stream, &[u8])) -> Polled {
        let mut look = LOOK_FIRST;
        loop {
            if self.ended.is_none() && self.pidfd.is_none() && exited(self.child) {
                self.ended = Some(Instant::now());
            }
            if self.ended.is_some() {
                return Polled::Ended;
            }
            let left = match deadline {
                None => None,
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Polled::Deadline;
                    }
                    Some(left)
                }
            };
            // Without a process file descriptor, no event says the child
            // ended while a pipe is held open: look again soon.
            let left = match (&self.pidfd, left) {
                (Some(_), left) => left,
                (None, left) => {
                    let wait = left.map_or(look, |left| left.min(look));
                    look = (look * 2).min(LOOK_LONGEST);
                    Some(wait)
                }
            };
            // Past what a timespec holds: as good as no deadline.
            let timeout = left.and_then(|left| Timespec::try_from(left).ok());
            let open = [(Stream::Stdout, &self.stdout), (Stream::Stderr, &self.stderr)];
            let open: Vec<(Stream, &OwnedFd)> =
                open.into_iter().filter_map(|(stream, fd)| Some((stream, fd.as_ref()?))).collect();
            let mut fds: Vec<PollFd> = self.pidfd.iter().map(|pidfd| PollFd::new(pidfd, PollFlags::IN)).collect();
            let watched = fds.len();
            fds.extend(open.iter().map(|(_, fd)| PollFd::new(*fd, PollFlags::IN)));
            if poll(&mut fds, timeout.as_ref()).is_err() {
                continue; // EINTR
            }
            let ended = fds[..watched].iter().any(|fd| !fd.revents().is_empty());
            let ready: Vec<Stream> = open
                .iter()
                .zip(&fds[watched..])
                .filter(|(_, fd)| !fd.revents().is_empty())
                .map(|((stream, _), _)| *stream)
                .collect();
            drop(fds);
            let mut output = false;
            for stream in ready {
                output |= self.read_available(stream, sink);
            }
            if ended {
                self.ended = Some(Instant::now());
            }
            if output {
                return Polled::Output;
            }
        }
    }

    pub fn is_open(&self, stream: Stream) -> bool {
        match stream {
            Stream::Stdout => self.stdout.is_some(),
            Stream::Stderr => self.stderr.is_some(),
        }
    }

    /// Reads what `stream` holds now, without waiting; closes it at its
    /// end. Whether anything was read or the stream closed.
    fn read_available(&mut self, stream: Stream, sink: &mut dyn FnMut(Stream, &[u8])) -> bool {
        let slot = match stream {
            Stream::Stdout => &mut self.stdout,
            Stream::Stderr => &mut self.stderr,
        };
        let Some(fd) = slot else { return false };
        let mut buffer = [0u8; 8192];
        let mut any = false;
        // Bounded, so that a program writing without end cannot keep
        // the referee from its deadline: the next poll comes back here.
        for _ in 0..16 {
            match rustix::io::read(&*fd, &mut buffer) {
                Ok(0) => {
                    *slot = None;
                    return true;
                }
                Ok(read) => {
                    any = true;
                    sink(stream, &buffer[..read]);
                }
                Err(Errno::INTR) => {}
                Err(_) => return any,
            }
        }
        any
    }

    pub fn stop(&mut self, sink: &mut dyn FnMut(Stream, &[u8])) -> Stopped {
        let roots: Vec<libc::pid_t> = std::iter::once(self.child).chain(self.init).collect();
        // Not reaped yet, the child holds its id and so its group's.
        kill_group(self.child);
        let sandbox = self.pidfd.as_ref().zip(self.init_pidfd.as_ref());
        match sandbox {
            // Nothing of a sandbox lives outside its PID namespace.
            Some((bwrap, init)) => os::kill_and_wait(&[bwrap, init]),
            None => os::kill_trees(&roots),
        }
        stop_if_interrupted();
        let (status, mut cpu) = reap(self.child);
        if let Some(init) = self.init {
            cpu += reap(init).1;
        }
        registered().retain(|pid| !roots.contains(pid));
        if sandbox.is_none() {
            os::sweep();
        }
        self.stopped = true;
        for stream in [Stream::Stdout, Stream::Stderr] {
            self.read_available(stream, sink);
        }
        let ending = match status {
            Some(status) if libc::WIFEXITED(status) => {
                let code = libc::WEXITSTATUS(status);
                // bwrap reports a program killed by signal N as 128 + N,
                // as a shell does.
                if self.pidfd.is_some() && code > 128 && self.ended.is_some() {
                    Ending::Signalled(code - 128)
                } else {
                    Ending::Exited(code)
                }
            }
            Some(status) => Ending::Signalled(libc::WTERMSIG(status)),
            None => Ending::Signalled(libc::SIGKILL),
        };
        let wall = self.ended.unwrap_or_else(Instant::now) - self.started;
        Stopped { ending, wall, cpu, passed: None }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if !self.stopped {
            self.stop(&mut |_, _| {});
        }
    }
}

/// Whether our child `pid` has ended, leaving it to be reaped.
fn exited(pid: libc::pid_t) -> bool {
    let Some(pid) = Pid::from_raw(pid) else { return true };
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    loop {
        match rustix::process::waitid(rustix::process::WaitId::Pid(pid), options) {
            Ok(status) => return status.is_some(),
            Err(Errno::INTR) => {}
            // Not ours to wait for any more: as good as ended.
            Err(_) => return true,
        }
    }
}

/// Runs a helper of the referee's own, uncontained, to its end, in a
/// process group of its own, for at most ten seconds.
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
        kill_group(pid);
        let _ = receive.recv();
        Err(io::Error::other(format!("it took more than {} s and was stopped", LIMIT.as_secs())))
    });
    registered().retain(|&id| id != pid);
    output
}
