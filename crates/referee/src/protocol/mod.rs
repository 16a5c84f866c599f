//! The arenas' protocols, sans-IO: the messages of each, as one enum per
//! direction that prints and parses the wire form, and each side, the bot's
//! and the host's, as a state machine fed what the other side said and
//! returning what to send ([`host`] has what the hosts share).
//!
//! Three arenas in use today play classic Connect-4 with bots that speak
//! something other than board files: a moderator that talks to a bot over
//! standard input and output ([`moderator`]), a coordinator with a text
//! protocol close to chess's UCI ([`coordinator`]) and a web arena that POSTs
//! JSON to a bot's server ([`arena`]). Both the bot side (`maxconnect4 bot`,
//! `maxconnect4 serve`) and the host side (the referee) use these types, so the
//! two cannot disagree about the wire form. Nothing here reads a pipe or a
//! socket: the process and network layers around it are thin and separate,
//! and the tests drive the state machines directly.
//!
//! The assignment's own protocol, a board file in and a board file out for
//! each move ([`one_move`]), has no messages: its programs are judged by the
//! file they write. Kaggle's ConnectX agents are Python functions, played
//! through a harness that speaks for them ([`connectx`]). Every protocol's
//! faults come to one [`verdict`].

/// The longest line either side of a pipe protocol reads from the other,
/// as everything read from outside is bounded: a line is a short message,
/// and a longer one is refused without being kept.
pub const LINE_LIMIT: usize = 64 * 1024;

pub mod arena;
pub mod connectx;
pub mod coordinator;
pub mod host;
pub mod moderator;
pub mod one_move;
pub mod verdict;

use std::sync::Arc;

use maxconnect4_game::board::Board;
use maxconnect4_game::rules::Rules;
use maxconnect4_search::book::Book;
use maxconnect4_search::{Engine, Limits, PerfectMove, SearchResult, TableTooLarge};

/// The engine playing under one set of rules: what every bot front end asks
/// for a move. It plays from the shipped opening book of its rules where
/// the book holds the position, and by the search within its limits past it.
pub struct Mover {
    rules: Rules,
    engine: Engine,
}

impl Mover {
    /// The transposition table size of a bot: the engine's default.
    pub const HASH_BYTES: usize = Engine::DEFAULT_HASH_BYTES;

    /// An engine for `rules` with tables of `hash_bytes` at most.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn new(rules: Rules, hash_bytes: usize) -> Result<Mover, TableTooLarge> {
        Ok(Mover { rules, engine: Engine::for_rules(rules, hash_bytes)? })
    }

    /// As [`new`](Mover::new), playing from `book` (`None` for no book:
    /// every position searched) in place of the shipped one.
    ///
    /// # Errors
    /// When the memory cannot be had.
    pub fn with_book(rules: Rules, hash_bytes: usize, book: Option<Arc<Book>>) -> Result<Mover, TableTooLarge> {
        Ok(Mover { rules, engine: Engine::with_book(rules, hash_bytes, book)? })
    }

    /// Searches with `threads` threads from now on (at least one): see
    /// [`Engine::set_threads`].
    pub fn set_threads(&mut self, threads: usize) {
        self.engine.set_threads(threads);
    }

    /// A flag that, once set, ends the mover's searches early with the best
    /// move found so far (see [`Engine::canceller`]).
    #[must_use]
    pub fn canceller(&self) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
        self.engine.canceller()
    }

    /// The rules this mover plays by.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The move to play on `board`: the book's best where the book holds
    /// the position (see [`Engine::book_move`]), else the search's within
    /// `limits`; `None` when the game is over under the mover's rules.
    ///
    /// # Panics
    /// When `limits.depth` is 0.
    pub fn choose(&mut self, board: &Board, limits: &Limits) -> Option<SearchResult> {
        if self.rules.is_over(board) {
            return None;
        }
        self.engine.book_move(board).or_else(|| self.engine.search(board, limits))
    }

    /// The move to play on `board` played perfectly where the time allows
    /// (see [`Engine::play_perfectly`]); `None` when the game is over.
    ///
    /// # Panics
    /// When `limits.depth` is 0.
    pub fn choose_perfectly(&mut self, board: &Board, limits: &Limits) -> Option<PerfectMove> {
        self.engine.play_perfectly(board, limits)
    }

    /// Perft under the mover's rules: move sequences of length `depth`, a
    /// finished game not expanded (classic perft 8 from the start is
    /// 5,673,234).
    #[must_use]
    pub fn perft(&self, board: &Board, depth: u32) -> u64 {
        u64::try_from(maxconnect4_search::perft(self.rules, board, depth)).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use maxconnect4_game::moves::Moves;

    fn after(moves: &str) -> Board {
        Moves::board(Rules::Max, moves).unwrap()
    }

    #[test]
    fn classic_perft_stops_at_wins() {
        let mover = Mover::new(Rules::Classic, 0).unwrap();
        let counts: Vec<u64> = (0..=8).map(|depth| mover.perft(&Board::empty(), depth)).collect();
        assert_eq!(counts, [1, 7, 49, 343, 2401, 16807, 117_649, 823_536, 5_673_234]);
    }

    #[test]
    fn max_plays_a_best_move_of_the_shipped_book_where_it_holds_the_position() {
        use maxconnect4_search::Strength;
        use maxconnect4_search::book::Book;
        let book = Book::shipped_for(Rules::Max);
        let root = after(book.root());
        let best = book.solution(Rules::Max, &root, Strength::Strong).unwrap().best;
        let mut mover = Mover::new(Rules::Max, 1 << 20).unwrap();
        let result = mover.choose(&root, &Limits::depth(1)).unwrap();
        assert!(best.contains(&result.column), "{} is not among {best:?}", result.column);
        assert_eq!((result.nodes, result.depth), (0, root.empty_cells()), "read from the book, not searched");
    }

    #[test]
    fn classic_takes_a_win_and_blocks_a_loss() {
        let mut mover = Mover::new(Rules::Classic, 1 << 20).unwrap();
        // Player 1 has three in column 1: it wins there.
        assert_eq!(mover.choose(&after("121212"), &Limits::depth(2)).unwrap().column.number(), 1);
        // Player 2, to move after 1-2-1-2-1 with three in column 1, blocks it.
        assert_eq!(mover.choose(&after("12121"), &Limits::depth(2)).unwrap().column.number(), 1);
        assert_eq!(mover.choose(&after("1212121"), &Limits::depth(2)), None);
    }
}
