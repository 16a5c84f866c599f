//! The exact classic solver: the value of a position with perfect play, in
//! the field's convention (see [`super`]), from a null-window negamax.
//!
//! The techniques are the known ones (Pascal Pons' tutorial, Allis' and
//! Tromp's solvers), implemented here:
//! - the mover never considers a move that loses at once ([`Position::non_losing_moves`]),
//!   and a position where every move does is scored without searching it;
//! - the score's bounds from the moves played narrow the window before any move;
//! - before any move is searched, each move's forced line is followed (a
//!   player with one move that does not lose at once plays it, counted as
//!   no node), and where it ends the bounds known without a search (the
//!   second player's claimeven, Allis: [`Position::claimeven_bound`]; the
//!   table) may settle the move, as in Christophe Steininger's c4;
//! - moves are tried in order of the threats they create (cells where the
//!   mover would then complete a four), weighted by how soon each can be
//!   reached as c4 weights them, the centre first among equals, after the
//!   move the table remembers ([`super::ordering`]);
//! - the shared transposition table ([`crate::table`]: one 8-byte
//!   entry, keeping only the key bits its index does not tell) stores exact
//!   values and bounds, keeping the entries that cost the most nodes, and a
//!   position and its mirror image share one entry;
//! - the root's value is found by null-window searches that halve the
//!   interval of possible scores, tried nearest to a draw first, and once
//!   a solve proves costly, that step towards the value from a draw
//!   ([`STEP_AFTER_NODES`]);
//! - several threads search each null window together over the shared
//!   table ([`Solver::with_threads`]), sharing out the moves of the
//!   positions they meet (ABDADA).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::busy::Busy;
use super::forced_line::{Line, forced_line};
use super::ordering::{MoveList, RACE};
use super::position::{CELL_COUNT, CLAIMEVEN_LOSS, Position, column_of, win_now};
use super::work::Work;
use crate::book::Book;
use crate::outcome::{OutOfTime, Solution, ValueBound};
use crate::progress::Progress;
use crate::table::{Bound, Entry, TableTooLarge};
use maxconnect4_game::bitboard::WIDTH;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::random::XorShift;

/// The table grows to one slot per this many nodes searched: a table at its
/// full size from the start saved few nodes and no time. See
/// reports/tuning.md (and for the figures of these constants
/// `reports/solving.md`, "The classic solver's constants").
const NODES_PER_SLOT: usize = 1;

/// The end of a move's forced line is looked up in the table (an enhanced
/// transposition cutoff, [`Solver::bound_line_end`]) only in positions with
/// fewer stones than this: deeper, the lookup costs more time than the
/// nodes it saves (`reports/solving.md` has the figures, as for each constant here).
const CUTOFF_PROBE_MOVES: u32 = 30;

/// A helper thread orders its moves with noise in positions fewer than
/// this many moves from the root of its search, the first move kept, so
/// that it proves other parts of the tree into the shared table first
/// rather than follow the main thread; deeper noise gained nothing more.
const JITTER_PLIES: u32 = 1;

/// A search on several threads is tried on one first for this many nodes
/// (a few milliseconds), and if it lasts longer, searched again by all:
/// starting threads costs more than a shorter search saves.
const SERIAL_NODES: u64 = 1 << 14;

/// Once a solve has visited this many nodes, its next null windows step
/// one score at a time from a draw towards the value, as c4 does, rather
/// than halve the interval left: a position that has cost this much is a
/// close one, whose costly searches are those near its value, which
/// halving tries and a step from a draw does not need.
const STEP_AFTER_NODES: u64 = 30_000;

/// An exact solver with its transposition table, and perhaps an opening book.
pub struct Solver {
    work: Work,
    book: Option<Arc<Book>>,
    /// Threads searching each position together (see [`Solver::with_threads`]).
    threads: usize,
    /// A helper thread's noise in its move order (see [`JITTER_PLIES`]):
    /// a pseudo-random state, zero in the main thread.
    jitter: XorShift,
    /// Positions with fewer moves than this get noise in their move order.
    jitter_until: u32,
    /// Whether a search since [`start`](Solver::start) outlasted
    /// [`SERIAL_NODES`]: the next ones, around the same position, start on
    /// every thread at once.
    searches_are_long: bool,
}

