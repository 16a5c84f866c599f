//! Where the report's figures are not to be trusted, in one set of words
//! for every place the figures are shown: REPORT.md, the charts and the
//! terminal. A chart is pasted into a write-up without the text around it,
//! so it must carry the flag itself.

use super::findings::AlgorithmSummary;
use super::machine::Machine;
use super::measure::Algorithm;
use super::timings::Timings;

/// The flag, wherever a figure has it.
pub const NOT_TRUSTED: &str = "not to be trusted";

/// Why the timings of a report are not to be trusted as a whole: this
/// program was built for debugging, unoptimized, and some series was timed
/// by it (its own searches, or its search beside a player's; a player's own
/// runs do not depend on how this program was built). None for a release
/// build.
#[must_use]
pub fn build(machine: &Machine, timings: &Timings) -> Option<String> {
    let timed_here = timings.series.iter().any(|&algorithm| algorithm != Algorithm::Player);
    (!machine.optimized && timed_here).then(|| format!("debug build: {NOT_TRUSTED}"))
}

/// Why one series' figures from nodes are not to be trusted, as its legend
/// says it: a count that does not grow with depth is no count of nodes
/// (see [`super::findings::count_does_not_grow`]), and a cost per node
/// fitted where no run searched as long as it took to start is mostly the
/// start-up's own spread (see [`super::findings::cost_after_startup`]).
#[must_use]
pub fn series(summary: &AlgorithmSummary) -> Option<&'static str> {
    if summary.flat_count {
        Some("not a count of nodes")
    } else if summary.seconds_per_node.is_some() && !summary.cost_trusted {
        Some(NOT_TRUSTED)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_debug_build_flags_only_what_it_timed() {
        let timings = |series: Vec<Algorithm>| Timings {
            positions: Vec::new(),
            series,
            cells: Vec::new(),
            max_depth: 1,
            budget: std::time::Duration::from_secs(1),
            clock_overhead: std::time::Duration::ZERO,
            runs: None,
        };
        let mut machine = Machine::probe();
        machine.optimized = false;
        let flag = Some("debug build: not to be trusted".to_owned());
        assert_eq!(build(&machine, &timings(Algorithm::ALL.to_vec())), flag);
        assert_eq!(build(&machine, &timings(vec![Algorithm::Player, Algorithm::Program])), flag);
        assert_eq!(build(&machine, &timings(vec![Algorithm::Player])), None, "a player's runs are its own");
        machine.optimized = true;
        assert_eq!(build(&machine, &timings(Algorithm::ALL.to_vec())), None);
    }
}
