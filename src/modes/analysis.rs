//! Commands that study a position rather than play it: `perft` and `solve`.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use super::{cpu_and_rate, progress, read_board_file, EngineSettings};
use crate::board::Board;
use crate::search;

/// Reads `file`, or gives the empty board when there is none.
fn board_or_empty(file: Option<&Path>) -> anyhow::Result<Board> {
    Ok(match file {
        Some(path) => read_board_file(path)?.board,
        None => Board::empty(),
    })
}

/// Prints `perft DEPTH N`: the number of move sequences of length `depth`
/// from the board in `file` (the empty board when there is none).
///
/// # Errors
/// When `file` cannot be read or parsed.
pub fn perft(depth: u32, file: Option<&Path>, out: &mut dyn Write) -> anyhow::Result<()> {
    let board = board_or_empty(file)?;
    writeln!(out, "perft {depth} {}", search::perft(&board, depth))?;
    Ok(())
}

/// Prints `value V best C1,C2,...`: the final score difference with perfect
/// play (player to move minus opponent) and every column achieving it.
/// Search figures go to `err`.
///
/// # Errors
/// When `file` cannot be read or parsed, or the time limit runs out.
pub fn solve(
    file: &Path,
    settings: &EngineSettings,
    time_limit: Option<Duration>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<()> {
    let board = read_board_file(file)?.board;
    let mut engine = settings.engine()?;
    let start = cpu_time::ProcessTime::now();
    let wall = Instant::now();
    let progress = engine.progress();
    let solution = progress::while_searching(&progress, || engine.solve(&board, time_limit)).with_context(|| {
        format!(
            "gave up solving {} ({} empty cells); positions with fewer empty cells solve much faster",
            file.display(),
            board.empty_cells()
        )
    })?;
    let cpu = start.elapsed();
    let best: Vec<String> = solution.best.iter().map(ToString::to_string).collect();
    let best = if best.is_empty() { "none".to_owned() } else { best.join(",") };
    writeln!(out, "value {} best {best}", solution.value)?;
    writeln!(
        err,
        "Solved {} empty cells: {} nodes in {} ({:.3} s elapsed, {} threads).",
        board.empty_cells(),
        solution.nodes,
        cpu_and_rate(solution.nodes, cpu),
        wall.elapsed().as_secs_f64(),
        settings.threads,
    )?;
    Ok(())
}
