//! Every search of a report: the positions, and for each position,
//! algorithm and depth, its measurement or why it was skipped or failed.
//! What [`super::findings`] fits and the CSV, the charts and the Markdown
//! render. The depths of a series go up the same way whatever runs them:
//! this program's searches here, or a program run as the referee runs one.

use std::convert::Infallible;
use std::time::Duration;

use indicatif::ProgressBar;

use super::measure::{self, measure, predict, Algorithm, Measurement, Prediction, Searcher};
use super::names;
use super::startup::{Startup, StartupFailed};
use crate::board::Board;
use crate::protocol::verdict::Forfeit;

/// A position the report searches from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelledBoard {
    /// How tables and charts name it: the file name, or the path when two
    /// files share a name.
    pub label: String,
    pub board: Board,
}

impl LabelledBoard {
    /// The depths searched from this position: 1 to `max_depth`, but no
    /// deeper than the empty cells, as a deeper search is the same search.
    pub fn depths(&self, max_depth: u32) -> std::ops::RangeInclusive<u32> {
        1..=max_depth.min(self.board.empty_cells())
    }
}

/// One position, algorithm and depth: one row of the CSV file.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Index into [`Timings::positions`].
    pub position: usize,
    pub algorithm: Algorithm,
    pub depth: u32,
    pub outcome: CellResult,
}

/// Whether a cell was searched.
#[derive(Clone, Debug, PartialEq)]
pub enum CellResult {
    Measured(Measurement),
    /// Not searched: its predicted CPU seconds exceeded the budget.
    Skipped {
        predicted_seconds: f64,
    },
    /// A program's run that gave no legal move: why, in words. No deeper
    /// depth of the series is run.
    Failed {
        reason: String,
    },
}

/// How the programs of a report were run, for the report to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Runs {
    /// The `--player` command, as given.
    pub command: String,
    /// The node count's pattern.
    pub nodes_pattern: String,
    pub timeout: Duration,
    /// Whether the runs were in the referee's sandbox.
    pub sandboxed: bool,
    /// Each program, in [`Timings::series`] order.
    pub programs: Vec<ProgramRun>,
}

/// One program of a report: what ran, and what it costs to start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramRun {
    pub algorithm: Algorithm,
    /// The command that ran, its placeholders kept; this program's own as
    /// `maxconnect4 ...`.
    pub command: String,
    /// What the report calls it in tables, legends and on the terminal
    /// (see [`super::names`]).
    pub name: String,
    /// Its start-up, or why its start-up runs failed.
    pub startup: Result<Startup, StartupFailed>,
    /// Which version of it ran, in words.
    pub version: String,
}

/// Every cell of a report, with what it was measured from.
#[derive(Clone, Debug, PartialEq)]
pub struct Timings {
    pub positions: Vec<LabelledBoard>,
    /// The series measured, in the order of the tables and legends:
    /// [`Algorithm::ALL`], or a program's (and this program's beside it).
    pub series: Vec<Algorithm>,
    /// By position, then series in [`Timings::series`] order, then depth.
    pub cells: Vec<Cell>,
    pub max_depth: u32,
    pub budget: Duration,
    /// What reading the clock adds to a timing, as measured before the searches.
    pub clock_overhead: Duration,
    /// How the programs were run, when the series are programs.
    pub runs: Option<Runs>,
}

impl Timings {
    /// Searches every cell: each position, algorithm and depth, skipping a
    /// cell whose predicted time exceeds `budget`, and every deeper one after
    /// it. `progress` advances by one for each cell.
    #[must_use]
    pub fn measure(positions: Vec<LabelledBoard>, max_depth: u32, budget: Duration, progress: &ProgressBar) -> Timings {
        let clock_overhead = measure::clock_overhead();
        let mut searchers: Vec<(Algorithm, Searcher)> =
            Algorithm::ALL.into_iter().filter_map(|algorithm| Some((algorithm, Searcher::new(algorithm)?))).collect();
        let mut cells = Vec::new();
        for (index, position) in positions.iter().enumerate() {
            for (algorithm, searcher) in &mut searchers {
                let run = |depth| Ok::<_, Infallible>(Ok(measure(searcher, &position.board, depth, clock_overhead)));
                let limits = SeriesLimits { max_depth, budget, startup: Duration::ZERO };
                let Ok(series) = series_cells(index, position, *algorithm, limits, progress, run);
                cells.extend(series);
            }
        }
        let series = Algorithm::ALL.to_vec();
        Timings { positions, series, cells, max_depth, budget, clock_overhead, runs: None }
    }

