//! Running other programs contained, for the referee's players and the
//! timing report's: a [`Containment`] holds the [`sandbox`], the [`limits`]
//! and the [`scratch`] folders, gives each program a copy of its [`home`]
//! and its user's [`interpreter`], runs the command of a [`template`], one
//! one-move [`turn`] at a time or for a whole game, and keeps what it
//! printed in [`captures`]; `runner` starts and watches a program,
//! `os` adds what Linux can do, `interrupt` stops all on Ctrl-C.
//!
//! Programs are started in a sandbox of their own when the system allows
//! it ([`sandbox`]: Linux's namespaces, through bubblewrap), and always in
//! a process group of their own by the `runner`, which is the same on
//! every Unix: output read with `poll(2)`, the end seen with `waitid`, a
//! stop that kills the group and waits for the program. What only Linux
//! can do is layered on it (`os`):
//! - the referee is a child subreaper (`PR_SET_CHILD_SUBREAPER`), so a
//!   process orphaned by a player, even after `setsid`, becomes the
//!   referee's child instead of escaping to `init`;
//! - stopping a program kills its whole tree of descendants, found through
//!   `/proc`, each through a process file descriptor (so a reused process id
//!   is never hit), waits until each has ended, reaps it, and then kills and
//!   reaps every orphan adopted meanwhile. In a sandbox the program's PID
//!   namespace ends with it, taking along whatever hid there, and its end
//!   is seen through a process file descriptor;
//! - every program gets `PR_SET_PDEATHSIG`, and bwrap `--die-with-parent`,
//!   so players die with the referee even when it is killed with `kill -9`
//!   (the signal comes when the thread that started the program ends: start
//!   a long-lived program from a thread that outlives it);
//! - control groups keep players' memory, processes and CPU time ([`limits`]).
//!
//! `--no-sandbox` on Linux runs the portable runner with these extras, so
//! that the runner macOS and the BSDs use is tested here; there a process
//! that leaves its player's group (`setsid`) outlives it, and a referee
//! killed with `kill -9` leaves its players running.
//!
//! No thread is started per program: output is read with `poll(2)` on the
//! pipes in the caller's thread, and once every process is gone what is
//! left in the pipes is read without waiting, so a pipe held open by anyone
//! never delays a turn.
//!
//! If the referee is interrupted, [`stop_players_on_interrupt`] kills every
//! process it started, removes its folder and exits; no turn cut short is
//! judged.

#![warn(missing_docs)]

use std::ffi::OsString;
use std::os::fd::AsRawFd as _;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rustix::process::{Resource, Rlimit};

pub mod captures;
mod children;
pub mod home;
pub mod interpreter;
mod interrupt;
pub mod limits;
mod os;
pub mod outcome;
mod plan;
mod runner;
pub mod sandbox;
pub mod scratch;
pub mod template;
pub mod turn;

pub use outcome::{Ending, Polled, Stopped, Stream};

use home::Home;
use limits::{Allowance, Group, Groups, Passed};
use sandbox::{Isolation, Sandbox};
use scratch::{Root, ScratchDir};

/// Whether this system can run command players: every Unix can; only
/// Linux can sandbox them.
pub const SUPPORTED: bool = cfg!(unix);

