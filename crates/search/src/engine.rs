//! The engine: one interface to the searches of either rules, chosen once
//! when it is made ([`Engine::for_rules`]), so that no caller asks which
//! rules it has. Under Max-Connect4 rules it is the engine of
//! [`super::max`]; under classic rules the player and solver of
//! [`super::classic`]. Both search to a depth or a time, solve exactly,
//! give the value of every move, report their progress and can be
//! cancelled, and solve strongly (the score) or weakly (win, draw or loss).
//! Where the rules' searches differ, the difference is in this interface
//! rather than ignored: only the classic solver counts a budget of nodes
//! ([`Engine::proven_result`], [`SolveError::NodeBudgetUnsupported`]).
//!
//! Under either rules the engine may hold an opening book
//! ([`Engine::with_book`]; [`Engine::for_rules`] takes the shipped one):
//! the solves ([`Engine::solve`], [`Engine::exact_value`],
//! [`Engine::move_values`], [`Engine::move_value`]) answer from it at once,
//! with no node visited, wherever it holds what they are asked, and search
//! as before past it; at its deepest positions, whose values it holds but
//! not their children's, the Max-Connect4 solves search for the best moves
//! knowing the value. The depth-limited [`Engine::search`] is the rules'
//! own: under Max-Connect4 rules it never reads the book (it is the
//! assignment's search, which agrees with plain alpha-beta), under classic
//! rules the player reads it itself. Playing from the book, or perfectly,
//! is `search::perfect`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::book::Book;
use super::classic::{self, ClassicEngine};
use super::max::MaxEngine;
use super::outcome::{Bounded, ValueBound};
use super::table::TableTooLarge;
use super::{ExactValue, Limits, MoveValues, OutOfTime, Progress, SearchResult, Solution, SolveError, Strength};
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::rules::Rules;
use maxconnect4_game::value::Value;

/// A search engine for one set of rules, with its tables, which carry over
/// from one search to the next.
///
/// ```
/// use maxconnect4_game::board::{Board, Column};
/// use maxconnect4_game::moves::Moves;
/// use maxconnect4_game::rules::Rules;
/// use maxconnect4_game::value::POINT;
/// use maxconnect4_search::{alpha_beta, Engine, Limits, Strength};
///
/// let mut engine = Engine::max_without_book(1 << 20);
///
/// // A move chosen six plies deep: the one plain alpha-beta chooses.
/// let board = Moves::board(Rules::Max, "4453").unwrap();
/// let result = engine.search(&board, &Limits::depth(6)).unwrap();
/// let plain = alpha_beta(&board, 6).unwrap();
/// assert_eq!((result.column, result.value, result.depth), (plain.column, plain.value, 6));
///
/// // Twelve empty cells, solved: the player to move wins by a point, playing
/// // column 1, 2 or 7.
/// let late = Moves::board(Rules::Max, "444433743364525255227553213111").unwrap();
/// let solution = engine.solve(&late, Strength::Strong, None).unwrap();
/// assert_eq!(solution.value, 1);
/// let best: Vec<usize> = solution.best.iter().map(|column| column.number()).collect();
/// assert_eq!(best, [1, 2, 7]);
/// let values = engine.move_values(&late, Strength::Strong, None).unwrap().values;
/// assert_eq!(values, [Some(1), Some(1), None, None, None, Some(0), Some(1)]);
/// // A search to the end of the game finds the value too, in POINTths of a point.
/// let searched = engine.search(&late, &Limits::depth(Limits::TO_THE_END)).unwrap();
/// assert_eq!((searched.value, searched.depth), (POINT, 12));
///
/// // Under classic rules the shipped opening book answers the empty board
/// // at once: the first player wins, playing the centre.
/// let mut classic = Engine::for_rules(Rules::Classic, 1 << 20).unwrap();
/// let solution = classic.solve(&Board::empty(), Strength::Weak, None).unwrap();
/// assert_eq!((solution.value, solution.nodes), (1, 0));
/// assert_eq!(solution.best, [Column::from_number(4).unwrap()]);
/// ```
pub struct Engine {
    kind: Kind,
    /// The opening book the solves answer from, where it holds the position.
    book: Option<Arc<Book>>,
}

/// The searches of each rule set.
enum Kind {
    Max(MaxEngine),
    Classic(Box<ClassicEngine>),
}

