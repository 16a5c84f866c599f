//! Figures computed from the measurements: the cost of a node, how fast the
//! tree grows with depth, and how many nodes one algorithm saves over another.
//! The charts and the written findings both use these, so they always agree.

use super::measure::{Algorithm, Measurement};
use super::timings::{CellResult, Timings};

/// Searches of fewer nodes than this are left out of the cost per node: their
/// time is mostly the fixed cost of starting a search.
pub const MIN_NODES_FOR_COST: u64 = 1_000;

/// What the measurements say about one algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlgorithmSummary {
    pub algorithm: Algorithm,
    /// Cells searched.
    pub measured: usize,
    /// Cells skipped because their predicted time exceeded the budget.
    pub skipped: usize,
    /// The fitted CPU seconds per node. For a search run here: CPU time =
    /// cost × nodes, fitted in log space (a geometric mean) over searches
    /// of at least [`MIN_NODES_FOR_COST`] nodes, or all of them if none is
    /// that large. For a program, whose every run pays its start-up: CPU
    /// time = start-up + cost × nodes (see [`cost_after_startup`]).
    pub seconds_per_node: Option<f64>,
    /// The slope of log CPU time (less the start-up, for a program) against
    /// log nodes: 1 when time is proportional to nodes. Needs two searches
    /// of different sizes.
    pub cost_exponent: Option<f64>,
    /// The effective branching factor: how many times more nodes each extra
    /// ply costs, fitted over all positions (see [`branching_factor`]).
    pub branching_factor: Option<f64>,
    /// A program's start-up, in CPU seconds, where it was measured.
    pub startup: Option<f64>,
    /// The runs the cost per node rests on, and whether each of them
    /// searched at least as long as the program took to start: if not, the
    /// figure is mostly the start-up's own spread, not to be trusted.
    pub cost_runs: usize,
    pub cost_trusted: bool,
    /// Where the node counts did not grow with depth (see
    /// [`count_does_not_grow`]): the figures from nodes are left out.
    pub flat_count: bool,
}

/// The summary of every series, in [`Timings::series`] order.
#[must_use]
pub fn summarize(timings: &Timings) -> Vec<AlgorithmSummary> {
    timings
        .series
        .iter()
        .map(|&algorithm| {
            let measurements: Vec<Measurement> = timings.measurements(algorithm).map(|(_, _, m)| m).collect();
            let series: Vec<Vec<(u32, u64)>> =
                (0..timings.positions.len()).map(|position| timings.node_series(position, algorithm)).collect();
            let startup = timings.startup(algorithm).map(|startup| startup.median().as_secs_f64());
            let flat_count = count_does_not_grow(timings, algorithm).is_some();
            let fit = match startup {
                _ if flat_count => CostFit::default(),
                Some(startup) => cost_after_startup(&measurements, startup),
                None => CostFit {
                    seconds_per_node: seconds_per_node(&measurements),
                    exponent: cost_exponent(&measurements),
                    runs: measurements.iter().filter(|m| m.nodes.is_some()).count(),
                    trusted: true,
                },
            };
            AlgorithmSummary {
                algorithm,
                measured: measurements.len(),
                skipped: timings
                    .cells
                    .iter()
                    .filter(|cell| cell.algorithm == algorithm && matches!(cell.outcome, CellResult::Skipped { .. }))
                    .count(),
                seconds_per_node: fit.seconds_per_node,
                cost_exponent: fit.exponent,
                branching_factor: if flat_count { None } else { branching_factor(&series) },
                startup,
                cost_runs: fit.runs,
                cost_trusted: fit.trusted,
                flat_count,
            }
        })
        .collect()
}

/// A cost per node fitted to a program's runs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CostFit {
    pub seconds_per_node: Option<f64>,
    pub exponent: Option<f64>,
    /// The runs it rests on.
    pub runs: usize,
    /// Whether each of them searched at least as long as the start-up.
    pub trusted: bool,
}

/// How many times as many nodes the most searching run of a cost's fit
/// must have as the least for its exponent to be given.
pub const EXPONENT_MIN_SPAN: f64 = 10.0;