/// Only positions with fewer stones than this are marked busy: deeper
/// subtrees are too small to be worth sharing out.
const BUSY_MOVES: u32 = 24;

impl Solver {
    /// A solver whose table uses at most `hash_bytes`.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn new(hash_bytes: usize) -> Result<Solver, TableTooLarge> {
        Ok(Solver {
            work: Work::new(hash_bytes, NODES_PER_SLOT)?,
            book: None,
            threads: 1,
            jitter: XorShift::new(0),
            jitter_until: 0,
            searches_are_long: false,
        })
    }

    /// The solver searching with `threads` threads from now on (at least
    /// one): a search that outlasts [`SERIAL_NODES`] on one thread is
    /// searched by all at once, sharing the table, the helpers in another
    /// move order near the root, each thread searching first the moves no
    /// other is in (ABDADA), and the first to finish answers. Solves stopped by a count of nodes
    /// ([`board_value_within`](Solver::board_value_within)) run on one
    /// thread, so that they stop at the same node every time.
    #[must_use]
    pub fn with_threads(self, threads: usize) -> Solver {
        Solver { threads: threads.max(1), ..self }
    }

    /// The solver answering the positions `book` holds from it, at once.
    #[must_use]
    pub fn with_book(self, book: Option<Arc<Book>>) -> Solver {
        Solver { book, ..self }
    }

    /// The solver keeping `progress` up to date while it solves, and
    /// ending its solves with a time limit early once `cancelled` is set,
    /// as if the time had run out.
    #[must_use]
    pub fn watched(mut self, progress: Arc<Progress>, cancelled: Arc<AtomicBool>) -> Solver {
        self.work.progress = progress;
        self.work.cancelled = Some(cancelled);
        self
    }

    /// Forgets every position solved.
    pub fn clear(&mut self) {
        self.work.table_mut().clear();
    }

    /// Maps all the table's memory in now (for benchmarks).
    pub fn map_in_table(&mut self) {
        self.work.table_mut().map_in();
    }

    /// Positions visited by the last solve.
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.work.all_nodes()
    }

    /// Starts counting nodes from zero, with a deadline for the searches to come.
    pub fn start(&mut self, deadline: Option<Instant>) {
        self.work.start(deadline);
        self.searches_are_long = false;
    }

    /// The value of `position`, or with `weak` only its sign (1 win, 0 draw,
    /// -1 loss). The position must be one where the game goes on: no four
    /// on the board.
    ///
    /// # Errors
    /// When the deadline given to [`start`](Solver::start) passes first.
    pub fn value(&mut self, position: &Position, weak: bool) -> Result<i32, OutOfTime> {
        let moves = position.moves();
        if moves == CELL_COUNT {
            return Ok(0);
        }
        if position.can_win_next() {
            return Ok(if weak { 1 } else { win_now(moves) });
        }
        let (mut min, mut max) = if weak { (-1, 1) } else { (-win_now(moves + 1), win_now(moves + 2)) };
        // Halve the interval, but try the scores nearer a draw first: they
        // are the likelier, and a search near the value is the cheapest.
        // (Searching outwards from a draw in steps that double was far
        // slower on positions whose values are far from a draw: see
        // reports/tuning.md.) A costly solve steps from a draw instead
        // (see [`STEP_AFTER_NODES`]).
        while min < max {
            let guess = if self.work.all_nodes() > STEP_AFTER_NODES {
                // Is the value above the least it can be, at least the
                // most it can be, or else above a draw?
                if min >= 0 {
                    min
                } else if max <= 0 {
                    max - 1
                } else {
                    0
                }
            } else {
                let middle = min + (max - min) / 2;
                if middle <= 0 && min / 2 < middle {
                    min / 2
                } else if middle >= 0 && max / 2 > middle {
                    max / 2
                } else {
                    middle
                }
            };
            let found = self.null_window(position, guess);
            if self.work.stopped {
                return Err(OutOfTime { nodes: self.work.all_nodes() });
            }
            if found <= guess {
                max = found;
            } else {
                min = found;
            }
        }
        Ok(if weak { min.signum() } else { min })
    }

    /// The value of `board` and every column that reaches it (ascending),
    /// within `time_limit`; with `weak`, only win, draw or loss (1, 0, -1).
    /// A finished game has no best moves: a full board is worth 0, and one
    /// with a four is lost for the player to move (by the winner's score).
    ///
    /// # Errors
    /// When the time limit runs out first.
    pub fn solve(&mut self, board: &Board, weak: bool, time_limit: Option<Duration>) -> Result<Solution, OutOfTime> {
        let value = self.board_value(board, weak, time_limit)?;
        let position = Position::of(board);
        if position.last_mover_won() {
            return Ok(Solution { value, best: Vec::new(), nodes: 0 });
        }
        if let Some(children) = self.book.as_ref().and_then(|book| book.children(&position)) {
            // Every child's value is in the book: no search at all.
            let best = Column::ALL
                .into_iter()
                .filter(|column| {
                    children[column.index()]
                        .is_some_and(|child| if weak { child.signum() >= value } else { child == value })
                })
                .collect();
            return Ok(Solution { value, best, nodes: 0 });
        }
        let mut best = Vec::new();
        for column in Column::ALL {
            if self.reaches(&position, column, value, weak)? {
                if best.is_empty() {
                    self.work.progress.finished(0, column);
                }
                best.push(column);
            }
        }
        Ok(Solution { value, best, nodes: self.work.all_nodes() })
    }

    /// The value of `board` alone (see [`solve`](Solver::solve)), counting
    /// nodes from zero.
    ///
    /// # Errors
    /// When the time limit runs out first.
    pub fn board_value(&mut self, board: &Board, weak: bool, time_limit: Option<Duration>) -> Result<i32, OutOfTime> {
        self.start(time_limit.map(|limit| Instant::now() + limit));
        self.started_value(board, weak)
    }

    /// The value of `board` as [`board_value`](Solver::board_value) finds
    /// it, if the search visits at most `nodes` nodes: a limit that, unlike
    /// time, gives the same answer on any machine (with the table as the
    /// same searches before left it).
    ///
    /// # Errors
    /// When the nodes are spent first.
    pub fn board_value_within(&mut self, board: &Board, weak: bool, nodes: u64) -> Result<i32, OutOfTime> {
        self.start(None);
        self.work.limit_nodes(nodes);
        self.started_value(board, weak)
    }

    /// The value of `board`, in a search [`start`](Solver::start)ed.
    fn started_value(&mut self, board: &Board, weak: bool) -> Result<i32, OutOfTime> {
        let position = Position::of(board);
        if position.last_mover_won() {
            return Ok(if weak { -1 } else { -win_now(position.moves() - 1) });
        }
        if let Some(value) = self.book.as_ref().and_then(|book| book.value(&position)) {
            return Ok(if weak { value.signum() } else { value });
        }
        self.work.nodes = 1;
        self.value(&position, weak)
    }

    /// Whether the value of `board` is at least `at_least`, within
    /// `time_limit`: one null-window search, whose fail-soft result is the
    /// bound given. A finished game, a win on the next move, a bound beyond
    /// the scores possible and a position of the book take no search.
    ///
    /// # Errors
    /// When the time limit runs out first.
    pub fn bound(
        &mut self,
        board: &Board,
        at_least: i32,
        time_limit: Option<Duration>,
    ) -> Result<ValueBound, OutOfTime> {
        self.start(time_limit.map(|limit| Instant::now() + limit));
        let position = Position::of(board);
        let moves = position.moves();
        let exact = if position.last_mover_won() {
            Some(-win_now(moves - 1))
        } else if moves == CELL_COUNT {
            Some(0)
        } else if position.can_win_next() {
            Some(win_now(moves))
        } else {
            self.book.as_ref().and_then(|book| book.value(&position))
        };
        if let Some(value) = exact {
            return Ok(ValueBound::of_exact(value, at_least));
        }
        // The scores `value` searches between.
        let (min, max) = (-win_now(moves + 1), win_now(moves + 2));
        if at_least <= min {
            return Ok(ValueBound::AtLeast(min));
        }
        if at_least > max {
            return Ok(ValueBound::AtMost(max));
        }
        self.work.nodes = 1;
        let found = self.null_window(&position, at_least - 1);
        if self.work.stopped {
            return Err(OutOfTime { nodes: self.work.all_nodes() });
        }
        Ok(if found >= at_least { ValueBound::AtLeast(found) } else { ValueBound::AtMost(found) })
    }

    /// Whether playing `column` from `position` reaches `value` (the value
    /// of `position`, with `weak` its sign): the columns for which it does
    /// are the best moves.
    ///
    /// # Errors
    /// When the deadline passes first.
    pub fn reaches(&mut self, position: &Position, column: Column, value: i32, weak: bool) -> Result<bool, OutOfTime> {
        let Some(child) = position.after_column(column) else { return Ok(false) };
        if child.last_mover_won() {
            // A win now is the best any move can do.
            return Ok(true);
        }
        if weak && value < 0 {
            // Every move loses; none does better than another.
            return Ok(true);
        }
        if child.moves() == CELL_COUNT {
            return Ok(value <= 0);
        }
        if child.can_win_next() {
            let child_value = if weak { 1 } else { win_now(child.moves()) };
            return Ok(-child_value >= value);
        }
        // Is the child's value at most -value?
        let found = self.null_window(&child, -value);
        if self.work.stopped {
            return Err(OutOfTime { nodes: self.work.all_nodes() });
        }
        Ok(found <= -value)
    }

    /// [`negamax`](Solver::negamax) with the null window `(guess, guess + 1)`:
    /// whether the value is above `guess`, searched by all the solver's
    /// threads. After the deadline the result is meaningless and `stopped` is set.
    fn null_window(&mut self, position: &Position, guess: i32) -> i32 {
        if self.threads == 1 || self.work.limited_by_nodes() {
            return self.negamax(position, guess, guess + 1, None);
        }
        if !self.searches_are_long {
            // A short search is over before threads would pay for
            // themselves: one thread tries first, and what it learned stays
            // in the table.
            self.work.limit_nodes(self.work.nodes + SERIAL_NODES);
            let found = self.negamax(position, guess, guess + 1, None);
            self.work.unlimit_nodes();
            if !self.work.stopped || self.work.out_of_time() {
                return found;
            }
            self.work.stopped = false;
            self.searches_are_long = true;
        }
        let pause = self.work.share_table(self.threads);
        let finished = Arc::new(AtomicBool::new(false));
        self.work.finished = Some(Arc::clone(&finished));
        // The positions the threads are searching now.
        let busy = Busy::new();
        let mut helpers: Vec<Solver> = (1..self.threads)
            .map(|thread| Solver {
                work: self.work.helper(&finished, &pause),
                book: None,
                threads: 1,
                jitter: XorShift::new(
                    (thread as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(guess.unsigned_abs()) | 1,
                ),
                jitter_until: position.moves() + JITTER_PLIES,
                searches_are_long: true,
            })
            .collect();
        let found = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .map(|helper| {
                    let (finished, busy) = (&finished, &busy);
                    scope.spawn(move || {
                        let found = helper.negamax(position, guess, guess + 1, Some(busy));
                        helper.work.leave_pause();
                        (!helper.work.stopped).then(|| {
                            finished.store(true, Ordering::Relaxed);
                            found
                        })
                    })
                })
                .collect();
            let mine = self.negamax(position, guess, guess + 1, Some(&busy));
            self.work.leave_pause();
            let mine = (!self.work.stopped).then(|| {
                finished.store(true, Ordering::Relaxed);
                mine
            });
            // Any thread's result is a true bound: the first one found.
            running.into_iter().fold(mine, |found, helper| {
                let theirs = helper.join().expect("a search thread does not panic");
                found.or(theirs)
            })
        });
        self.work.helper_nodes += helpers.iter().map(|helper| helper.work.nodes).sum::<u64>();
        self.work.finished = None;
        match found {
            Some(found) => {
                self.work.stopped = false;
                found
            }
            None => {
                self.work.stopped = true;
                0
            }
        }
    }

    /// Negamax with alpha-beta, for a position whose mover cannot win at
    /// once. With `v` the position's value and `r` the result: `r <= alpha`
    /// means `v <= r`, `r >= beta` means `v >= r`, and in between `r == v`.
    /// After the deadline the result is meaningless and `stopped` is set.
    /// `busy` holds the positions the threads of a search on several are
    /// in. (A reference, not a shared pointer each node clones: a clone
    /// writes the count the threads share, which slows the threads down.
    /// See reports/tuning.md.)
    fn negamax(&mut self, position: &Position, mut alpha: i32, mut beta: i32, busy: Option<&Busy>) -> i32 {
        debug_assert!(alpha < beta && !position.can_win_next());
        if self.work.visit() {
            return 0;
        }
        let moves = position.moves();
        let candidates = position.non_losing_moves();
        if candidates == 0 {
            // Whatever the mover plays, the opponent completes a four next.
            return -win_now(moves + 1);
        }
        if moves >= CELL_COUNT - 2 {
            // Two cells left, neither side can win with them: a draw.
            return 0;
        }
        // The opponent cannot win with their next stone (the mover's move
        // leaves no four to complete), nor the mover with this one.
        let lower = -win_now(moves + 3);
        if alpha < lower {
            alpha = lower;
            if alpha >= beta {
                return alpha;
            }
        }
        let upper = win_now(moves + 2);
        if beta > upper {
            beta = upper;
            if alpha >= beta {
                return beta;
            }
        }
        // The position's entry is looked up after the moves' forced lines:
        // its slot can come from memory meanwhile (see reports/tuning.md).
        let (table_key, mirrored) = table_key_of(position);
        self.work.table.prefetch(table_key);
        let mut lines = [None; WIDTH];
        if let Some(value) = self.forced_lines(position, candidates, beta, &mut lines) {
            return value;
        }
        let upper = win_now(moves + 4);
        if beta > upper {
            beta = upper;
            if alpha >= beta {
                return beta;
            }
        }
        let mut best = None;
        let open = match self.settle_lines(&mut lines, candidates, (&mut alpha, beta), &mut best) {
            Ok(open) => open,
            Err(value) => return value,
        };
        if open == 0 {
            // Every move settled below `beta`: `alpha` is the best of them,
            // or a bound on the position no move reaches past.
            return alpha;
        }

        let mut first = None;
        if let Some(entry) = self.work.table.probe(table_key) {
            first = entry.best.map(|column| if mirrored { column.mirrored() } else { column });
            if let Some(value) = entry.cut_or_narrow(&mut alpha, &mut beta) {
                return value;
            }
        }
        let nodes_before = self.work.nodes;
        let mut ordered = MoveList::new();
        ordered.order(position, open, first, alpha >= RACE || beta <= -RACE);
        if moves < self.jitter_until {
            ordered.shuffle(&mut self.jitter);
        }
        let marks = busy.filter(|_| moves < BUSY_MOVES);
        let (value, bound, best) = match self.search_moves(&ordered, &lines, (alpha, beta), best, busy, marks) {
            Searched::Stopped => return 0,
            Searched::Cut(value, column) => (value, Bound::Lower, Some(column)),
            // A move inside the window gave the exact value; otherwise every
            // move is at most `alpha`.
            Searched::All(alpha, best) => (alpha, if best.is_some() { Bound::Exact } else { Bound::Upper }, best),
        };
        self.store(table_key, mirrored, Entry { value, bound, depth: 0, best }, self.work.nodes - nodes_before);
        value
    }

    /// Each move's forced line, followed before any move is searched: a
    /// move it settles is not searched at all, and one it bounds raises
    /// `alpha`. A move after which every reply loses at once is worth the
    /// most the position can be, and cuts here (its value), so once
    /// every line is followed the mover's next stone wins nothing either.
    /// Each line goes to `lines`, by column.
    #[inline(always)]
    fn forced_lines(
        &self,
        position: &Position,
        candidates: u64,
        beta: i32,
        lines: &mut [Option<Line>; WIDTH],
    ) -> Option<i32> {
        let mut cells = candidates;
        while cells != 0 {
            let cell = cells & cells.wrapping_neg();
            cells &= cells - 1;
            let line = forced_line(position.after(cell));
            if line.is_exact() && line.lower >= beta {
                return Some(line.lower);
            }
            if !line.is_exact() && line.end.moves() < CUTOFF_PROBE_MOVES {
                // Looked up below, when every line's slot is on its way.
                self.work.table.prefetch(table_key_of(&line.end).0);
            }
            lines[column_of(cell).index()] = Some(line);
        }
        None
    }

    /// Each move's line narrowed by the bounds at its end that cost no
    /// search ([`bound_line_end`](Solver::bound_line_end)): a move it
    /// settles at `beta` or more cuts (`Err`, its value); one it settles
    /// or bounds above `alpha` raises it, and becomes the `best` move. The
    /// moves left open, to be searched.
    #[inline(always)]
    fn settle_lines(
        &self,
        lines: &mut [Option<Line>; WIDTH],
        candidates: u64,
        (alpha, beta): (&mut i32, i32),
        best: &mut Option<Column>,
    ) -> Result<u64, i32> {
        let mut open = 0;
        let mut cells = candidates;
        while cells != 0 {
            let cell = cells & cells.wrapping_neg();
            cells &= cells - 1;
            let column = column_of(cell);
            let Some(line) = &mut lines[column.index()] else { unreachable!("every move has its line") };
            if !line.is_exact() {
                self.bound_line_end(line, *alpha, beta);
            }
            match line.settled(*alpha, beta) {
                Some(value) if value >= beta => return Err(value),
                Some(value) if value > *alpha => {
                    *alpha = value;
                    *best = Some(column);
                }
                Some(_) => {}
                None => {
                    if line.lower > *alpha {
                        *alpha = line.lower;
                        *best = Some(column);
                    }
                    open |= cell;
                }
            }
        }
        Ok(open)
    }

    /// The open moves searched in the order `ordered`, the positions they
    /// lead to being where their `lines` end. With other threads searching
    /// (`busy`), a move after the first whose position another thread is
    /// searching now (among those `marks` marks) waits for a second pass
    /// (ABDADA): by then that thread has likely stored its value.
    #[inline(always)]
    fn search_moves(
        &mut self,
        ordered: &MoveList,
        lines: &[Option<Line>; WIDTH],
        (mut alpha, beta): (i32, i32),
        mut best: Option<Column>,
        busy: Option<&Busy>,
        marks: Option<&Busy>,
    ) -> Searched {
        let mut deferred = 0;
        for pass in 0..2 {
            for (index, &cell) in ordered.cells().iter().enumerate() {
                if pass == 1 && deferred & cell == 0 {
                    continue;
                }
                let Some(Line { end, ours, .. }) = lines[column_of(cell).index()] else {
                    unreachable!("every move has its line")
                };
                if let Some(busy) = marks {
                    if pass == 0 && index > 0 && busy.holds(end.key()) {
                        deferred |= cell;
                        continue;
                    }
                    busy.enter(end.key());
                }
                let value =
                    if ours { self.negamax(&end, alpha, beta, busy) } else { -self.negamax(&end, -beta, -alpha, busy) };
                if let Some(busy) = marks {
                    busy.leave(end.key());
                }
                if self.work.stopped {
                    return Searched::Stopped;
                }
                if value >= beta {
                    return Searched::Cut(value, column_of(cell));
                }
                if value > alpha {
                    alpha = value;
                    best = Some(column_of(cell));
                }
            }
            if deferred == 0 {
                break;
            }
        }
        Searched::All(alpha, best)
    }

    /// Narrows what `line` knows of its move's value with the bounds on
    /// the position where it ends that cost no search: the second player's
    /// claimeven if the first is to move there, and the table's entry (an
    /// enhanced transposition cutoff) in positions with fewer stones than
    /// [`CUTOFF_PROBE_MOVES`]. Claimeven (at most 0, or a loss of up to
    /// [`CLAIMEVEN_LOSS`]) is only tried where it can settle the move within
    /// `(alpha, beta)`: telling losses before the last stone, and trying it
    /// down to that greatest loss, cut nodes in the same time. See
    /// reports/tuning.md.
    #[inline]
    fn bound_line_end(&self, line: &mut Line, alpha: i32, beta: i32) {
        let moves = line.end.moves();
        if moves.is_multiple_of(2)
            && (if line.ours { alpha >= -CLAIMEVEN_LOSS } else { beta <= CLAIMEVEN_LOSS })
            && let Some(bound) = line.end.claimeven_bound()
        {
            line.end_at_most(bound);
        }
        if moves < CUTOFF_PROBE_MOVES
            && let Some(entry) = self.work.table.probe(table_key_of(&line.end).0)
        {
            match entry.bound {
                Bound::Exact => {
                    line.end_at_most(entry.value);
                    line.end_at_least(entry.value);
                }
                Bound::Lower => line.end_at_least(entry.value),
                Bound::Upper => line.end_at_most(entry.value),
            }
        }
    }

    fn store(&mut self, key: u64, mirrored: bool, entry: Entry, nodes: u64) {
        let best = entry.best.map(|column| if mirrored { column.mirrored() } else { column });
        // The table keeps the entries that cost the most nodes to find.
        self.work.table.store(key, Entry { depth: u64::BITS - nodes.leading_zeros(), best, ..entry });
    }
}

