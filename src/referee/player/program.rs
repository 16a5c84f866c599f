//! A one-move program (a command template, or `self`): each turn the board
//! goes into a new file, under a fresh random name, in the player's own
//! folder, the program runs there, contained, with the turn's time, what it
//! printed is kept in the game's output directory, and the file it wrote, if
//! it is a regular file, is judged by [`verdict::judge`]. Whatever a player
//! leaves in its folder can cost it the game, never stop the referee.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use super::{Ask, Captures, Competitor, End, Substitution, Template, Turn};
use crate::contain::limits::Passed;
use crate::contain::scratch::ScratchDir;
use crate::contain::{Captured, Containment, Ending, Run};
use crate::format::{self, LineEnding};
use crate::referee::console::Console;
use crate::referee::settings::Settings;
use crate::referee::verdict::{self, Forfeit};
use crate::referee::Error;

/// The most of each output stream kept per turn; the end is kept, since
/// that is where a crash is explained.
pub const CAPTURE_LIMIT: usize = 8 * 1024;

/// The most of an output file read: a board file is under 100 bytes.
const OUTPUT_LIMIT: u64 = 64 * 1024;

/// The copy of this program that the referee runs as a player.
fn own_executable(containment: &Containment) -> Result<&Path, Error> {
    containment
        .own_executable()
        .ok_or_else(|| Error::OwnExecutable("the referee was started without a copy of its executable".to_owned()))
}

/// How this program's own one-move mode plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Own {
    /// As `self` plays: told to stop searching at half the turn's time.
    Engine,
    /// Its depth-limited search alone, for the timing report
    /// ([`Template::own_search`]).
    Search,
}

/// A side's command, ready to run, and its working directory.
pub struct Program<'a> {
    containment: &'a Containment,
    template: Template,
    /// This program's own one-move mode, when it is the player: its
    /// failure to start is then the referee's.
    own: Option<Own>,
    directory: ScratchDir,
    settings: Settings,
    captures: Captures,
}