impl Engine {
    /// The default transposition table size.
    pub const DEFAULT_HASH_BYTES: usize = 64 << 20;

    /// A Max-Connect4 engine with no opening book (as the assignment's
    /// depth-limited search and the bench want it), whose transposition
    /// table uses at most `hash_bytes`, searching with one thread;
    /// [`for_rules`](Engine::for_rules) gives one with the shipped book.
    ///
    /// # Panics
    /// When the memory cannot be had; see [`Engine::try_max_without_book`] for sizes
    /// that come from users.
    #[must_use]
    pub fn max_without_book(hash_bytes: usize) -> Engine {
        Engine::try_max_without_book(hash_bytes).unwrap_or_else(|error| panic!("{error}"))
    }

    /// A Max-Connect4 engine whose transposition table uses at most
    /// `hash_bytes`, searching with one thread.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn try_max_without_book(hash_bytes: usize) -> Result<Engine, TableTooLarge> {
        Ok(Engine { kind: Kind::Max(MaxEngine::new(hash_bytes)?), book: None })
    }

    /// An engine for games played by `rules`, whose tables use at most
    /// `hash_bytes` each, searching with one thread. It solves from the
    /// shipped opening book of its rules ([`Book::shipped_for`]) where the
    /// book holds the position (and under classic rules plays from it too).
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn for_rules(rules: Rules, hash_bytes: usize) -> Result<Engine, TableTooLarge> {
        Engine::with_book(rules, hash_bytes, Some(Book::shipped_for(rules)))
    }

    /// As [`for_rules`](Engine::for_rules), with `book` (`None` for no
    /// book) in place of the shipped one. A book for other rules than
    /// `rules` answers nothing.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn with_book(rules: Rules, hash_bytes: usize, book: Option<Arc<Book>>) -> Result<Engine, TableTooLarge> {
        let kind = match rules {
            Rules::Max => Kind::Max(MaxEngine::new(hash_bytes)?),
            Rules::Classic => Kind::Classic(Box::new(ClassicEngine::new(hash_bytes, book.clone())?)),
        };
        Ok(Engine { kind, book })
    }

    /// The opening book this engine solves from, if any.
    #[must_use]
    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    /// The rules this engine plays by.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        match self.kind {
            Kind::Max(_) => Rules::Max,
            Kind::Classic(_) => Rules::Classic,
        }
    }

    /// Searches with `threads` threads from now on (at least one), where
    /// the rules' searches can, and returns the threads that will search
    /// (see [`threads`](Engine::threads)). Under Max-Connect4 rules one
    /// thread visits the same nodes every time; more visit more in all but
    /// finish sooner, and find the same values and moves. Under classic
    /// rules the solver uses them (the same values and best moves whatever
    /// their number), the depth-limited player one.
    pub fn set_threads(&mut self, threads: usize) -> usize {
        match &mut self.kind {
            Kind::Max(engine) => engine.set_threads(threads),
            Kind::Classic(engine) => engine.set_threads(threads),
        }
        self.threads()
    }

    /// The threads that search, as set.
    #[must_use]
    pub const fn threads(&self) -> usize {
        match &self.kind {
            Kind::Max(engine) => engine.threads(),
            Kind::Classic(engine) => engine.threads(),
        }
    }

    /// The figures of the search in progress, for a display to poll from
    /// another thread while [`search`](Engine::search),
    /// [`solve`](Engine::solve) or [`exact_value`](Engine::exact_value) runs.
    #[must_use]
    pub fn progress(&self) -> Arc<Progress> {
        match &self.kind {
            Kind::Max(engine) => engine.progress(),
            Kind::Classic(engine) => engine.progress(),
        }
    }

    /// A flag that, once set, ends this engine's searches and solves that
    /// have a time limit as if the time had run out (a first iteration,
    /// which always finishes, aside): the server sets it when the client who
    /// asked has gone. It stays set.
    #[must_use]
    pub fn canceller(&self) -> Arc<AtomicBool> {
        match &self.kind {
            Kind::Max(engine) => engine.canceller(),
            Kind::Classic(engine) => engine.canceller(),
        }
    }

    /// Maps all the table's memory in now, so that the first searches do not
    /// pay for it: for benchmarks, which measure the search alone.
    pub fn map_in_table(&mut self) {
        match &mut self.kind {
            Kind::Max(engine) => engine.map_in_table(),
            Kind::Classic(engine) => engine.map_in_table(),
        }
    }

    /// Forgets everything learned, so the next search runs as on a new engine.
    pub fn clear(&mut self) {
        match &mut self.kind {
            Kind::Max(engine) => engine.clear(),
            Kind::Classic(engine) => engine.clear(),
        }
    }

    /// Chooses a move by iterative deepening up to `limits.depth`. Returns
    /// `None` when the game is over (under Max-Connect4 rules, on a full
    /// board). With a time limit, the move is the best of the deepest
    /// iteration that finished (depth 1 always finishes).
    ///
    /// Under Max-Connect4 rules, without a time limit, the move is the
    /// first, in centre-first order, of the moves of the best value: the
    /// move [`alpha_beta`](super::alpha_beta) chooses, whatever the number
    /// of threads and whatever the table held. Under classic rules see
    /// [`classic`]: values are in [`classic::WIN_UNIT`]s of the score.
    ///
    /// # Panics
    /// When `limits.depth` is 0.
    pub fn search(&mut self, board: &Board, limits: &Limits) -> Option<SearchResult> {
        assert!(limits.depth >= 1, "search depth must be at least 1");
        match &mut self.kind {
            Kind::Max(engine) => engine.search(board, limits),
            Kind::Classic(engine) => engine.search(board, limits),
        }
    }

    /// Solves `board` exactly: its value with perfect play (with
    /// [`Strength::Weak`], only its sign) and every move that achieves it.
    /// Under classic rules a finished game has no best moves.
    ///
    /// # Errors
    /// When `time_limit` runs out first ([`SolveError::OutOfTime`]).
    pub fn solve(
        &mut self,
        board: &Board,
        strength: Strength,
        time_limit: Option<Duration>,
    ) -> Result<Solution, SolveError> {
        if let Some(solution) = self.read_book(|book, rules| book.solution(rules, board, strength)) {
            return Ok(solution);
        }
        if let Some(found) = self.solve_of_book_value(board, strength, true, time_limit) {
            return found;
        }
        match &mut self.kind {
            Kind::Max(engine) => Ok(engine.solve(board, strength, time_limit)?),
            Kind::Classic(engine) => Ok(engine.solve(board, strength, time_limit)?),
        }
    }

    /// The exact value of `board` and one best move (the [`Solution`]'s
    /// `best` holds that move alone, or every best move where the book
    /// holds the position's children; at the book's deepest positions, the
    /// move it stores, or where it holds the value alone, one move searched
    /// for knowing it): what playing perfectly
    /// needs, without the proof
    /// of which other moves tie with the best. Under Max-Connect4 rules that
    /// proof is most of a solve's work where several moves tie (up to 3.4
    /// times the nodes on the positions of `reports/solving.md`); the classic
    /// solver finds every best move as fast, and does.
    ///
    /// # Errors
    /// As [`solve`](Engine::solve).
    pub fn best_move(&mut self, board: &Board, time_limit: Option<Duration>) -> Result<Solution, SolveError> {
        if let Some(solution) = self.read_book(|book, rules| book.one_best(rules, board)) {
            return Ok(solution);
        }
        if let Some(found) = self.solve_of_book_value(board, Strength::Strong, false, time_limit) {
            return found;
        }
        match &mut self.kind {
            Kind::Max(engine) => Ok(engine.best_move(board, time_limit)?),
            Kind::Classic(engine) => Ok(engine.solve(board, Strength::Strong, time_limit)?),
        }
    }

    /// The exact value of `board` alone, as [`solve`](Engine::solve) finds
    /// it, searching only for the value: under classic rules without the
    /// moves; under Max-Connect4 rules the solve's search without telling
    /// the moves that tie with the best from the worse ones, which ends once
    /// no move can do better (for a weak value, at the first winning move).
    ///
    /// # Errors
    /// As [`solve`](Engine::solve).
    pub fn exact_value(
        &mut self,
        board: &Board,
        strength: Strength,
        time_limit: Option<Duration>,
    ) -> Result<ExactValue, SolveError> {
        if let Some(value) = self.read_book(|book, rules| book.board_value(rules, board, strength)) {
            return Ok(ExactValue { value, nodes: 0 });
        }
        match &mut self.kind {
            Kind::Max(engine) => Ok(engine.value(board, strength, time_limit)?),
            Kind::Classic(engine) => Ok(engine.exact_value(board, strength, time_limit)?),
        }
    }

    /// Whether the exact value of `board` (as [`solve`](Engine::solve)
    /// finds it) is at least `at_least`, and the tightest bound one
    /// null-window search proves: the cheapest question about a value, for
    /// checking a claim such as "the first player at least draws". The
    /// book's value, where it holds the position, is the bound.
    ///
    /// # Errors
    /// As [`solve`](Engine::solve).
    pub fn bound(&mut self, board: &Board, at_least: i32, time_limit: Option<Duration>) -> Result<Bounded, SolveError> {
        if let Some(value) = self.read_book(|book, rules| book.board_value(rules, board, Strength::Strong)) {
            return Ok(Bounded { bound: ValueBound::of_exact(value, at_least), nodes: 0 });
        }
        match &mut self.kind {
            Kind::Max(engine) => Ok(engine.bound(board, at_least, time_limit)?),
            Kind::Classic(engine) => Ok(engine.bound(board, at_least, time_limit)?),
        }
    }

    /// Whether the player to move wins, draws or loses `board` with
    /// perfect play (1, 0 or -1), if a weak solve proves it within `nodes`
    /// positions; `None` when it needs more. A budget of nodes, unlike a
    /// time limit, gives the same answer on any machine for the same calls
    /// on a new engine (the table carries over from one call to the next),
    /// which is what adjudicating a game needs. Classic rules only: the
    /// Max-Connect4 solver counts time, not nodes.
    ///
    /// # Errors
    /// [`SolveError::NodeBudgetUnsupported`] under Max-Connect4 rules.
    pub fn proven_result(&mut self, board: &Board, nodes: u64) -> Result<Option<i32>, SolveError> {
        match &mut self.kind {
            Kind::Max(_) => Err(SolveError::NodeBudgetUnsupported),
            Kind::Classic(engine) => Ok(engine.exact_value_within(board, Strength::Weak, nodes).ok()),
        }
    }

    /// The exact value of every move from `board` for the player to move
    /// (with [`Strength::Weak`], its sign): the moves of
    /// [`solve`](Engine::solve)'s value are its best moves. Each move is
    /// solved to its value, so this costs more than a solve, which only
    /// tests the other moves against the best.
    ///
    /// # Errors
    /// As [`solve`](Engine::solve).
    pub fn move_values(
        &mut self,
        board: &Board,
        strength: Strength,
        time_limit: Option<Duration>,
    ) -> Result<MoveValues, SolveError> {
        if let Some(values) = self.read_book(|book, rules| book.move_values(rules, board, strength)) {
            return Ok(MoveValues { values, nodes: 0 });
        }
        match &mut self.kind {
            Kind::Max(engine) => Ok(engine.move_values(board, strength, time_limit)?),
            Kind::Classic(engine) => Ok(engine.move_values(board, strength, time_limit)?),
        }
    }

    /// The exact value of the move `column` from `board` for the player
    /// who makes it, as [`move_values`](Engine::move_values) finds it (the
    /// score, [`Strength::Strong`]), and the nodes visited: one move solved
    /// within its own time limit, so that a caller can share its time among
    /// the moves.
    ///
    /// # Errors
    /// When `time_limit` runs out first.
    ///
    /// # Panics
    /// When `column` cannot be played on `board`.
    pub fn move_value(
        &mut self,
        board: &Board,
        column: Column,
        time_limit: Option<Duration>,
    ) -> Result<ExactValue, SolveError> {
        assert!(board.can_play(column), "column {column} is full");
        if let Some(value) = self.read_book(|book, rules| book.move_value(rules, board, column)) {
            return Ok(ExactValue { value, nodes: 0 });
        }
        match &mut self.kind {
            Kind::Max(engine) => Ok(engine.move_value(board, column, time_limit)?),
            Kind::Classic(engine) => Ok(engine.move_value(board, column, Strength::Strong, time_limit)?),
        }
    }

    /// The exact value of the move `column` from `board`, as
    /// [`move_value`](Engine::move_value) finds it, if the solver proves it
    /// within `nodes` positions on one thread: a budget that, unlike time,
    /// gives the same answer on any machine (see
    /// [`proven_result`](Engine::proven_result)).
    ///
    /// # Errors
    /// [`OutOfTime`] (with the nodes spent) when it needs more.
    ///
    /// # Panics
    /// When `column` cannot be played on `board`.
    pub fn move_value_within(&mut self, board: &Board, column: Column, nodes: u64) -> Result<ExactValue, OutOfTime> {
        assert!(board.can_play(column), "column {column} is full");
        if let Some(value) = self.read_book(|book, rules| book.move_value(rules, board, column)) {
            return Ok(ExactValue { value, nodes: 0 });
        }
        match &mut self.kind {
            Kind::Max(engine) => engine.move_value_within(board, column, nodes),
            Kind::Classic(engine) => engine.move_value_within(board, column, nodes),
        }
    }

    /// The heuristic value of `board` for the player to move, as the
    /// searches judge a position at their horizon (depth 0), in the units of
    /// [`search`](Engine::search)'s values.
    #[must_use]
    pub fn horizon_value(&self, board: &Board) -> Value {
        match &self.kind {
            Kind::Max(_) => maxconnect4_game::score::evaluate(board),
            Kind::Classic(_) => ClassicEngine::horizon_value(board),
        }
    }

    /// Under Max-Connect4 rules, where the book holds the value of `board`
    /// but not its children's (its deepest layer), the best moves for the
    /// score (`every_best`; else one) searched knowing the value
    /// ([`MaxEngine::solve_of_value`]). `None` elsewhere: under classic
    /// rules, and for the sign alone (a weak solve), which this does not
    /// speed up.
    fn solve_of_book_value(
        &mut self,
        board: &Board,
        strength: Strength,
        every_best: bool,
        time_limit: Option<Duration>,
    ) -> Option<Result<Solution, SolveError>> {
        let Kind::Max(engine) = &mut self.kind else { return None };
        if strength != Strength::Strong {
            return None;
        }
        let value = self.book.as_deref()?.board_value(Rules::Max, board, Strength::Strong)?;
        Some(engine.solve_of_value(board, value, every_best, time_limit).map_err(Into::into))
    }

    /// What `read` finds in the engine's book under its rules (`None`
    /// without a book): the solves ask the book before they search.
    fn read_book<T>(&self, read: impl FnOnce(&Book, Rules) -> Option<T>) -> Option<T> {
        self.book.as_deref().and_then(|book| read(book, self.rules()))
    }
}

