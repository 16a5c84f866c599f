//! Timing one search: which algorithms the report compares, how a search is
//! timed in CPU time, and when a search is predicted to be too slow to run.
//!
//! The clock is the CPU time of the searching thread, read around the search
//! call only, so other programs on the machine and the report's own work do
//! not count. A search that takes under [`REPEAT_BELOW`] is run again and
//! again until the runs add up to [`MIN_TOTAL`], and the total divided by the
//! number of runs, so that the clock's resolution and the cost of reading it
//! never dominate.
//!
//! Every run is a cold search. The engine keeps its transposition table
//! between searches, so before each of its runs the table is cleared,
//! outside the timing. Its runs are therefore timed one by one,
//! less the measured cost of reading the clock, and as clearing can take
//! longer than a small search, there are at most [`MAX_COLD_RUNS`] of them.

use std::hint::black_box;
use std::time::Duration;

use cpu_time::ThreadTime;

use crate::board::{Board, Column};
use crate::search::{self, Engine, Limits, SearchResult};

/// A series of searches the report measures: one of maxconnect4's search
/// algorithms, run here, or a one-move program run as the referee runs one
/// (see [`super::program`]).
///
/// To add an algorithm: a variant here, a line in [`Algorithm::ALL`], its
/// names and description, and how a [`Searcher`] runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Algorithm {
    Minimax,
    AlphaBeta,
    Engine,
    /// The student's program, given with `--player`.
    Player,
    /// This program's own one-move mode, run the same way as the player's
    /// program for comparison (`--compare`).
    Program,
}

impl Algorithm {
    /// Every algorithm, in the order of the report's tables and legends:
    /// each one the next step up from the one before.
    pub const ALL: [Algorithm; 3] = [Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Engine];

    /// Whether this series is a program run as the referee runs one, not
    /// a search run here.
    #[must_use]
    pub const fn is_program(self) -> bool {
        matches!(self, Algorithm::Player | Algorithm::Program)
    }

    /// The name in the CSV file, tables and legends.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alpha-beta",
            Algorithm::Engine => "engine",
            Algorithm::Player => "player",
            Algorithm::Program => "maxconnect4",
        }
    }

    /// The name in a sentence. A program's is what it is, its command or
    /// its revision, which only a report knows: see
    /// [`super::timings::Timings::prose`].
    #[must_use]
    pub const fn prose(self) -> &'static str {
        match self {
            Algorithm::Engine => "the engine",
            _ => self.name(),
        }
    }

    /// One line for the report: what the algorithm does.
    #[must_use]
    pub fn description(self) -> String {
        match self {
            Algorithm::Minimax => "plain minimax: every line to the full depth, no pruning (the baseline)".to_owned(),
            Algorithm::AlphaBeta => "minimax with alpha-beta pruning, as the assignment asks".to_owned(),
            Algorithm::Engine => format!(
                "the full engine, as `one-move` plays: alpha-beta with score bounds, a transposition table growing \
                 to {} MiB (emptied before every search), iterative deepening and move ordering",
                Engine::DEFAULT_HASH_BYTES >> 20
            ),
            Algorithm::Player => "the program given with `--player`, run for one move at each depth".to_owned(),
            Algorithm::Program => {
                "maxconnect4's own depth-limited search (no opening book, one thread), run the same way, for \
                 comparison"
                    .to_owned()
            }
        }
    }
}

/// An algorithm ready to search, with whatever it keeps between searches.
pub enum Searcher {
    Minimax,
    AlphaBeta,
    Engine(Box<Engine>),
}

impl Searcher {
    /// The searcher of `algorithm`; none for a program, which runs elsewhere.
    #[must_use]
    pub fn new(algorithm: Algorithm) -> Option<Searcher> {
        match algorithm {
            Algorithm::Minimax => Some(Searcher::Minimax),
            Algorithm::AlphaBeta => Some(Searcher::AlphaBeta),
            Algorithm::Engine => Some(Searcher::Engine(Box::new(Engine::max_without_book(Engine::DEFAULT_HASH_BYTES)))),
            Algorithm::Player | Algorithm::Program => None,
        }
    }

