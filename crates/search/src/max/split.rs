//! Positions whose moves several threads search at once: "young brothers
//! wait" (Feldmann's YBWC), the split search of parallel alpha-beta.
//!
//! A thread searches a position's first move alone, since it usually sets
//! the bound that makes the others quick to refute, or refutes the position
//! itself. Only then, if another thread is idle, does it offer the rest of
//! the moves: every thread working on the position takes the next move not
//! yet taken, tests it against the best value found so far (which any of
//! them may raise), and reports its value. A value at or above beta cuts the
//! position: the threads still searching its moves give them up.
//!
//! Threads sharing only the table ("lazy SMP", the engine's earlier scheme)
//! each search the whole tree and meet in it by chance: on one-move searches
//! to depth 20, two threads visited 1.8 times the nodes of one and took as
//! long. Splitting gives each thread moves no other is searching.
//!
//! A thread that offered a position and has run out of its moves waits for
//! the others to finish theirs, and meanwhile helps with positions offered
//! below it (only those: their results are the ones it is waiting for).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard};

use super::ordering::ColumnOrder;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::value::Value;

/// Positions nearer the horizon than this are never split: their searches
/// are too short to repay handing moves to another thread. With two threads,
/// 4, 6, 8 and 10 gave the same times within the noise (one-move to depths
/// 21 and 22 and `solve` on `input_files/input1.txt` and `input2.txt`).
pub const MIN_DEPTH: u32 = 6;

/// A position whose remaining moves are searched by several threads.
pub struct Split {
    pub board: Board,
    /// Plies left to search from the position.
    pub depth: u32,
    pub beta: Value,
    /// The split this position was reached under, if any: when that one is
    /// cut, so is this.
    parent: Option<Arc<Split>>,
    /// A move's value reached beta: the other moves no longer matter.
    cut: AtomicBool,
    state: Mutex<State>,
}

/// What the threads searching a split share, behind its lock.
struct State {
    /// The best value so far or the split's own alpha, whichever is higher.
    alpha: Value,
    best: Value,
    best_move: Option<Column>,
    /// Where the best move comes in the order the moves are searched in: of
    /// moves of equal value the earliest is kept, as one thread would.
    best_rank: u32,
    /// The moves no thread has taken yet.
    moves: ColumnOrder,
    /// How many moves have been taken, those searched before the split
    /// counting as one.
    taken: u32,
    /// Threads searching one of its moves (the one that offered it included).
    searching: usize,
}