/// The cost per node of a program that takes `startup` CPU seconds to
/// start: CPU time = start-up + cost × nodes, the cost fitted by least
/// squares of the relative error (so that a run of 10 ms counts as much as
/// one of 10 s), over the runs whose time is at least twice the start-up;
/// where there are none, over every run longer than the start-up, and not
/// to be trusted. The exponent is the slope of log(time − start-up)
/// against log nodes over the same runs, where their nodes span at least
/// [`EXPONENT_MIN_SPAN`] (over a narrower span the slope is the timing's
/// noise: three runs of 2,774 to 2,801 nodes gave -1.66).
#[must_use]
pub fn cost_after_startup(measurements: &[Measurement], startup: f64) -> CostFit {
    let counted: Vec<(f64, f64)> =
        measurements.iter().filter_map(|m| Some((m.nodes? as f64, m.cpu.as_secs_f64()))).collect();
    let long: Vec<(f64, f64)> = counted.iter().copied().filter(|&(_, time)| time >= 2.0 * startup).collect();
    let trusted = !long.is_empty();
    let used = if trusted { long } else { counted.into_iter().filter(|&(_, time)| time > startup).collect() };
    // Minimises Σ ((time − startup − cost × nodes) / time)², in closed form.
    let (mut numerator, mut denominator) = (0.0, 0.0);
    for &(nodes, time) in &used {
        numerator += nodes * (time - startup) / (time * time);
        denominator += nodes * nodes / (time * time);
    }
    let points: Vec<(f64, f64)> = used.iter().map(|&(nodes, time)| (nodes.ln(), (time - startup).ln())).collect();
    let (fewest, most) =
        used.iter().fold((f64::INFINITY, 0.0_f64), |(low, high), &(nodes, _)| (low.min(nodes), high.max(nodes)));
    CostFit {
        seconds_per_node: (denominator > 0.0).then(|| numerator / denominator),
        exponent: if most >= EXPONENT_MIN_SPAN * fewest { slope(&[points]) } else { None },
        runs: used.len(),
        trusted,
    }
}

/// Where `algorithm`'s node counts do not grow with depth: on every
/// position where it gave counts at two depths or more, the count at its
/// deepest is no larger than at its shallowest. A search's tree grows with
/// every ply until the board is full (and no position is searched deeper
/// than its empty cells), so such a count is not of nodes: the pattern
/// matched something else, such as a move's number. The first such
/// position's label and its counts by depth; none where a count grows or
/// no position has counts at two depths.
#[must_use]
pub fn count_does_not_grow(timings: &Timings, algorithm: Algorithm) -> Option<(String, Vec<(u32, u64)>)> {
    let counted: Vec<(usize, Vec<(u32, u64)>)> = (0..timings.positions.len())
        .map(|position| (position, timings.node_series(position, algorithm)))
        .filter(|(_, series)| series.len() >= 2)
        .collect();
    let grows = |series: &[(u32, u64)]| series.last().map(|last| last.1) > series.first().map(|first| first.1);
    if counted.is_empty() || counted.iter().any(|(_, series)| grows(series)) {
        return None;
    }
    let (position, series) = counted.into_iter().next()?;
    Some((timings.positions[position].label.clone(), series))
}

/// See [`AlgorithmSummary::seconds_per_node`]: a search run here. Searches
/// of unknown nodes are left out.
#[must_use]
pub fn seconds_per_node(measurements: &[Measurement]) -> Option<f64> {
    let counted: Vec<(u64, &Measurement)> = measurements.iter().filter_map(|m| Some((m.nodes?, m))).collect();
    let large: Vec<(u64, &Measurement)> =
        counted.iter().copied().filter(|&(nodes, _)| nodes >= MIN_NODES_FOR_COST).collect();
    let used = if large.is_empty() { counted } else { large };
    let logs: Vec<f64> = used.iter().filter_map(|&(nodes, m)| Some(log_seconds(m)? - (nodes as f64).ln())).collect();
    mean(&logs).map(f64::exp)
}

/// See [`AlgorithmSummary::cost_exponent`]. Searches of unknown nodes are
/// left out.
#[must_use]
pub fn cost_exponent(measurements: &[Measurement]) -> Option<f64> {
    let points: Vec<(f64, f64)> =
        measurements.iter().filter_map(|m| Some(((m.nodes? as f64).ln(), log_seconds(m)?))).collect();
    slope(&[points])
}

/// The effective branching factor of one algorithm: `exp` of the slope of
/// log nodes against depth, fitted by least squares within each position's
/// series of `(depth, nodes)` (each position keeps its own intercept, as
/// positions differ in size but the tree grows the same way). `None` without
/// a position measured at two depths.
#[must_use]
pub fn branching_factor(series: &[Vec<(u32, u64)>]) -> Option<f64> {
    let points: Vec<Vec<(f64, f64)>> = series
        .iter()
        .map(|series| series.iter().map(|&(depth, nodes)| (f64::from(depth), (nodes as f64).ln())).collect())
        .collect();
    slope(&points).map(f64::exp)
}

/// How many times fewer nodes `fewer` explored than `more` at one depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeRatio {
    pub depth: u32,
    /// Positions where both algorithms searched to this depth.
    pub positions: usize,
    /// Geometric mean over those positions of `more`'s nodes over `fewer`'s.
    pub mean: f64,
    pub min: f64,
    pub max: f64,
}