/// Why one program could not be started: the player's failure to start,
/// said in words by its `Display`.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Its folder cannot be given to it (see [`Containment::furnish`]).
    #[error("{0}")]
    Folder(String),
    /// A submission names a program outside its folder.
    #[error("{} is outside the program's folder: a submission's program is its own or one on the PATH", .0.display())]
    Outside(PathBuf),
    /// The program found on the PATH is a version manager's shim, and the
    /// manager cannot say which interpreter it stands for.
    #[error(transparent)]
    Shim(#[from] interpreter::ShimError),
    /// The program is not there or not executable, or the system would not
    /// start it (or the pipe and file its sandbox is set up through).
    #[error("cannot run {}: {source}", program.display())]
    Run {
        /// The program as the command names it.
        program: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The control groups that keep the program's limits cannot be made,
    /// or opened for the program to join.
    #[error("cannot limit {}: {source}", program.display())]
    Limit {
        /// The program as the command names it.
        program: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
}

/// What stops the referee from running players at all.
#[derive(Debug, thiserror::Error)]
pub enum ContainError {
    /// This system is no Unix ([`SUPPORTED`] is false): it has no process
    /// groups or `poll(2)` to run players with.
    #[error("command players need a Unix system (process groups, poll)")]
    Unsupported,
    /// The referee's own locked folder cannot be made.
    #[error("cannot make the referee's folder in {}", path.display())]
    Folder {
        /// The temporary directory it goes in.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The copy of this program's executable that plays `self` can be
    /// neither linked nor copied into the referee's folder.
    #[error("cannot keep a copy of this program's own executable to play `self`")]
    OwnExecutable(#[source] std::io::Error),
}

/// The last bytes of what a program wrote to one stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Captured {
    /// At most the capture limit, the end of the stream.
    pub tail: Vec<u8>,
    /// How many bytes came before the tail and were dropped.
    pub dropped: u64,
}

impl Captured {
    /// Adds `bytes` at the end, keeping at most `limit` bytes.
    pub fn push(&mut self, bytes: &[u8], limit: usize) {
        self.tail.extend_from_slice(bytes);
        if self.tail.len() > limit {
            let excess = self.tail.len() - limit;
            self.tail.drain(..excess);
            self.dropped += excess as u64;
        }
    }
}

/// One run of a program.
#[derive(Clone, Debug)]
pub struct Run {
    /// How it ended, or why it never started.
    pub ending: Ending,
    /// Wall-clock time from its start to its end; the whole timeout when
    /// it ran out of time.
    pub wall: Duration,
    /// User plus system time of the program and the children it waited for.
    pub cpu: Duration,
    /// The end of what it wrote to its standard output.
    pub stdout: Captured,
    /// The end of what it wrote to its standard error.
    pub stderr: Captured,
    /// The limit it passed, if it passed one.
    pub passed: Option<Passed>,
}

/// The installation a program in a `bin` folder belongs to (the folder above
/// it: a Python under a version manager or a virtual environment, a JDK),
/// which it needs to run.
fn installation(program: &Path) -> Option<&Path> {
    let bin = program.parent()?;
    (bin.file_name()? == "bin").then(|| bin.parent()).flatten().filter(|prefix| prefix.parent().is_some())
}

/// How often a player's CPU time, memory, processes and folder are looked
/// at while its move is due.
pub const CPU_CHECK: Duration = Duration::from_millis(100);

/// The referee's means of running players: its locked folder, the sandbox
/// if there is one, and the copy of its own executable for `self`.
pub struct Containment {
    root: Root,
    sandbox: Option<Sandbox>,
    own_executable: Option<PathBuf>,
    limits: Allowance,
    groups: Groups,
    /// What a copy of a program's folder leaves out: what players must not
    /// see, and the referee's own folder, canonical.
    private: Vec<PathBuf>,
    /// The variables of the referee's environment that players get too.
    passed: Vec<String>,
    /// The folders copied for players so far, canonical: every player is
    /// shown its copy, and none sees an original (another student's).
    originals: Mutex<Vec<PathBuf>>,
}

impl Containment {
    /// Makes this process a subreaper, removes the folders of dead referees,
    /// makes its own, copies its executable if `with_self`, and finds the
    /// sandbox if `isolation` asks for one. Also returns a one-line warning
    /// when the sandbox was asked for but is unavailable here, or limits
    /// cannot be kept. `private` names what players must never see besides the referee's
    /// own folder (the log, the games' captured output), and
    /// `isolation.limits` what each may use.
    ///
    /// # Errors
    /// On a system other than Linux, or when the folder or the copy cannot
    /// be made.
    pub fn start(
        isolation: Isolation,
        with_self: bool,
        private: &[&Path],
    ) -> Result<(Containment, Option<String>), ContainError> {
        if !SUPPORTED {
            return Err(ContainError::Unsupported);
        }
        os::become_subreaper();
        let private: Vec<&Path> =
            private.iter().copied().chain(isolation.hidden.iter().map(PathBuf::as_path)).collect();
        let private = private.as_slice();
        let root = Root::new().map_err(|source| ContainError::Folder { path: std::env::temp_dir(), source })?;
        interrupt::remember_root(root.path());
        let own_executable =
            if with_self { Some(root.own_executable().map_err(ContainError::OwnExecutable)?) } else { None };
        let (groups, limits_warning) = Groups::find();
        let (sandbox, warning) = if isolation.sandbox {
            match Sandbox::find(isolation.network, root.path(), private, isolation.limits.tmp) {
                Ok(sandbox) => (Some(sandbox), None),
                Err(reason) => {
                    let install =
                        if matches!(reason, sandbox::Unavailable::NotLinux) { "" } else { "install bubblewrap, or " };
                    let warning = format!(
                        "warning: players run without isolation: {reason}; {install}pass --no-sandbox to run them so knowingly"
                    );
                    (None, Some(warning))
                }
            }
        } else {
            (None, None)
        };
        let warning = match (warning, limits_warning) {
            (Some(warning), _) => Some(warning),
            (None, Some(limits)) => Some(limits),
            (None, None) => None,
        };
        let private = private.iter().chain([&root.path()]).filter_map(|path| canonical(path)).collect();
        let containment = Containment {
            root,
            sandbox,
            own_executable,
            limits: isolation.limits,
            groups,
            private,
            passed: isolation.env,
            originals: Mutex::new(Vec::new()),
        };
        Ok((containment, warning))
    }

    /// The copy of this program that plays `self`.
    #[must_use]
    pub fn own_executable(&self) -> Option<&Path> {
        self.own_executable.as_deref()
    }

    /// What each player may use.
    #[must_use]
    pub const fn limits(&self) -> Allowance {
        self.limits
    }

    /// The limit a program passed when it passed `passed`: bytes of memory
    /// or disk, processes, or milliseconds of CPU time (0 where no CPU
    /// limit is set: then a move's own time limit, which only the caller
    /// knows, was passed).
    #[must_use]
    pub fn limit_of(&self, passed: Passed) -> u64 {
        match passed {
            Passed::Memory => self.limits.memory,
            Passed::Processes => self.limits.processes as u64,
            Passed::Disk => self.limits.disk,
            Passed::Cpu => self.limits.cpu.map_or(0, |cpu| u64::try_from(cpu.as_millis()).unwrap_or(u64::MAX)),
        }
    }

    /// Whether players run in a sandbox.
    #[must_use]
    pub const fn sandboxed(&self) -> bool {
        self.sandbox.is_some()
    }

    /// A new empty folder for one player, its name starting with `prefix`.
    ///
    /// # Errors
    /// When it cannot be made.
    pub fn player_dir(&self, prefix: &str) -> std::io::Result<ScratchDir> {
        let dir = self.root.player_dir(prefix)?;
        if let Some(owner) = self.sandbox.as_ref().and_then(Sandbox::player_owner) {
            // Under a root referee the player is an unprivileged user, who
            // must own its folder to write in it.
            std::os::unix::fs::chown(dir.path(), Some(owner), Some(owner))?;
        }
        Ok(dir)
    }

    /// Gives the player of `dir` its program's own folder `home`, if it has
    /// one: a copy of it in `dir` (see [`home`]), or, when it
    /// holds more than a player's folder may, the folder itself, shown
    /// read-only. A folder that cannot be given costs the player its first
    /// turn, not the referee its work.
    pub fn furnish(&self, dir: &mut ScratchDir, home: &Path) {
        // What the sandbox hides is never copied or shown whole: a folder
        // holding the home folder (its keys) or the temporary directory
        // (every user's files, other referees').
        let hidden = [std::env::var_os("HOME").map(PathBuf::from), Some(std::env::temp_dir())];
        let held = |home: &Path| {
            hidden
                .iter()
                .flatten()
                .filter_map(|hidden| hidden.canonicalize().ok())
                .find(|hidden| hidden.starts_with(home))
        };
        let furnished = match home.canonicalize() {
            Err(error) => Home::Missing(format!("the program's folder {} cannot be used: {error}", home.display())),
            Ok(home) => match held(&home) {
                Some(hidden) => Home::Missing(format!(
                    "the program's folder {} holds {}, which players never see: start the referee in the \
                     program's own folder, or name it with `cd DIR &&`",
                    home.display(),
                    hidden.display()
                )),
                None => {
                    let owner = self.sandbox.as_ref().and_then(Sandbox::player_owner);
                    // Half of what the folder may hold, so that the program
                    // has room to write.
                    let budget = self.limits.disk / 2;
                    match home::copy(&home, dir.path(), budget, &self.private, owner) {
                        Ok(true) => {
                            let mut originals = self.originals.lock().unwrap_or_else(PoisonError::into_inner);
                            if !originals.contains(&home) {
                                originals.push(home.clone());
                            }
                            Home::Copied(home)
                        }
                        // A submission is never shown whole: it is the
                        // student's to keep within the limit.
                        Ok(false) if dir.confined() => Home::Missing(too_large(budget)),
                        Ok(false) => Home::Shown(home),
                        Err(error) => Home::Missing(format!("the program's folder cannot be copied: {error}")),
                    }
                }
            },
        };
        dir.set_home(furnished);
    }

    /// Starts `program` with `args` in `dir`, contained, with its output
    /// streams piped to the referee and its standard input piped too if
    /// `stdin`, empty otherwise. `program` is looked up on the PATH first
    /// when it has no `/`.
    ///
    /// # Errors
    /// Why the program could not be started.
    pub fn spawn(
        &self,
        program: &Path,
        args: &[OsString],
        dir: &ScratchDir,
        stdin: bool,
    ) -> Result<Contained, StartError> {
        let cannot = |source: std::io::Error| StartError::Run { program: program.to_owned(), source };
        let shown_home = match dir.home() {
            Home::Missing(reason) => return Err(StartError::Folder(reason.clone())),
            Home::Shown(home) => Some(home.as_path()),
            Home::None | Home::Copied(_) => None,
        };
        let found = sandbox::find_program(program).map_err(cannot)?;
        if dir.confined() && !on_path(program) && !found.starts_with(dir.path()) {
            return Err(StartError::Outside(program.to_owned()));
        }
        // A version manager's shim is asked which interpreter it stands
        // for, told the version the program's folder names: the manager is
        // not in the sandbox. Read in the folder as the student left it,
        // not in the copy its player may change between turns.
        let folder = match dir.home() {
            Home::Copied(home) | Home::Shown(home) => home.as_path(),
            Home::None | Home::Missing(_) => dir.path(),
        };
        let name = found.file_name().unwrap_or(found.as_os_str()).to_owned();
        // Only a program found on the PATH may be a shim: one the command
        // names by a path may be the submission's own file.
        let shim = if on_path(program) { interpreter::resolve_shim(&found, &name, folder, run_aside)? } else { None };
        let found = shim.clone().unwrap_or(found);
        let tmp = if self.sandbox.is_some() { PathBuf::from("/tmp") } else { std::env::temp_dir() };
        let environment =
            interpreter::environment(dir.path(), &tmp, &self.passed, shim.as_deref().and_then(Path::parent));
        let mut keep_open = Vec::new();
        let (mut command, status) = match &self.sandbox {
            Some(sandbox) => {
                // The player sees the files its command names, wherever they
                // are (the program, a script, a model file), read-only.
                // A submission's command (a class's) is shown nothing
                // outside its folder, whatever it names.
                let confined = dir.confined();
                let named = args.iter().map(Path::new).filter(|path| !confined && path.is_absolute() && path.exists());
                let program = found.canonicalize().unwrap_or_else(|_| found.clone());
                let installations = [found.as_path(), &program].map(installation);
                let shown: Vec<&Path> = self
                    .own_executable()
                    .into_iter()
                    .chain([found.as_path(), &program])
                    .chain(installations.iter().flatten().copied())
                    .chain(named)
                    .chain(shown_home)
                    .collect();
                // bwrap reports the sandbox's first process on this pipe.
                let (report, write) = std::io::pipe().map_err(cannot)?;
                // bwrap reads its arguments from a file rather than its
                // command line, which the player could read in
                // /proc/1/cmdline: they name the referee's folders.
                let originals = self.originals.lock().unwrap_or_else(PoisonError::into_inner).clone();
                let arguments = arguments_file(&sandbox.arguments(dir.path(), &shown, &originals)).map_err(cannot)?;
                let mut command = std::process::Command::new(sandbox.bwrap());
                command.arg("--json-status-fd").arg(write.as_raw_fd().to_string());
                command.arg("--args").arg(arguments.as_raw_fd().to_string());
                command.args(sandbox.command_prefix()).arg(&found);
                keep_open.push(std::os::fd::OwnedFd::from(arguments));
                (command, Some((report, write)))
            }
            None => (std::process::Command::new(&found), None),
        };
        command.args(args).current_dir(dir.path()).env_clear().envs(environment);
        let limit = |source: std::io::Error| StartError::Limit { program: program.to_owned(), source };
        let group = self.groups.make(&self.limits).map_err(limit)?;
        let procs = group.as_ref().map(Group::procs).transpose().map_err(limit)?.unwrap_or_default();
        let largest_file = Some(self.limits.disk);
        // SAFETY: between fork and exec only async-signal-safe calls are
        // allowed: close_range, fcntl, `join` and setrlimit are plain system
        // calls, and nothing allocates. A closure run there is unsafe
        // whatever it calls; no crate makes it safe.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, move || {
                // No descriptor the referee inherited or opened passes to
                // the player: only those kept open below, and the pipes.
                os::close_inherited();
                for fd in &keep_open {
                    rustix::io::fcntl_setfd(fd, rustix::io::FdFlags::empty())?;
                }
                limits::join(&procs)?;
                let limit = Rlimit { current: largest_file, maximum: largest_file };
                Ok(rustix::process::setrlimit(Resource::Fsize, limit)?)
            });
        }
        let (inner, stdin) = runner::spawn(command, stdin, status).map_err(cannot)?;
        Ok(Contained { inner, stdin, group, folder: Some((dir.path().to_owned(), self.limits.disk)) })
    }

    /// Runs `program` with `args` in `dir`, its standard input empty, for at
    /// most `timeout`, keeping the last `capture` bytes of each output
    /// stream. Every process it started is gone when this returns.
    #[must_use]
    pub fn run(&self, program: &Path, args: &[OsString], dir: &ScratchDir, timeout: Duration, capture: usize) -> Run {
        let started = Instant::now();
        let mut contained = match self.spawn(program, args, dir, false) {
            Ok(contained) => contained,
            Err(reason) => {
                return Run {
                    ending: Ending::FailedToStart(reason.to_string()),
                    wall: started.elapsed(),
                    cpu: Duration::ZERO,
                    stdout: Captured::default(),
                    stderr: Captured::default(),
                    passed: None,
                };
            }
        };
        let (mut stdout, mut stderr) = (Captured::default(), Captured::default());
        let mut keep = |stream: Stream, bytes: &[u8]| match stream {
            Stream::Stdout => stdout.push(bytes, capture),
            Stream::Stderr => stderr.push(bytes, capture),
        };
        let deadline = started + timeout;
        // CPU time counts against the move beside wall time: looked at
        // every tenth of a second, as the kernel counts it.
        let cpu_limit = self.limits.cpu.unwrap_or(timeout);
        let mut cpu_out = false;
        let mut looked = Instant::now();
        let timed_out = loop {
            let check = (looked + CPU_CHECK).min(deadline);
            match contained.poll(Some(check), &mut keep) {
                Polled::Output => {}
                Polled::Ended => break false,
                Polled::Deadline if check == deadline => break true,
                Polled::Deadline => {}
            }
            // Not on every piece of output: a walk of its folder is not free.
            if looked.elapsed() < CPU_CHECK {
                continue;
            }
            looked = Instant::now();
            if contained.cpu().is_some_and(|used| used > cpu_limit) {
                cpu_out = true;
                break false;
            }
            // Its memory, processes and folder too: a turn is stopped at a
            // limit, not at its end (a folder could fill the disk first).
            if contained.passed().is_some() {
                break false;
            }
        };
        let mut stopped = contained.stop(&mut keep);
        if cpu_out {
            stopped.passed = Some(Passed::Cpu);
        }
        let ending = if timed_out {
            Ending::TimedOut
        } else if self.sandboxed() && stopped.ending == Ending::Exited(1) && bwrap_failed(&stderr) {
            Ending::FailedToStart(String::from_utf8_lossy(&stderr.tail).trim().to_owned())
        } else {
            stopped.ending
        };
        let wall = if timed_out { timeout } else { stopped.wall };
        Run { ending, wall, cpu: stopped.cpu, stdout, stderr, passed: stopped.passed }
    }
}

