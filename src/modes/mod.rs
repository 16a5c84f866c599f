//! The ways the program is run from the command line. Unlike the core, these
//! read and write files, the terminal and the clock.

mod analysis;
mod bench;
mod interactive;
mod one_move;
mod progress;

pub use analysis::{perft, solve};
pub use bench::{bench, BENCH_POSITIONS};
pub use interactive::{ask_column, interactive, FirstMove};
pub use one_move::one_move;

use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::Context as _;

use crate::atomic;
use crate::board::Board;
use crate::format::{self, BoardFile, LineEnding};
use crate::search::{Engine, Limits, SearchResult, TableTooLarge};

/// How the engine of a mode is set up: `--hash` and `--threads`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// The most memory the transposition table may use.
    pub hash_bytes: usize,
    /// Threads searching together.
    pub threads: usize,
}

impl EngineSettings {
    /// An engine with these settings.
    ///
    /// # Errors
    /// When the table's memory cannot be had.
    pub fn engine(&self) -> Result<Engine, TableTooLarge> {
        let mut engine = Engine::try_new(self.hash_bytes)?;
        engine.set_threads(self.threads);
        Ok(engine)
    }
}

/// The number of threads when `--threads` is not given: one per core.
#[must_use]
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Reads and parses a board file; errors name the file and the line.
///
/// # Errors
/// When the file cannot be read or is not a valid board file.
pub fn read_board_file(path: &Path) -> anyhow::Result<BoardFile> {
    let text = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    format::parse(&text).with_context(|| format!("{} is not a valid board file", path.display()))
}

/// Writes `board` to `path` atomically (see [`atomic`]): a reader never sees
/// half a file, and on failure whatever was at `path` before is left as it was.
///
/// # Errors
/// When the directory is not writable or the rename fails.
pub fn save_board(path: &Path, board: &Board, line_ending: LineEnding) -> anyhow::Result<()> {
    atomic::write(path, format::write(board, line_ending).as_bytes())
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
