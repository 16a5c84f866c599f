//! Figures computed from the measurements: the cost of a node, how fast the
//! tree grows with depth, and how many nodes one algorithm saves over another.
//! The charts and the written findings both use these, so they always agree.

use super::measure::{Algorithm, Measurement};
use super::timings::Timings;

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
    /// The fitted CPU seconds per node: CPU time = cost × nodes, fitted in
    /// log space (a geometric mean) over searches of at least
    /// [`MIN_NODES_FOR_COST`] nodes, or all of them if none is that large.
    pub seconds_per_node: Option<f64>,
    /// The slope of log CPU time against log nodes: 1 when time is
    /// proportional to nodes. Needs two searches of different sizes.
    pub cost_exponent: Option<f64>,
    /// The effective branching factor: how many times more nodes each extra
    /// ply costs, fitted over all positions (see [`branching_factor`]).
    pub branching_factor: Option<f64>,
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
            AlgorithmSummary {
                algorithm,
                measured: measurements.len(),
                skipped: timings.cells.iter().filter(|cell| cell.algorithm == algorithm).count() - measurements.len(),
                seconds_per_node: seconds_per_node(&measurements),
                cost_exponent: cost_exponent(&measurements),
                branching_factor: branching_factor(&series),
            }
        })
        .collect()
}

/// See [`AlgorithmSummary::seconds_per_node`]. Searches of unknown nodes
/// are left out.
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
    fn branching_factor_is_the_growth_per_ply_shared_by_positions_of_different_sizes() {
        let small: Vec<(u32, u64)> = (1..=5).map(|depth| (depth, 3u64.pow(depth))).collect();
        let large: Vec<(u32, u64)> = (1..=3).map(|depth| (depth, 100 * 3u64.pow(depth))).collect();
        assert!(close(branching_factor(&[small.clone(), large]), 3.0));
        assert!(close(branching_factor(&[small, vec![(1, 7)]]), 3.0), "a single depth adds nothing");
        assert_eq!(branching_factor(&[vec![(1, 7)]]), None);
    }
}
