//! The ways the program is run from the command line. Unlike the core, these
//! read and write files, the terminal and the clock.

mod analysis;
mod bench;
mod book;
pub mod bot;
mod interactive;
mod one_move;
mod progress;

pub use analysis::SolveOptions;
pub use analysis::{perft, solve, solve_batch};
pub use bench::{bench, BENCH_POSITIONS, CLASSIC_BENCH_POSITIONS, DEEP_BENCH_POSITIONS};
pub use book::{build_book, read_book, BookBuild, BookChoice};
pub use interactive::{interactive, FirstMove};
pub use one_move::one_move;

use crate::moves::Moves;
use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::Context as _;

use crate::atomic;
use crate::board::Board;
use crate::bounded::read_board_file;
use crate::format::{self, BoardFile, LineEnding};
use crate::rules::Rules;
use crate::search::{Engine, Limits, SearchResult};

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

/// Where a position comes from: a board file or a move string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    File(std::path::PathBuf),
    /// The columns played from the empty board, `1` to `7` (`4453`).
    Moves(String),
}

impl Source {
    /// The position, with the line endings to write it back with (LF for
    /// a move string).
    ///
    /// # Errors
    /// When the file cannot be read or parsed, or the move string is not a
    /// game under `rules`.
    pub fn load(&self, rules: Rules) -> anyhow::Result<BoardFile> {
        match self {
            Source::File(path) => read_board_file(path),
            Source::Moves(moves) => Ok(BoardFile {
                board: Moves::board(rules, moves)
                    .with_context(|| format!("bad move string '{}'", moves.escape_debug()))?,
                line_ending: LineEnding::Lf,
            }),
        }
    }

    /// How the position is named in messages.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Source::File(path) => path.display().to_string(),
            Source::Moves(moves) => format!("the position after '{moves}'"),
        }
    }
}

/// Writes `board` to `path` atomically (see [`atomic`]): a reader never sees
/// half a file, and on failure whatever was at `path` before is left as it was.
///
/// # Errors
/// When the directory is not writable or the rename fails.
pub fn save_board(path: &Path, board: &Board, line_ending: LineEnding) -> anyhow::Result<()> {
    Ok(atomic::write(path, format::write(board, line_ending).as_bytes())?)
}

/// A search for the computer's move with the CPU time it took.
struct Thought {
    result: SearchResult,
    cpu: Duration,
}

/// Chooses a move on `board` (which must not be full) within `limits`,
/// timing the search in CPU time of all its threads. On a terminal, a
/// search that will plainly take long is announced on stderr first, and a
/// long one shows its progress there.
fn think(engine: &mut Engine, board: &Board, limits: &Limits) -> Thought {
    progress::warn_if_long(engine, board, limits, &mut io::stderr());
    let start = cpu_time::ProcessTime::now();
    let progress = engine.progress();
    let result = progress::while_searching(&progress, || engine.search(board, limits).expect("the board is not full"));
    Thought { result, cpu: start.elapsed() }
}

impl Thought {
    /// One line a student can copy figures from.
    fn report(&self, out: &mut dyn Write) -> io::Result<()> {
        let SearchResult { nodes, depth, .. } = self.result;
        writeln!(out, "Searched {nodes} nodes to depth {depth} in {}.", cpu_and_rate(nodes, self.cpu))
    }
}

/// `1 thread`, `2 threads`.
fn threads_phrase(threads: usize) -> String {
    format!("{threads} thread{}", if threads == 1 { "" } else { "s" })
}

/// `X s of CPU time (Y M nodes/s)`.
fn cpu_and_rate(nodes: u64, cpu: Duration) -> String {
    let seconds = cpu.as_secs_f64();
    let rate = if seconds > 0.0 {
        format!("{:.1} M nodes/s", nodes as f64 / seconds / 1e6)
    } else {
        "too fast to time".to_owned()
    };
    format!("{seconds:.6} s of CPU time ({rate})")
}
