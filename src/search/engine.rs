//! The engine: alpha-beta with exact score bounds, a transposition table,
//! iterative deepening, move ordering, a time limit and several threads.
//!
//! It computes the same depth-limited minimax value as [`alpha_beta`], only
//! faster, and it can solve positions exactly. Three things keep the value
//! the same:
//! - the score bounds ([`bounds`]) hold for the depth-limited value too,
//!   because the evaluation never leaves them;
//! - a table entry cuts the search only when it was searched to the same
//!   remaining depth, counted as at most the number of empty cells, so an
//!   entry exact to the end of the game serves any deeper search;
//! - entries from other depths only say which move to try first.
//!
//! Threads search together by splitting positions (see [`super::split`]):
//! the calling thread runs the search, and once a position's first move is
//! searched, the others are shared with any thread that is idle. The values
//! are alpha-beta's whatever the threads (every table entry is a true bound
//! whoever stored it, and a split's moves are tested against the best value
//! found by any thread); the move is then made the same for any number of
//! threads (see [`Engine::search`]). One thread searching alone never splits,
//! so its nodes never change.
//!
//! [`alpha_beta`]: super::alpha_beta

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::classic::{Book, Classic};
use super::follow_up;
use super::split::{self, Pool, Split};
use super::table::{Bound, Entry, Table, TableTooLarge};
use super::SearchResult;
use crate::bitboard::{column_cells, completing_cells, WIDTH};
use crate::board::{Board, Column};
use crate::rules::Rules;
use crate::score::{bounds, bounds_for, evaluate, value_after};
use crate::value::{Value, INFINITY, POINT};

/// How far and how long to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Plies to search; capped at the number of empty cells.
    pub depth: u32,
    /// Stop when this much time has passed, and play the best move of the
    /// deepest finished iteration.
    pub time_limit: Option<Duration>,
}

impl Limits {
    /// A search to `depth` plies without a time limit.
    #[must_use]
    pub const fn depth(depth: u32) -> Limits {
        Limits { depth, time_limit: None }
    }
}

/// The exact result of a position: what perfect play by both sides gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The final score difference, player to move minus opponent, in points.
    pub value: i32,
    /// Every column that achieves it, left to right.
    pub best: Vec<Column>,
    /// Positions visited, by all threads.
    pub nodes: u64,
}

/// The time limit ran out before a search finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the time limit ran out after {nodes} positions")]
pub struct OutOfTime {
    pub nodes: u64,
}

/// How far a search in progress has got, kept up to date by the searching
/// threads for another thread to read (the engine itself prints nothing).
#[derive(Debug, Default)]
pub struct Progress {
    /// Positions visited so far by all threads; counted in batches, so a
    /// little behind.
    nodes: AtomicU64,
    /// The deepest iteration finished, 0 before the first.
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

    fn start(&self) {
        self.nodes.store(0, Relaxed);
        self.depth.store(0, Relaxed);
        self.best.store(0, Relaxed);
    }

    fn finished(&self, depth: u32, best: Column) {
        self.depth.store(depth, Relaxed);
        self.best.store(best.index() as u32 + 1, Relaxed);
    }
}

/// Table entries are probed and stored only this many plies or more from the
/// search horizon; nearer the leaves a lookup costs more than it saves.
const TABLE_MIN_DEPTH: u32 = 2;

/// Moves are ordered by threats only this many plies or more from the horizon.
const THREAT_MIN_DEPTH: u32 = 4;

/// Moves this many plies or more from the horizon are ordered by the
/// evaluation of the position they leave.
const EVALUATION_ORDER_MIN_DEPTH: u32 = 5;

/// Positions this close to the end of the game are solved by
/// [`Searcher::endgame`].
const ENDGAME_EMPTY: u32 = 6;

/// Where the search reaches the end of the game, enhanced transposition
/// cutoffs are tried only this many empty cells or more from it: nearer,
/// the probes of the children's slots wait for memory longer than the
/// searches they save take. On `input2.txt`, from 12 took 0.86 times as
/// long as from 8 (and 3% more nodes), from 10 0.88 times.
const ETC_MIN_EMPTY: u32 = 12;

/// Positions with fewer empty cells than this, but more than
/// [`ENDGAME_EMPTY`], are not cut on the follow-up strategy's bounds: on
/// `input2.txt` they cut under 2% of the positions with 7 to 10 empty
/// cells, and cost more than the searches they saved. From 11 took 0.93
/// times as long as from 7 (2.5% more nodes); from 9 and from 13 were
/// within the noise of 11.
const FOLLOW_UP_MIN_EMPTY: u32 = 11;

/// The table is grown to one slot per this many nodes searched so far. A
/// table larger than the search needs spreads its entries over memory the
/// cache does not hold, and probes wait for memory: 8 slots per node took 1.3
/// times as long on `bench` and 1.2 times on `solve` at 24 and 26 empty cells
/// (with 16-byte entries; with the 8-byte ones, 8 to 32 nodes per slot are
/// within the noise).
const NODES_PER_SLOT: usize = 16;

