//! A program's start-up: the CPU time a run costs before and after its
//! search (an interpreter or a Java virtual machine starting, the board
//! read, the move written). A program run for each move pays it every time,
//! so at shallow depths its runs measure little else: about 20 ms for
//! Python, 0.3 s for a JVM, against microseconds of search. The report
//! measures it apart, by runs with nothing to search, and fits each
//! program's time as start-up + cost per node × nodes; the cost per node
//! rests on the runs whose search took at least as long as the start-up.

use std::time::Duration;

use crate::protocol::verdict::Forfeit;

/// How many runs measure a program's start-up: its median is the figure,
/// so one slow run (a cold disk cache) does not count.
pub const STARTUP_RUNS: usize = 5;

/// The built-in position the start-up is measured on, at depth 1: four
/// empty cells, so at most five nodes, and no search to speak of.
pub const STARTUP_POSITION: &str = "nearly_full.txt";

/// Why a program's start-up could not be measured: the first of its runs
/// that gave no move, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("on {STARTUP_POSITION} at depth 1: {0}")]
pub struct StartupFailed(pub Forfeit);

/// The CPU times of a program's start-up runs, shortest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Startup {
    runs: Vec<Duration>,
}

impl Startup {
    /// The start-up measured by `runs`; none without a run.
    #[must_use]
    pub fn new(mut runs: Vec<Duration>) -> Option<Startup> {
        runs.sort_unstable();
        (!runs.is_empty()).then_some(Startup { runs })
    }

    /// The start-up: the median run.
    #[must_use]
    pub fn median(&self) -> Duration {
        self.runs[self.runs.len() / 2]
    }

    /// The shortest and the longest run.
    #[must_use]
    pub fn range(&self) -> (Duration, Duration) {
        (self.runs[0], self.runs[self.runs.len() - 1])
    }

    /// How many runs measured it.
    #[must_use]
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Whether a run that took `cpu` spent at least as long searching as
    /// starting: only then is its time less start-up a figure of its search
    /// rather than of the start-up's own spread.
    #[must_use]
    pub fn mostly_search(&self, cpu: Duration) -> bool {
        cpu >= 2 * self.median()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_up_is_the_median_run_and_a_run_is_trusted_from_twice_it() {
        let ms = Duration::from_millis;
        let startup = Startup::new(vec![ms(30), ms(20), ms(21), ms(90), ms(19)]).unwrap();
        assert_eq!(startup.median(), ms(21), "one slow run does not count");
        assert_eq!(startup.range(), (ms(19), ms(90)));
        assert!(!startup.mostly_search(ms(41)) && startup.mostly_search(ms(42)));
        assert_eq!(Startup::new(Vec::new()), None);
    }
}
