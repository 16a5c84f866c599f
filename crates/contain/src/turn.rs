//! One turn of a one-move program, for the referee's players and the
//! report's timed programs alike: the board file it is given goes into a
//! new file, under a fresh random name, in the program's own folder, the
//! program runs there, contained, with the turn's time, what it printed is
//! kept ([`Captures`]), and the file it wrote is read back if it is a
//! regular file. What the file means and what the turn comes to are the
//! one-move protocol's (`protocol::one_move`), which knows boards; this
//! knows bytes and processes. Whatever a program leaves in its folder can
//! cost it its turn, never stop whoever runs it.

use std::ffi::OsString;
use std::io;
use std::path::Path;
use std::time::Duration;

use super::captures::{Captures, WriteError};
use super::limits::Passed;
use super::scratch::ScratchDir;
use super::template::{Substitution, Template};
use super::{Captured, Containment, Ending, Run};

/// The most of each output stream kept per turn; the end is kept, since
/// that is where a crash is explained.
pub const CAPTURE_LIMIT: usize = 8 * 1024;

/// The most of an output file read: a board file is under 100 bytes.
const OUTPUT_LIMIT: u64 = 64 * 1024;

/// What a one-move program is given on one turn.
pub struct Given<'a> {
    /// The board file, as bytes.
    pub board_file: &'a [u8],
    /// The turn's number, for the files' names and the captured output.
    pub ply: usize,
    /// Substituted for `{depth}`.
    pub depth: u32,
    /// How long the move may take.
    pub time: Duration,
}

/// How a turn went, as far as running the program tells.
#[derive(Debug)]
pub enum Answer {
    /// The program's folder could not take the board: it was not run.
    NotGiven(io::Error),
    /// The program was run on the board.
    Ran {
        /// How it ended, what it cost and what it printed.
        run: Run,
        /// The limit it passed, if it passed one, with the limit (bytes,
        /// processes, or for CPU time milliseconds).
        passed: Option<(Passed, u64)>,
        /// The file it wrote, if it ended by itself within its limits and
        /// wrote a regular file; or why that file cannot be read.
        written: io::Result<Option<Vec<u8>>>,
    },
}

impl Answer {
    /// The program's run, if it was run.
    #[must_use]
    pub const fn run(&self) -> Option<&Run> {
        match self {
            Answer::NotGiven(_) => None,
            Answer::Ran { run, .. } => Some(run),
        }
    }
}