/// The clock, and whether the search was stopped or the split being searched
/// cut, are read once every this many nodes (about 50 microseconds).
const CLOCK_INTERVAL: u64 = 1024;

/// Helper threads join a search only once it has visited this many nodes:
/// starting a thread costs tens of microseconds, as much as a search of a
/// few thousand nodes.
const HELPERS_MIN_NODES: u64 = 50_000;

/// Helper threads join every search to the end of the game from this many
/// empty cells, the first included: from 24, one takes about 100,000 nodes
/// (20 empty cells about 10,000, on `bench`), and the first search of a
/// solve is often most of its work.
const HELPERS_MIN_EMPTY: u32 = 24;

/// A search engine with its transposition table, which carries over from
/// one search to the next.
pub struct Engine {
    table: Table,
    threads: usize,
    progress: Arc<Progress>,
    /// Under classic rules, the searches of [`super::classic`], which
    /// [`search`](Engine::search) and [`solve`](Engine::solve) hand over to.
    classic: Option<Box<Classic>>,
    /// Set from outside to end a search with a time limit early, with the
    /// best move of its deepest finished iteration (see [`Engine::canceller`]).
    cancelled: Arc<AtomicBool>,
}

impl Engine {
    /// A flag that, once set, ends this engine's searches that have a time
    /// limit as if the time had run out (a first iteration, which always
    /// finishes, aside): the server sets it when the client who asked has
    /// gone. It stays set.
    #[must_use]
    pub fn canceller(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancelled)
    }

    /// The default transposition table size.
    pub const DEFAULT_HASH_BYTES: usize = 64 << 20;

    /// An engine whose transposition table uses at most `hash_bytes`,
    /// searching with one thread.
    ///
    /// # Panics
    /// When the memory cannot be had; see [`Engine::try_new`] for sizes
    /// that come from users.
    #[must_use]
    pub fn new(hash_bytes: usize) -> Engine {
        Engine::try_new(hash_bytes).unwrap_or_else(|error| panic!("{error}"))
    }

    /// An engine whose transposition table uses at most `hash_bytes`,
    /// searching with one thread.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn try_new(hash_bytes: usize) -> Result<Engine, TableTooLarge> {
        Ok(Engine {
            table: Table::with_bytes(hash_bytes)?,
            threads: 1,
            progress: Arc::default(),
            classic: None,
            cancelled: Arc::default(),
        })
    }

    /// Searches with `threads` threads from now on (at least one). One
    /// thread visits the same nodes every time; more visit more in all but
    /// finish sooner, and find the same values and moves. Classic rules
    /// search on one thread whatever this says (see [`threads`](Engine::threads)).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The threads that search: as set, or one under classic rules.
    #[must_use]
    pub fn threads(&self) -> usize {
        if self.classic.is_some() {
            1
        } else {
            self.threads
        }
    }

    /// The figures of the search in progress, for a display to poll from
    /// another thread while [`search`](Engine::search) or
    /// [`solve`](Engine::solve) runs.
    #[must_use]
    pub fn progress(&self) -> Arc<Progress> {
        Arc::clone(&self.progress)
    }

    /// An engine for games played by `rules`, whose tables use at most
    /// `hash_bytes` each; [`try_new`](Engine::try_new) is the Max-Connect4
    /// one. Under classic rules it plays and solves from the shipped opening
    /// book ([`Book::shipped`]) where the book holds the position.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn for_rules(rules: Rules, hash_bytes: usize) -> Result<Engine, TableTooLarge> {
        Engine::with_book(rules, hash_bytes, (rules == Rules::Classic).then(Book::shipped))
    }

    /// As [`for_rules`](Engine::for_rules), with `book` (classic rules
    /// only; `None` for no book) in place of the shipped one.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn with_book(rules: Rules, hash_bytes: usize, book: Option<Arc<Book>>) -> Result<Engine, TableTooLarge> {
        match rules {
            Rules::Max => Engine::try_new(hash_bytes),
            Rules::Classic => {
                Ok(Engine { classic: Some(Box::new(Classic::new(hash_bytes, book)?)), ..Engine::try_new(0)? })
            }
        }
    }

    /// Maps all the table's memory in now, so that the first searches do not
    /// pay for it: for benchmarks, which measure the search alone.
    pub fn map_in_table(&mut self) {
        if let Some(classic) = &mut self.classic {
            classic.map_in_table();
        }
        self.table.map_in();
    }

    /// Forgets everything learned, so the next search runs as on a new engine.
    pub fn clear(&mut self) {
        if let Some(classic) = &mut self.classic {
            classic.clear();
        }
        self.table.clear();
    }

    /// Chooses a move by iterative deepening up to `limits.depth`. Returns
    /// `None` on a full board. With a time limit, the move is the best of the
    /// deepest iteration that finished (depth 1 always finishes).
    ///
    /// Without a time limit the move is the first, in centre-first order,
    /// of the moves of the best value: the move [`alpha_beta`] chooses,
    /// whatever the number of threads and whatever the table held.
    ///
    /// # Panics
    /// When `limits.depth` is 0.
    ///
    /// [`alpha_beta`]: super::alpha_beta
    pub fn search(&mut self, board: &Board, limits: &Limits) -> Option<SearchResult> {
        assert!(limits.depth >= 1, "search depth must be at least 1");
        if let Some(classic) = &mut self.classic {
            return classic.search(board, limits, &self.cancelled);
        }
        if board.is_full() {
            return None;
        }
        self.progress.start();
        let mut nodes = 0;
        // The time limit counts from now, but the first iteration runs
        // without the clock, so there is always a move.
        let time_is_up = deadline_after(limits.time_limit);
        let mut deadline = None;
        let mut result: Option<SearchResult> = None;
        let depth_limit = limits.depth.min(board.empty_cells());
        for depth in 1..=depth_limit {
            self.grow_table(nodes);
            let (found, searched) =
                self.parallel(deadline, nodes >= HELPERS_MIN_NODES, None, |searcher| searcher.root(board, depth));
            nodes += searched;
            let Some((column, value)) = found else { break };
            self.progress.finished(depth, column);
            result = Some(SearchResult { column, value, nodes: 0, depth });
            deadline = time_is_up;
        }
        let mut result = result.expect("the first iteration always finishes");
        if result.depth == depth_limit && limits.time_limit.is_none() {
            // The moves before the best one in centre-first order: does one
            // reach the same value? The earlier search proved each of them
            // no better, usually with a bound that settles this at once.
            for column in Column::CENTRE_FIRST.into_iter().take_while(|&column| column != result.column) {
                if !board.can_play(column) {
                    continue;
                }
                let child = board.after(column);
                let (depth, value) = (result.depth, result.value);
                let (reply, searched) = self.parallel(None, nodes >= HELPERS_MIN_NODES, None, |searcher| {
                    Some(searcher.negamax(&child, depth - 1, -value, -value + 1))
                });
                nodes += searched;
                if reply.is_some_and(|reply| reply <= -value) {
                    result.column = column;
                    break;
                }
            }
        }
        Some(SearchResult { nodes, ..result })
    }

    /// Solves `board` exactly: its value with perfect play and every move
    /// that achieves it.
    ///
    /// # Errors
    /// When `time_limit` runs out first.
    pub fn solve(&mut self, board: &Board, time_limit: Option<Duration>) -> Result<Solution, OutOfTime> {
        if let Some(classic) = &mut self.classic {
            return classic.solve(board, false, time_limit);
        }
        let empty = board.empty_cells();
        if empty == 0 {
            return Ok(Solution { value: board.score_difference(), best: Vec::new(), nodes: 0 });
        }
        self.progress.start();
        // The root is a node too.
        let mut solving = Solving { nodes: 1, deadline: deadline_after(time_limit) };
        // Each move in turn, the likeliest best first. The first move's
        // value is found exactly; every later move is only tested against the
        // best value so far, which most fail at once (one refutation), and
        // only a move that beats it has its value found. Measured on the 15
        // `input_files/solve` positions against narrowing the root's value
        // first and then testing every move: 1.2 times as fast in all, up to
        // 1.8 times on some, and up to 1.25 times slower on positions whose
        // first move is not a best one.
        let first = self.table.probe(board.key()).and_then(|entry| entry.best);
        let mut value = 0;
        let mut best = Vec::new();
        for column in first.into_iter().chain(Searcher::ordered_moves(board, empty, first, 0)) {
            let child = board.after(column);
            let (lower, upper) = bounds(&child);
            if best.is_empty() {
                value = -self.exact_value(&mut solving, &child, lower, upper)?;
                best.push(column);
                self.progress.finished(0, column);
                continue;
            }
            // Does the move fall short of `value`, reach it or beat it? One
            // search with a window of two points around it tells which.
            let child_value = self.window(&mut solving, &child, -value - 1, -value + 1)?;
            if child_value > -value {
                continue;
            }
            if child_value < -value {
                value = -self.exact_value(&mut solving, &child, lower, child_value)?;
                best.clear();
                self.progress.finished(0, column);
            }
            best.push(column);
        }
        best.sort_unstable();
        Ok(Solution { value, best, nodes: solving.nodes })
    }

    /// The exact value of `board` in points, known to lie between `lower`
    /// and `upper`: narrowed down with null-window searches, each asking
    /// whether the value exceeds a guess. Most positions are close, so the
    /// first guess is 0 and the next ones step outwards one point at a time
    /// (a failed search often returns a tighter bound, which skips steps).
    fn exact_value(
        &mut self,
        solving: &mut Solving,
        board: &Board,
        mut lower: i32,
        mut upper: i32,
    ) -> Result<i32, OutOfTime> {
        while lower < upper {
            let guess = if lower >= 0 {
                lower
            } else if upper <= 0 {
                upper - 1
            } else {
                0
            };
            let value = self.window(solving, board, guess, guess + 1)?;
            if value > guess {
                lower = value;
            } else {
                upper = value;
            }
        }
        Ok(lower)
    }

    /// A search to the end of the game of `board` with the window
    /// `(alpha, beta)` in points, fail-soft, in whole points.
    fn window(&mut self, solving: &mut Solving, board: &Board, alpha: i32, beta: i32) -> Result<i32, OutOfTime> {
        self.grow_table(solving.nodes);
        let helped = solving.nodes >= HELPERS_MIN_NODES || board.empty_cells() >= HELPERS_MIN_EMPTY;
        let (value, searched) = self.parallel(solving.deadline, helped, Some(board.empty_cells()), |searcher| {
            Some(searcher.negamax(board, board.empty_cells(), alpha * POINT, beta * POINT))
        });
        solving.nodes += searched;
        // Values to the end of the game are whole points.
        value.map(|value| value / POINT).ok_or(OutOfTime { nodes: solving.nodes })
    }

    /// Lets the table grow with the search, to one slot per
    /// [`NODES_PER_SLOT`] nodes visited so far: the next search usually
    /// visits several times as many.
    fn grow_table(&mut self, nodes: u64) {
        self.table.grow_to(usize::try_from(nodes).unwrap_or(usize::MAX) / NODES_PER_SLOT);
    }

    /// Runs `work` on this thread and, if `helped` (a search worth starting
    /// threads for), with the engine's other threads helping at the
    /// positions it splits. Returns its result (`None` if the time ran out
    /// first) and the nodes all threads visited.
    fn parallel<T>(
        &self,
        deadline: Option<Instant>,
        helped: bool,
        window_root: Option<u32>,
        work: impl FnOnce(&mut Searcher) -> Option<T>,
    ) -> (Option<T>, u64) {
        let done = AtomicBool::new(false);
        let pool = Pool::default();
        let alone = self.threads == 1 || !helped;
        let searcher = || Searcher {
            table: &self.table,
            pool: (!alone).then_some(&pool),
            split: None,
            nodes: 0,
            reported: 0,
            next_clock_check: 0,
            deadline,
            progress: &self.progress,
            cancelled: &self.cancelled,
            stopped: false,
            window_root,
        };
        let run = || {
            let mut searcher = searcher();
            let result = work(&mut searcher).filter(|_| !searcher.stopped);
            searcher.report_progress();
            (result, searcher.nodes)
        };
        if alone {
            return run();
        }
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..self.threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut helper = searcher();
                        helper.help(&pool, &done);
                        helper.report_progress();
                        helper.nodes
                    })
                })
                .collect();
            let (result, mut nodes) = run();
            done.store(true, Relaxed);
            for helper in helpers {
                nodes += helper.join().expect("a search thread never panics");
            }
            (result, nodes)
        })
    }
}

