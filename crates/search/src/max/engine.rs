//! The Max-Connect4 engine: alpha-beta with exact score bounds, a transposition table,
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
//! threads (see [`MaxEngine::search`]). One thread searching alone never
//! splits, so its nodes never change.
//!
//! This module holds what the engine keeps between searches, iterative
//! deepening and the exact solve, and runs the threads; the tree search
//! itself is [`super::negamax`], the order of moves [`super::ordering`].
//!
//! [`alpha_beta`]: crate::alpha_beta

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::follow_up;
use super::negamax::{Searcher, Stop};
use super::ordering::ordered_moves;
use super::split::Pool;
use crate::outcome::{Bounded, ExactValue, MoveValues, OutOfTime, SearchResult, Solution, ValueBound};
use crate::progress::Progress;
use crate::request::{Limits, Strength};
use crate::table::{Pause, Table, TableTooLarge};
use maxconnect4_game::bitboard::WIDTH;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::score::bounds;
use maxconnect4_game::value::POINT;

/// The table is grown to one slot per this many nodes searched so far. A
/// table larger than the search needs spreads its entries over memory the
/// cache does not hold, and probes wait for memory: fewer nodes per slot
/// measured slower. See reports/tuning.md.
const NODES_PER_SLOT: usize = 16;

/// A solve's table grows to one slot per this many nodes: more than the
/// depth-limited search's. Since the first player answers on top in a
/// solve (see `negamax.rs`), their proofs reach the same positions many
/// ways, and a larger table keeps more of them: 4 saved time over 16, for
/// twice the memory, where 2 and 1 saved only nodes. See reports/tuning.md.
const SOLVE_NODES_PER_SLOT: usize = 4;

/// Helper threads join a search only once it has visited this many nodes:
/// starting a thread costs tens of microseconds, as much as a search of a
/// few thousand nodes.
const HELPERS_MIN_NODES: u64 = 50_000;

/// Helper threads join every search to the end of the game from this many
/// empty cells, the first included: from 24, one is large enough to pay for
/// starting them, and the first search of a solve is often most of its
/// work. See reports/tuning.md.
const HELPERS_MIN_EMPTY: u32 = 24;

/// The Max-Connect4 engine with its transposition table, which carries
/// over from one search to the next.
pub struct MaxEngine {
    table: Table,
    threads: usize,
    progress: Arc<Progress>,
    /// Set from outside to end a search with a time limit early, with the
    /// best move of its deepest finished iteration (see
    /// [`Engine::canceller`](crate::Engine::canceller)).
    cancelled: Arc<AtomicBool>,
}