    /// Whether searches leave something behind that speeds up the next one.
    fn keeps_state(&self) -> bool {
        matches!(self, Searcher::Engine(_))
    }

    /// Forgets what earlier searches left behind, so the next search is cold.
    fn forget(&mut self) {
        if let Searcher::Engine(engine) = self {
            engine.clear();
        }
    }

    /// Searches `board`, which must not be full.
    fn search(&mut self, board: &Board, depth: u32) -> SearchResult {
        let result = match self {
            Searcher::Minimax => search::minimax(board, depth),
            Searcher::AlphaBeta => search::alpha_beta(board, depth),
            Searcher::Engine(engine) => engine.search(board, &Limits::depth(depth)),
        };
        result.expect("the report only searches boards that are not full")
    }
}

/// A search shorter than this is repeated.
pub const REPEAT_BELOW: Duration = Duration::from_millis(5);

/// Repeated searches run until they add up to at least this much CPU time.
pub const MIN_TOTAL: Duration = Duration::from_millis(20);

/// The most runs of one search, for a clock too coarse to see any of them.
const MAX_RUNS: u32 = 1 << 20;

/// The most runs of a search that must be made cold before each run.
pub const MAX_COLD_RUNS: u32 = 20;

/// What one timed search found and cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measurement {
    /// The move chosen; every run chooses the same.
    pub column: Column,
    /// The value found, for the player to move; a program run does not say.
    pub value: Option<i32>,
    /// The nodes explored; a program that prints no count does not say.
    pub nodes: Option<u64>,
    /// CPU time of one search: the total over all runs divided by `runs`.
    pub cpu: Duration,
    /// How many times the search was run.
    pub runs: u32,
}

impl Measurement {
    /// What a search run here found, at `cpu` a run over `runs` runs.
    #[must_use]
    pub const fn of_search(result: &SearchResult, cpu: Duration, runs: u32) -> Measurement {
        Measurement { column: result.column, value: Some(result.value), nodes: Some(result.nodes), cpu, runs }
    }

    /// Nodes explored per second of CPU time, when the nodes are known.
    #[must_use]
    pub fn nodes_per_second(&self) -> Option<f64> {
        Some(self.nodes? as f64 / self.cpu.as_secs_f64().max(f64::MIN_POSITIVE))
    }
}

/// Searches `board` (not full) `depth` plies deep with `searcher`, cold, and
/// times it in CPU time of this thread, repeating a short search (see the
/// module documentation). `clock_overhead` is what reading the clock adds to
/// a timing (see [`clock_overhead`]).
#[must_use]
pub fn measure(searcher: &mut Searcher, board: &Board, depth: u32, clock_overhead: Duration) -> Measurement {
    searcher.forget();
    let (result, mut total) = timed_runs(searcher, board, depth, 1);
    let mut runs = 1;
    if total >= REPEAT_BELOW {
        return Measurement::of_search(&result, total, runs);
    }
    if searcher.keeps_state() {
        while total < MIN_TOTAL && runs < MAX_COLD_RUNS {
            searcher.forget();
            total += timed_runs(searcher, board, depth, 1).1;
            runs += 1;
        }
        let cpu = total.saturating_sub(clock_overhead * runs) / runs;
        return Measurement::of_search(&result, cpu, runs);
    }
    while total < MIN_TOTAL && runs < MAX_RUNS {
        runs = runs_for_total(total, runs).min(MAX_RUNS);
        total = timed_runs(searcher, board, depth, runs).1;
    }
    Measurement::of_search(&result, total / runs, runs)
}

/// What reading the clock adds to a timing: the median of many timings of
/// nothing.
#[must_use]
pub fn clock_overhead() -> Duration {
    let mut timings: Vec<Duration> = (0..1001).map(|_| ThreadTime::now().elapsed()).collect();
    timings.sort_unstable();
    timings[timings.len() / 2]
}