/// The moment `time_limit` from now runs out; `None` for no limit, or for
/// a limit too far off for the clock to hold, which is no limit either.
fn deadline_after(time_limit: Option<Duration>) -> Option<Instant> {
    time_limit.and_then(|limit| Instant::now().checked_add(limit))
}

/// The running totals of one `solve`.
struct Solving {
    nodes: u64,
    deadline: Option<Instant>,
}

/// One thread's search: its own counters, and the table and flags it shares
/// with the other threads.
struct Searcher<'a> {
    table: &'a Table,
    /// The splits offered to other threads; `None` when searching alone.
    pool: Option<&'a Pool>,
    /// The split whose move this thread is searching, if any.
    split: Option<Arc<Split>>,
    nodes: u64,
    /// The nodes already added to `progress`.
    reported: u64,
    /// The node count at which to read the clock next.
    next_clock_check: u64,
    deadline: Option<Instant>,
    progress: &'a Progress,
    /// See [`Engine::canceller`].
    cancelled: &'a AtomicBool,
    /// The time ran out, or the split this thread is searching under was
    /// cut: the search's results are meaningless from then on.
    stopped: bool,
    /// When solving, the empty cells of the position the window search
    /// started from (see [`interior`](Searcher::interior)'s ordering).
    window_root: Option<u32>,
}