/// Number of sequences of `depth` legal moves from `board` (1 for depth 0)
/// under `rules`: classic rules do not expand a position with a four (see
/// [`classic::perft`]). From the empty board there are 42!/(6!)^7, about
/// 1.4e31, sequences that fill it, more than a `u64` holds.
#[must_use]
pub fn perft(rules: Rules, board: &Board, depth: u32) -> u128 {
    match rules {
        Rules::Max => super::perft::perft(board, depth),
        Rules::Classic => classic::perft(board, depth),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use maxconnect4_game::moves::Moves;
    use maxconnect4_game::random::XorShift;

    /// The values of every move agree with the solve: the best of them is
    /// its value, and the moves reaching it are its best moves.
    fn check_move_values(engine: &mut Engine, board: &Board, strength: Strength) {
        let solution = engine.solve(board, strength, None).unwrap();
        engine.clear();
        let moves = engine.move_values(board, strength, None).unwrap();
        assert_eq!(moves.values.iter().flatten().max().copied(), Some(solution.value), "{board:?}");
        let best: Vec<_> =
            board.legal_columns().filter(|column| moves.values[column.index()] == Some(solution.value)).collect();
        assert_eq!(best, solution.best, "{board:?}");
        for column in maxconnect4_game::board::Column::ALL {
            assert_eq!(moves.values[column.index()].is_some(), board.can_play(column));
        }
    }

    #[test]
    fn every_move_has_its_value_under_either_rules() {
        let mut max = Engine::max_without_book(1 << 20);
        for moves in ["4444443333332222221", "44444433333322222211111"] {
            check_move_values(&mut max, &Moves::board(Rules::Max, moves).unwrap(), Strength::Strong);
        }
        let mut classic = Engine::with_book(Rules::Classic, 1 << 20, None).unwrap();
        for moves in ["52753311433677442422121", "5275331143367744242212"] {
            let board = Moves::board(Rules::Classic, moves).unwrap();
            check_move_values(&mut classic, &board, Strength::Strong);
            check_move_values(&mut classic, &board, Strength::Weak);
        }
        // A finished classic game has no moves.
        let won = Moves::board(Rules::Classic, "1212121").unwrap();
        assert_eq!(classic.move_values(&won, Strength::Strong, None).unwrap().values, [None; 7]);
    }

    /// A budget of positions gives the solve's value when it suffices and
    /// gives up when it does not, at the same node every time, whatever
    /// the threads.
    #[test]
    fn a_move_value_within_a_budget_of_nodes_is_exact_or_refused_the_same_way_each_time() {
        let board = Moves::board(Rules::Max, "444434522262").unwrap();
        let column = Column::from_number(3).unwrap();
        let exact = Engine::max_without_book(1 << 20).move_value(&board, column, None).unwrap().value;
        let within = |threads, nodes| {
            let mut engine = Engine::max_without_book(1 << 20);
            engine.set_threads(threads);
            engine.move_value_within(&board, column, nodes)
        };
        let solved = within(2, crate::SOLVE_NODES).unwrap();
        assert_eq!((solved.value, Ok(solved)), (exact, within(1, crate::SOLVE_NODES)));
        let refused = within(1, 5_000).unwrap_err();
        assert_eq!(within(2, 5_000).unwrap_err().nodes, refused.nodes);
        assert!(refused.nodes < crate::SOLVE_NODES, "{refused:?}");
    }

    #[test]
    fn a_bound_is_on_the_right_side_of_the_exact_value_under_either_rules() {
        let mut random = XorShift::new(0x5DEE_CE66_D1CE_4E5B);
        for (rules, empty) in [(Rules::Max, 12..18), (Rules::Classic, 14..24)] {
            let mut engine = Engine::with_book(rules, 1 << 20, None).unwrap();
            let mut checked = 0;
            while checked < 12 {
                let mut board = Board::empty();
                let cells = empty.start + random.below(u64::from(empty.end - empty.start)) as u32;
                random.play_until(&mut board, rules, cells);
                checked += 1;
                let value = engine.exact_value(&board, Strength::Strong, None).unwrap().value;
                for at_least in [-100, value - 2, value - 1, value, value + 1, value + 2, 100] {
                    engine.clear();
                    match engine.bound(&board, at_least, None).unwrap().bound {
                        ValueBound::AtLeast(bound) => {
                            assert!(at_least <= bound && bound <= value, "{rules} {board:?} >= {at_least}: {bound}");
                        }
                        ValueBound::AtMost(bound) => {
                            assert!(value <= bound && bound < at_least, "{rules} {board:?} >= {at_least}: {bound}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_budget_of_nodes_proves_near_the_end_and_not_from_the_start() {
        let mut classic = Engine::with_book(Rules::Classic, 1 << 20, None).unwrap();
        // 23 stones in: a position the solver settles in a few hundred nodes.
        let board = Moves::board(Rules::Classic, "52753311433677442422121").unwrap();
        let exact = classic.solve(&board, Strength::Weak, None).unwrap().value;
        let mut fresh = Engine::with_book(Rules::Classic, 1 << 20, None).unwrap();
        assert_eq!(fresh.proven_result(&board, 100_000), Ok(Some(exact)));
        // The empty board takes far more than 100,000 nodes, every time.
        for _ in 0..2 {
            assert_eq!(fresh.proven_result(&Board::empty(), 100_000), Ok(None));
        }
        assert_eq!(Engine::max_without_book(0).proven_result(&board, 100_000), Err(SolveError::NodeBudgetUnsupported));
    }

    /// A Max-Connect4 book two moves deep from a root of 23 empty cells,
    /// the values of its deepest layer solved here (without best moves, as
    /// books of earlier builds hold them).
    fn max_book(root: &str) -> Arc<Book> {
        use crate::book::{BookSpec, layers::Layers};
        let layers = Layers::new(&BookSpec { rules: Rules::Max, root: root.to_owned(), depth: 2 }).unwrap();
        let mut solver = Engine::max_without_book(1 << 20);
        let values = layers
            .deepest_keys()
            .enumerate()
            .map(|(place, key)| {
                let value = solver.exact_value(&layers.board(place), Strength::Strong, None).unwrap().value;
                (key, crate::book::Known { value, best: None })
            })
            .collect();
        Arc::new(layers.book(&values).unwrap())
    }

    #[test]
    fn a_max_engine_answers_from_its_book_at_once_as_a_fresh_solve_does() {
        let root = "4444443333335555552";
        let book = max_book(root);
        let mut engine = Engine::with_book(Rules::Max, 1 << 20, Some(Arc::clone(&book))).unwrap();
        // The root and one move from it: the book holds them and their children.
        for moves in [root.to_owned(), format!("{root}1"), format!("{root}7")] {
            let board = Moves::board(Rules::Max, &moves).unwrap();
            let mut fresh = Engine::max_without_book(1 << 20);
            let solution = engine.solve(&board, Strength::Strong, None).unwrap();
            assert_eq!(solution.nodes, 0, "{moves}: read, not searched");
            assert_eq!(solution, Solution { nodes: 0, ..fresh.solve(&board, Strength::Strong, None).unwrap() });
            assert_eq!(
                engine.exact_value(&board, Strength::Strong, None).unwrap(),
                ExactValue { value: solution.value, nodes: 0 }
            );
            let values = engine.move_values(&board, Strength::Strong, None).unwrap();
            assert_eq!(values, MoveValues { nodes: 0, ..fresh.move_values(&board, Strength::Strong, None).unwrap() });
            for column in board.legal_columns() {
                let value = engine.move_value(&board, column, None).unwrap();
                assert_eq!(value, ExactValue { value: values.values[column.index()].unwrap(), nodes: 0 });
            }
            // The book's move, and perfect play, are a best move at once.
            let played = engine.play_perfectly(&board, &Limits::depth(1)).unwrap();
            assert_eq!(played.chosen, crate::Chosen::Book);
            assert!(solution.best.contains(&played.result.column), "{moves}");
            assert_eq!(
                (played.result.value, played.result.nodes),
                (solution.value * maxconnect4_game::value::POINT, 0)
            );
            // The depth-limited search is the assignment's, book or not.
            let limits = Limits::depth(3);
            assert_eq!(
                engine.search(&board, &limits).map(|r| (r.column, r.value)),
                fresh.search(&board, &limits).map(|r| (r.column, r.value))
            );
        }
        // Two moves from the root: the book has the value but not the children's.
        let deepest = Moves::board(Rules::Max, &format!("{root}17")).unwrap();
        let mut fresh = Engine::max_without_book(1 << 20);
        let solution = fresh.solve(&deepest, Strength::Strong, None).unwrap();
        assert_eq!(
            engine.exact_value(&deepest, Strength::Strong, None).unwrap(),
            ExactValue { value: solution.value, nodes: 0 }
        );
        let searched = engine.solve(&deepest, Strength::Strong, None).unwrap();
        assert!(searched.nodes > 0, "the best moves are searched for");
        assert_eq!((searched.value, searched.best), (solution.value, solution.best.clone()));
        // One best move, knowing the value: with the second player to move
        // (21 empty cells), in fewer nodes than without.
        let one = Engine::with_book(Rules::Max, 1 << 20, Some(book)).unwrap().best_move(&deepest, None).unwrap();
        assert_eq!(one.value, solution.value);
        assert!(one.best.len() == 1 && solution.best.contains(&one.best[0]));
        let without = Engine::max_without_book(1 << 20).best_move(&deepest, None).unwrap();
        assert!(one.nodes < without.nodes, "{} nodes knowing the value, {} not", one.nodes, without.nodes);
        // Past the book, perfect play solves within the time, or without
        // one searches to the depth.
        let played =
            engine.play_perfectly(&deepest, &Limits { depth: 2, time_limit: Some(Duration::from_secs(3600)) }).unwrap();
        assert_eq!(played.chosen, crate::Chosen::Solved);
        assert!(solution.best.contains(&played.result.column));
        let played = engine.play_perfectly(&deepest, &Limits::depth(2)).unwrap();
        assert_eq!(played.chosen, crate::Chosen::Searched);
        assert_eq!(Some(played.result.column), fresh.search(&deepest, &Limits::depth(2)).map(|r| r.column));
        assert_eq!(engine.book_move(&deepest), None);
    }

    #[test]
    fn what_a_rule_set_cannot_do_is_said() {
        let mut max = Engine::max_without_book(0);
        assert_eq!(max.set_threads(4), 4);
        let error = max.proven_result(&Board::empty(), 1000).unwrap_err();
        assert_eq!(
            error.to_string(),
            "a budget of nodes is for classic rules only: the Max-Connect4 solver counts time, not nodes"
        );
        let mut classic = Engine::for_rules(Rules::Classic, 0).unwrap();
        assert_eq!(classic.set_threads(4), 4);
        assert_eq!(classic.threads(), 4);
    }

    /// Max-Connect4 positions after random moves (from `seed`), with 14 to
    /// 22 empty cells.
    fn random_max_positions(seed: u64, count: u32) -> Vec<Board> {
        let mut random = XorShift::new(seed);
        (0..count)
            .map(|index| {
                let mut board = Board::empty();
                random.play_until(&mut board, Rules::Max, 14 + index % 9);
                board
            })
            .collect()
    }

    /// The one best move that playing perfectly asks for is a best move of
    /// the whole solve, with its value, under either rules; the move
    /// values tell which moves tie.
    #[test]
    fn a_best_move_alone_is_one_of_the_solves_best_with_its_value() {
        let mut several = 0;
        for board in random_max_positions(0x2545_F491_4F6C_DD1D, 36) {
            let mut engine = Engine::max_without_book(1 << 20);
            let exact = engine.move_values(&board, Strength::Strong, None).unwrap().values;
            let value = exact.iter().flatten().max().copied().unwrap();
            engine.clear();
            let found = engine.best_move(&board, None).unwrap();
            assert_eq!((found.value, found.best.len()), (value, 1), "{board:?}");
            assert_eq!(exact[found.best[0].index()], Some(value), "{board:?}");
            several += usize::from(exact.iter().filter(|&&move_value| move_value == Some(value)).count() > 1);
        }
        // Positions where the solve would have proven several best moves.
        assert!(several >= 10, "{several}");
        let mut classic = Engine::for_rules(Rules::Classic, 1 << 20).unwrap();
        let board = Moves::board(Rules::Classic, "1234567123456").unwrap();
        let found = classic.best_move(&board, None).unwrap();
        classic.clear();
        let solution = classic.solve(&board, Strength::Strong, None).unwrap();
        assert_eq!((found.value, found.best), (solution.value, solution.best));
    }

    #[test]
    fn a_weak_max_solve_finds_the_sign_of_the_exact_one() {
        let mut signs_seen = [0; 3];
        for threads in [1, 2] {
            let mut engine = Engine::max_without_book(1 << 20);
            engine.set_threads(threads);
            for board in random_max_positions(0x9E37_79B9_7F4A_7C15, 27) {
                engine.clear();
                let exact = engine.move_values(&board, Strength::Strong, None).unwrap().values;
                let value = exact.iter().flatten().max().copied().unwrap();
                let signs = exact.map(|value| value.map(i32::signum));
                engine.clear();
                let weak = engine.solve(&board, Strength::Weak, None).unwrap();
                assert_eq!(weak.value, value.signum(), "{board:?}");
                let best: Vec<_> =
                    board.legal_columns().filter(|column| signs[column.index()] == Some(weak.value)).collect();
                assert_eq!(weak.best, best, "{board:?}");
                engine.clear();
                assert_eq!(engine.move_values(&board, Strength::Weak, None).unwrap().values, signs, "{board:?}");
                engine.clear();
                assert_eq!(engine.exact_value(&board, Strength::Weak, None).unwrap().value, weak.value);
                engine.clear();
                assert_eq!(engine.exact_value(&board, Strength::Strong, None).unwrap().value, value);
                signs_seen[usize::try_from(weak.value + 1).unwrap()] += 1;
            }
        }
        // Losses, draws and wins all come up, so every way a move compares
        // with the best sign so far is tried.
        assert!(signs_seen.iter().all(|&seen| seen > 0), "{signs_seen:?}");
        // A full board is its own sign.
        let full = Moves::board(Rules::Max, &"1234567".repeat(6)).unwrap();
        let mut engine = Engine::max_without_book(1 << 20);
        let weak = engine.solve(&full, Strength::Weak, None).unwrap();
        assert_eq!((weak.value, weak.best), (full.score_difference().signum(), vec![]));
    }
}
