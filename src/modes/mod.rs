//! The ways the program is run from the command line. Unlike the core, these
//! read and write files, the terminal and the clock.

mod interactive;
mod one_move;

pub use interactive::{ask_column, interactive, FirstMove};
pub use one_move::one_move;

use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::Context as _;

use crate::board::Board;
use crate::format::{self, BoardFile, LineEnding};
use crate::search::{self, SearchResult};

/// Reads and parses a board file; errors name the file and the line.
///
/// # Errors
/// When the file cannot be read or is not a valid board file.
pub fn read_board_file(path: &Path) -> anyhow::Result<BoardFile> {
    let text = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    format::parse(&text).with_context(|| format!("{} is not a valid board file", path.display()))
}

/// Writes `board` to `path` atomically: into a temporary file in the same
/// directory, then renamed over `path`. A reader never sees half a file, and
/// on failure whatever was at `path` before is left as it was.
///
/// # Errors
/// When the directory is not writable or the rename fails.
pub fn save_board(path: &Path, board: &Board, line_ending: LineEnding) -> anyhow::Result<()> {
    let context = || format!("cannot write {}", path.display());
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut file =
        tempfile::Builder::new().prefix(".maxconnect4-").suffix(".tmp").tempfile_in(directory).with_context(context)?;
    file.write_all(format::write(board, line_ending).as_bytes()).with_context(context)?;
    file.as_file().sync_all().with_context(context)?;
    file.persist(path).map_err(|error| error.error).with_context(context)?;
    Ok(())
}

/// A search for the computer's move with the CPU time it took.
struct Thought {
    result: SearchResult,
    depth: u32,
    cpu: Duration,
}

/// Searches `board` (which must not be full) `depth` plies deep, timing the
/// search in CPU time of this thread.
fn think(board: &Board, depth: u32) -> Thought {
    let start = cpu_time::ThreadTime::now();
    let result = search::alpha_beta(board, depth).expect("the board is not full");
    let cpu = start.elapsed();
    Thought { result, depth: depth.min(board.empty_cells()), cpu }
}

impl Thought {
    /// One line a student can copy figures from.
    fn report(&self, out: &mut dyn Write) -> io::Result<()> {
        let seconds = self.cpu.as_secs_f64();
        let rate = if seconds > 0.0 {
            format!("{:.1} M nodes/s", self.result.nodes as f64 / seconds / 1e6)
        } else {
            "too fast to time".to_owned()
        };
        writeln!(
            out,
            "Searched {} nodes to depth {} in {seconds:.6} s of CPU time ({rate}).",
            self.result.nodes, self.depth
        )
    }
}
