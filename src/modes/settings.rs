//! How a mode's engine is set up from the command line: the table's size,
//! the threads and the book.

use super::book::BookChoice;
use super::Error;
use crate::rules::Rules;
use crate::search::Engine;

/// How the engine of a mode is set up: `--hash`, `--threads`, the
/// opening book (`--book`, `--no-book`) and, for the modes that play,
/// how they choose a move (`--perfect`, `--book-moves`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// The most memory the transposition table may use.
    pub hash_bytes: usize,
    /// Threads searching together.
    pub threads: usize,
    /// The book the engine solves (and under classic rules, or playing
    /// perfectly, plays) from.
    pub book: BookChoice,
    /// How the modes that play choose a move.
    pub play: Play,
}

/// How a mode that plays chooses its move: one-move, interactive, and the
/// arenas' bots (`bot`, which play from the book wherever it has a move,
/// so `Search` is `BookThenSearch` there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// The depth-limited search ([`Engine::search`]), the assignment's;
    /// under classic rules it plays from the book itself.
    Search,
    /// The book's move where it holds the position ([`Engine::book_move`]),
    /// else the depth-limited search.
    BookThenSearch,
    /// Perfectly where it can ([`Engine::play_perfectly`]).
    Perfect,
}

impl EngineSettings {
    /// An engine for games played by `rules`, with these settings.
    ///
    /// # Errors
    /// When the book cannot be read or the table's memory cannot be had.
    pub fn engine(&self, rules: Rules) -> Result<Engine, Error> {
        let mut engine = Engine::with_book(rules, self.hash_bytes, self.book.load(rules)?)?;
        engine.set_threads(self.threads);
        Ok(engine)
    }
}

/// The number of threads when `--threads` is not given: one per core.
#[must_use]
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
