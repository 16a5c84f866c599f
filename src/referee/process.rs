//! Running one turn of another program: start it in a process group of its
//! own, wait at most the time limit, kill the whole group, keep the tail of
//! what it printed, and measure its wall-clock and CPU time.
//!
//! Nothing a player starts outlives its turn: when the program ends, or its
//! time is up, every process left in its group (children it forked and never
//! waited for) is killed. The program is reaped only after that kill, so its
//! process id, which names the group, cannot be reused in between. If the
//! referee itself is interrupted, the handler from [`stop_players_on_interrupt`]
//! kills the groups of the turns in progress before it exits.
//!
//! Process groups and `wait4` are Unix; elsewhere [`SUPPORTED`] is false and
//! the referee refuses command players with an error.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

/// Whether this system can run command players.
pub const SUPPORTED: bool = cfg!(unix);

/// How one run of a program ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Exited(i32),
    Signalled(i32),
    TimedOut,
    FailedToStart(String),
}

/// The last bytes of what a program wrote to one stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Captured {
    /// At most the capture limit, the end of the stream.
    pub tail: Vec<u8>,
    /// How many bytes came before the tail and were dropped.
    pub dropped: u64,
}

/// One run of a program.
#[derive(Clone, Debug)]
pub struct Run {
    pub ending: Ending,
    pub wall: Duration,
    /// User plus system time of the program and the children it waited for.
    pub cpu: Duration,
    pub stdout: Captured,
    pub stderr: Captured,
}

/// Runs `program` with `args` in `dir`, its standard input empty, for at
/// most `timeout`, keeping the last `capture` bytes of each output stream.
#[must_use]
pub fn run(program: &Path, args: &[OsString], dir: &Path, timeout: Duration, capture: usize) -> Run {
    #[cfg(unix)]
    {
        unix::run(program, args, dir, timeout, capture)
    }
    #[cfg(not(unix))]
    {
        let _ = (args, dir, timeout, capture);
        Run {
            ending: Ending::FailedToStart(format!(
                "cannot run {}: this system has no process groups",
                program.display()
            )),
            wall: Duration::ZERO,
            cpu: Duration::ZERO,
            stdout: Captured::default(),
            stderr: Captured::default(),
        }
    }
}

/// Installs a handler for SIGINT, SIGTERM and SIGHUP that kills the process
/// groups of every turn in progress, says so on stderr and exits with
/// 128 plus the signal number. Player groups do not receive the terminal's
/// Ctrl-C themselves, so without this they would outlive the referee.
pub fn stop_players_on_interrupt() {
    #[cfg(unix)]
    unix::install_handler();
}

#[cfg(unix)]
mod unix {
    use std::ffi::OsString;
    use std::io::Read;
    use std::os::unix::process::CommandExt as _;
    use std::path::Path;
    use std::process::{Command, Stdio};
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::sync::{mpsc, Arc, Mutex};
    use std::time::{Duration, Instant};

    use super::{Captured, Ending, Run};

    /// How long to wait for the output pipes to close after the group is
    /// killed; only a process that left the group can hold them open longer.
    const PIPE_GRACE: Duration = Duration::from_secs(1);

    /// Process groups of the turns in progress (0 for a free slot), read by
    /// the signal handler, which may only touch atomics.
    static RUNNING: [AtomicI32; 64] = [const { AtomicI32::new(0) }; 64];