impl<'a> Program<'a> {
    #[must_use]
    pub const fn new(
        containment: &'a Containment,
        directory: ScratchDir,
        template: Template,
        settings: Settings,
        captures: Captures,
    ) -> Program<'a> {
        Program { containment, template, own: None, directory, settings, captures }
    }

    /// This program's own one-move mode.
    ///
    /// # Errors
    /// When the referee has no copy of its own executable.
    pub fn engine(
        containment: &'a Containment,
        directory: ScratchDir,
        settings: Settings,
        captures: Captures,
    ) -> Result<Program<'a>, Error> {
        let executable = own_executable(containment)?;
        let template = Template::engine(executable, settings.rules, settings.timeout / 2);
        Ok(Program { containment, template, own: Some(Own::Engine), directory, settings, captures })
    }

    /// This program's own one-move mode ([`Program::engine`]) made to play
    /// its depth-limited search alone, to the depth set, with no book and
    /// one thread: what the timing report compares a student's program with.
    #[must_use]
    pub fn searching_only(self) -> Program<'a> {
        let executable = own_executable(self.containment).expect("checked when the engine was made");
        Program { template: Template::own_search(executable), own: Some(Own::Search), ..self }
    }

    /// Makes the next turns substitute `depth` for `{depth}` (and `self`
    /// search that deep): the timing report runs one program at depth after
    /// depth.
    pub const fn set_depth(&mut self, depth: u32) {
        self.settings.depth = depth;
    }

    /// Plays one turn as [`Competitor::play`] does, and gives back the run
    /// of the program too, with what it printed, when it was run.
    ///
    /// # Errors
    /// As [`Competitor::play`].
    pub fn play_run(&mut self, ask: &Ask<'_>) -> Result<(Turn, Option<Run>), Error> {
        let ply = ask.ply;
        let directory = &self.directory;
        let board_file = format::write(ask.board, LineEnding::Lf);
        let names = directory
            .create(&format!("in-{ply:02}"), board_file.as_bytes())
            .and_then(|input| Ok((directory.unused_name(&format!("out-{ply:02}"))?, input)));
        let (output, input) = match names {
            Ok(names) => names,
            Err(error) => {
                // The player's folder is the player's: if it cannot take
                // the board, the player cannot play.
                let reason = format!("the board cannot be put in the player's folder: {error}");
                return Ok((Turn::lost(Forfeit::FailedToStart(reason)), None));
            }
        };
        let (input_path, output_path) = (directory.path().join(&input), directory.path().join(&output));
        let values = Substitution { input: Some(&input_path), output: Some(&output_path), depth: self.settings.depth };
        let base = std::env::current_dir().map_err(|source| Error::io("find", Path::new("."), source))?;
        if self.own == Some(Own::Engine) {
            // `self` stops searching at half the time it has, so that it
            // never loses on time, clock or not.
            let executable = self.containment.own_executable().expect("checked when the engine was seated");
            self.template = Template::engine(executable, self.settings.rules, ask.time / 2);
        }
        let (executable, args) = self.template.command_line(&values, &base, directory.copy_of_home());
        let run = self.containment.run(&executable, &args, directory, ask.time, CAPTURE_LIMIT);
        self.keep_output(ply, &executable, &args, &run)?;

        let ending = describe(&run.ending);
        let last_words = last_line(&run.stderr.tail);
        let said = last_words.as_ref().map(|line| format!("; its last line on stderr: '{line}'")).unwrap_or_default();
        let result = match &run.ending {
            _ if run.passed == Some(Passed::Cpu) => {
                let limit = self.containment.limits().cpu.unwrap_or(ask.time);
                Err(Forfeit::Limit(Passed::Cpu, u64::try_from(limit.as_millis()).unwrap_or(u64::MAX)))
            }
            _ if run.passed.is_some() => Err({
                let passed = run.passed.expect("checked");
                Forfeit::Limit(passed, self.containment.limit_of(passed))
            }),
            Ending::FailedToStart(reason) if self.own.is_some() => return Err(Error::OwnExecutable(reason.clone())),
            Ending::FailedToStart(reason) => Err(Forfeit::FailedToStart(reason.clone())),
            Ending::TimedOut => Err(ask.out_of_time()),
            Ending::Exited(_) | Ending::Signalled(_) => match self.directory.read(&output, OUTPUT_LIMIT) {
                Ok(Some(text)) => verdict::judge(ask.board, &text),
                Ok(None) => match could_not_start(&run.ending, &run.stderr.tail) {
                    Some(cause) => {
                        Err(Forfeit::FailedToStart(format!("the program could not start ({ending}): {cause}")))
                    }
                    None if self.captures.kept() => Err(Forfeit::NoOutput(format!(
                        "the program wrote no output file ({ending}){said}; its output is in {}",
                        self.captures.path().display()
                    ))),
                    None => Err(Forfeit::NoOutput(format!("the program wrote no output file ({ending}){said}"))),
                },
                Err(error) => Err(Forfeit::NoOutput(format!("the output file cannot be read: {error}{said}"))),
            },
        };
        self.directory.remove(&input);
        self.directory.remove(&output);
        let turn = Turn { result, wall: run.wall, cpu: Some(run.cpu), ending: Some(ending) };
        Ok((turn, Some(run)))
    }

    /// Appends what the program printed on this turn to the colour's file
    /// in the game's output directory.
    fn keep_output(&mut self, ply: usize, executable: &Path, args: &[OsString], run: &Run) -> Result<(), Error> {
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
        self.captures.append(&text)
    }
}

impl Competitor for Program<'_> {
    fn play(&mut self, ask: &Ask<'_>, _: Option<&mut Console<'_>>) -> Result<Turn, Error> {
        self.play_run(ask).map(|(turn, _)| turn)
    }

    fn finish(&mut self, _: End) -> Result<(), Error> {
        Ok(())
    }
}

/// The last line a program wrote to a stream, printable and at most 200
/// characters, if it wrote one.
pub(crate) fn last_line(tail: &[u8]) -> Option<String> {
    const LIMIT: usize = 200;
    let text = String::from_utf8_lossy(tail);
    let line = text.lines().map(str::trim).rfind(|line| !line.is_empty())?;
    let mut shown: String = line.chars().map(|c| if c.is_control() { '?' } else { c }).take(LIMIT).collect();
    if line.chars().count() > LIMIT {
        shown.push('…');
    }
    Some(shown)
}