    /// Every measured cell of `algorithm`: position index, depth, measurement.
    pub fn measurements(&self, algorithm: Algorithm) -> impl Iterator<Item = (usize, u32, Measurement)> + '_ {
        self.cells.iter().filter(move |cell| cell.algorithm == algorithm).filter_map(|cell| match cell.outcome {
            CellResult::Measured(measurement) => Some((cell.position, cell.depth, measurement)),
            CellResult::Skipped { .. } | CellResult::Failed { .. } => None,
        })
    }

    /// Whether `algorithm` gave a node count for any of its searches.
    #[must_use]
    pub fn counts_nodes(&self, algorithm: Algorithm) -> bool {
        self.measurements(algorithm).any(|(_, _, m)| m.nodes.is_some())
    }

    /// The measured depths of `algorithm` on one position, shallowest first.
    pub fn series(&self, position: usize, algorithm: Algorithm) -> impl Iterator<Item = (u32, Measurement)> + '_ {
        self.measurements(algorithm).filter(move |&(p, _, _)| p == position).map(|(_, depth, m)| (depth, m))
    }

    /// What the tables, the legends and the terminal call `algorithm`'s
    /// series: a program by its command (see [`names::of_command`]), a
    /// search run here by its algorithm.
    #[must_use]
    pub fn name(&self, algorithm: Algorithm) -> &str {
        self.program(algorithm).map_or(algorithm.name(), |program| program.name.as_str())
    }

    /// `algorithm`'s series in a sentence, named so that the sentence still
    /// says whose figures they are when pasted elsewhere: the player's
    /// program by its name in backticks, this program's own search by what
    /// it is and its revision ([`names::own_search`]).
    #[must_use]
    pub fn prose(&self, algorithm: Algorithm) -> String {
        match algorithm {
            Algorithm::Player => format!("`{}`", self.name(algorithm)),
            Algorithm::Program => names::own_search(),
            _ => algorithm.prose().to_owned(),
        }
    }

    /// [`Timings::prose`] at the start of a sentence: a program's name is
    /// not capitalized, "the engine" is.
    #[must_use]
    pub fn subject(&self, algorithm: Algorithm) -> String {
        let prose = self.prose(algorithm);
        if algorithm.is_program() {
            return prose;
        }
        let mut chars = prose.chars();
        chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
    }

    /// How `algorithm`'s program was run, when it is a program.
    fn program(&self, algorithm: Algorithm) -> Option<&ProgramRun> {
        self.runs.as_ref()?.programs.iter().find(|program| program.algorithm == algorithm)
    }

    /// The start-up of `algorithm`'s program, where it was measured.
    #[must_use]
    pub fn startup(&self, algorithm: Algorithm) -> Option<&Startup> {
        self.program(algorithm)?.startup.as_ref().ok()
    }

    /// The nodes of `algorithm` on one position by depth, shallowest first,
    /// where they are known.
    #[must_use]
    pub fn node_series(&self, position: usize, algorithm: Algorithm) -> Vec<(u32, u64)> {
        self.series(position, algorithm).filter_map(|(depth, m)| Some((depth, m.nodes?))).collect()
    }
}

/// How deep a series goes: depths 1 to `max_depth`, while a run is not
/// predicted to take more than `budget`; `startup` is what each run costs
/// besides its search (see [`predict`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct SeriesLimits {
    pub max_depth: u32,
    pub budget: Duration,
    pub startup: Duration,
}

/// The cells of `algorithm` on one position, depth 1 up: each measured by
/// `run`, until a depth is predicted to take more than the budget (it and
/// every deeper one are skipped) or a run fails (no deeper one is run).
/// `progress` advances by one for each depth, run or not.
///
/// # Errors
/// The first error of `run`, which stops everything: `run` gives a failed
/// run (the program's fault) as `Ok(Err(forfeit))`.
pub(super) fn series_cells<E>(
    index: usize,
    position: &LabelledBoard,
    algorithm: Algorithm,
    limits: SeriesLimits,
    progress: &ProgressBar,
    mut run: impl FnMut(u32) -> Result<Result<Measurement, Forfeit>, E>,
) -> Result<Vec<Cell>, E> {
    let mut cells = Vec::new();
    let mut shallower: Vec<Measurement> = Vec::new();
    let mut skipping: Option<Prediction> = None;
    let SeriesLimits { max_depth, budget, startup } = limits;
    let depths = position.depths(max_depth);
    let last = *depths.end();
    for depth in depths {
        progress.set_message(format!("{} {} depth {depth}", position.label, algorithm.name()));
        let prediction = skipping.map_or_else(|| predict(&shallower, startup), |skipped| Some(skipped.deeper()));
        let outcome = match prediction {
            Some(prediction) if prediction.seconds > budget.as_secs_f64() => {
                skipping = Some(prediction);
                CellResult::Skipped { predicted_seconds: prediction.seconds }
            }
            _ => match run(depth)? {
                Ok(measurement) => {
                    shallower.push(measurement);
                    CellResult::Measured(measurement)
                }
                Err(forfeit) => CellResult::Failed { reason: forfeit.to_string() },
            },
        };
        let failed = matches!(outcome, CellResult::Failed { .. });
        cells.push(Cell { position: index, algorithm, depth, outcome });
        progress.inc(1);
        if failed {
            progress.inc(u64::from(last - depth));
            break;
        }
    }
    Ok(cells)
}
