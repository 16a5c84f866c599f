//! How far a search in progress has got, under either rules: the figures
//! the searching threads keep up to date for another thread (the progress
//! line of the modes) to read. The engines themselves print nothing.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use maxconnect4_game::board::Column;

/// How far a search in progress has got, kept up to date by the searching
/// threads for another thread to read.
#[derive(Debug, Default)]
pub struct Progress {
    /// Positions visited so far by all threads; counted in batches, so a
    /// little behind.
    nodes: AtomicU64,
    /// The deepest iteration finished, 0 before the first (and while solving).
    depth: AtomicU32,
    /// The best move of that iteration (or, when solving, the best so far),
    /// its index plus one; 0 for none yet.
    best: AtomicU32,
}

impl Progress {
    /// Positions visited so far in the current search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// The deepest iteration finished in the current search (0 before the first).
    #[must_use]
    pub fn depth(&self) -> u32 {
        self.depth.load(Relaxed)
    }

    /// The best move found so far in the current search.
    #[must_use]
    pub fn best(&self) -> Option<Column> {
        (self.best.load(Relaxed) as usize).checked_sub(1).and_then(Column::from_index)
    }

    /// A new search starts: nothing found yet.
    pub(super) fn start(&self) {
        self.nodes.store(0, Relaxed);
        self.depth.store(0, Relaxed);
        self.best.store(0, Relaxed);
    }

    /// The search finished an iteration to `depth` (0 while solving) whose
    /// best move is `best`.
    pub(super) fn finished(&self, depth: u32, best: Column) {
        self.depth.store(depth, Relaxed);
        self.best.store(best.index() as u32 + 1, Relaxed);
    }

    /// A thread visited `nodes` more positions.
    pub(super) fn add_nodes(&self, nodes: u64) {
        self.nodes.fetch_add(nodes, Relaxed);
    }
}
