//! The Max-Connect4 engine's tree search, as one thread runs it:
//! alpha-beta in negamax form (principal variation search) with the exact
//! score bounds, the table, the follow-up strategy's bounds where the search
//! reaches the end of the game, and the positions it splits with other
//! threads ([`super::split`]). [`negamax`](Searcher::negamax) deals with the
//! positions near the horizon and the end of the game inline
//! ([`horizon`](Searcher::horizon), [`endgame`](Searcher::endgame)) and hands
//! the rest to [`interior`](Searcher::interior); the engine
//! ([`super::engine`]) runs the iterations and the threads.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

use super::follow_up;
use super::ordering::{ColumnOrder, Tallies, answer_first, by_threats, ordered_moves};
use super::split::{self, Pool, Split};
use crate::Progress;
use crate::table::{Bound, Entry, Pause, Table};
use maxconnect4_game::bitboard::{CELLS, COLUMN_BITS, WIDTH, column_cells};
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::score::{bounds, bounds_for, evaluate, value_after};
use maxconnect4_game::value::{INFINITY, POINT, Value};

/// Table entries are probed and stored only this many plies or more from the
/// search horizon; nearer the leaves a lookup costs more than it saves.
const TABLE_MIN_DEPTH: u32 = 2;

/// Positions this close to the end of the game are solved by
/// [`Searcher::endgame`].
const ENDGAME_EMPTY: u32 = 6;

/// Where the search reaches the end of the game, enhanced transposition
/// cutoffs are tried only this many empty cells or more from it: nearer,
/// the probes of the children's slots wait for memory longer than the
/// searches they save take. From 10 cost fewer instructions than from 9 or
/// 12. See reports/tuning.md.
const ETC_MIN_EMPTY: u32 = 10;

/// Positions with fewer empty cells than this, but more than
/// [`ENDGAME_EMPTY`], are not cut on the follow-up strategy's bounds: there
/// they cut few positions, and cost more than the searches they saved.
/// From 9 cost fewer instructions than from 7, 10 or 11. See
/// reports/tuning.md.
const FOLLOW_UP_MIN_EMPTY: u32 = 9;

/// In [`Searcher::endgame`], the follow-up bounds are tried only at
/// positions with this many empty cells (where it starts): below, the few
/// cuts they make save less than they cost, and never trying them costs
/// more still. See reports/tuning.md.
const ENDGAME_FOLLOW_UP_EMPTY: u32 = 6;

/// Where the search reaches the end of the game, a position with this many
/// empty cells or more shares its table entry with its mirror image: from a
/// symmetric position (the empty board, `4444`) every position below comes
/// with its mirror image, whose subtree is then found in the table. On
/// asymmetric positions it saves nothing, and the mirrored key costs each
/// position above the threshold a little time; from 24, symmetric ones keep
/// most of the saving. See reports/tuning.md.
const MIRROR_MIN_EMPTY: u32 = 24;

/// The clock, and whether the search was stopped or the split being searched
/// cut, are read once every this many nodes (about 50 microseconds).
const CLOCK_INTERVAL: u64 = 1024;

/// When a search stops before it is done: at a moment (`deadline`), or
/// once this thread has visited `nodes` positions, a budget that, unlike
/// the clock, stops a search of one thread at the same node every time.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Stop {
    pub deadline: Option<Instant>,
    pub nodes: Option<u64>,
}