/// What stops a turn from being run at all: the runner's failure, not the
/// program's.
#[derive(Debug, thiserror::Error)]
pub enum TurnError {
    /// This program's own one-move mode did not start: the fault is
    /// whoever runs it, not the program's.
    #[error("`self`, this program's own executable, cannot be started: {0}")]
    OwnExecutable(String),
    /// What the program printed cannot be kept in its captures file.
    #[error(transparent)]
    Captures(#[from] WriteError),
}

/// The copy of this program that `containment` runs as a player.
///
/// # Errors
/// When it was started without one.
pub fn own_executable(containment: &Containment) -> Result<&Path, TurnError> {
    containment
        .own_executable()
        .ok_or_else(|| TurnError::OwnExecutable("the referee was started without a copy of its executable".to_owned()))
}

/// Runs `template` for one turn in `directory`, on what it is `given`, its
/// relative words starting from `base`, and appends what it printed to
/// `captures`.
///
/// # Errors
/// When this program's own one-move mode cannot start, or what it printed
/// cannot be kept.
pub fn play(
    containment: &Containment,
    directory: &ScratchDir,
    template: &Template,
    given: &Given<'_>,
    base: &Path,
    captures: &mut Captures,
) -> Result<Answer, TurnError> {
    let ply = given.ply;
    let names = directory
        .create(&format!("in-{ply:02}"), given.board_file)
        .and_then(|input| Ok((directory.unused_name(&format!("out-{ply:02}"))?, input)));
    let (output, input) = match names {
        Ok(names) => names,
        // The program's folder is the program's: if it cannot take the
        // board, the program cannot play.
        Err(error) => return Ok(Answer::NotGiven(error)),
    };
    let (input_path, output_path) = (directory.path().join(&input), directory.path().join(&output));
    let values = Substitution { input: Some(&input_path), output: Some(&output_path), depth: given.depth };
    let (executable, args) = template.command_line(&values, base, directory.copy_of_home());
    let run = containment.run(&executable, &args, directory, given.time, CAPTURE_LIMIT);
    keep_output(captures, ply, &executable, &args, &run)?;

    let passed = run.passed.map(|passed| match passed {
        Passed::Cpu => {
            let limit = containment.limits().cpu.unwrap_or(given.time);
            (Passed::Cpu, u64::try_from(limit.as_millis()).unwrap_or(u64::MAX))
        }
        other => (other, containment.limit_of(other)),
    });
    let written = match &run.ending {
        Ending::Exited(_) | Ending::Signalled(_) if passed.is_none() => directory.read(&output, OUTPUT_LIMIT),
        _ => Ok(None),
    };
    directory.remove(&input);
    directory.remove(&output);
    match &run.ending {
        Ending::FailedToStart(reason) if passed.is_none() && template.is_own() => {
            Err(TurnError::OwnExecutable(reason.clone()))
        }
        _ => Ok(Answer::Ran { run, passed, written }),
    }
}

/// Appends what the program printed on this turn to `captures`.
fn keep_output(
    captures: &mut Captures,
    ply: usize,
    executable: &Path,
    args: &[OsString],
    run: &Run,
) -> Result<(), WriteError> {
    let words = std::iter::once(executable.as_os_str()).chain(args.iter().map(|arg| arg.as_os_str()));
    let command = shell_words::join(words.map(|word| word.to_string_lossy().into_owned()));
    let mut text = format!(
        "=== move {ply}: {command}\n=== {}, {:.3} s, {:.3} s CPU\n",
        describe(&run.ending),
        run.wall.as_secs_f64(),
        run.cpu.as_secs_f64()
    )
    .into_bytes();
    for (name, captured) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        text.extend(section(name, captured));
    }
    captures.append(&text)
}

/// The last line a program wrote to a stream, printable and at most 200
/// characters, if it wrote one.
#[must_use]
pub fn last_line(tail: &[u8]) -> Option<String> {
    const LIMIT: usize = 200;
    let text = String::from_utf8_lossy(tail);
    let line = text.lines().map(str::trim).rfind(|line| !line.is_empty())?;
    let mut shown: String = line.chars().map(|c| if c.is_control() { '?' } else { c }).take(LIMIT).collect();
    if line.chars().count() > LIMIT {
        shown.push('…');
    }
    Some(shown)
}

/// One captured stream in the output file.
#[must_use]
pub fn section(name: &str, captured: &Captured) -> Vec<u8> {
    let mut text = if captured.dropped > 0 {
        format!("--- {name} (the first {} bytes were dropped)\n", captured.dropped).into_bytes()
    } else {
        format!("--- {name}\n").into_bytes()
    };
    text.extend_from_slice(&captured.tail);
    if !captured.tail.is_empty() && !captured.tail.ends_with(b"\n") {
        text.push(b'\n');
    }
    text
}

/// How a program ended, in words.
#[must_use]
pub fn describe(ending: &Ending) -> String {
    match ending {
        Ending::Exited(code) => format!("exit status {code}"),
        Ending::Signalled(signal) => format!("killed by signal {signal}"),
        Ending::TimedOut => "timed out and killed".to_owned(),
        Ending::FailedToStart(reason) => format!("failed to start: {reason}"),
    }
}

/// Seconds as the captured output shows them.
#[must_use]
pub fn shown(duration: Duration) -> String {
    format!("{:.3} s", duration.as_secs_f64())
}