/// Why a submission's folder is not copied: it holds more than `budget`
/// bytes, counted as [`home::copy`] counts them.
#[must_use]
pub fn too_large(budget: u64) -> String {
    format!(
        "its folder comes to more than {} MB, half of what a player's folder may hold (--disk), \
         sparse files counted at their full size: nothing was copied",
        budget >> 20
    )
}

/// Whether a command's program is looked up on the PATH: a bare name.
fn on_path(program: &Path) -> bool {
    !program.as_os_str().as_encoded_bytes().contains(&b'/')
}

/// `path` made canonical, as a copy compares paths; a log or an output
/// folder not made yet is named from its folder's canonical path.
fn canonical(path: &Path) -> Option<PathBuf> {
    path.canonicalize().ok().or_else(|| {
        let folder = path.parent().filter(|folder| !folder.as_os_str().is_empty()).unwrap_or(Path::new("."));
        Some(folder.canonicalize().ok()?.join(path.file_name()?))
    })
}

/// A file holding `words`, each ended by a NUL byte, read from its start:
/// bwrap's `--args`. Removed from the file system at once; open until the
/// sandbox has read it.
fn arguments_file(words: &[OsString]) -> std::io::Result<std::fs::File> {
    use std::io::{Seek as _, Write as _};
    let mut file = tempfile::tempfile()?;
    for word in words {
        file.write_all(word.as_encoded_bytes())?;
        file.write_all(&[0])?;
    }
    file.rewind()?;
    Ok(file)
}