impl<'a> Searcher<'a> {
    fn report_progress(&mut self) {
        self.progress.nodes.fetch_add(self.nodes - self.reported, Relaxed);
        self.reported = self.nodes;
    }

    /// Whether the search must stop: the time ran out, or the split this
    /// thread is searching under was cut.
    fn must_stop(&self) -> bool {
        // Cancelling, like the clock, spares the first iteration: there is
        // always a move.
        self.deadline.is_some_and(|deadline| Instant::now() >= deadline || self.cancelled.load(Relaxed))
            || self.split.as_ref().is_some_and(|split| split.cut())
    }

    /// A helper thread's work: searching the moves of the splits other
    /// threads offer, until `done`.
    fn help(&mut self, pool: &Pool, done: &AtomicBool) {
        while let Some(split) = self.wait_for_split(pool, None, || done.load(Relaxed)) {
            self.search_split(&split);
        }
    }

    /// Waits, idle, for a split to join (under `under` if given) until
    /// `over()`, which ends the wait with `None`. A stopped thread joins
    /// nothing: it would only leave again.
    fn wait_for_split(&self, pool: &Pool, under: Option<&Split>, over: impl Fn() -> bool) -> Option<Arc<Split>> {
        let mut idle = pool.idle();
        loop {
            if over() {
                return None;
            }
            if !self.stopped {
                if let Some(split) = pool.join(under) {
                    return Some(split);
                }
            }
            idle.pause();
        }
    }