/// What programs that cannot start say, each with the fix it most likely
/// needs: a command not found or not executable, the sandbox unable to run
/// it, an interpreter unable to open its script or class or to find a
/// module beside it, a program for another interpreter or machine. Looked
/// for anywhere in what the program wrote on stderr (a JVM's first line
/// says it, its last is a stack frame), the first match winning.
const CANNOT_START: [(&str, &str); 16] = [
    ("(wrong name:", "the class is in a package: run `java -cp ROOT package.Class` from the folder above the package's"),
    ("Could not find or load main class", "compile the program (javac) in its folder, or give -cp the folder that holds the class (a class in a package runs as `java -cp ROOT package.Class`)"),
    ("ClassNotFoundException", "compile the program (javac) in its folder, or give -cp the folder that holds the class"),
    ("UnsupportedClassVersionError", "the classes were compiled by a newer Java than this `java`: compile them again here"),
    ("Unable to access jarfile", "the jar is not where the command says; relative paths start in the program's folder"),
    ("ModuleNotFoundError", "the module is neither beside the script in the program's folder nor installed for this interpreter"),
    ("ImportError: No module named", "the module is neither beside the script in the program's folder nor installed for this interpreter"),
    ("Missing parentheses in call to 'print'", "a Python 2 program: run it with python2"),
    ("can't open file", "the script is not where the command says; relative paths start in the program's folder"),
    ("Cannot find module", "the script is not where the command says; relative paths start in the program's folder"),
    ("Can't open perl script", "the script is not where the command says"),
    ("No such file or directory -- ", "the script is not where the command says"),
    ("bwrap: ", "the sandbox could not run the program"),
    ("exec format error", "the executable is for another machine or system: build it here"),
    ("cannot execute binary file", "the executable is for another machine or system: build it here"),
    ("command not found", "the program is not installed, or not on the PATH"),
];

/// Why a program that wrote no output could not start, with the likely
/// fix, if it could not: it ended with status 126 or 127 (a command not
/// found or not executable, by the convention of shells and `env`) or said
/// one of [`CANNOT_START`]'s lines on stderr. A program that ran and failed
/// says something else, and is `no-output`.
fn could_not_start(ending: &Ending, stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let said = text.lines().map(str::trim).filter(|line| !line.is_empty());
    let found = CANNOT_START.iter().find_map(|(says, fix)| {
        let says = says.to_lowercase();
        said.clone().find(|line| line.to_lowercase().contains(&says)).map(|line| (line, *fix))
    });
    match found {
        Some((line, fix)) => Some(format!("{}; {fix}", last_line(line.as_bytes()).unwrap_or_default())),
        None if matches!(ending, Ending::Exited(126 | 127)) => {
            Some(last_line(stderr).unwrap_or_else(|| "it said nothing".to_owned()))
        }
        None => None,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_that_cannot_start_is_told_the_likely_fix() {
        let java = b"Error: Could not find or load main class maxconnect4\n\
                     Caused by: java.lang.ClassNotFoundException: maxconnect4\n";
        let cause = could_not_start(&Ending::Exited(1), java).unwrap();
        assert!(
            cause.starts_with("Error: Could not find or load main class maxconnect4; compile the program"),
            "{cause}"
        );
        let package = b"Error: Could not find or load main class maxconnect4\n\
                        Caused by: java.lang.NoClassDefFoundError: hw4/maxconnect4 (wrong name: maxconnect4)\n";
        let cause = could_not_start(&Ending::Exited(1), package).unwrap();
        assert!(cause.contains("(wrong name: maxconnect4); the class is in a package"), "{cause}");
        let python = b"Traceback (most recent call last):\n  File \"maxconnect4.py\", line 4, in <module>\n    \
                       from MaxConnect4Game import *\nModuleNotFoundError: No module named 'MaxConnect4Game'\n";
        let cause = could_not_start(&Ending::Exited(1), python).unwrap();
        assert!(cause.starts_with("ModuleNotFoundError: No module named 'MaxConnect4Game'; the module is neither"));
        assert_eq!(could_not_start(&Ending::Exited(127), b""), Some("it said nothing".to_owned()));
        let crashed = b"Traceback (most recent call last):\nZeroDivisionError: division by zero\n";
        assert_eq!(could_not_start(&Ending::Exited(1), crashed), None, "a crash is no-output");
    }
}
