//! Timing a one-move program, a student's own, as the assignment asks:
//! `report --player TEMPLATE` runs it for one move on each position at depth
//! after depth, each run contained and judged exactly as the referee runs a
//! player for a move ([`Program`]), and takes its CPU time from the
//! operating system: the user and system time of its processes, as the
//! referee reaps them. The nodes it explored are read from what it printed
//! ([`NodesPattern`]). With `--compare`, this program's own one-move mode
//! (`self`) is run the same way beside it, so the two series are measured
//! alike, start-up included.

use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::ProgressBar;
use regex::{Regex, RegexBuilder};

use super::measure::{Algorithm, Measurement};
use super::timings::{series_cells, Cell, Position, Runs};
use crate::referee::player::program::Program;
use crate::referee::player::{Ask, Captures, PlayerKind, PlayerSpec};
use crate::referee::process::{Containment, Run};
use crate::referee::sandbox::Isolation;
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

/// Runs the program of `options` (and `self` beside it, if asked) on every
/// position at each depth from 1 to `max_depth`, while the budget allows;
/// `progress` advances by one for each cell. `out` is the report's
/// directory: the failure of a run names the file there that will keep what
/// the program printed.
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
    let mut series = vec![(Algorithm::Player, options.player.clone(), options.nodes.clone())];
    if options.compare {
        let own = PlayerSpec::parse("self").expect("`self` is a player");
        series.push((Algorithm::Program, own, NodesPattern::default()));
    }
    let seats: Vec<Seat> =
        series.iter().map(|(algorithm, spec, _)| Seat::new(algorithm.name(), spec.clone())).collect();
    let captured =
        tempfile::tempdir().map_err(|source| Error::Io { action: "make", path: "a folder".into(), source })?;
    let containment = seat::containment(&seats, options.isolation.clone(), &[captured.path(), out])?
        .ok_or_else(|| Error::Clash("the report runs a one-move program".to_owned()))?;
    let settings = Settings { rules: Rules::Max, depth: 1, timeout: options.timeout, clock: None, adjudicate: None };
    let mut cells = Vec::new();
    let mut output = Vec::new();
    for (algorithm, spec, pattern) in &series {
        let capture_path = captured.path().join(output_file(*algorithm));
        let mut program = program(&containment, spec, settings, Captures::new(capture_path.clone()))?;
        let mut count = 0;
        for (index, position) in positions.iter().enumerate() {
            let run = |depth| -> Result<Result<Measurement, String>, Error> {
                count += 1;
                program.set_depth(depth);
                let ask = Ask {
                    board: &position.board,
                    history: None,
                    ply: count,
                    time: options.timeout,
                    clock: None,
                    left: [options.timeout; 2],
                };
                let (turn, run) = program.play_run(&ask)?;
                Ok(turn.result.map(|column| measured(column, run.as_ref(), pattern)).map_err(|forfeit| {
                    // The failure names the file the output will be kept in.
                    forfeit.to_string().replace(&capture_path.display().to_string(), &kept(out, *algorithm))
                }))
            };
            cells.extend(series_cells(index, position, *algorithm, max_depth, budget, progress, run)?);
        }
        drop(program);
        let text = std::fs::read(&capture_path).unwrap_or_default();
        output.push((output_file(*algorithm), text));
    }
    // By position, then series, as the other reports' cells.
    let order: Vec<Algorithm> = series.iter().map(|(algorithm, _, _)| *algorithm).collect();
    cells.sort_by_key(|cell| (cell.position, order.iter().position(|&a| a == cell.algorithm)));
    let runs = Runs {
        command: options.player.command().to_owned(),
        nodes_pattern: options.nodes.as_str().to_owned(),
        timeout: options.timeout,
        sandboxed: containment.sandboxed(),
    };
    Ok(Measured { series: order, cells, runs, output })
}

/// Where the report keeps what `algorithm`'s program printed, as a failure
/// names it.
fn kept(out: &Path, algorithm: Algorithm) -> String {
    PathBuf::from(out).join(output_file(algorithm)).display().to_string()
}

/// The one-move program `spec` names, ready to run.
fn program<'a>(
    containment: &'a Containment,
    spec: &PlayerSpec,
    settings: Settings,
    captures: Captures,
) -> Result<Program<'a>, Error> {
    let mut directory = containment.player_dir("report-").map_err(|source| Error::Io {
        action: "create a player's folder in",
        path: std::env::temp_dir(),
        source,
    })?;
    match spec.kind() {
        PlayerKind::Engine => Program::engine(containment, directory, settings, captures),
        PlayerKind::Command(template) => {
            let base =
                std::env::current_dir().map_err(|source| Error::Io { action: "find", path: ".".into(), source })?;
            containment.furnish_for(&mut directory, template, &base);
            Ok(Program::new(containment, directory, template.clone(), settings, captures))
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