impl MaxEngine {
    /// An engine whose transposition table uses at most `hash_bytes`,
    /// searching with one thread.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn new(hash_bytes: usize) -> Result<MaxEngine, TableTooLarge> {
        Ok(MaxEngine {
            table: Table::with_bytes(hash_bytes)?,
            threads: 1,
            progress: Arc::default(),
            cancelled: Arc::default(),
        })
    }

    /// See [`Engine::canceller`](crate::Engine::canceller).
    pub fn canceller(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancelled)
    }

    /// See [`Engine::progress`](crate::Engine::progress).
    pub fn progress(&self) -> Arc<Progress> {
        Arc::clone(&self.progress)
    }

    /// Searches with `threads` threads from now on (at least one). One
    /// thread visits the same nodes every time; more visit more in all but
    /// finish sooner, and find the same values and moves.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The threads that search.
    pub const fn threads(&self) -> usize {
        self.threads
    }

    /// Maps all the table's memory in now, so that the first searches do not
    /// pay for it: for benchmarks, which measure the search alone.
    pub fn map_in_table(&mut self) {
        self.table.map_in();
    }

    /// Forgets everything learned, so the next search runs as on a new engine.
    pub fn clear(&mut self) {
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
    /// [`alpha_beta`]: crate::alpha_beta
    pub fn search(&mut self, board: &Board, limits: &Limits) -> Option<SearchResult> {
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
            self.grow_table(nodes, NODES_PER_SLOT);
            let stop = Stop { deadline, nodes: None };
            let (found, searched) =
                self.parallel(stop, nodes >= HELPERS_MIN_NODES, None, |searcher| searcher.root(board, depth));
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
                let (reply, searched) = self.parallel(Stop::default(), nodes >= HELPERS_MIN_NODES, None, |searcher| {
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

    /// Solves `board` exactly: its value with perfect play (with
    /// [`Strength::Weak`], only its sign: win, draw or loss) and every move
    /// that achieves it.
    ///
    /// # Errors
    /// When the time limit, `limit`, runs out first.
    pub fn solve(&mut self, board: &Board, strength: Strength, limit: Option<Duration>) -> Result<Solution, OutOfTime> {
        self.solve_moves(board, strength, true, limit)
    }

    /// The exact value of `board` alone (with [`Strength::Weak`], its
    /// sign), found as [`solve`](MaxEngine::solve) finds it but without
    /// telling the moves that tie with the best from the worse ones, and
    /// done once no move can do better: a weak value is settled by the first
    /// winning move.
    ///
    /// # Errors
    /// When the time limit, `limit`, runs out first.
    pub fn value(
        &mut self,
        board: &Board,
        strength: Strength,
        limit: Option<Duration>,
    ) -> Result<ExactValue, OutOfTime> {
        let solution = self.solve_moves(board, strength, false, limit)?;
        Ok(ExactValue { value: solution.value, nodes: solution.nodes })
    }

    /// The exact value of `board` and one move that achieves it (the
    /// [`Solution`]'s `best` holds that move alone), found as
    /// [`value`](MaxEngine::value) finds the value: what playing perfectly
    /// needs. It does not prove which other moves tie with the best, which
    /// is most of a solve's work where several do.
    ///
    /// # Errors
    /// When the time limit, `limit`, runs out first.
    pub fn best_move(&mut self, board: &Board, limit: Option<Duration>) -> Result<Solution, OutOfTime> {
        self.solve_moves(board, Strength::Strong, false, limit)
    }

    /// [`solve`](MaxEngine::solve) (with `every_best`; else
    /// [`best_move`](MaxEngine::best_move)) of a position whose exact value
    /// is known already, `value` (an opening book's, for a position of its
    /// deepest layer): only which moves reach it is searched, one null
    /// window each, and for one best move, only until one does.
    ///
    /// Knowing the value saves the proof that no move beats it. For the
    /// second player to move that proof is most of the work, and the
    /// follow-up strategy often proves a move reaches the value in a node
    /// or two: `12344` (37 empty cells, value 1), one best move in 40 nodes
    /// against 52 M. For the first player, proving a move reaches the
    /// value is most of the work already.
    ///
    /// Should no move reach `value` (a book built with another program's
    /// values, say), the position is solved as if the value were unknown,
    /// within what is left of the time. (A value below the true one would
    /// pass for it: the moves that reach it would be taken for the best.)
    ///
    /// # Errors
    /// When the time limit, `limit`, runs out first.
    pub fn solve_of_value(
        &mut self,
        board: &Board,
        value: i32,
        every_best: bool,
        limit: Option<Duration>,
    ) -> Result<Solution, OutOfTime> {
        self.progress.start();
        let mut solving = Solving::timed(1, limit);
        let mut best = Vec::new();
        for column in moves_likeliest_to_reach(board, value, self.table.probe(board.key()).and_then(|entry| entry.best))
        {
            // The move reaches the value if its child's is at most
            // `-value` (it cannot exceed it: `value` is the best).
            let child = board.after(column);
            if self.window(&mut solving, &child, -value, -value + 1)? <= -value {
                best.push(column);
                self.progress.finished(0, column);
                if !every_best {
                    break;
                }
            }
        }
        // A full board, which has no moves, ends here too.
        if best.is_empty() {
            let left = solving.deadline.map(|deadline| deadline.saturating_duration_since(Instant::now()));
            // The nodes of both, the root once.
            let before = solving.nodes - 1;
            let solution = self
                .solve_moves(board, Strength::Strong, every_best, left)
                .map_err(|out| OutOfTime { nodes: out.nodes + before })?;
            return Ok(Solution { nodes: solution.nodes + before, ..solution });
        }
        best.sort_unstable();
        Ok(Solution { value, best, nodes: solving.nodes })
    }

    /// [`solve`](MaxEngine::solve), or with `every_best` false
    /// [`best_move`](MaxEngine::best_move) (one best move, the first found).
    fn solve_moves(
        &mut self,
        board: &Board,
        strength: Strength,
        every_best: bool,
        time_limit: Option<Duration>,
    ) -> Result<Solution, OutOfTime> {
        let empty = board.empty_cells();
        if empty == 0 {
            return Ok(Solution { value: strength.of(board.score_difference()), best: Vec::new(), nodes: 0 });
        }
        self.progress.start();
        // The root is a node too.
        let mut solving = Solving::timed(1, time_limit);
        // Each move in turn, the likeliest best first. The first move's
        // value is found exactly; every later move is only tested against the
        // best value so far, which most fail at once (one refutation), and
        // only a move that beats it has its value found: faster in all than
        // narrowing the root's value first and then testing every move,
        // though slower where the first move is not a best one. See
        // reports/tuning.md.
        let first = self.table.probe(board.key()).and_then(|entry| entry.best);
        let most = strength.of(bounds(board).1);
        let mut value = 0;
        let mut best = Vec::new();
        for column in first.into_iter().chain(ordered_moves(board, empty, first, 0, None)) {
            if !every_best && !best.is_empty() && value >= most {
                break;
            }
            let child = board.after(column);
            let (lower, upper) = bounds(&child);
            if best.is_empty() {
                value = -self.exact_value(&mut solving, &child, lower, upper, strength)?;
                best.push(column);
                self.progress.finished(0, column);
                continue;
            }
            // Does the move fall short of `value`, reach it or beat it? One
            // search with a window of two points around it tells which (a
            // null window, whether it beats it, for the value alone). A weak
            // solve compares signs: its window is the part of that one
            // between -1 and 1, and the sign of the reply, a bound beyond the
            // window or exact inside it, tells which as the reply itself does
            // for the score.
            let (mut alpha, mut beta) = (-value - 1, if every_best { -value + 1 } else { -value });
            if strength == Strength::Weak {
                (alpha, beta) = (alpha.max(-1), beta.min(1));
            }
            let reply = self.window(&mut solving, &child, alpha, beta)?;
            if strength.of(reply) > -value {
                continue;
            }
            if strength.of(reply) < -value {
                value = -self.exact_value(&mut solving, &child, lower, reply, strength)?;
                best.clear();
                self.progress.finished(0, column);
            } else if !every_best {
                // The null window says only that the move does not beat
                // the best: it may tie with it or fall short.
                continue;
            }
            best.push(column);
        }
        best.sort_unstable();
        Ok(Solution { value, best, nodes: solving.nodes })
    }

    /// Whether the exact value of `board` is at least `at_least` points:
    /// one null-window search, whose fail-soft result is the bound given
    /// (at least `at_least` or more, or less). A value the score bounds
    /// settle takes no search.
    ///
    /// # Errors
    /// When the time limit, `limit`, runs out first.
    pub fn bound(&mut self, board: &Board, at_least: i32, limit: Option<Duration>) -> Result<Bounded, OutOfTime> {
        let (lower, upper) = bounds(board);
        if at_least <= lower {
            return Ok(Bounded { bound: ValueBound::AtLeast(lower), nodes: 0 });
        }
        if at_least > upper {
            return Ok(Bounded { bound: ValueBound::AtMost(upper), nodes: 0 });
        }
        self.progress.start();
        let mut solving = Solving::timed(0, limit);
        let value = self.window(&mut solving, board, at_least - 1, at_least)?;
        let bound = if value >= at_least { ValueBound::AtLeast(value) } else { ValueBound::AtMost(value) };
        Ok(Bounded { bound, nodes: solving.nodes })
    }

    /// The exact value of every move from `board` (with [`Strength::Weak`],
    /// its sign), each found as [`solve`](MaxEngine::solve) finds the first
    /// move's.
    ///
    /// # Errors
    /// When `time_limit` runs out first.
    pub fn move_values(
        &mut self,
        board: &Board,
        strength: Strength,
        time_limit: Option<Duration>,
    ) -> Result<MoveValues, OutOfTime> {
        self.progress.start();
        let mut solving = Solving::timed(1, time_limit);
        let mut values = [None; WIDTH];
        for column in board.legal_columns() {
            values[column.index()] = Some(self.solved_move(&mut solving, board, column, strength)?);
        }
        Ok(MoveValues { values, nodes: solving.nodes })
    }

    /// The exact value of the move `column` (which must be playable) from
    /// `board` for the player who makes it, as
    /// [`move_values`](MaxEngine::move_values) finds it, and the nodes visited.
    ///
    /// # Errors
    /// When `time_limit` runs out first.
    pub fn move_value(
        &mut self,
        board: &Board,
        column: Column,
        time_limit: Option<Duration>,
    ) -> Result<ExactValue, OutOfTime> {
        self.progress.start();
        let mut solving = Solving::timed(1, time_limit);
        let value = self.solved_move(&mut solving, board, column, Strength::Strong)?;
        Ok(ExactValue { value, nodes: solving.nodes })
    }

    /// The exact value of the move `column` from `board`, as
    /// [`move_value`](MaxEngine::move_value) finds it, if one thread proves
    /// it within `nodes` positions: a budget that, unlike time, gives the
    /// same answer on any machine.
    ///
    /// # Errors
    /// [`OutOfTime`], with the nodes spent, when it needs more.
    pub fn move_value_within(&mut self, board: &Board, column: Column, nodes: u64) -> Result<ExactValue, OutOfTime> {
        self.progress.start();
        let mut solving = Solving { nodes: 1, deadline: None, node_limit: Some(nodes) };
        let value = self.solved_move(&mut solving, board, column, Strength::Strong)?;
        Ok(ExactValue { value, nodes: solving.nodes })
    }

    /// The exact value of the move `column` from `board` for its mover (or
    /// its sign).
    fn solved_move(
        &mut self,
        solving: &mut Solving,
        board: &Board,
        column: Column,
        strength: Strength,
    ) -> Result<i32, OutOfTime> {
        let child = board.after(column);
        let (lower, upper) = bounds(&child);
        Ok(-self.exact_value(solving, &child, lower, upper, strength)?)
    }

    /// The exact value of `board` in points (with [`Strength::Weak`], its
    /// sign), known to lie between `lower` and `upper`: narrowed down with
    /// null-window searches, each asking whether the value exceeds a guess.
    /// Most positions are close, so the first guess is 0 and the next ones
    /// step outwards one point at a time (a failed search often returns a
    /// tighter bound, which skips steps). The sign needs at most two: whether
    /// the value exceeds 0 and, if not, whether it exceeds -1.
    fn exact_value(
        &mut self,
        solving: &mut Solving,
        board: &Board,
        mut lower: i32,
        mut upper: i32,
        strength: Strength,
    ) -> Result<i32, OutOfTime> {
        loop {
            if let Some(value) = settled(lower, upper, strength) {
                return Ok(value);
            }
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
    }

    /// A search to the end of the game of `board` with the window
    /// `(alpha, beta)` in points, fail-soft, in whole points.
    fn window(&mut self, solving: &mut Solving, board: &Board, alpha: i32, beta: i32) -> Result<i32, OutOfTime> {
        self.grow_table(solving.nodes, SOLVE_NODES_PER_SLOT);
        let left = solving.node_limit.map(|limit| limit.saturating_sub(solving.nodes));
        // Threads would make a budget of nodes stop at a different node each time.
        let helped = left.is_none() && (solving.nodes >= HELPERS_MIN_NODES || board.empty_cells() >= HELPERS_MIN_EMPTY);
        let stop = Stop { deadline: solving.deadline, nodes: left };
        let (value, searched) = self.parallel(stop, helped, Some(solving.nodes), |searcher| {
            Some(searcher.negamax(board, board.empty_cells(), alpha * POINT, beta * POINT))
        });
        solving.nodes += searched;
        // Values to the end of the game are whole points.
        value.map(|value| value / POINT).ok_or(OutOfTime { nodes: solving.nodes })
    }

    /// Lets the table grow with the search, to one slot per `per_slot`
    /// nodes visited so far: the next search usually visits several times
    /// as many.
    fn grow_table(&mut self, nodes: u64, per_slot: usize) {
        self.table.grow_to(usize::try_from(nodes).unwrap_or(usize::MAX) / per_slot);
    }

    /// Runs `work` on this thread and, if `helped` (a search worth starting
    /// threads for), with the engine's other threads helping at the
    /// positions it splits, until done or `stop`. `solved_before` is given
    /// for a solve's search to the end of the game with a narrow window:
    /// the nodes the solve visited before it. Returns its result (`None` if
    /// it stopped first) and the nodes all threads visited.
    ///
    /// A solve's search lets the table grow as it goes, to one slot per
    /// [`SOLVE_NODES_PER_SLOT`] nodes of the solve: a single search is often most
    /// of a solve, and at the size the nodes before it called for, the
    /// table lost most of what it learnt. See reports/tuning.md.
    fn parallel<T>(
        &self,
        stop: Stop,
        helped: bool,
        solved_before: Option<u64>,
        work: impl FnOnce(&mut Searcher) -> Option<T>,
    ) -> (Option<T>, u64) {
        let done = AtomicBool::new(false);
        let pool = Pool::default();
        let alone = self.threads == 1 || !helped;
        let threads = if alone { 1 } else { self.threads };
        let growth = solved_before.map(|nodes| Pause::new(threads, nodes, SOLVE_NODES_PER_SLOT));
        let solving = solved_before.is_some();
        let searcher = || {
            let searcher =
                Searcher::new(&self.table, (!alone).then_some(&pool), stop, &self.progress, &self.cancelled, solving);
            match &growth {
                Some(pause) => searcher.growing(pause),
                None => searcher,
            }
        };
        let run = || {
            let mut searcher = searcher();
            let result = work(&mut searcher).filter(|_| !searcher.stopped());
            searcher.leave();
            searcher.report_progress();
            (result, searcher.nodes())
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
                        helper.leave();
                        helper.report_progress();
                        helper.nodes()
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

/// The legal moves of `board`, those likeliest to reach `value` first: the
/// moves whose child the follow-up strategy's bound (or the score bounds)
/// already holds to `value`, which take one node to prove; then the
/// table's move, `first`; then the rest as the search orders them. A move
/// tested first that does not reach the value costs a search that proves
/// it, a refutation the first player must find (millions of nodes at 36
/// empty cells), where the next one might have taken one node.
fn moves_likeliest_to_reach(board: &Board, value: i32, first: Option<Column>) -> Vec<Column> {
    let held = |column: Column| {
        let child = board.after(column);
        bounds(&child).1 <= -value || follow_up::cut(&child, -value, -value + 1).is_some_and(|bound| bound <= -value)
    };
    let ordered = first.into_iter().chain(ordered_moves(board, board.empty_cells(), first, 0, None));
    let (mut moves, rest): (Vec<Column>, Vec<Column>) = ordered.partition(|&column| held(column));
    moves.extend(rest);
    moves
}

/// The moment `time_limit` from now runs out; `None` for no limit, or for
/// a limit too far off for the clock to hold, which is no limit either.
fn deadline_after(time_limit: Option<Duration>) -> Option<Instant> {
    time_limit.and_then(|limit| Instant::now().checked_add(limit))
}

/// What a value known to lie between `lower` and `upper` (inclusive) is at
/// `strength`, if they settle it: for the score, when they meet; for the
/// sign, when both are on the same side of 0.
fn settled(lower: i32, upper: i32, strength: Strength) -> Option<i32> {
    match strength {
        Strength::Strong => (lower >= upper).then_some(lower),
        Strength::Weak if lower >= 1 => Some(1),
        Strength::Weak if upper <= -1 => Some(-1),
        Strength::Weak => (lower >= 0 && upper <= 0).then_some(0),
    }
}

/// The running totals of one `solve`, and its limits.
struct Solving {
    nodes: u64,
    deadline: Option<Instant>,
    /// The nodes it may visit in all, if counted.
    node_limit: Option<u64>,
}

impl Solving {
    /// A solve that has visited `nodes` so far, within `time_limit` from now.
    fn timed(nodes: u64, time_limit: Option<Duration>) -> Solving {
        Solving { nodes, deadline: deadline_after(time_limit), node_limit: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use maxconnect4_game::moves::Moves;
    use maxconnect4_game::random::XorShift;
    use maxconnect4_game::rules::Rules;

    /// Knowing a position's value, the best moves found are the solve's
    /// (every one, or one of them), and a wrong value that no move
    /// reaches is noticed and solved past. With the second player to
    /// move, one best move takes fewer nodes than without the value: the
    /// proof that no move beats it is the first player's, and the costly
    /// kind.
    #[test]
    fn solving_knowing_the_value_finds_the_solves_best_moves() {
        let mut random = XorShift::new(38);
        let (mut knowing, mut not_knowing) = (0, 0);
        for round in 0..16 {
            let mut board = Board::empty();
            random.play_until(&mut board, Rules::Max, 20 + round % 6);
            let solution = MaxEngine::new(1 << 20).unwrap().solve(&board, Strength::Strong, None).unwrap();
            let value = solution.value;
            let every = MaxEngine::new(1 << 20).unwrap().solve_of_value(&board, value, true, None).unwrap();
            assert_eq!((every.value, &every.best), (value, &solution.best), "{board:?}");
            let one = MaxEngine::new(1 << 20).unwrap().solve_of_value(&board, value, false, None).unwrap();
            assert_eq!(one.value, value);
            assert!(one.best.len() == 1 && solution.best.contains(&one.best[0]), "{:?} {board:?}", one.best);
            let wrong = MaxEngine::new(1 << 20).unwrap().solve_of_value(&board, value + 1, true, None).unwrap();
            assert_eq!((wrong.value, &wrong.best), (value, &solution.best), "{board:?}");
            if board.empty_cells() % 2 == 1 {
                knowing += one.nodes;
                not_knowing += MaxEngine::new(1 << 20).unwrap().best_move(&board, None).unwrap().nodes;
            }
        }
        assert!(knowing < not_knowing, "{knowing} nodes knowing the values, {not_knowing} not");
    }

    /// A solve's search grows the table as it goes, on one thread or two
    /// (the threads all pause while it grows): the same value and best
    /// moves as on a table that cannot grow, and one null-window search (a
    /// bound, which the table grew only before) in fewer nodes. The
    /// position (30 empty cells) takes millions of nodes, past the first
    /// growth.
    #[test]
    fn a_table_that_grows_during_a_search_gives_the_same_answers_in_fewer_nodes() {
        let board = Moves::board(maxconnect4_game::rules::Rules::Max, "341774727476").unwrap();
        let engine = |bytes: usize, threads: usize| {
            let mut engine = MaxEngine::new(bytes).unwrap();
            engine.set_threads(threads);
            engine
        };
        // The table's starting size is its largest: it never grows.
        let fixed_bytes = Table::ENTRY_BYTES * (1 << 17);
        let fixed = engine(fixed_bytes, 1).solve(&board, Strength::Strong, None).unwrap();
        for threads in [1, 2] {
            let grown = engine(64 << 20, threads).solve(&board, Strength::Strong, None).unwrap();
            assert_eq!((grown.value, &grown.best), (fixed.value, &fixed.best), "{threads} threads");
        }
        let bound = |bytes: usize| engine(bytes, 1).bound(&board, fixed.value, None).unwrap();
        let (fixed, grown) = (bound(fixed_bytes), bound(64 << 20));
        assert_eq!(grown.bound, fixed.bound);
        assert!(grown.nodes < fixed.nodes, "{} nodes growing, {} not", grown.nodes, fixed.nodes);
    }
}
