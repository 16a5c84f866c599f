//! A search as the modes run it and word it: timed in CPU time, announced
//! and shown while it runs on a terminal, and reported in one line.

use std::io::{self, Write};
use std::time::Duration;

use super::progress;
use crate::board::Board;
use crate::search::{Engine, Limits, SearchResult};

/// A search for the computer's move with the CPU time it took.
pub(super) struct Thought {
    pub(super) result: SearchResult,
    pub(super) cpu: Duration,
}

/// Chooses a move on `board` (which must not be full) within `limits`,
/// timing the search in CPU time of all its threads. On a terminal, a
/// search that will plainly take long is announced on stderr first, and a
/// long one shows its progress there.
pub(super) fn think(engine: &mut Engine, board: &Board, limits: &Limits) -> Thought {
    progress::warn_if_long(engine, board, limits, &mut io::stderr());
    let start = cpu_time::ProcessTime::now();
    let progress = engine.progress();
    let result = progress::while_searching(&progress, || engine.search(board, limits).expect("the board is not full"));
    Thought { result, cpu: start.elapsed() }
}

impl Thought {
    /// One line a student can copy figures from.
    pub(super) fn report(&self, out: &mut dyn Write) -> io::Result<()> {
        let SearchResult { nodes, depth, .. } = self.result;
        writeln!(out, "Searched {nodes} nodes to depth {depth} in {}.", cpu_and_rate(nodes, self.cpu))
    }
}

/// `1 thread`, `2 threads`.
pub(super) fn threads_phrase(threads: usize) -> String {
    format!("{threads} thread{}", if threads == 1 { "" } else { "s" })
}

/// `X s of CPU time (Y M nodes/s)`.
pub(super) fn cpu_and_rate(nodes: u64, cpu: Duration) -> String {
    let seconds = cpu.as_secs_f64();
    let rate = if seconds > 0.0 {
        format!("{:.1} M nodes/s", nodes as f64 / seconds / 1e6)
    } else {
        "too fast to time".to_owned()
    };
    format!("{seconds:.6} s of CPU time ({rate})")
}