    /// Searches moves of `split`, which this thread has joined, until none
    /// is left, then leaves it.
    fn search_split(&mut self, split: &Arc<Split>) {
        let outer = self.split.replace(Arc::clone(split));
        self.stopped = self.must_stop();
        while !self.stopped {
            let Some(taken) = split.next_move() else { break };
            if taken.last {
                // No thread need join it any more: idle threads wait for another.
                if let Some(pool) = self.pool {
                    pool.withdraw(split);
                }
            }
            let (value, alpha) = self.test_split_move(split, &split.board.after(taken.column), taken.alpha);
            if self.stopped {
                break;
            }
            split.report(&taken, value, alpha);
        }
        split.leave();
        self.split = outer;
        self.stopped = self.must_stop();
    }

    /// [`test_move`](Searcher::test_move) for a move of `split` first tested
    /// against `alpha`, with the alpha of the last search, against which the
    /// value is a bound or exact. Another thread may raise the split's alpha
    /// meanwhile: a move that beats the old alpha is then tested against the
    /// new one before it is searched with the whole window, since most moves
    /// that tie the best value would otherwise have theirs found exactly.
    fn test_split_move(&mut self, split: &Split, child: &Board, mut alpha: Value) -> (Value, Value) {
        let (depth, beta) = (split.depth, split.beta);
        loop {
            let value = -self.negamax(child, depth - 1, -alpha - 1, -alpha);
            if value <= alpha || value >= beta || self.stopped {
                return (value, alpha);
            }
            let now = split.alpha();
            if now <= alpha {
                return (-self.negamax(child, depth - 1, -beta, -alpha), alpha);
            }
            if now >= beta {
                // The split is cut: this move no longer matters.
                return (value, alpha);
            }
            alpha = now;
        }
    }

    /// Searches the moves of `board` not yet searched, `moves`, together
    /// with any idle threads, after the first moves gave `best`. Returns the
    /// best value and move over all the moves (meaningless if the search was
    /// stopped meanwhile).
    fn split(
        &mut self,
        pool: &Pool,
        board: &Board,
        depth: u32,
        window: (Value, Value),
        best: (Value, Option<Column>),
        moves: Moves,
    ) -> (Value, Option<Column>) {
        let split = Arc::new(Split::new(*board, depth, window, best, moves, self.split.clone()));
        pool.offer(&split);
        self.search_split(&split);
        pool.withdraw(&split);
        // Wait for the threads still searching its moves, and help them
        // with the positions they split.
        while let Some(below) = self.wait_for_split(pool, Some(&split), || !split.searching()) {
            self.search_split(&below);
        }
        // A thread stopped by the clock or by a cut above leaves its move
        // without a value: then so does this one.
        self.stopped = self.must_stop();
        split.result()
    }

    /// One iteration at the root: the best move and its exact value, or
    /// `None` if the search was stopped.
    fn root(&mut self, board: &Board, depth: u32) -> Option<(Column, Value)> {
        self.nodes += 1;
        let key = board.key();
        let first = self.table.probe(key).and_then(|entry| entry.best);
        let mut moves = Searcher::ordered_moves(board, depth, first, 0);
        let eldest = first.or_else(|| moves.next()).expect("the board is not full");
        let mut best = (-self.negamax(&board.after(eldest), depth - 1, -INFINITY, INFINITY), Some(eldest));
        while !self.stopped {
            if let Some(pool) = self.pool_for_split(depth, moves) {
                best = self.split(pool, board, depth, (best.0, INFINITY), best, moves);
                break;
            }
            let Some(column) = moves.next() else { break };
            let value = self.test_move(&board.after(column), depth, best.0, INFINITY);
            if value > best.0 {
                best = (value, Some(column));
            }
        }
        if self.stopped {
            return None;
        }
        let (value, column) = best;
        self.table.store(key, Entry { value, bound: Bound::Exact, depth, best: column });
        column.map(|column| (column, value))
    }

    /// The value of `child`, reached from a position searched to `depth` by
    /// a move tried after another gave `alpha`, from that position's side:
    /// principal variation search tests it with a null window first, and
    /// searches it with the whole window only if it beats `alpha`.
    #[inline]
    fn test_move(&mut self, child: &Board, depth: u32, alpha: Value, beta: Value) -> Value {
        let value = -self.negamax(child, depth - 1, -alpha - 1, -alpha);
        if alpha < value && value < beta && !self.stopped {
            -self.negamax(child, depth - 1, -beta, -alpha)
        } else {
            value
        }
    }