    /// A slot of [`RUNNING`], freed on drop.
    struct Registered(Option<&'static AtomicI32>);

    impl Registered {
        fn new(group: libc::pid_t) -> Registered {
            Registered(
                RUNNING.iter().find(|slot| slot.compare_exchange(0, group, Ordering::SeqCst, Ordering::SeqCst).is_ok()),
            )
        }
    }

    impl Drop for Registered {
        fn drop(&mut self) {
            if let Some(slot) = self.0 {
                slot.store(0, Ordering::SeqCst);
            }
        }
    }

    pub fn run(program: &Path, args: &[OsString], dir: &Path, timeout: Duration, capture: usize) -> Run {
        let started = Instant::now();
        let spawned = Command::new(program)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(error) => {
                return Run {
                    ending: Ending::FailedToStart(format!("cannot run {}: {error}", program.display())),
                    wall: started.elapsed(),
                    cpu: Duration::ZERO,
                    stdout: Captured::default(),
                    stderr: Captured::default(),
                }
            }
        };
        let pid = libc::pid_t::try_from(child.id()).expect("process ids fit in pid_t");
        let registered = Registered::new(pid);
        let stdout = read_tail(child.stdout.take(), capture);
        let stderr = read_tail(child.stderr.take(), capture);

        let (exited, exit) = mpsc::channel();
        std::thread::spawn(move || {
            wait_for_exit(pid);
            let _ = exited.send(Instant::now());
        });
        let (ended, timed_out) = match exit.recv_timeout(timeout) {
            Ok(ended) => (ended, false),
            Err(_) => {
                let ended = Instant::now();
                kill_group(pid);
                let _ = exit.recv();
                (ended, true)
            }
        };
        kill_group(pid);
        let (status, cpu) = reap(pid);
        drop(registered);

        let ending = if timed_out {
            Ending::TimedOut
        } else if libc::WIFEXITED(status) {
            Ending::Exited(libc::WEXITSTATUS(status))
        } else {
            Ending::Signalled(libc::WTERMSIG(status))
        };
        let deadline = Instant::now() + PIPE_GRACE;
        Run { ending, wall: ended - started, cpu, stdout: stdout.finish(deadline), stderr: stderr.finish(deadline) }
    }

    /// Kills the process group `group` and its leader (which may have left it).
    fn kill_group(group: libc::pid_t) {
        // SAFETY: kill has no memory-safety preconditions; the leader is not
        // reaped yet, so neither id can belong to another process.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
            libc::kill(group, libc::SIGKILL);
        }
    }

    /// Blocks until `pid` has ended, without reaping it.
    fn wait_for_exit(pid: libc::pid_t) {
        loop {
            // SAFETY: `info` is a valid siginfo_t for waitid to fill.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            let id = libc::id_t::try_from(pid).expect("a positive pid");
            let result = unsafe { libc::waitid(libc::P_PID, id, &mut info, libc::WEXITED | libc::WNOWAIT) };
            if result == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                return;
            }
        }
    }

    /// Reaps `pid`, returning its wait status and CPU time.
    fn reap(pid: libc::pid_t) -> (i32, Duration) {
        let mut status = 0;
        // SAFETY: `usage` is a valid rusage for wait4 to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            let result = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
            if result == pid || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                break;
            }
        }
        let seconds = |time: libc::timeval| {
            Duration::from_secs(u64::try_from(time.tv_sec).unwrap_or(0))
                + Duration::from_micros(u64::try_from(time.tv_usec).unwrap_or(0))
        };
        (status, seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }

    /// A stream being read on its own thread, keeping only its tail.
    struct Tail {
        captured: Arc<Mutex<Captured>>,
        done: mpsc::Receiver<()>,
    }

    fn read_tail(stream: Option<impl Read + Send + 'static>, limit: usize) -> Tail {
        let captured = Arc::new(Mutex::new(Captured::default()));
        let (finished, done) = mpsc::channel();
        if let Some(mut stream) = stream {
            let captured = Arc::clone(&captured);
            std::thread::spawn(move || {
                let mut buffer = [0; 8192];
                while let Ok(read @ 1..) = stream.read(&mut buffer) {
                    let mut captured = captured.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    captured.tail.extend_from_slice(&buffer[..read]);
                    if captured.tail.len() > limit {
                        let excess = captured.tail.len() - limit;
                        captured.tail.drain(..excess);
                        captured.dropped += excess as u64;
                    }
                }
                let _ = finished.send(());
            });
        }
        Tail { captured, done }
    }

    impl Tail {
        /// What was read by `deadline`, or by the end of the stream.
        fn finish(self, deadline: Instant) -> Captured {
            let _ = self.done.recv_timeout(deadline.saturating_duration_since(Instant::now()));
            let captured = self.captured.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            captured.clone()
        }
    }

    pub fn install_handler() {
        extern "C" fn on_signal(signal: libc::c_int) {
            for slot in &RUNNING {
                let group = slot.load(Ordering::SeqCst);
                if group > 0 {
                    // SAFETY: kill is async-signal-safe.
                    unsafe { libc::kill(-group, libc::SIGKILL) };
                }
            }
            let message = b"\ninterrupted: the players' processes were killed\n";
            // SAFETY: write and _exit are async-signal-safe; `message` is valid.
            unsafe {
                libc::write(2, message.as_ptr().cast(), message.len());
                libc::_exit(128 + signal);
            }
        }
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: the handler only calls async-signal-safe functions and
            // reads atomics; the sigaction struct is fully initialised.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }
}
