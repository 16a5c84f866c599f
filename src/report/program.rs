//! Timing a one-move program, a student's own, as the assignment asks:
//! `report --player TEMPLATE` runs it for one move on each position at depth
//! after depth, each run contained and judged exactly as the referee runs a
//! player for a move (by `contain::turn` and `protocol::one_move`, which
//! both share), and takes its CPU time from the
//! operating system: the user and system time of its processes, as the
//! referee reaps them. The nodes it explored are read from what it printed
//! ([`NodesPattern`]). Each program's start-up is measured apart first
//! (see [`super::startup`]). With `--compare`, this program's own
//! depth-limited search ([`own_search_command`]: no book, one thread) is
//! run the same way beside it, so the two series are measured alike, each
//! with its start-up.

use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::ProgressBar;
use regex::{Regex, RegexBuilder};

use super::measure::{Algorithm, Measurement};
use super::names;
use super::positions;
use super::startup::{Startup, StartupFailed, STARTUP_POSITION, STARTUP_RUNS};
use super::timings::{series_cells, Cell, LabelledBoard, ProgramRun, Runs, SeriesLimits};
use super::version;
use super::RunError;
use crate::board::{Board, Column};
use crate::contain::captures::Captures;
use crate::contain::sandbox::Isolation;
use crate::contain::scratch::ScratchDir;
use crate::contain::template::{OwnPlay, Template};
use crate::contain::turn::{self, Given};
use crate::contain::{Containment, Run};
use crate::protocol::one_move;
use crate::protocol::verdict::Forfeit;
use crate::rules::Rules;

/// The node count's pattern when none is given: `1234 nodes`, as this
/// program's own `one-move` prints it ("Searched 1234 nodes to depth 5"), or
/// `1,234 nodes` (the count is not cut at its separator: that would read 234).
pub const DEFAULT_NODES_PATTERN: &str = r"(\d[\d,]*) nodes";

/// What a node count's pattern may not be.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PatternError {
    #[error(transparent)]
    Regex(#[from] regex::Error),
    #[error("the pattern has no group in parentheses to capture the count, such as {DEFAULT_NODES_PATTERN}")]
    NoGroup,
}

/// Where a program's run prints how many nodes it explored: a regular
/// expression, matched without regard to case, whose first group is the
/// count.
#[derive(Clone, Debug)]
pub struct NodesPattern(Regex);

impl NodesPattern {
    /// Compiles `text`, which must have a group to capture the count.
    ///
    /// # Errors
    /// When it is not a regular expression or has no group, in words.
    pub fn parse(text: &str) -> Result<NodesPattern, PatternError> {
        let regex = RegexBuilder::new(text).case_insensitive(true).build()?;
        if regex.captures_len() < 2 {
            return Err(PatternError::NoGroup);
        }
        Ok(NodesPattern(regex))
    }

    /// The pattern as given.
    #[must_use]
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The count in a program's output: the last match on its standard
    /// output, else the last on its standard error; separators (`1,234`,
    /// `1_234`) allowed. None when neither has a match that is a number.
    #[must_use]
    pub fn count(&self, stdout: &[u8], stderr: &[u8]) -> Option<u64> {
        [stdout, stderr].into_iter().find_map(|stream| {
            let text = String::from_utf8_lossy(stream);
            let last = self.0.captures_iter(&text).filter_map(|captures| number(captures.get(1)?.as_str())).last();
            last
        })
    }
}

impl Default for NodesPattern {
    fn default() -> NodesPattern {
        NodesPattern::parse(DEFAULT_NODES_PATTERN).expect("the default pattern is valid")
    }
}

/// A whole number written with or without thousands separators.
fn number(text: &str) -> Option<u64> {
    let digits: String = text.trim().chars().filter(|c| !matches!(c, ',' | '_' | '\'')).collect();
    digits.parse().ok()
}

/// The one-move program a report times, as `--player` names it.
#[derive(Clone, Debug)]
pub struct TimedProgram {
    /// The command as given, without the blanks around it.
    pub command: String,
    pub program: Timed,
}

/// What runs for a timed program.
#[derive(Clone, Debug)]
pub enum Timed {
    /// `self`: this program's own one-move mode, as the referee runs it.
    Own,
    /// A command template with `{in}` and `{out}` (and `{depth}`).
    Command(Template),
}

/// What to run and how.
#[derive(Clone, Debug)]
pub struct ProgramOptions {
    pub player: TimedProgram,
    pub nodes: NodesPattern,
    /// Run this program's own one-move mode beside it.
    pub compare: bool,
    /// Each run's time (wall and, unless the limits say otherwise, CPU).
    pub timeout: Duration,
    pub isolation: Isolation,
}

/// What the runs gave.
pub struct Measured {
    /// The series run, the player's first.
    pub series: Vec<Algorithm>,
    pub cells: Vec<Cell>,
    pub runs: Runs,
    /// What each series' program printed: the name of the file in the
    /// report that keeps it, and its text.
    pub output: Vec<(String, Vec<u8>)>,
}