/// Whether what a sandboxed program printed on stderr is bwrap saying it
/// could not start it.
fn bwrap_failed(stderr: &Captured) -> bool {
    stderr.dropped == 0 && stderr.tail.starts_with(b"bwrap: ") && !stderr.tail[..stderr.tail.len() - 1].contains(&b'\n')
}

/// A program started by [`Containment::spawn`]. Dropping it stops it.
pub struct Contained {
    inner: runner::Process,
    /// Its standard input, when it was asked for.
    pub stdin: Option<std::process::ChildStdin>,
    /// Its control groups, which limit it.
    group: Option<Group>,
    /// Its folder and the most it may hold.
    folder: Option<(PathBuf, u64)>,
}

impl Contained {
    /// Reads what the program has written, giving it to `sink`, until some
    /// output came, the program ended or `deadline` passed (no deadline:
    /// wait as long as it takes).
    pub fn poll(&mut self, deadline: Option<Instant>, sink: &mut dyn FnMut(Stream, &[u8])) -> Polled {
        self.inner.poll(deadline, sink)
    }

    /// Whether `stream` is still open: the program has not closed it (nor
    /// ended).
    #[must_use]
    pub fn is_open(&self, stream: Stream) -> bool {
        self.inner.is_open(stream)
    }

    /// Kills the program and everything it started, waits until all of it
    /// is gone, and gives `sink` what was left in the pipes.
    pub fn stop(mut self, sink: &mut dyn FnMut(Stream, &[u8])) -> Stopped {
        self.stdin = None;
        let mut stopped = self.inner.stop(sink);
        stopped.passed =
            self.passed().or_else(|| (stopped.ending == Ending::Signalled(libc::SIGXFSZ)).then_some(Passed::Disk));
        stopped
    }