/// For every depth where both algorithms searched at least one position
/// and gave its nodes, how many times fewer nodes `fewer` explored than
/// `more`. Shallowest first.
#[must_use]
pub fn node_ratios(timings: &Timings, more: Algorithm, fewer: Algorithm) -> Vec<NodeRatio> {
    let mut ratios: Vec<(u32, f64)> = Vec::new();
    for position in 0..timings.positions.len() {
        for (depth, a) in timings.node_series(position, more) {
            if let Some((_, b)) = timings.node_series(position, fewer).into_iter().find(|&(d, _)| d == depth) {
                ratios.push((depth, a as f64 / b as f64));
            }
        }
    }
    let mut depths: Vec<u32> = ratios.iter().map(|&(depth, _)| depth).collect();
    depths.sort_unstable();
    depths.dedup();
    depths
        .into_iter()
        .map(|depth| {
            let at: Vec<f64> = ratios.iter().filter(|&&(d, _)| d == depth).map(|&(_, ratio)| ratio).collect();
            let logs: Vec<f64> = at.iter().map(|ratio| ratio.ln()).collect();
            NodeRatio {
                depth,
                positions: at.len(),
                mean: mean(&logs).map_or(f64::NAN, f64::exp),
                min: at.iter().copied().fold(f64::INFINITY, f64::min),
                max: at.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            }
        })
        .collect()
}

fn log_seconds(measurement: &Measurement) -> Option<f64> {
    let seconds = measurement.cpu.as_secs_f64();
    (seconds > 0.0).then(|| seconds.ln())
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The least-squares slope of `y` against `x` shared by every group of
/// points, each group with its own intercept. `None` when no group has two
/// different `x`.
fn slope(groups: &[Vec<(f64, f64)>]) -> Option<f64> {
    let (mut covariance, mut variance) = (0.0, 0.0);
    for points in groups {
        let xs: Vec<f64> = points.iter().map(|&(x, _)| x).collect();
        let ys: Vec<f64> = points.iter().map(|&(_, y)| y).collect();
        let (Some(mean_x), Some(mean_y)) = (mean(&xs), mean(&ys)) else { continue };
        for &(x, y) in points {
            covariance += (x - mean_x) * (y - mean_y);
            variance += (x - mean_x) * (x - mean_x);
        }
    }
    (variance > 0.0).then(|| covariance / variance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::measure::example as measurement;

    fn close(actual: Option<f64>, expected: f64) -> bool {
        actual.is_some_and(|actual| (actual - expected).abs() < 1e-9 * expected.abs().max(1.0))
    }

    #[test]
    fn cost_per_node_fits_proportional_time_and_ignores_tiny_searches() {
        let measurements =
            [measurement(10, 1e-3), measurement(1_000, 2e-5), measurement(10_000, 2e-4), measurement(100_000, 2e-3)];
        assert!(close(seconds_per_node(&measurements), 2e-8));
        assert!(close(cost_exponent(&measurements[1..]), 1.0));
        assert!(close(seconds_per_node(&measurements[..1]), 1e-4), "only tiny searches: all are used");
        assert_eq!(cost_exponent(&measurements[..1]), None);
    }

    #[test]
    fn a_programs_cost_per_node_is_fitted_after_its_start_up() {
        // 20 ms to start, then 1 µs a node: the fit finds the 1 µs again.
        let startup = 0.020;
        let runs: Vec<Measurement> = [10u64, 1_000, 30_000, 1_000_000]
            .iter()
            .map(|&nodes| measurement(nodes, startup + nodes as f64 * 1e-6))
            .collect();
        let fit = cost_after_startup(&runs, startup);
        assert!(close(fit.seconds_per_node, 1e-6), "{fit:?}");
        assert!(close(fit.exponent, 1.0), "{fit:?}");
        assert_eq!((fit.runs, fit.trusted), (2, true), "only the runs that searched as long as they started");
        // The plain fit of the same runs, start-up included, is far off.
        assert!(seconds_per_node(&runs).unwrap() > 1.1e-6);
        let short = cost_after_startup(&runs[..2], startup);
        assert_eq!((short.runs, short.trusted), (2, false), "no run long enough: every one longer, untrusted");
        assert_eq!(cost_after_startup(&runs[..1], 1.0).seconds_per_node, None);
        // Runs of nearly the same nodes give a cost but no exponent: its
        // slope would be the timing's noise.
        let close_runs = [measurement(2_774, 0.187), measurement(2_801, 0.188), measurement(2_774, 0.193)];
        let fit = cost_after_startup(&close_runs, 0.05);
        assert!(fit.seconds_per_node.is_some() && fit.exponent.is_none(), "{fit:?}");
    }

    #[test]
    fn branching_factor_is_the_growth_per_ply_shared_by_positions_of_different_sizes() {
        let small: Vec<(u32, u64)> = (1..=5).map(|depth| (depth, 3u64.pow(depth))).collect();
        let large: Vec<(u32, u64)> = (1..=3).map(|depth| (depth, 100 * 3u64.pow(depth))).collect();
        assert!(close(branching_factor(&[small.clone(), large]), 3.0));
        assert!(close(branching_factor(&[small, vec![(1, 7)]]), 3.0), "a single depth adds nothing");
        assert_eq!(branching_factor(&[vec![(1, 7)]]), None);
    }
}
