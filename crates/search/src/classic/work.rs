//! What both classic searches keep while they run: the table, the nodes
//! visited, the clock or the budget of nodes they stop by, and the figures
//! another thread reads. Threads solving together each have a `Work` of
//! their own around one shared table ([`Work::helper`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::progress::Progress;
use crate::table::{Pause, Table, TableTooLarge};

/// The clock is read, and the table grown, once every this many nodes.
const CHECK_INTERVAL: u64 = 4096;

/// A search's table, node count and deadline.
pub(super) struct Work {
    /// Shared with the helper threads of a search while they run; grown
    /// only while no other thread holds it.
    pub table: Arc<Table>,
    pub nodes: u64,
    /// Nodes visited by helper threads for this search.
    pub helper_nodes: u64,
    next_check: u64,
    pub deadline: Option<Instant>,
    /// The most nodes the search may visit: a limit that, unlike the
    /// deadline, stops it at the same node on any machine.
    node_limit: Option<u64>,
    /// Set once the deadline has passed or the nodes are spent; results found after are meaningless.
    pub stopped: bool,
    /// Set from outside to stop as the deadline would.
    pub cancelled: Option<Arc<AtomicBool>>,
    /// Set by another thread that finished the search this one helps with.
    pub finished: Option<Arc<AtomicBool>>,
    /// Where the nodes are counted for a display (see [`Progress`]).
    pub progress: Arc<Progress>,
    /// The nodes already added to `progress`.
    reported: u64,
    /// The table grows to one slot per this many nodes visited.
    nodes_per_slot: usize,
    /// The threads sharing the table now, which pause together while it grows.
    pause: Option<Arc<Pause>>,
    /// The nodes already added to `pause`'s count.
    paused_nodes: u64,
}

impl Work {
    pub fn new(hash_bytes: usize, nodes_per_slot: usize) -> Result<Work, TableTooLarge> {
        Ok(Work {
            table: Arc::new(Table::with_bytes(hash_bytes)?),
            nodes: 0,
            helper_nodes: 0,
            next_check: CHECK_INTERVAL,
            deadline: None,
            node_limit: None,
            stopped: false,
            cancelled: None,
            finished: None,
            progress: Arc::default(),
            reported: 0,
            nodes_per_slot,
            pause: None,
            paused_nodes: 0,
        })
    }

    /// Counts nodes from zero, until `deadline`; a new search for `progress`.
    pub fn start(&mut self, deadline: Option<Instant>) {
        self.progress.start();
        self.nodes = 0;
        self.helper_nodes = 0;
        self.next_check = CHECK_INTERVAL;
        self.deadline = deadline;
        self.node_limit = None;
        self.stopped = false;
        self.reported = 0;
    }

    /// A `Work` for a thread helping with this one's search: the same
    /// table, grown with `pause`, deadline, cancelling and display, its own
    /// count of nodes, and stopping once `finished` is set.
    pub fn helper(&self, finished: &Arc<AtomicBool>, pause: &Arc<Pause>) -> Work {
        Work {
            table: Arc::clone(&self.table),
            nodes: 0,
            helper_nodes: 0,
            next_check: CHECK_INTERVAL,
            deadline: self.deadline,
            node_limit: None,
            stopped: false,
            cancelled: self.cancelled.clone(),
            finished: Some(Arc::clone(finished)),
            progress: Arc::clone(&self.progress),
            reported: 0,
            nodes_per_slot: self.nodes_per_slot,
            pause: Some(Arc::clone(pause)),
            paused_nodes: 0,
        }
    }

    /// Shares the table with `threads - 1` helpers ([`helper`](Work::helper))
    /// for one search, until each [`leave_pause`](Work::leave_pause)s: they
    /// grow it together, every thread pausing meanwhile.
    pub fn share_table(&mut self, threads: usize) -> Arc<Pause> {
        let pause = Arc::new(Pause::new(threads, self.all_nodes(), self.nodes_per_slot));
        self.pause = Some(Arc::clone(&pause));
        self.paused_nodes = self.nodes;
        pause
    }

    /// Leaves the threads sharing the table, at the end of a search.
    pub fn leave_pause(&mut self) {
        if let Some(pause) = self.pause.take() {
            pause.leave(&self.table);
        }
    }

    /// Lifts the limit of [`limit_nodes`](Work::limit_nodes).
    pub fn unlimit_nodes(&mut self) {
        self.node_limit = None;
    }

    /// Whether the search stops at a number of nodes (and so must run on
    /// one thread to stop at the same node every time).
    pub const fn limited_by_nodes(&self) -> bool {
        self.node_limit.is_some()
    }

    /// Nodes visited by this search, its helpers' included.
    pub const fn all_nodes(&self) -> u64 {
        self.nodes + self.helper_nodes
    }

    /// The table, which no helper thread holds between searches.
    pub fn table_mut(&mut self) -> &mut Table {
        Arc::get_mut(&mut self.table).expect("helper threads end with their search")
    }

    /// Whether the deadline has passed or the search was cancelled.
    pub fn out_of_time(&self) -> bool {
        let cancelled = self.cancelled.as_ref().is_some_and(|cancelled| cancelled.load(Ordering::Relaxed));
        self.deadline.is_some_and(|deadline| Instant::now() >= deadline || cancelled)
    }

    /// Stops the search begun by [`start`](Work::start) once it has
    /// visited `nodes` nodes.
    pub fn limit_nodes(&mut self, nodes: u64) {
        self.node_limit = Some(nodes);
        self.next_check = self.next_check.min(nodes);
    }

    /// Counts a node; now and then grows the table with the search and reads
    /// the clock. Returns whether the search must stop.
    #[inline(always)]
    pub fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check();
        }
        self.stopped
    }

    /// What [`visit`](Work::visit) does now and then, apart so that the
    /// node-by-node part stays small enough to inline.
    #[cold]
    #[inline(never)]
    fn check(&mut self) {
        // The node limit is checked exactly, the clock now and then.
        let limit = self.node_limit.filter(|&limit| limit > self.nodes).unwrap_or(u64::MAX);
        self.next_check = (self.nodes + CHECK_INTERVAL).min(limit);
        self.progress.add_nodes(self.nodes - self.reported);
        self.reported = self.nodes;
        if let Some(table) = Arc::get_mut(&mut self.table) {
            table.grow_to(usize::try_from(self.nodes).unwrap_or(usize::MAX) / self.nodes_per_slot);
        } else if let Some(pause) = &self.pause {
            pause.check(&self.table, self.nodes - self.paused_nodes);
            self.paused_nodes = self.nodes;
        }
        self.stopped |= self.out_of_time();
        self.stopped |= self.finished.as_ref().is_some_and(|finished| finished.load(Ordering::Relaxed));
        self.stopped |= self.node_limit.is_some_and(|limit| self.nodes >= limit);
    }
}
