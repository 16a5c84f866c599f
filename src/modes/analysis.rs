//! Commands that study a position rather than play it: `perft` and `solve`.

use crate::moves::Moves;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use super::position::Source;
use super::progress;
use super::settings::EngineSettings;
use super::thinking::{cpu_and_rate, threads_phrase};
use crate::board::{Board, Column};
use crate::rules::Rules;
use crate::search::classic::Solver;
use crate::search::{self, Engine, OutOfTime, Solution};

/// Prints `perft DEPTH N`: the number of move sequences of length `depth`
/// under `rules` from the position of `source` (the empty board when there
/// is none).
///
/// # Errors
/// When the position cannot be read.
pub fn perft(rules: Rules, depth: u32, source: Option<&Source>, out: &mut dyn Write) -> anyhow::Result<()> {
    let board = match source {
        Some(source) => source.load(rules)?.board,
        None => Board::empty(),
    };
    writeln!(out, "perft {depth} {}", search::perft(rules, &board, depth))?;
    Ok(())
}

/// What `solve` is asked for.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub rules: Rules,
    /// The table's size and the threads; classic rules solve on one thread.
    pub engine: EngineSettings,
    pub time_limit: Option<Duration>,
    /// Classic rules only: win, draw or loss (1, 0, -1) rather than the score.
    pub weak: bool,
}

/// A solver for either game.
enum AnySolver {
    Max(Engine),
    Classic(Solver),
}

impl AnySolver {
    fn new(options: &SolveOptions) -> anyhow::Result<AnySolver> {
        Ok(match options.rules {
            Rules::Max => AnySolver::Max(options.engine.engine(Rules::Max)?),
            Rules::Classic => AnySolver::Classic(
                Solver::new(options.engine.hash_bytes)?.with_book(options.engine.book.load(Rules::Classic)?),
            ),
        })
    }

    fn solve(&mut self, board: &Board, options: &SolveOptions) -> Result<Solution, OutOfTime> {
        match self {
            AnySolver::Max(engine) => engine.solve(board, options.time_limit),
            AnySolver::Classic(solver) => solver.solve(board, options.weak, options.time_limit),
        }
    }

    /// The value alone, and the nodes it took.
    fn value(&mut self, board: &Board, options: &SolveOptions) -> Result<(i32, u64), OutOfTime> {
        match self {
            AnySolver::Max(engine) => {
                engine.solve(board, options.time_limit).map(|solution| (solution.value, solution.nodes))
            }
            AnySolver::Classic(solver) => {
                let value = solver.board_value(board, options.weak, options.time_limit)?;
                Ok((value, solver.nodes()))
            }
        }
    }

    /// The threads that search.
    fn threads(&self) -> usize {
        match self {
            AnySolver::Max(engine) => engine.threads(),
            AnySolver::Classic(_) => 1,
        }
    }

    fn clear(&mut self) {
        match self {
            AnySolver::Max(engine) => engine.clear(),
            AnySolver::Classic(solver) => solver.clear(),
        }
    }
}

/// Prints `value V best C1,C2,...`: the value with perfect play (under Max
/// rules the final score difference, player to move minus opponent; under
/// classic rules the score described in [`crate::search::classic`]) and
/// every column achieving it. Search figures go to `err`; on a terminal, a
/// long search shows its progress there.
///
/// # Errors
/// When the position cannot be read, or the time limit runs out.
pub fn solve(source: &Source, options: &SolveOptions, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<()> {
    let board = source.load(options.rules)?.board;
    let mut solver = AnySolver::new(options)?;
    let start = cpu_time::ProcessTime::now();
    let wall = Instant::now();
    let solution = match &mut solver {
        AnySolver::Max(engine) => {
            let progress = engine.progress();
            progress::while_searching(&progress, || engine.solve(&board, options.time_limit))
        }
        AnySolver::Classic(_) => solver.solve(&board, options),
    }
    .with_context(|| {
        format!(
            "gave up solving {} ({} empty cells); positions with fewer empty cells solve much faster",
            source.describe(),
            board.empty_cells()
        )
    })?;
    let cpu = start.elapsed();
    writeln!(out, "value {} best {}", solution.value, best_columns(&solution.best))?;
    writeln!(
        err,
        "Solved {} empty cells: {} nodes in {}, {:.3} s elapsed, {}.",
        board.empty_cells(),
        solution.nodes,
        cpu_and_rate(solution.nodes, cpu),
        wall.elapsed().as_secs_f64(),
        threads_phrase(solver.threads()),
    )?;
    Ok(())
}

/// `3,6`, or `none`.
fn best_columns(best: &[Column]) -> String {
    let best: Vec<String> = best.iter().map(ToString::to_string).collect();
    if best.is_empty() {
        "none".to_owned()
    } else {
        best.join(",")
    }
}

/// Solves one position per line of `input` (named `name` in messages): the
/// first word of a line is a move string, the rest is ignored, and blank
/// lines are skipped. Prints `MOVES VALUE` for each, in order; a bad line is
/// reported on `err` with its number and the batch goes on. The table is
/// cleared before each position, so each is solved as on its own. The
/// figures (positions, nodes, CPU seconds, mean per position) go to `err`.
/// Returns the number of bad lines.
///
/// # Errors
/// When `input` cannot be read or `out` written, or a position runs out of time.
pub fn solve_batch(
    name: &str,
    input: &mut dyn BufRead,
    options: &SolveOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<usize> {
    let mut solver = AnySolver::new(options)?;
    let (mut positions, mut nodes, mut bad) = (0u64, 0u64, 0);
    let mut cpu = Duration::ZERO;
    for (number, line) in (1..).zip(input.lines()) {
        let line = line.with_context(|| format!("cannot read {name}"))?;
        let Some(moves) = line.split_whitespace().next() else { continue };
        let board = match Moves::board(options.rules, moves) {
            Ok(board) => board,
            Err(error) => {
                writeln!(err, "error: {name}, line {number}: bad move string '{}': {error}", moves.escape_debug())?;
                bad += 1;
                continue;
            }
        };
        solver.clear();
        let start = cpu_time::ProcessTime::now();
        let (value, searched) = solver
            .value(&board, options)
            .with_context(|| format!("{name}, line {number}: gave up solving '{moves}'"))?;
        cpu += start.elapsed();
        positions += 1;
        nodes += searched;
        writeln!(out, "{moves} {value}")?;
    }
    out.flush()?;
    let mean = if positions > 0 { cpu.as_secs_f64() / positions as f64 } else { 0.0 };
    writeln!(
        err,
        "Solved {positions} positions: {nodes} nodes in {}; mean {:.1} us per position.",
        cpu_and_rate(nodes, cpu),
        mean * 1e6
    )?;
    Ok(bad)
}