/// How many runs should take [`MIN_TOTAL`], given that `runs` took `total`:
/// with a margin, and at least twice as many, so the loop ends even when the
/// clock saw nothing.
fn runs_for_total(total: Duration, runs: u32) -> u32 {
    let per_run = total.as_secs_f64() / f64::from(runs);
    let wanted = (MIN_TOTAL.as_secs_f64() * 1.2 / per_run.max(1e-9)).ceil();
    (wanted.min(f64::from(u32::MAX)) as u32).max(runs.saturating_mul(2))
}

/// Runs the same search `runs` times; returns its result and the CPU time of
/// all the runs together.
fn timed_runs(searcher: &mut Searcher, board: &Board, depth: u32, runs: u32) -> (SearchResult, Duration) {
    let start = ThreadTime::now();
    let mut result = searcher.search(black_box(board), black_box(depth));
    for _ in 1..runs {
        result = black_box(searcher.search(black_box(board), black_box(depth)));
    }
    (result, start.elapsed())
}

/// The CPU time a search should take, predicted from shallower searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// Predicted CPU seconds.
    pub seconds: f64,
    /// How many times longer each further ply searches.
    growth: f64,
    /// The CPU seconds of a run that do not grow with depth: a program's
    /// start-up.
    fixed: f64,
}

impl Prediction {
    /// The prediction for a search one ply deeper.
    #[must_use]
    pub fn deeper(self) -> Prediction {
        let seconds = self.fixed + (self.seconds - self.fixed) * self.growth;
        Prediction { seconds, ..self }
    }
}

/// Predicts the CPU time of a search one ply deeper than the last of
/// `shallower`, the measurements of one algorithm on one position at
/// consecutive depths, shallowest first: the last search's time grows by the
/// larger of the last two growth factors in nodes (under alpha-beta the factor
/// alternates with the parity of the depth, so one factor alone can be too
/// low), or in CPU time where the nodes are not known (a program that prints
/// no count). Where the nodes are known only the search grows: `startup`,
/// what a program's run costs besides (zero for a search run here), is
/// added once, or a program that takes 0.3 s to start would be predicted
/// 2 s at depth 3. `None` until two depths are known.
#[must_use]
pub fn predict(shallower: &[Measurement], startup: Duration) -> Option<Prediction> {
    // Without counts the growth is read from the times, and the time less
    // start-up of a shallow run is noise: the whole time grows instead.
    let counted = shallower.iter().all(|m| m.nodes.is_some());
    let fixed = if counted { startup.as_secs_f64() } else { 0.0 };
    let search = |m: &Measurement| (m.cpu.as_secs_f64() - fixed).max(f64::MIN_POSITIVE);
    let growth = |pair: &[Measurement]| match (pair[0].nodes, pair[1].nodes) {
        (Some(before), Some(after)) => after as f64 / before as f64,
        _ => search(&pair[1]) / search(&pair[0]),
    };
    let last = shallower.last()?;
    let growth = shallower.windows(2).rev().take(2).map(growth).reduce(f64::max)?.max(1.0);
    let seconds = last.cpu.as_secs_f64().max(fixed) + search(last) * (growth - 1.0);
    Some(Prediction { seconds, growth, fixed })
}