/// One thread's search: its own counters, and the table and flags it shares
/// with the other threads.
pub(super) struct Searcher<'a> {
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
    stop: Stop,
    progress: &'a Progress,
    /// See [`Engine::canceller`](crate::Engine::canceller).
    cancelled: &'a AtomicBool,
    /// The time ran out, or the split this thread is searching under was
    /// cut: the search's results are meaningless from then on.
    stopped: bool,
    /// Whether this is a solve's search to the end of the game with a
    /// narrow window (see [`interior`](Searcher::interior)'s ordering).
    solving: bool,
    /// Positions searched to the end of the game with this many empty
    /// cells or more share their table entry with their mirror image
    /// ([`MIRROR_MIN_EMPTY`]; lower in the tests, to try it on small trees).
    mirror_min_empty: u32,
    /// Where the table grows during the search (a solve's), the pause all
    /// the search's threads take for it, and this thread's nodes as of its
    /// last check.
    growth: Option<(&'a Pause, u64)>,
    /// The move that led to the position this thread is searching with
    /// each number of empty cells, by that number (`None` at the search's
    /// root): the first player answers on top of it first in a solve (see
    /// [`search_moves`](Searcher::search_moves)). Every child this searcher
    /// makes is made by [`play`](Searcher::play), which keeps it; a stale
    /// entry could only change the order of the moves, never a value.
    played: [Option<Column>; CELLS + 1],
}