impl Split {
    /// A split of `board`, whose first moves have given `best` (by
    /// `best_move`) and raised alpha to `alpha`, with `moves` still to search,
    /// by the thread creating it (counted as searching).
    pub fn new(
        board: Board,
        depth: u32,
        (alpha, beta): (Value, Value),
        (best, best_move): (Value, Option<Column>),
        moves: ColumnOrder,
        parent: Option<Arc<Split>>,
    ) -> Split {
        Split {
            board,
            depth,
            beta,
            parent,
            cut: AtomicBool::new(false),
            state: Mutex::new(State { alpha, best, best_move, best_rank: 0, moves, taken: 1, searching: 1 }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A thread holds the lock for a few instructions that cannot panic.
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The best value and move found, once every thread has left.
    pub fn result(&self) -> (Value, Option<Column>) {
        let state = self.state();
        (state.best, state.best_move)
    }

    /// A move to search; `None` when every move is taken or the split was cut.
    pub fn next_move(&self) -> Option<Taken> {
        if self.cut() {
            return None;
        }
        let mut state = self.state();
        let column = state.moves.next()?;
        state.taken += 1;
        Some(Taken { column, alpha: state.alpha, rank: state.taken - 1, last: state.moves.peek().is_none() })
    }

    /// The value of the move `taken`, from a last search with `alpha` (no
    /// higher than the split's alpha now; fail-soft: at most `alpha` means
    /// at most that value, above it at least that value).
    pub fn report(&self, taken: &Taken, value: Value, alpha: Value) {
        let mut state = self.state();
        // A move at least as good as the best so far, and earlier in the
        // order, is the one a single thread would keep. A move only known to
        // be no better (`value <= alpha`) may be worse: it keeps nothing.
        let earlier_tie = value == state.best && value > alpha && taken.rank < state.best_rank;
        let (column, rank) = (taken.column, taken.rank);
        if value > state.best || earlier_tie {
            state.best = value;
            state.best_move = Some(column);
            state.best_rank = rank;
            if value > state.alpha {
                state.alpha = value;
                if value >= self.beta {
                    self.cut.store(true, Relaxed);
                }
            }
        }
    }

    /// The split's alpha now: the best value so far, if above its own alpha.
    pub fn alpha(&self) -> Value {
        self.state().alpha
    }

    /// Whether this split or one it lies under was cut: a thread searching
    /// one of its moves is wasting its time.
    pub fn cut(&self) -> bool {
        let mut split = Some(self);
        while let Some(this) = split {
            if this.cut.load(Relaxed) {
                return true;
            }
            split = this.parent.as_deref();
        }
        false
    }

    /// Joins the threads searching this split, if it has a move left.
    fn join(&self) -> bool {
        if self.cut() {
            return false;
        }
        let mut state = self.state();
        let open = state.moves.peek().is_some();
        if open {
            state.searching += 1;
        }
        open
    }

    /// The calling thread has done with this split's moves.
    pub fn leave(&self) {
        self.state().searching -= 1;
    }

    /// Whether any thread is still searching one of this split's moves.
    pub fn searching(&self) -> bool {
        self.state().searching > 0
    }

    /// Whether this split lies under `ancestor` (or is it).
    fn under(&self, ancestor: &Split) -> bool {
        let mut split = Some(self);
        while let Some(this) = split {
            if std::ptr::eq(this, ancestor) {
                return true;
            }
            split = this.parent.as_deref();
        }
        false
    }
}

/// A move of a split handed to a thread.
pub struct Taken {
    pub column: Column,
    /// The split's alpha when it was taken, to search it against.
    pub alpha: Value,
    /// Its place in the order of the split's moves.
    rank: u32,
    /// It was the split's last move.
    pub last: bool,
}

/// The splits offered to idle threads, and how many threads are idle.
#[derive(Default)]
pub struct Pool {
    offers: Mutex<Vec<Arc<Split>>>,
    /// `offers.len()`, read without the lock.
    offered: AtomicUsize,
    /// Threads waiting for a split to join. (A thread waiting for the moves
    /// of its own split counts, though it joins only splits under it: with
    /// more than two threads, another may offer it a split it cannot take,
    /// which costs the offer and the moves' locks and no search.)
    idle: AtomicUsize,
}

impl Pool {
    fn offers(&self) -> MutexGuard<'_, Vec<Arc<Split>>> {
        self.offers.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Whether a split offered now would find a thread to take it.
    #[inline]
    pub fn wanted(&self) -> bool {
        self.idle.load(Relaxed) > self.offered.load(Relaxed)
    }

    /// Offers `split`'s moves to idle threads.
    pub fn offer(&self, split: &Arc<Split>) {
        let mut offers = self.offers();
        offers.push(Arc::clone(split));
        self.offered.store(offers.len(), Relaxed);
    }

    /// Takes `split` off the offers.
    pub fn withdraw(&self, split: &Arc<Split>) {
        let mut offers = self.offers();
        offers.retain(|offer| !Arc::ptr_eq(offer, split));
        self.offered.store(offers.len(), Relaxed);
    }

    /// Joins the offered split with the most plies left to search (the most
    /// work), among those under `under` if given.
    pub fn join(&self, under: Option<&Split>) -> Option<Arc<Split>> {
        if self.offered.load(Relaxed) == 0 {
            return None;
        }
        let offers = self.offers();
        let mut candidates: Vec<&Arc<Split>> =
            offers.iter().filter(|split| under.is_none_or(|ancestor| split.under(ancestor))).collect();
        candidates.sort_by_key(|split| std::cmp::Reverse(split.depth));
        candidates.into_iter().find(|split| split.join()).cloned()
    }

    /// The calling thread waits for work (counted as idle meanwhile).
    pub fn idle(&self) -> Idle<'_> {
        self.idle.fetch_add(1, Relaxed);
        Idle { pool: self, pauses: 0 }
    }
}

/// A thread's time without work: counted in [`Pool`] while it lasts.
pub struct Idle<'a> {
    pool: &'a Pool,
    pauses: u32,
}

impl Idle<'_> {
    /// Lets a little time pass before the thread looks for work again. It
    /// spins, since work usually comes within microseconds, and only now and
    /// then gives up its core: a thread that gives it up at every pause, on
    /// a machine where other programs run, waits for them each time.
    pub fn pause(&mut self) {
        std::hint::spin_loop();
        self.pauses = self.pauses.wrapping_add(1);
        if self.pauses.is_multiple_of(4096) {
            std::thread::yield_now();
        }
    }
}