    /// The pool to offer a position's remaining `moves` to, if this thread
    /// searches with others, the position is worth splitting and a thread is
    /// idle to take them.
    #[inline]
    fn pool_for_split(&self, depth: u32, moves: Moves) -> Option<&'a Pool> {
        self.pool.filter(|pool| depth >= split::MIN_DEPTH && pool.wanted() && moves.peek().is_some())
    }

    /// Alpha-beta in negamax form, fail-soft, with the same contract as the
    /// plain one: with `v` the minimax value of `board` at `depth` and `r` the
    /// result, `alpha < r < beta` means `r == v`, `r <= alpha` means
    /// `v <= r`, and `r >= beta` means `v >= r`. After the time runs out the
    /// result is meaningless and `self.stopped` is set.
    ///
    /// The positions near the horizon and the end of the game, which are most
    /// of them, are dealt with here, inline in the caller; the rest are
    /// searched by [`interior`](Searcher::interior).
    #[inline(always)]
    fn negamax(&mut self, board: &Board, depth: u32, alpha: Value, beta: Value) -> Value {
        self.nodes += 1;
        let depth = depth.min(board.empty_cells());
        match depth {
            0 => evaluate(board),
            1 => self.horizon(board, beta),
            _ if depth <= ENDGAME_EMPTY && depth == board.empty_cells() => self.endgame(board, alpha, beta),
            _ => self.interior(board, depth, alpha, beta),
        }
    }

    /// [`negamax`](Searcher::negamax) more than one ply from the horizon and
    /// more than [`ENDGAME_EMPTY`] from the end of the game, with `depth`
    /// at most the empty cells.
    #[inline(never)]
    fn interior(&mut self, board: &Board, depth: u32, mut alpha: Value, mut beta: Value) -> Value {
        if self.nodes >= self.next_clock_check {
            self.next_clock_check = self.nodes + CLOCK_INTERVAL;
            self.report_progress();
            self.stopped |= self.must_stop();
        }
        if self.stopped {
            return 0;
        }

        // The score bounds hold for heuristic values too, but only cut where
        // the search reaches the end of the game: measured on `bench`, they
        // never cut short of it, where values are fractions of a point.
        let to_the_end = depth == board.empty_cells();
        if to_the_end {
            (alpha, beta) = match narrow_to_bounds(board, alpha, beta) {
                Ok(window) => window,
                Err(value) => return value,
            };
        }
        // Children solved by `endgame` are never stored: no use probing for them.
        let children_stored = depth > TABLE_MIN_DEPTH && !(to_the_end && depth - 1 <= ENDGAME_EMPTY);

        let key = board.key();
        let mut first = None;
        if children_stored {
            // Start loading the children's entries now, so that they arrive
            // while this position's own entry is awaited.
            for column in board.legal_columns() {
                self.table.prefetch(board.key_after(column));
            }
        }
        if depth >= TABLE_MIN_DEPTH {
            if let Some(entry) = self.table.probe(key) {
                first = entry.best;
                if entry.depth == depth {
                    if let Some(value) = entry.cut_or_narrow(&mut alpha, &mut beta) {
                        return value;
                    }
                }
            }
        }

        // The follow-up strategy's bounds cost more than a table probe.
        if to_the_end && depth >= FOLLOW_UP_MIN_EMPTY {
            if let Some(value) = follow_up_cut(board, alpha, beta) {
                return value;
            }
        }

        if children_stored && !(to_the_end && depth < ETC_MIN_EMPTY) {
            // Enhanced transposition cutoff: a child already known to be good
            // enough cuts without being searched.
            for column in board.legal_columns() {
                if let Some(entry) = self.table.probe(board.key_after(column)) {
                    // An exact value or upper bound for the child, searched to
                    // the depth it would be searched to here, bounds this move
                    // from below.
                    if entry.depth == depth - 1 && entry.bound != Bound::Lower && -entry.value >= beta {
                        return -entry.value;
                    }
                }
            }
        }
        let searched_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        // Moves whose child the score bounds settle are not made at all.
        let mut settled = 0;
        if to_the_end {
            (best, settled) = match settled_by_bounds(board, alpha, beta) {
                Ok(settled) => settled,
                Err(value) => return value,
            };
            first = first.filter(|&column| board.landing_cell(column) & settled == 0);
        }
        'moves: {
            // The table's move often cuts at once, before the others are ordered.
            if let Some(column) = first {
                let value = -self.negamax(&board.after(column), depth - 1, -beta, -alpha);
                if self.stopped {
                    return 0;
                }
                // Not `best = value`: a settled move's bound may be higher,
                // and a value failing low must bound every move from above.
                best = best.max(value);
                best_move = first;
                if best >= beta {
                    break 'moves;
                }
                alpha = alpha.max(best);
            }
            // In a solve's search with a narrow window, positions an odd
            // number of moves from its start are expected to fail low (in
            // principal variation search they alternate with the ones that
            // cut): all their moves will be searched, so their order
            // matters little, and they are searched centre first without
            // the cost of ordering. On `input_files/input2.txt` 21.6 M nodes
            // against 33.8 M and half the time; over the 15 positions of
            // `input_files/solve` the same time in all (slower at 24 and 26
            // empty cells, faster at 28).
            let expected_all = self.window_root.is_some_and(|root| (root - board.empty_cells()) % 2 == 1);
            let mut moves = if expected_all {
                Searcher::centre_first(board, first, settled)
            } else {
                Searcher::ordered_moves(board, depth, first, settled)
            };
            loop {
                // Young brothers wait: only once a move has been searched are
                // the others shared with idle threads.
                if best_move.is_some() {
                    if let Some(pool) = self.pool_for_split(depth, moves) {
                        (best, best_move) = self.split(pool, board, depth, (alpha, beta), (best, best_move), moves);
                        if self.stopped {
                            return 0;
                        }
                        break;
                    }
                }
                let Some(column) = moves.next() else { break };
                let child = board.after(column);
                let value = if best_move.is_some() {
                    self.test_move(&child, depth, alpha, beta)
                } else {
                    -self.negamax(&child, depth - 1, -beta, -alpha)
                };
                if self.stopped {
                    return 0;
                }
                if value > best {
                    best = value;
                    best_move = Some(column);
                    if value > alpha {
                        alpha = value;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        }

        if depth >= TABLE_MIN_DEPTH {
            let bound = if best <= searched_alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table.store(key, Entry { value: best, bound, depth, best: best_move });
        }
        best
    }

    /// [`negamax`](Searcher::negamax) for the last few moves of the game: so
    /// few positions lie below that the table, the clock and move ordering
    /// cost more than they save; only the score bounds are kept.
    fn endgame(&mut self, board: &Board, alpha: Value, beta: Value) -> Value {
        let (mut alpha, beta) = match narrow_to_bounds(board, alpha, beta) {
            Ok(window) => window,
            Err(value) => return value,
        };
        if let Some(value) = follow_up_cut(board, alpha, beta) {
            return value;
        }
        let playable = board.playable_cells();
        if board.empty_cells() == 1 {
            // The last move: its value is the final score, read without making it.
            self.nodes += 1;
            return value_after(board, playable);
        }
        let (mut best, settled) = match settled_by_bounds(board, alpha, beta) {
            Ok(settled) => settled,
            Err(value) => return value,
        };
        let playable = playable & !settled;
        for column in Column::CENTRE_FIRST {
            if playable & column_cells(column.index()) == 0 {
                continue;
            }
            let child = board.after(column);
            self.nodes += 1;
            let value = -self.endgame(&child, -beta, -alpha);
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// [`negamax`](Searcher::negamax) one ply from the horizon, where every
    /// child is a leaf: each is evaluated without making the move (see
    /// [`value_after`]), and nothing is stored, since a lookup would cost
    /// more than the evaluations.
    #[inline]
    fn horizon(&mut self, board: &Board, beta: Value) -> Value {
        let playable = board.playable_cells();
        let mut best = -INFINITY;
        for column in Column::CENTRE_FIRST {
            let cell = playable & column_cells(column.index());
            if cell == 0 {
                continue;
            }
            self.nodes += 1;
            best = best.max(value_after(board, cell));
            if best >= beta {
                break;
            }
        }
        best
    }

    /// The legal moves of `board` except `first` (the table's move, searched
    /// before the others are ordered), best-looking first: far from the
    /// horizon by the evaluation of the position the move leaves, nearer by
    /// threats, and nearest, where the subtrees are too small to repay the
    /// work, not at all; then centre first.
    ///
    /// Measured where the search reaches the end of the game: ordering by
    /// the scoring cells a move leaves, or by a history of cuts, cost more
    /// than it saved (`solve` at 28 empty cells took 1.1 to 1.25 times as long).
    fn ordered_moves(board: &Board, depth: u32, first: Option<Column>, settled: u64) -> Moves {
        if depth < THREAT_MIN_DEPTH {
            return Searcher::centre_first(board, first, settled);
        }
        let playable = board.playable_cells() & !settled;
        let mut ranking = Ranking { keys: [0; WIDTH], len: 0 };
        let mover = board.to_move();
        // Threats: a move that completes a window of ours is likely good, one
        // that blocks a window of theirs too, and one that lets them complete
        // a window in the cell above likely bad.
        let (ours, theirs) = if depth < EVALUATION_ORDER_MIN_DEPTH {
            (completing_cells(board.pieces(mover)), completing_cells(board.pieces(mover.other())))
        } else {
            (0, 0)
        };
        for column in Column::CENTRE_FIRST {
            let cell = playable & column_cells(column.index());
            if cell == 0 || Some(column) == first {
                continue;
            }
            let score = if depth >= EVALUATION_ORDER_MIN_DEPTH {
                // The static value after the move, in eighths of a point.
                (value_after(board, cell) / 4 + 128).clamp(0, 255) as u32
            } else {
                4 + 2 * u32::from(cell & ours != 0) + u32::from(cell & theirs != 0)
                    - 2 * u32::from((cell << 1) & theirs != 0)
            };
            ranking.insert(column, score);
        }
        ranking.moves()
    }

    /// The legal moves of `board` but `first` and the `settled` ones, centre first.
    #[inline]
    fn centre_first(board: &Board, first: Option<Column>, settled: u64) -> Moves {
        let playable = board.playable_cells() & !settled;
        Column::CENTRE_FIRST
            .into_iter()
            .filter(|&column| playable & column_cells(column.index()) != 0 && Some(column) != first)
            .collect()
    }
}

/// The window `(alpha, beta)` narrowed to the exact score bounds of `board`,
/// or `Err` with the value to return when the bounds meet or lie outside the
/// window (a fail-soft cut).
#[inline]
fn narrow_to_bounds(board: &Board, alpha: Value, beta: Value) -> Result<(Value, Value), Value> {
    let (lower, upper) = bounds(board);
    let (lower, upper) = (lower * POINT, upper * POINT);
    if upper <= alpha || lower == upper {
        return Err(upper);
    } else if lower >= beta {
        return Err(lower);
    }
    Ok((alpha.max(lower), beta.min(upper)))
}

/// The moves of `board` whose child's score bounds ([`bounds`]) settle it
/// for the window `(alpha, beta)`, as the child's own
/// [`narrow_to_bounds`] would, read from the tally after each move without
/// making it: `Err` with the value to return when a move's bounds reach
/// `beta` (a fail-soft cut), else the best of the values the moves whose
/// bounds lie at or below `alpha` would return (or `-INFINITY` for none),
/// and their cells.
#[inline]
fn settled_by_bounds(board: &Board, alpha: Value, beta: Value) -> Result<(Value, u64), Value> {
    let mover = board.to_move();
    let mut best = -INFINITY;
    let mut settled = 0;
    let mut cells = board.playable_cells();
    while cells != 0 {
        let cell = cells & cells.wrapping_neg();
        cells ^= cell;
        let (lower, upper) = bounds_for(board.tally_after(cell), mover);
        let (lower, upper) = (lower * POINT, upper * POINT);
        if lower >= beta {
            return Err(lower);
        }
        if upper <= alpha {
            best = best.max(upper);
            settled |= cell;
        }
    }
    Ok((best, settled))
}

/// A value beyond the window `(alpha, beta)` proved by the follow-up
/// strategy's bounds (see [`follow_up`]), for a fail-soft cut.
#[inline]
fn follow_up_cut(board: &Board, alpha: Value, beta: Value) -> Option<Value> {
    // The value is a whole number of points: beyond the window means at
    // most the largest whole number within `alpha`, or at least the
    // smallest within `beta`.
    follow_up::cut(board, alpha.div_euclid(POINT), -(-beta).div_euclid(POINT)).map(|value| value * POINT)
}

/// Columns in the order to search them, four bits each (the column's index
/// plus one), the first in the lowest bits: one word, which is passed in a
/// register (returning an array stalled on reading back what was just written).
#[derive(Clone, Copy)]
pub(super) struct Moves(u64);

impl Moves {
    /// The next column, left in place.
    pub(super) fn peek(self) -> Option<Column> {
        { self }.next()
    }
}

impl FromIterator<Column> for Moves {
    fn from_iter<I: IntoIterator<Item = Column>>(columns: I) -> Moves {
        Moves(
            columns
                .into_iter()
                .enumerate()
                .fold(0, |moves, (at, column)| moves | (column.index() as u64 + 1) << (4 * at)),
        )
    }
}

impl Iterator for Moves {
    type Item = Column;

    #[inline]
    fn next(&mut self) -> Option<Column> {
        let index = (self.0 & 0xF).checked_sub(1)?;
        self.0 >>= 4;
        Column::from_index(index as usize)
    }
}

/// Up to seven moves, kept sorted by score, highest first; equal scores keep
/// the order they were inserted in.
struct Ranking {
    /// The score, then the order of insertion reversed, then the column
    /// plus one: the keys sort as the moves should.
    keys: [u64; WIDTH],
    len: usize,
}

impl Ranking {
    #[inline]
    fn insert(&mut self, column: Column, score: u32) {
        let key = u64::from(score) << 32 | ((WIDTH - self.len) as u64) << 4 | (column.index() as u64 + 1);
        let mut at = self.len;
        while at > 0 && self.keys[at - 1] < key {
            self.keys[at] = self.keys[at - 1];
            at -= 1;
        }
        self.keys[at] = key;
        self.len += 1;
    }

    #[inline]
    fn moves(&self) -> Moves {
        Moves(self.keys[..self.len].iter().rev().fold(0, |moves, key| moves << 4 | (key & 0xF)))
    }
}