/// The file in the report that keeps what `algorithm`'s program printed.
#[must_use]
pub fn output_file(algorithm: Algorithm) -> String {
    format!("{}_output.txt", algorithm.name())
}

/// This program's own search as `--compare` runs it, for the report to
/// show: [`Template::OWN_SEARCH`] after the program's name.
#[must_use]
pub fn own_search_command() -> String {
    std::iter::once("maxconnect4").chain(Template::OWN_SEARCH).collect::<Vec<_>>().join(" ")
}

/// Runs the program of `options` (and this program's own search beside it,
/// if asked): first [`STARTUP_RUNS`] times with nothing to search, for its
/// start-up, then on every position at each depth from 1 to `max_depth`,
/// while the budget allows; `progress` advances by one for each run or
/// skipped cell. `out` is the report's directory: the failure of a run
/// names the file there that will keep what the program printed.
///
/// # Errors
/// When programs cannot be run here (no Unix, its folders, no copy of
/// this program for `self`, `self` failing to start), or what one printed
/// cannot be kept. The sandbox's warning, where it is missing, goes to
/// `err`.
pub fn measure(
    positions: &[LabelledBoard],
    max_depth: u32,
    budget: Duration,
    options: &ProgramOptions,
    out: &Path,
    progress: &ProgressBar,
    err: &mut dyn std::io::Write,
) -> Result<Measured, RunError> {
    let mut series = vec![(Algorithm::Player, &options.player.program, &options.nodes)];
    let (own, default_pattern) = (Timed::Own, NodesPattern::default());
    if options.compare {
        series.push((Algorithm::Program, &own, &default_pattern));
    }
    let captured =
        tempfile::tempdir().map_err(|source| RunError::Io { action: "make", path: "a folder".into(), source })?;
    let with_self = series.iter().any(|(_, program, _)| matches!(program, Timed::Own));
    let (containment, warning) = Containment::start(options.isolation.clone(), with_self, &[captured.path(), out])?;
    if let Some(warning) = warning {
        // Above the bar, not through it.
        let _ = progress.suspend(|| writeln!(err, "{warning}"));
    }
    let base = std::env::current_dir().map_err(|source| RunError::Io { action: "find", path: ".".into(), source })?;
    let (mut cells, mut output, mut programs) = (Vec::new(), Vec::new(), Vec::new());
    for &(algorithm, program, pattern) in &series {
        let capture_path = captured.path().join(output_file(algorithm));
        let (command, version, mut runner) = {
            let mut directory = containment.player_dir("report-").map_err(|source| RunError::Io {
                action: "create a player's folder in",
                path: std::env::temp_dir(),
                source,
            })?;
            let (command, version, template) = what_runs(
                &containment,
                algorithm,
                program,
                &options.player.command,
                options.timeout,
                &mut directory,
                &base,
            )?;
            let runner = Runner {
                containment: &containment,
                directory,
                template,
                captures: Captures::new(capture_path.clone()),
                kept: out.join(output_file(algorithm)),
                base: &base,
                ply: 0,
                timeout: options.timeout,
                pattern,
            };
            (command, version, runner)
        };
        let startup = startup(&mut runner, progress)?;
        let fixed = startup.as_ref().map_or(Duration::ZERO, Startup::median);
        let limits = SeriesLimits { max_depth, budget, startup: fixed };
        for (index, position) in positions.iter().enumerate() {
            let run = |depth| runner.run(&position.board, depth);
            cells.extend(series_cells(index, position, algorithm, limits, progress, run)?);
        }
        drop(runner);
        output.push((output_file(algorithm), std::fs::read(&capture_path).unwrap_or_default()));
        let name = match algorithm {
            Algorithm::Player => names::of_command(&command),
            _ => algorithm.name().to_owned(),
        };
        programs.push(ProgramRun { algorithm, command, name, startup, version });
    }
    // By position, then series, as the other reports' cells.
    let order: Vec<Algorithm> = series.iter().map(|&(algorithm, _, _)| algorithm).collect();
    cells.sort_by_key(|cell| (cell.position, order.iter().position(|&a| a == cell.algorithm)));
    let runs = Runs {
        command: options.player.command.clone(),
        nodes_pattern: options.nodes.as_str().to_owned(),
        timeout: options.timeout,
        sandboxed: containment.sandboxed(),
        programs,
    };
    Ok(Measured { series: order, cells, runs, output })
}