impl Drop for Idle<'_> {
    fn drop(&mut self) {
        self.pool.idle.fetch_sub(1, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(number: usize) -> Column {
        Column::from_number(number).unwrap()
    }

    /// A split of the empty board whose first move, column 4, gave 0,
    /// with columns 3, 5 and 2 left, beta 10, under `parent`.
    fn split(parent: Option<Arc<Split>>) -> Arc<Split> {
        let moves = [3, 5, 2].into_iter().map(column).collect();
        Arc::new(Split::new(Board::empty(), 8, (0, 10), (0, Some(column(4))), moves, parent))
    }

    /// The column, alpha, rank and lastness of the next move of `split`.
    fn next(split: &Split) -> Option<(Column, Value, u32, bool)> {
        split.next_move().map(|taken| (taken.column, taken.alpha, taken.rank, taken.last))
    }

    #[test]
    fn moves_are_handed_out_once_each_with_the_alpha_of_the_moment() {
        let split = split(None);
        let third = split.next_move().unwrap();
        assert_eq!((third.column, third.alpha, third.rank, third.last), (column(3), 0, 1, false));
        split.report(&third, 4, 0);
        assert_eq!(next(&split), Some((column(5), 4, 2, false)));
        // A move failing low leaves the best alone.
        let fifth = Taken { column: column(5), alpha: 4, rank: 2, last: false };
        split.report(&fifth, -3, 4);
        assert_eq!(next(&split), Some((column(2), 4, 3, true)));
        assert_eq!(next(&split), None);
        assert_eq!(split.result(), (4, Some(column(3))));
        assert_eq!(split.alpha(), 4);
    }

    #[test]
    fn of_moves_as_good_as_the_best_the_earliest_is_kept() {
        let split = split(None);
        let third = split.next_move().unwrap();
        let fifth = split.next_move().unwrap();
        // The later move is reported first; the earlier, as good, replaces it.
        split.report(&fifth, 2, 0);
        split.report(&third, 2, 0);
        assert_eq!(split.result(), (2, Some(column(3))));
        // Not the other way round.
        split.report(&fifth, 2, 0);
        assert_eq!(split.result(), (2, Some(column(3))));
        // An earlier move only known to be no better than the best may be
        // worse: it does not replace it.
        let split = self::split(None);
        let third = split.next_move().unwrap();
        let fifth = split.next_move().unwrap();
        split.report(&fifth, 2, 0);
        split.report(&third, 2, 2);
        assert_eq!(split.result(), (2, Some(column(5))));
        // Nor does a move tie the one searched before the split.
        let split = self::split(None);
        let third = split.next_move().unwrap();
        split.report(&third, 0, -1);
        assert_eq!(split.result(), (0, Some(column(4))));
    }

    #[test]
    fn a_cut_stops_the_split_and_every_split_under_it() {
        let parent = split(None);
        let child = split(Some(Arc::clone(&parent)));
        let grandchild = split(Some(Arc::clone(&child)));
        let taken = child.next_move().unwrap();
        child.report(&taken, 10, 0);
        assert!(child.cut() && grandchild.cut() && !parent.cut());
        assert!(child.next_move().is_none());
        assert!(grandchild.next_move().is_none());
        assert!(parent.next_move().is_some());
    }

    #[test]
    fn threads_join_offered_splits_with_moves_left_deepest_first() {
        let pool = Pool::default();
        assert!(!pool.wanted(), "no thread is idle");
        let idle = pool.idle();
        assert!(pool.wanted());
        let shallow = split(None);
        let deep = Arc::new(Split::new(
            Board::empty(),
            12,
            (0, 10),
            (0, Some(column(4))),
            [column(1)].into_iter().collect(),
            None,
        ));
        pool.offer(&shallow);
        assert!(!pool.wanted(), "the idle thread has an offer already");
        pool.offer(&deep);
        let joined = pool.join(None).unwrap();
        assert!(Arc::ptr_eq(&joined, &deep));
        assert!(deep.searching());
        // Its only move taken, the deep split is no longer joined.
        deep.next_move().unwrap();
        assert!(Arc::ptr_eq(&pool.join(None).unwrap(), &shallow));
        // A thread waiting on `deep` only joins splits under it.
        assert!(pool.join(Some(&deep)).is_none());
        let below = split(Some(Arc::clone(&deep)));
        pool.offer(&below);
        assert!(Arc::ptr_eq(&pool.join(Some(&deep)).unwrap(), &below));
        pool.withdraw(&below);
        pool.withdraw(&shallow);
        pool.withdraw(&deep);
        assert!(pool.join(None).is_none());
        drop(idle);
        assert!(!pool.wanted());
    }

    #[test]
    fn a_split_is_searched_until_every_thread_leaves() {
        let split = split(None);
        let pool = Pool::default();
        pool.offer(&split);
        let helper = pool.join(None).unwrap();
        split.leave();
        assert!(split.searching(), "the helper is still searching");
        helper.leave();
        assert!(!split.searching());
    }
}
