//! Every search of a report: the positions, and for each position,
//! algorithm and depth, its measurement or why it was skipped. What
//! [`super::analysis`] fits and the CSV, the charts and the Markdown render.

use std::time::Duration;

use indicatif::ProgressBar;

use super::measure::{self, measure, predict, Algorithm, Measurement, Prediction, Searcher};
use crate::board::Board;

/// A position the report searches from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// How tables and charts name it: the file name, or the path when two
    /// files share a name.
    pub label: String,
    pub board: Board,
}

impl Position {
    /// The depths searched from this position: 1 to `max_depth`, but no
    /// deeper than the empty cells, as a deeper search is the same search.
    pub fn depths(&self, max_depth: u32) -> std::ops::RangeInclusive<u32> {
        1..=max_depth.min(self.board.empty_cells())
    }
}

/// One position, algorithm and depth: one row of the CSV file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// Index into [`Timings::positions`].
    pub position: usize,
    pub algorithm: Algorithm,
    pub depth: u32,
    pub outcome: Outcome,
}

/// Whether a cell was searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    Measured(Measurement),
    /// Not searched: its predicted CPU seconds exceeded the budget.
    Skipped {
        predicted_seconds: f64,
    },
}

/// Every cell of a report, with what it was measured from.
#[derive(Clone, Debug, PartialEq)]
pub struct Timings {
    pub positions: Vec<Position>,
    /// By position, then algorithm in [`Algorithm::ALL`] order, then depth.
    pub cells: Vec<Cell>,
    pub max_depth: u32,
    pub budget: Duration,
    /// What reading the clock adds to a timing, as measured before the searches.
    pub clock_overhead: Duration,
}

impl Timings {
    /// Searches every cell: each position, algorithm and depth, skipping a
    /// cell whose predicted time exceeds `budget`, and every deeper one after
    /// it. `progress` advances by one for each cell.
    #[must_use]
    pub fn measure(positions: Vec<Position>, max_depth: u32, budget: Duration, progress: &ProgressBar) -> Timings {
        let clock_overhead = measure::clock_overhead();
        let mut searchers = Algorithm::ALL.map(|algorithm| (algorithm, Searcher::new(algorithm)));
        let mut cells = Vec::new();
        for (index, position) in positions.iter().enumerate() {
            for (algorithm, searcher) in &mut searchers {
                let mut shallower: Vec<Measurement> = Vec::new();
                let mut skipping: Option<Prediction> = None;
                for depth in position.depths(max_depth) {
                    progress.set_message(format!("{} {} depth {depth}", position.label, algorithm.name()));
                    let prediction = skipping.map_or_else(|| predict(&shallower), |skipped| Some(skipped.deeper()));
                    let outcome = match prediction {
                        Some(prediction) if prediction.seconds > budget.as_secs_f64() => {
                            skipping = Some(prediction);
                            Outcome::Skipped { predicted_seconds: prediction.seconds }
                        }
                        _ => {
                            let measurement = measure(searcher, &position.board, depth, clock_overhead);
                            shallower.push(measurement);
                            Outcome::Measured(measurement)
                        }
                    };
                    cells.push(Cell { position: index, algorithm: *algorithm, depth, outcome });
                    progress.inc(1);
                }
            }
        }
        Timings { positions, cells, max_depth, budget, clock_overhead }
    }

    /// Every measured cell of `algorithm`: position index, depth, measurement.
    pub fn measurements(&self, algorithm: Algorithm) -> impl Iterator<Item = (usize, u32, Measurement)> + '_ {
        self.cells.iter().filter(move |cell| cell.algorithm == algorithm).filter_map(|cell| match cell.outcome {
            Outcome::Measured(measurement) => Some((cell.position, cell.depth, measurement)),
            Outcome::Skipped { .. } => None,
        })
    }

    /// The measured depths of `algorithm` on one position, shallowest first.
    pub fn series(&self, position: usize, algorithm: Algorithm) -> impl Iterator<Item = (u32, Measurement)> + '_ {
        self.measurements(algorithm).filter(move |&(p, _, _)| p == position).map(|(_, depth, m)| (depth, m))
    }

    /// The nodes of `algorithm` on one position by depth, shallowest first.
    #[must_use]
    pub fn node_series(&self, position: usize, algorithm: Algorithm) -> Vec<(u32, u64)> {
        self.series(position, algorithm).map(|(depth, m)| (depth, m.result.nodes)).collect()
    }
}