impl<'a> Searcher<'a> {
    /// A thread's search of `table`, offering splits to `pool` if given
    /// (with other threads) and stopping as `stop` says or once `cancelled`
    /// is set (a search with a deadline only), counting its nodes in
    /// `progress`; `solving` as the field says.
    pub(super) fn new(
        table: &'a Table,
        pool: Option<&'a Pool>,
        stop: Stop,
        progress: &'a Progress,
        cancelled: &'a AtomicBool,
        solving: bool,
    ) -> Searcher<'a> {
        Searcher {
            table,
            pool,
            split: None,
            nodes: 0,
            reported: 0,
            next_clock_check: 0,
            stop,
            progress,
            cancelled,
            stopped: false,
            solving,
            mirror_min_empty: MIRROR_MIN_EMPTY,
            growth: None,
            played: [None; CELLS + 1],
        }
    }

    /// The same search, letting the table grow as it goes: at each check of
    /// the clock this thread counts its nodes into `pause`, and waits there
    /// while the table grows once they call for it. Every thread of the
    /// search must take part, and [`leave`](Searcher::leave) it when done.
    pub(super) const fn growing(mut self, pause: &'a Pause) -> Searcher<'a> {
        self.growth = Some((pause, 0));
        self
    }

    /// Counts this thread out of the table's growth: the other threads no
    /// longer wait for it.
    pub(super) fn leave(&mut self) {
        if let Some((pause, _)) = self.growth.take() {
            pause.leave(self.table);
        }
    }

    /// Counts the nodes since the last check towards the table's growth,
    /// and waits while it grows if it is due.
    #[cold]
    fn check_growth(&mut self) {
        if let Some((pause, counted)) = &mut self.growth {
            pause.check(self.table, self.nodes - *counted);
            *counted = self.nodes;
        }
    }

    /// Positions this thread has visited.
    pub(super) const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the search was stopped (by the clock, the canceller or a cut
    /// above): its result is meaningless.
    pub(super) const fn stopped(&self) -> bool {
        self.stopped
    }

    /// Adds the nodes visited since the last report to the progress figures.
    pub(super) fn report_progress(&mut self) {
        self.progress.add_nodes(self.nodes - self.reported);
        self.reported = self.nodes;
    }

    /// Whether the search must stop: the time or the nodes ran out, or the
    /// split this thread is searching under was cut.
    fn must_stop(&self) -> bool {
        // Cancelling, like the clock, spares the first iteration: there is
        // always a move.
        self.stop.deadline.is_some_and(|deadline| Instant::now() >= deadline || self.cancelled.load(Relaxed))
            || self.stop.nodes.is_some_and(|nodes| self.nodes >= nodes)
            || self.split.as_ref().is_some_and(|split| split.cut())
    }

    /// A helper thread's work: searching the moves of the splits other
    /// threads offer, until `done`.
    pub(super) fn help(&mut self, pool: &Pool, done: &AtomicBool) {
        while let Some(split) = self.wait_for_split(pool, None, || done.load(Relaxed)) {
            self.search_split(&split);
        }
    }

    /// Waits, idle, for a split to join (under `under` if given) until
    /// `over()`, which ends the wait with `None`. A stopped thread joins
    /// nothing: it would only leave again.
    fn wait_for_split(&mut self, pool: &Pool, under: Option<&Split>, over: impl Fn() -> bool) -> Option<Arc<Split>> {
        let mut idle = pool.idle();
        loop {
            if over() {
                return None;
            }
            // An idle thread takes part in the table's growth too, or the
            // others would wait for it for ever.
            self.check_growth();
            if !self.stopped
                && let Some(split) = pool.join(under)
            {
                return Some(split);
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
            let child = self.play(&split.board, taken.column, None);
            let (value, alpha) = self.test_split_move(split, &child, taken.alpha);
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

    /// The board after `column` is played on `board` (with the tally after
    /// each move, if known), the move kept in [`played`](Searcher::played).
    #[inline(always)]
    fn play(&mut self, board: &Board, column: Column, tallies: Option<&Tallies>) -> Board {
        self.played[board.empty_cells() as usize - 1] = Some(column);
        after(board, column, tallies)
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
        moves: ColumnOrder,
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
    pub(super) fn root(&mut self, board: &Board, depth: u32) -> Option<(Column, Value)> {
        self.nodes += 1;
        let key = board.key();
        let first = self.table.probe(key).and_then(|entry| entry.best);
        let mut moves = ordered_moves(board, depth, first, 0, None);
        let eldest = first.or_else(|| moves.next()).expect("the board is not full");
        let child = self.play(board, eldest, None);
        let mut best = (-self.negamax(&child, depth - 1, -INFINITY, INFINITY), Some(eldest));
        while !self.stopped {
            if let Some(pool) = self.pool_for_split(depth, moves) {
                best = self.split(pool, board, depth, (best.0, INFINITY), best, moves);
                break;
            }
            let Some(column) = moves.next() else { break };
            let child = self.play(board, column, None);
            let value = self.test_move(&child, depth, best.0, INFINITY);
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
    fn pool_for_split(&self, depth: u32, moves: ColumnOrder) -> Option<&'a Pool> {
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
    pub(super) fn negamax(&mut self, board: &Board, depth: u32, alpha: Value, beta: Value) -> Value {
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
            self.check_growth();
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

        let (key, mirrored) = self.table_key(board.key(), depth, to_the_end);
        let mut first = None;
        if children_stored {
            // Start loading the children's entries now, so that they arrive
            // while this position's own entry is awaited.
            for column in board.legal_columns() {
                self.table.prefetch(self.table_key(board.key_after(column), depth - 1, to_the_end).0);
            }
        }
        if depth >= TABLE_MIN_DEPTH
            && let Some(entry) = self.table.probe(key)
        {
            first = entry.best.map(|column| mirror_if(column, mirrored));
            if entry.depth == depth
                && let Some(value) = entry.cut_or_narrow(&mut alpha, &mut beta)
            {
                return value;
            }
        }

        // The follow-up strategy's bounds cost more than a table probe.
        if to_the_end
            && depth >= FOLLOW_UP_MIN_EMPTY
            && let Some(value) = follow_up_cut(board, alpha, beta)
        {
            return value;
        }

        if children_stored
            && !(to_the_end && depth < ETC_MIN_EMPTY)
            && let Some(value) = self.child_cut(board, depth, beta, to_the_end)
        {
            return value;
        }
        let searched_alpha = alpha;
        let mut best = -INFINITY;
        // Moves whose child the score bounds settle are not made at all.
        let mut settled = 0;
        let mut tallies = None;
        if to_the_end {
            let found;
            (best, settled, found) = match settled_by_bounds(board, alpha, beta) {
                Ok(settled) => settled,
                Err(value) => return value,
            };
            tallies = Some(found);
            first = first.filter(|&column| board.landing_cell(column) & settled == 0);
        }
        let window = (alpha, beta);
        let Some((best_value, best_move)) =
            self.search_moves(board, depth, window, (first, settled, tallies.as_ref()), best)
        else {
            return 0;
        };

        if depth >= TABLE_MIN_DEPTH {
            let bound = if best_value <= searched_alpha {
                Bound::Upper
            } else if best_value >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let best = best_move.map(|column| mirror_if(column, mirrored));
            self.table.store(key, Entry { value: best_value, bound, depth, best });
        }
        best_value
    }

    /// The key under which the table keeps the position with `key`, searched
    /// to `depth` (to the end of the game if `to_the_end`), and whether it
    /// is its mirror image's key. An entry always describes the position
    /// whose key it is stored under, in that position's own columns, so
    /// the keys of both kinds can share the table.
    #[inline(always)]
    fn table_key(&self, key: u64, depth: u32, to_the_end: bool) -> (u64, bool) {
        if to_the_end && depth >= self.mirror_min_empty {
            let mirrored = mirror_key(key);
            if mirrored < key {
                return (mirrored, true);
            }
        }
        (key, false)
    }

    /// Enhanced transposition cutoff: the value of a move whose child the
    /// table already knows to be good enough for the mover to cut, without
    /// searching it.
    #[inline(always)]
    fn child_cut(&self, board: &Board, depth: u32, beta: Value, to_the_end: bool) -> Option<Value> {
        for column in board.legal_columns() {
            if let Some(entry) = self.table.probe(self.table_key(board.key_after(column), depth - 1, to_the_end).0) {
                // An exact value or upper bound for the child, searched to
                // the depth it would be searched to here, bounds this move
                // from below.
                if entry.depth == depth - 1 && entry.bound != Bound::Lower && -entry.value >= beta {
                    return Some(-entry.value);
                }
            }
        }
        None
    }

    /// The moves of an [`interior`](Searcher::interior) position searched,
    /// the table's move `first` first, those in `settled` not at all (with
    /// the tally after each move, if known): the best value (at least
    /// `best`, the settled moves' bound) and the move that gave it, or
    /// `None` when the search was stopped.
    #[inline(always)]
    fn search_moves(
        &mut self,
        board: &Board,
        depth: u32,
        (mut alpha, beta): (Value, Value),
        (first, settled, tallies): (Option<Column>, u64, Option<&Tallies>),
        mut best: Value,
    ) -> Option<(Value, Option<Column>)> {
        let mut best_move = None;
        // The table's move often cuts at once, before the others are ordered.
        if let Some(column) = first {
            let child = self.play(board, column, tallies);
            let value = -self.negamax(&child, depth - 1, -beta, -alpha);
            if self.stopped {
                return None;
            }
            // Not `best = value`: a settled move's bound may be higher,
            // and a value failing low must bound every move from above.
            best = best.max(value);
            best_move = first;
            if best >= beta {
                return Some((best, best_move));
            }
            alpha = alpha.max(best);
        }
        // In a solve's search with a narrow window, positions with the
        // first player to move (an even number of empty cells) were
        // expected to fail low, and those with the second player to
        // move to cut: the second player holds the first to about the
        // value the windows test. The parity counted from the window
        // search's start instead took 2.3 to 3.2 times the nodes there
        // (35 empty cells); ordering every position by the evaluation,
        // 1.6 times the nodes on `input_files/input2.txt`. Counted
        // since, most of the first player's positions cut after all (at
        // 8 and 10 empty cells, four in five), and ordering them by
        // threats alone, the cheap order of the positions near the
        // horizon, took 1.7 times fewer nodes than centre first and 1.5
        // times less time (six positions of 30 empty cells); by the
        // evaluation, 1.2 times fewer nodes but more time, and more
        // nodes where many cells are empty. See reports/solving.md.
        //
        // Before those, the first player answers on top of the second
        // player's last move, as the follow-up strategy would. Where that
        // proves their bound, so it often does again after the second
        // player's other moves: the answered pairs of moves commute, so the
        // proof's positions come again and again in other orders, and the
        // table holds them. On `3764` (38 empty cells, full solve, one
        // thread), 3.6 times fewer nodes and 4.5 times less time; on eight
        // positions of 30 and 34 empty cells (values alone), 2.3 times fewer
        // nodes; the second player answering so was worse (1.4 times the
        // nodes). See reports/solving.md.
        let first_player_in_solve = self.solving && board.empty_cells().is_multiple_of(2);
        let mut moves = if first_player_in_solve {
            answer_first(by_threats(board, first, settled), self.played[board.empty_cells() as usize])
        } else {
            ordered_moves(board, depth, first, settled, tallies)
        };
        loop {
            // Young brothers wait: only once a move has been searched are
            // the others shared with idle threads.
            if best_move.is_some()
                && let Some(pool) = self.pool_for_split(depth, moves)
            {
                (best, best_move) = self.split(pool, board, depth, (alpha, beta), (best, best_move), moves);
                if self.stopped {
                    return None;
                }
                break;
            }
            let Some(column) = moves.next() else { break };
            let child = self.play(board, column, tallies);
            let value = if best_move.is_some() {
                self.test_move(&child, depth, alpha, beta)
            } else {
                -self.negamax(&child, depth - 1, -beta, -alpha)
            };
            if self.stopped {
                return None;
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

        Some((best, best_move))
    }

    /// [`negamax`](Searcher::negamax) for the last few moves of the game: so
    /// few positions lie below that the table, the clock and move ordering
    /// cost more than they save; only the score bounds are kept.
    fn endgame(&mut self, board: &Board, alpha: Value, beta: Value) -> Value {
        let (mut alpha, beta) = match narrow_to_bounds(board, alpha, beta) {
            Ok(window) => window,
            Err(value) => return value,
        };
        if board.empty_cells() >= ENDGAME_FOLLOW_UP_EMPTY
            && let Some(value) = follow_up_cut(board, alpha, beta)
        {
            return value;
        }
        let playable = board.playable_cells();
        if board.empty_cells() == 1 {
            // The last move: its value is the final score, read without making it.
            self.nodes += 1;
            return value_after(board, playable);
        }
        let (mut best, settled, tallies) = match settled_by_bounds(board, alpha, beta) {
            Ok(settled) => settled,
            Err(value) => return value,
        };
        let playable = playable & !settled;
        for column in Column::CENTRE_FIRST {
            if playable & column_cells(column.index()) == 0 {
                continue;
            }
            let child = board.after_tallied(column, tallies[column.index()]);
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
}

/// The key of the mirror image of the position with `key` (see
/// [`Board::key`]): its columns, seven bits each, in the opposite order.
#[inline(always)]
fn mirror_key(key: u64) -> u64 {
    const COLUMN: u64 = (1 << COLUMN_BITS) - 1;
    let mut mirrored = 0;
    for column in 0..WIDTH {
        mirrored |= (key >> (column * COLUMN_BITS) & COLUMN) << ((WIDTH - 1 - column) * COLUMN_BITS);
    }
    mirrored
}

/// `column`, or in the mirror image if `mirrored`.
#[inline(always)]
fn mirror_if(column: Column, mirrored: bool) -> Column {
    if mirrored { column.mirrored() } else { column }
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
/// their cells, and the tally after each move. (Inlined: when it was not,
/// with the tallies to hand back, the search took 4% more instructions.)
#[inline(always)]
fn settled_by_bounds(board: &Board, alpha: Value, beta: Value) -> Result<(Value, u64, Tallies), Value> {
    let mover = board.to_move();
    let mut best = -INFINITY;
    let mut settled = 0;
    let mut tallies = [board.tally(); WIDTH];
    let mut cells = board.playable_cells();
    while cells != 0 {
        let cell = cells & cells.wrapping_neg();
        cells ^= cell;
        let tally = board.tally_after(cell);
        tallies[cell.trailing_zeros() as usize / COLUMN_BITS] = tally;
        let (lower, upper) = bounds_for(tally, mover);
        let (lower, upper) = (lower * POINT, upper * POINT);
        if lower >= beta {
            return Err(lower);
        }
        if upper <= alpha {
            best = best.max(upper);
            settled |= cell;
        }
    }
    Ok((best, settled, tallies))
}

/// The board after `column` is played on `board`, with the tally after
/// each move if known.
#[inline(always)]
fn after(board: &Board, column: Column, tallies: Option<&Tallies>) -> Board {
    match tallies {
        Some(tallies) => board.after_tallied(column, tallies[column.index()]),
        None => board.after(column),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alpha_beta;
    use maxconnect4_game::player::Player;

    /// Plays random moves (from `seed`) from `board` until `empty` cells are left.
    fn play_randomly(seed: &mut u64, mut board: Board, empty: u32) -> Board {
        while board.empty_cells() > empty {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let legal: Vec<Column> = board.legal_columns().collect();
            board.play(legal[(*seed >> 33) as usize % legal.len()]);
        }
        board
    }

    fn mirror(board: &Board) -> Board {
        let [one, two] = Player::BOTH.map(|player| mirror_key(board.pieces(player)));
        Board::from_pieces(one, two, board.to_move()).unwrap()
    }

    #[test]
    fn a_mirrored_key_is_the_mirror_images_key() {
        let mut seed = 5;
        for empty in (0..42).step_by(3) {
            let board = play_randomly(&mut seed, Board::empty(), empty);
            assert_eq!(mirror_key(board.key()), mirror(&board).key(), "{board:?}");
            assert_eq!(mirror_key(mirror_key(board.key())), board.key());
        }
    }

    /// Positions near the end of the game, searched with every key mirrored
    /// where that makes it smaller, on one table shared by each position and
    /// its mirror image (so that entries stored for one serve the other):
    /// every null window around the exact value, and the whole window, give
    /// what the plain alpha-beta search's value says they must. Half the
    /// positions are played from a symmetric start, where the mirror images
    /// of positions meet in one tree.
    #[test]
    fn searches_with_mirrored_keys_agree_with_a_full_search() {
        let table = Table::with_bytes(1 << 20).unwrap();
        let progress = Progress::default();
        let cancelled = AtomicBool::new(false);
        let symmetric =
            maxconnect4_game::moves::Moves::board(maxconnect4_game::rules::Rules::Max, "444433553355662211").unwrap();
        let mut seed = 11;
        let mut mirrored_roots = 0;
        let mut moves_checked = 0;
        for round in 0..60 {
            let empty = 8 + round % 7;
            let start = if round % 2 == 0 { symmetric } else { Board::empty() };
            let board = play_randomly(&mut seed, start, empty);
            let value = alpha_beta(&board, empty).unwrap().value;
            for board in [board, mirror(&board)] {
                let mut searcher = Searcher::new(&table, None, Stop::default(), &progress, &cancelled, true);
                searcher.mirror_min_empty = 0;
                mirrored_roots += u32::from(searcher.table_key(board.key(), empty, true).1);
                assert_eq!(searcher.negamax(&board, empty, -INFINITY, INFINITY), value, "{board:?}");
                for alpha in (value / POINT - 2..=value / POINT + 1).map(|points| points * POINT) {
                    let result = searcher.negamax(&board, empty, alpha, alpha + POINT);
                    if result <= alpha {
                        assert!(value <= result, "{value} > {result} at {alpha}\n{board:?}");
                    } else {
                        assert!(value >= result && result >= alpha + POINT, "{value} < {result} at {alpha}\n{board:?}");
                    }
                }
            }
            // Both read one entry, each its move in its own columns.
            let best = [board, mirror(&board)].map(|board| {
                let searcher = Searcher::new(&table, None, Stop::default(), &progress, &cancelled, true);
                let (key, mirrored) = Searcher { mirror_min_empty: 0, ..searcher }.table_key(board.key(), empty, true);
                table.probe(key).and_then(|entry| entry.best).map(|column| mirror_if(column, mirrored))
            });
            if let [Some(column), Some(mirrored)] = best {
                assert!(board.can_play(column), "{column} {board:?}");
                assert_eq!(mirrored.index(), WIDTH - 1 - column.index(), "{board:?}");
                moves_checked += 1;
            }
        }
        assert!(mirrored_roots >= 30, "{mirrored_roots}");
        assert!(moves_checked >= 30, "{moves_checked}");
    }
}
