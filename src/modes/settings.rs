//! How a mode's engine is set up from the command line: the table's size,
//! the threads and the book.

use super::book::BookChoice;
use crate::rules::Rules;
use crate::search::Engine;

/// How the engine of a mode is set up: `--hash`, `--threads` and the
/// opening book (`--book`, `--no-book`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// The most memory the transposition table may use.
    pub hash_bytes: usize,
    /// Threads searching together.
    pub threads: usize,
    /// The book classic rules play and solve from.
    pub book: BookChoice,
}

impl EngineSettings {
    /// An engine for games played by `rules`, with these settings.
    ///
    /// # Errors
    /// When the book cannot be read or the table's memory cannot be had.
    pub fn engine(&self, rules: Rules) -> anyhow::Result<Engine> {
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