/// What runs for `algorithm`'s series, `program` (the player's, named by
/// `command`; this program's own search for [`Algorithm::Program`]): the
/// command the report shows, its version, and its template (for `self`,
/// with each run's `timeout`), its folder given to `directory`. `base` is
/// the working directory its command starts from.
fn what_runs(
    containment: &Containment,
    algorithm: Algorithm,
    program: &Timed,
    command: &str,
    timeout: Duration,
    directory: &mut ScratchDir,
    base: &Path,
) -> Result<(String, String, Template), RunError> {
    Ok(match program {
        Timed::Own if algorithm == Algorithm::Program => {
            (own_search_command(), version::own(), Template::own_search(turn::own_executable(containment)?))
        }
        // `self` stops searching at half the time it has, as in a game.
        Timed::Own => {
            let template =
                Template::engine(turn::own_executable(containment)?, Rules::Max, OwnPlay::BookMoves, timeout / 2);
            (format!("maxconnect4 {command}"), version::own(), template)
        }
        Timed::Command(template) => {
            template.furnish(containment, directory, base);
            let folder = template.home(base).unwrap_or_else(|| base.to_owned());
            (command.to_owned(), version::of_folder(&folder), template.clone())
        }
    })
}

/// Runs one program, one move at a time, as the referee runs a player.
struct Runner<'r> {
    containment: &'r Containment,
    directory: ScratchDir,
    template: Template,
    captures: Captures,
    /// Where the report keeps what the program printed, for a failed run's
    /// reason to name.
    kept: PathBuf,
    base: &'r Path,
    /// The runs so far, for the names of the board files.
    ply: usize,
    timeout: Duration,
    pattern: &'r NodesPattern,
}

impl Runner<'_> {
    /// Runs the program for one move from `board` at `depth`: its
    /// measurement, or why the run failed (the program's fault).
    fn run(&mut self, board: &Board, depth: u32) -> Result<Result<Measurement, Forfeit>, RunError> {
        self.ply += 1;
        let board_file = one_move::board_file(board);
        let given = Given { board_file: board_file.as_bytes(), ply: self.ply, depth, time: self.timeout };
        let answer =
            turn::play(self.containment, &self.directory, &self.template, &given, self.base, &mut self.captures)?;
        let verdict = one_move::judge_turn(board, &answer, Forfeit::Timeout(self.timeout), Some(&self.kept));
        Ok(verdict.map(|column| measured(column, answer.run(), self.pattern)))
    }
}

/// The start-up of `runner`'s program: [`STARTUP_RUNS`] runs at depth 1 on
/// [`STARTUP_POSITION`], where there is nothing to search; or why the first
/// run that failed did.
fn startup(runner: &mut Runner, progress: &ProgressBar) -> Result<Result<Startup, StartupFailed>, RunError> {
    let position = positions::built_in(STARTUP_POSITION);
    progress.set_message("start-up");
    let mut runs = Vec::new();
    for _ in 0..STARTUP_RUNS {
        let run = runner.run(&position.board, 1)?;
        progress.inc(1);
        match run {
            Ok(measurement) => runs.push(measurement.cpu),
            Err(forfeit) => {
                progress.inc((STARTUP_RUNS - runs.len() - 1) as u64);
                return Ok(Err(StartupFailed(forfeit)));
            }
        }
    }
    Ok(Ok(Startup::new(runs).expect("runs were made")))
}

/// Why a player of another kind cannot be timed.
pub const NOT_ONE_MOVE: &str =
    "the report times a one-move program: give a command template with {in}, {out} and {depth}, or self";

/// A run that played `column`: its CPU time, and its node count if `pattern`
/// finds one in what it printed.
fn measured(column: Column, run: Option<&Run>, pattern: &NodesPattern) -> Measurement {
    let (cpu, nodes) =
        run.map_or((Duration::ZERO, None), |run| (run.cpu, pattern.count(&run.stdout.tail, &run.stderr.tail)));
    Measurement { column, value: None, nodes, cpu, runs: 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_is_the_last_match_on_stdout_else_on_stderr() {
        let pattern = NodesPattern::default();
        assert_eq!(pattern.count(b"depth 1: 8 nodes\ndepth 2: 64 Nodes\n", b"99 nodes"), Some(64));
        assert_eq!(pattern.count(b"no count here", b"searched 1,234 NODES"), Some(1234), "with its separator");
        assert_eq!(pattern.count(b"", b"searched 1234 nodes in 0.1 s"), Some(1234));
        assert_eq!(pattern.count(b"nodes: many", b""), None);
        let custom = NodesPattern::parse(r"explored ([\d,]+)").unwrap();
        assert_eq!(custom.count(b"explored 1,234 positions", b""), Some(1234));
    }

    #[test]
    fn a_pattern_must_compile_and_capture() {
        let unclosed = NodesPattern::parse("(unclosed").unwrap_err();
        assert!(matches!(unclosed, PatternError::Regex(_)), "{unclosed:?}");
        assert!(unclosed.to_string().contains("unclosed"), "the regex's own words: {unclosed}");
        assert_eq!(NodesPattern::parse(r"\d+ nodes").unwrap_err(), PatternError::NoGroup);
    }
}