/// A measurement of `nodes` nodes in `seconds`, for tests of what is computed
/// from measurements.
#[cfg(test)]
pub(crate) fn example(nodes: u64, seconds: f64) -> Measurement {
    let column = Column::CENTRE_FIRST[0];
    Measurement { column, value: Some(0), nodes: Some(nodes), cpu: Duration::from_secs_f64(seconds), runs: 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measurement(nodes: u64, millis: u64) -> Measurement {
        example(nodes, millis as f64 / 1e3)
    }

    #[test]
    fn a_short_search_is_repeated_until_the_runs_add_up() {
        let measurement =
            measure(&mut Searcher::new(Algorithm::AlphaBeta).unwrap(), &Board::empty(), 1, Duration::ZERO);
        assert_eq!(measurement.nodes, Some(8));
        assert!(measurement.runs > 1, "{measurement:?}");
        // The time per run is the total divided by the runs, rounded down to
        // a nanosecond: multiplied back, it may fall short by a nanosecond a run.
        let rounding = Duration::from_nanos(u64::from(measurement.runs));
        assert!(measurement.cpu * measurement.runs + rounding >= MIN_TOTAL, "{measurement:?}");
    }

    #[test]
    fn every_run_of_the_engine_is_cold() {
        let board = Board::empty();
        let mut searcher = Searcher::new(Algorithm::Engine).unwrap();
        let cold = measure(&mut searcher, &board, 6, Duration::ZERO);
        assert!(cold.runs > 1 && cold.runs <= MAX_COLD_RUNS, "{cold:?}");
        let warm = searcher.search(&board, 6);
        assert!(Some(warm.nodes) < cold.nodes, "a warm search is cheaper, so the measured one was cold");
        let again = measure(&mut searcher, &board, 6, Duration::ZERO);
        assert_eq!((again.column, again.value, again.nodes), (cold.column, cold.value, cold.nodes));
    }

    #[test]
    fn reading_the_clock_costs_something_but_little() {
        let overhead = clock_overhead();
        assert!(overhead < Duration::from_millis(1), "{overhead:?}");
    }

    #[test]
    fn runs_at_least_double_even_when_the_clock_saw_nothing() {
        assert!(runs_for_total(Duration::ZERO, 8) >= 16);
        assert_eq!(runs_for_total(Duration::from_millis(1), 1), 24);
        assert_eq!(runs_for_total(Duration::from_millis(19), 1), 2);
    }

    fn predict_now(shallower: &[Measurement]) -> Option<Prediction> {
        predict(shallower, Duration::ZERO)
    }

    #[test]
    fn only_the_search_grows_not_the_start_up() {
        let seconds = |prediction: Option<Prediction>| (prediction.unwrap().seconds * 1e3).round();
        // 300 ms of start-up, then 1 ms and 8 ms of search: the next ply 64 ms.
        let startup = Duration::from_millis(300);
        let runs = [measurement(8, 301), measurement(64, 308)];
        assert_eq!(seconds(predict(&runs, startup)), 364.0);
        assert_eq!(seconds(predict(&runs, startup).map(Prediction::deeper)), 812.0);
    }

    #[test]
    fn prediction_needs_two_depths_and_takes_the_larger_growth() {
        assert_eq!(predict_now(&[]), None);
        assert_eq!(predict_now(&[measurement(8, 1)]), None);
        let seconds = |prediction: Option<Prediction>| (prediction.unwrap().seconds * 1e3).round();
        assert_eq!(seconds(predict_now(&[measurement(8, 1), measurement(64, 8)])), 64.0);
        // Growth 10 then 2: the prediction uses 10, and goes on growing by 10.
        let alternating = [measurement(10, 1), measurement(100, 10), measurement(200, 20)];
        assert_eq!(seconds(predict_now(&alternating)), 200.0);
        assert_eq!(seconds(predict_now(&alternating).map(Prediction::deeper)), 2000.0);
    }

    #[test]
    fn without_node_counts_the_prediction_follows_the_time() {
        let uncounted = |millis: u64| Measurement { nodes: None, ..measurement(1, millis) };
        let seconds = |prediction: Option<Prediction>| (prediction.unwrap().seconds * 1e3).round();
        // Growth 3 then 5: the prediction uses 5.
        assert_eq!(seconds(predict_now(&[uncounted(2), uncounted(6), uncounted(30)])), 150.0);
        // A program's start-up can make a deeper run no slower: never less than the last.
        assert_eq!(seconds(predict_now(&[uncounted(20), uncounted(19)])), 19.0);
    }

    #[test]
    fn every_algorithm_has_a_distinct_name() {
        let every = [Algorithm::ALL.as_slice(), &[Algorithm::Player, Algorithm::Program]].concat();
        let mut names: Vec<&str> = every.iter().map(|algorithm| algorithm.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), every.len());
    }
}
