//! Timing a one-move program, a student's own, as the assignment asks:
//! `report --player TEMPLATE` runs it for one move on each position at depth
//! after depth, each run contained and judged exactly as the referee runs a
//! player for a move ([`Program`]), and takes its CPU time from the
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
use super::positions;
use super::startup::{Startup, STARTUP_POSITION, STARTUP_RUNS};
use super::timings::{series_cells, Cell, Position, ProgramRun, Runs, SeriesLimits};
use super::version;
use crate::board::Board;
use crate::contain::sandbox::Isolation;
use crate::contain::{Containment, Run};
use crate::referee::player::program::Program;
use crate::referee::player::{Ask, Captures, PlayerKind, PlayerSpec, Template};
use crate::referee::seat::{self, Seat};
use crate::referee::settings::Settings;
use crate::referee::Error;
use crate::rules::Rules;

/// The node count's pattern when none is given: `1234 nodes`, as this
/// program's own `one-move` prints it ("Searched 1234 nodes to depth 5"), or
/// `1,234 nodes` (the count is not cut at its separator: that would read 234).
pub const DEFAULT_NODES_PATTERN: &str = r"(\d[\d,]*) nodes";

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
    pub fn parse(text: &str) -> Result<NodesPattern, String> {
        let regex = RegexBuilder::new(text).case_insensitive(true).build().map_err(|error| error.to_string())?;
        if regex.captures_len() < 2 {
            return Err(format!(
                "the pattern has no group in parentheses to capture the count, such as {DEFAULT_NODES_PATTERN}"
            ));
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

/// What to run and how.
#[derive(Clone, Debug)]
pub struct ProgramOptions {
    /// The program: a command template with `{in}` and `{out}` (and
    /// `{depth}`), or `self`.
    pub player: PlayerSpec,
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

/// What the series of one report run: the program, how its count is read.
struct Series {
    algorithm: Algorithm,
    spec: PlayerSpec,
    pattern: NodesPattern,
}

/// Runs the program of `options` (and this program's own search beside it,
/// if asked): first [`STARTUP_RUNS`] times with nothing to search, for its
/// start-up, then on every position at each depth from 1 to `max_depth`,
/// while the budget allows; `progress` advances by one for each run or
/// skipped cell. `out` is the report's directory: the failure of a run
/// names the file there that will keep what the program printed.
///
/// # Errors
/// When the referee cannot run programs here (no Linux, its folders, no copy
/// of itself for `self`).
pub fn measure(
    positions: &[Position],
    max_depth: u32,
    budget: Duration,
    options: &ProgramOptions,
    out: &Path,
    progress: &ProgressBar,
) -> Result<Measured, Error> {
    let mut series =
        vec![Series { algorithm: Algorithm::Player, spec: options.player.clone(), pattern: options.nodes.clone() }];
    if options.compare {
        let own = PlayerSpec::parse("self").expect("`self` is a player");
        series.push(Series { algorithm: Algorithm::Program, spec: own, pattern: NodesPattern::default() });
    }
    let seats: Vec<Seat> = series.iter().map(|s| Seat::new(s.algorithm.name(), s.spec.clone())).collect();
    let captured =
        tempfile::tempdir().map_err(|source| Error::Io { action: "make", path: "a folder".into(), source })?;
    let containment = seat::containment(&seats, options.isolation.clone(), &[captured.path(), out])?
        .ok_or_else(|| Error::Clash("the report runs a one-move program".to_owned()))?;
    let settings = Settings { rules: Rules::Max, depth: 1, timeout: options.timeout, clock: None, adjudicate: None };
    let base = std::env::current_dir().map_err(|source| Error::Io { action: "find", path: ".".into(), source })?;
    let (mut cells, mut output, mut programs) = (Vec::new(), Vec::new(), Vec::new());
    for Series { algorithm, spec, pattern } in &series {
        let capture_path = captured.path().join(output_file(*algorithm));
        let captures = Captures::new(capture_path.clone());
        let (mut program, run) = program(&containment, *algorithm, spec, settings, captures, &base)?;
        let mut runner = Runner { program: &mut program, ply: 0, timeout: options.timeout, pattern };
        let forfeit = |reason: String| reason.replace(&capture_path.display().to_string(), &kept(out, *algorithm));
        let startup = startup(&mut runner, progress)?.map_err(forfeit);
        let fixed = startup.as_ref().map_or(Duration::ZERO, Startup::median);
        let limits = SeriesLimits { max_depth, budget, startup: fixed };
        for (index, position) in positions.iter().enumerate() {
            let run = |depth| Ok::<_, Error>(runner.run(&position.board, depth)?.map_err(forfeit));
            cells.extend(series_cells(index, position, *algorithm, limits, progress, run)?);
        }
        drop(program);
        output.push((output_file(*algorithm), std::fs::read(&capture_path).unwrap_or_default()));
        programs.push(ProgramRun { startup, ..run });
    }
    // By position, then series, as the other reports' cells.
    let order: Vec<Algorithm> = series.iter().map(|s| s.algorithm).collect();
    cells.sort_by_key(|cell| (cell.position, order.iter().position(|&a| a == cell.algorithm)));
    let runs = Runs {
        command: options.player.command().to_owned(),
        nodes_pattern: options.nodes.as_str().to_owned(),
        timeout: options.timeout,
        sandboxed: containment.sandboxed(),
        programs,
    };
    Ok(Measured { series: order, cells, runs, output })
}

/// Runs one program, one move at a time.
struct Runner<'r, 'c> {
    program: &'r mut Program<'c>,
    /// The runs so far, for the names of the board files.
    ply: usize,
    timeout: Duration,
    pattern: &'r NodesPattern,
}

impl Runner<'_, '_> {
    /// Runs the program for one move from `board` at `depth`: its
    /// measurement, or why the run failed (the program's fault).
    fn run(&mut self, board: &Board, depth: u32) -> Result<Result<Measurement, String>, Error> {
        self.ply += 1;
        self.program.set_depth(depth);
        let ask = Ask { board, history: None, ply: self.ply, time: self.timeout, clock: None, left: [self.timeout; 2] };
        let (turn, run) = self.program.play_run(&ask)?;
        Ok(turn.result.map(|column| measured(column, run.as_ref(), self.pattern)).map_err(|f| f.to_string()))
    }
}

/// The start-up of `runner`'s program: [`STARTUP_RUNS`] runs at depth 1 on
/// [`STARTUP_POSITION`], where there is nothing to search; or why the first
/// run that failed did.
fn startup(runner: &mut Runner, progress: &ProgressBar) -> Result<Result<Startup, String>, Error> {
    let position = positions::built_in(STARTUP_POSITION);
    progress.set_message("start-up");
    let mut runs = Vec::new();
    for _ in 0..STARTUP_RUNS {
        let run = runner.run(&position.board, 1)?;
        progress.inc(1);
        match run {
            Ok(measurement) => runs.push(measurement.cpu),
            Err(reason) => {
                progress.inc((STARTUP_RUNS - runs.len() - 1) as u64);
                return Ok(Err(format!("on {STARTUP_POSITION} at depth 1: {reason}")));
            }
        }
    }
    Ok(Ok(Startup::new(runs).expect("runs were made")))
}

/// Where the report keeps what `algorithm`'s program printed, as a failure
/// names it.
fn kept(out: &Path, algorithm: Algorithm) -> String {
    PathBuf::from(out).join(output_file(algorithm)).display().to_string()
}

/// The program of `algorithm`, `spec` (the player's; this program's own
/// search for [`Algorithm::Program`]), ready to run, and what the report
/// says of it, its start-up still to be measured. `base` is the working
/// directory its command starts from.
fn program<'a>(
    containment: &'a Containment,
    algorithm: Algorithm,
    spec: &PlayerSpec,
    settings: Settings,
    captures: Captures,
    base: &Path,
) -> Result<(Program<'a>, ProgramRun), Error> {
    let mut directory = containment.player_dir("report-").map_err(|source| Error::Io {
        action: "create a player's folder in",
        path: std::env::temp_dir(),
        source,
    })?;
    let described = |command: String, version: String| ProgramRun {
        algorithm,
        command,
        startup: Err("not measured".to_owned()),
        version,
    };
    match spec.kind() {
        PlayerKind::Engine if algorithm == Algorithm::Program => {
            let run = described(own_search_command(), version::own());
            Ok((Program::engine(containment, directory, settings, captures)?.searching_only(), run))
        }
        PlayerKind::Engine => {
            let run = described(format!("maxconnect4 {}", spec.command()), version::own());
            Ok((Program::engine(containment, directory, settings, captures)?, run))
        }
        PlayerKind::Command(template) => {
            template.furnish(containment, &mut directory, base);
            let folder = template.home(base).unwrap_or_else(|| base.to_owned());
            let run = described(spec.command().to_owned(), version::of_folder(&folder));
            Ok((Program::new(containment, directory, template.clone(), settings, captures), run))
        }
        _ => Err(Error::Clash(format!("{}: {}", spec.command(), NOT_ONE_MOVE))),
    }
}

/// Why a player of another kind cannot be timed.
pub const NOT_ONE_MOVE: &str =
    "the report times a one-move program: give a command template with {in}, {out} and {depth}, or self";

/// A run that played `column`: its CPU time, and its node count if `pattern`
/// finds one in what it printed.
fn measured(column: crate::board::Column, run: Option<&Run>, pattern: &NodesPattern) -> Measurement {
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
        assert!(NodesPattern::parse("(unclosed").unwrap_err().contains("unclosed"));
        assert!(NodesPattern::parse(r"\d+ nodes").unwrap_err().contains("no group"));
    }
}
