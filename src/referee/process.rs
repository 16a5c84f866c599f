//! Running one turn of another program: start it in a process group of its
//! own, wait at most the time limit, kill the whole group, keep the tail of
//! what it printed, and measure its wall-clock and CPU time.
//!
//! Nothing a player starts outlives its turn: when the program ends, or its
//! time is up, every process left in its group (children it forked and never
//! waited for) is killed. The program is reaped only after that kill, so its
//! process id, which names the group, cannot be reused in between. If the
//! referee itself is interrupted, [`stop_players_on_interrupt`] kills the
//! groups of the turns in progress and removes the players' [`ScratchDir`]s
//! before it exits, and no turn cut short is judged.
//!
//! Process groups and `wait4` are Unix; elsewhere [`SUPPORTED`] is false and
//! the referee refuses command players with an error.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// Whether this system can run command players.
pub const SUPPORTED: bool = cfg!(unix);

/// The directories of every [`ScratchDir`] alive, for the interrupt handler
/// to remove.
static SCRATCH: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A temporary directory for one player's files, removed when dropped, or
/// when the referee is interrupted first.
pub struct ScratchDir(tempfile::TempDir);

impl ScratchDir {
    /// A new empty directory in the system's temporary directory, its name
    /// starting with `prefix`.
    ///
    /// # Errors
    /// When the directory cannot be made.
    pub fn new(prefix: &str) -> std::io::Result<ScratchDir> {
        let dir = tempfile::Builder::new().prefix(prefix).tempdir()?;
        SCRATCH.lock().unwrap_or_else(PoisonError::into_inner).push(dir.path().to_owned());
        Ok(ScratchDir(dir))
    }

    #[must_use]
    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        SCRATCH.lock().unwrap_or_else(PoisonError::into_inner).retain(|path| path != self.0.path());
    }
}

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

/// Makes SIGINT, SIGTERM and SIGHUP kill the process groups of every turn in
/// progress, remove the players' scratch directories, say so on stderr and
/// exit with 128 plus the signal number. Player groups do not receive the
/// terminal's Ctrl-C themselves, so without this they would outlive the
/// referee. Call it before starting any thread: the signals are blocked in
/// every thread and taken by one of their own.
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
    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
    use std::sync::{mpsc, Arc, Mutex, PoisonError};
    use std::time::{Duration, Instant};

    use super::{Captured, Ending, Run, SCRATCH};

    /// How long to wait for the output pipes to close after the group is
    /// killed; only a process that left the group can hold them open longer.
    const PIPE_GRACE: Duration = Duration::from_secs(1);

    /// Process groups of the turns in progress (0 for a free slot).
    static RUNNING: [AtomicI32; 64] = [const { AtomicI32::new(0) }; 64];

    /// Set when the referee is interrupted: from then on no turn starts or
    /// ends, so that none cut short is judged or logged before the exit.
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);

    /// Waits for the exit if the referee has been interrupted.
    fn stop_if_interrupted() {
        while INTERRUPTED.load(Ordering::SeqCst) {
            std::thread::park();
        }
    }

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
        stop_if_interrupted();
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
        if INTERRUPTED.load(Ordering::SeqCst) {
            // Interrupted between the start and the registration.
            kill_group(pid);
            stop_if_interrupted();
        }
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
        stop_if_interrupted();
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
        // SAFETY: `signals` is a valid sigset_t for these calls to fill and read.
        let signals = unsafe {
            let mut signals: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut signals);
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::sigaddset(&mut signals, signal);
            }
            // Blocked here, so in every thread started from now on; the
            // players' programs start with no signal blocked, as `Command`
            // clears the mask.
            libc::pthread_sigmask(libc::SIG_BLOCK, &signals, std::ptr::null_mut());
            signals
        };
        std::thread::spawn(move || {
            let mut signal = 0;
            // SAFETY: `signals` and `signal` are valid for sigwait.
            while unsafe { libc::sigwait(&signals, &mut signal) } != 0 {}
            INTERRUPTED.store(true, Ordering::SeqCst);
            for slot in &RUNNING {
                let group = slot.load(Ordering::SeqCst);
                if group > 0 {
                    // SAFETY: kill has no memory-safety preconditions; a
                    // registered group's leader is not reaped yet.
                    unsafe { libc::kill(-group, libc::SIGKILL) };
                }
            }
            for dir in SCRATCH.lock().unwrap_or_else(PoisonError::into_inner).iter() {
                let _ = std::fs::remove_dir_all(dir);
            }
            eprintln!("\ninterrupted: the players' processes were killed");
            std::process::exit(128 + signal);
        });
    }
}