    /// The CPU time of all its processes so far, where the kernel counts it.
    #[must_use]
    pub fn cpu(&self) -> Option<Duration> {
        self.group.as_ref().and_then(Group::cpu)
    }

    /// The limit the program has passed so far, if any: its memory or
    /// processes as the kernel counted, or its folder's size now.
    #[must_use]
    pub fn passed(&self) -> Option<Passed> {
        self.group.as_ref().and_then(Group::passed).or_else(|| {
            let (folder, most) = self.folder.as_ref()?;
            (limits::size_of(folder, *most) > *most).then_some(Passed::Disk)
        })
    }
}

/// Runs a helper of the referee's own, uncontained (a version manager
/// asked which interpreter it stands for), to its end, and gives what it
/// printed. Registered while it runs, so that the referee's sweep of the
/// orphans players leave does not take it for one.
///
/// # Errors
/// When it cannot be started or waited for.
pub fn run_aside(command: &mut std::process::Command) -> std::io::Result<std::process::Output> {
    runner::run_aside(command)
}

/// Makes SIGINT, SIGTERM and SIGHUP kill every process the referee started,
/// remove its folder, call `say` (the front end's word that it did) and
/// exit with 128 plus the signal number
/// ([`signals`](maxconnect4_io::signals)). Players do not receive the
/// terminal's Ctrl-C themselves (they run in process groups or sessions of
/// their own), so without this they would be killed only by their
/// parent-death signal. Call it before starting any player.
pub fn stop_players_on_interrupt(say: fn()) {
    interrupt::say_when_stopped(say);
    maxconnect4_io::signals::exit_on_stop(interrupt::stop_players);
}