/// How the search of a position's open moves ended.
enum Searched {
    /// The deadline or the node budget stopped it: the result is meaningless.
    Stopped,
    /// A move reached `beta`: its value (a lower bound) and its column.
    Cut(i32, Column),
    /// Every move was searched: the best value (exact if a move reached
    /// inside the window, else an upper bound) and the move that gave it.
    All(i32, Option<Column>),
}

/// The key a position's entry is stored under: its own key or its mirror
/// image's, the smaller, and whether it is the mirror image's.
#[inline]
fn table_key_of(position: &Position) -> (u64, bool) {
    let key = position.key();
    let mirrored_key = position.mirrored_key();
    if mirrored_key < key { (mirrored_key, true) } else { (key, false) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use maxconnect4_game::moves::Moves;
    use maxconnect4_game::rules::{Outcome, Rules};

    /// The classic value by plain alpha-beta over [`Board`], with the game's
    /// end read from [`Rules::outcome`]: independent of everything above.
    fn brute_force(board: &Board, mut alpha: i32, beta: i32) -> i32 {
        let moves = board.pieces_played();
        let mut best = i32::MIN;
        for column in board.legal_columns() {
            let child = board.after(column);
            let value = match Rules::Classic.outcome(&child) {
                Some(Outcome::Win(_)) => win_now(moves),
                Some(Outcome::Draw) => 0,
                None => -brute_force(&child, -beta, -alpha),
            };
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// A random position with `stones` stones where the game goes on.
    fn random_position(random: &mut XorShift, stones: u32) -> Option<Board> {
        let mut board = Board::empty();
        random.play_until(&mut board, Rules::Classic, 42 - stones);
        (board.empty_cells() == 42 - stones && !Rules::Classic.is_over(&board)).then_some(board)
    }

    #[test]
    fn values_and_best_moves_match_brute_force() {
        let mut random = XorShift::new(0x2545_F491_4F6C_DD1D);
        let mut solver = Solver::new(1 << 20).unwrap();
        let mut checked = 0;
        while checked < 150 {
            let stones = 31 + random.below(6) as u32;
            let Some(board) = random_position(&mut random, stones) else { continue };
            checked += 1;
            let expected = brute_force(&board, -100, 100);
            let solution = solver.solve(&board, false, None).unwrap();
            assert_eq!(solution.value, expected, "{board:?}");
            assert_eq!(solver.solve(&board, true, None).unwrap().value, expected.signum());
            let best: Vec<Column> = board
                .legal_columns()
                .filter(|&column| {
                    let child = board.after(column);
                    let value = match Rules::Classic.outcome(&child) {
                        Some(Outcome::Win(_)) => win_now(board.pieces_played()),
                        Some(Outcome::Draw) => 0,
                        None => -brute_force(&child, -100, 100),
                    };
                    value == expected
                })
                .collect();
            assert_eq!(solution.best, best, "{board:?}");
        }
    }

    #[test]
    fn claimeven_bounds_the_value_and_tells_early_losses() {
        let mut random = XorShift::new(0x1234_5678_9ABC_DEF1);
        let mut solver = Solver::new(1 << 22).unwrap();
        // How many positions claimeven bounded by each of 0, -1, -2 and -3.
        let mut seen = [0; 4];
        while seen.iter().any(|&count| count < 3) {
            let stones = 2 * (11 + random.below(6) as u32);
            let Some(board) = random_position(&mut random, stones) else { continue };
            let position = Position::of(&board);
            if position.can_win_next() {
                continue;
            }
            let Some(bound) = position.claimeven_bound() else { continue };
            let value = solver.solve(&board, false, None).unwrap().value;
            assert!(value <= bound, "{board:?}: value {value}, claimeven at most {bound}");
            seen[bound.unsigned_abs() as usize] += 1;
        }
    }

    #[test]
    fn threads_change_neither_values_nor_best_moves() {
        let mut random = XorShift::new(0x9E37_79B9_7F4A_7C15);
        let mut solvers: Vec<Solver> =
            [1, 2, 3].into_iter().map(|threads| Solver::new(1 << 20).unwrap().with_threads(threads)).collect();
        let mut checked = 0;
        while checked < 40 {
            let stones = 18 + random.below(8) as u32;
            let Some(board) = random_position(&mut random, stones) else { continue };
            checked += 1;
            for weak in [false, true] {
                let solutions: Vec<Solution> = solvers
                    .iter_mut()
                    .map(|solver| {
                        solver.clear();
                        let Solution { value, best, .. } = solver.solve(&board, weak, None).unwrap();
                        Solution { value, best, nodes: 0 }
                    })
                    .collect();
                assert!(solutions.windows(2).all(|pair| pair[0] == pair[1]), "{board:?}: {solutions:?}");
            }
        }
    }

    #[test]
    fn finished_games_have_no_best_move() {
        let mut solver = Solver::new(0).unwrap();
        let won = Moves::board(Rules::Classic, "1212121").unwrap();
        assert_eq!(solver.solve(&won, false, None).unwrap(), Solution { value: -18, best: Vec::new(), nodes: 0 });
        assert_eq!(solver.solve(&won, true, None).unwrap().value, -1);
    }

    #[test]
    fn a_budget_of_nodes_stops_at_that_node_every_time() {
        let mut solver = Solver::new(1 << 20).unwrap();
        for _ in 0..2 {
            solver.clear();
            assert_eq!(solver.board_value_within(&Board::empty(), true, 5000), Err(OutOfTime { nodes: 5000 }));
        }
        let board = Moves::board(Rules::Classic, "52753311433677442422121").unwrap();
        let value = solver.board_value(&board, true, None).unwrap();
        solver.clear();
        assert_eq!(solver.board_value_within(&board, true, 1_000_000), Ok(value));
    }

    #[test]
    fn the_deadline_stops_a_long_solve() {
        let mut solver = Solver::new(1 << 20).unwrap();
        let result = solver.solve(&Board::empty(), false, Some(Duration::from_millis(50)));
        assert!(matches!(result, Err(OutOfTime { .. })));
    }
}
