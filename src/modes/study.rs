//! Commands that study a position rather than play it: `perft`, `solve`
//! and `analyse`.

use crate::moves::Moves;
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use super::position::Source;
use super::progress;
use super::settings::EngineSettings;
use super::thinking::{cpu_and_rate, threads_phrase};
use super::Error;
use crate::bitboard::WIDTH;
use crate::board::{Board, Column};
use crate::rules::Rules;
use crate::search::{self, Analysis, ColumnValue, Limits, Reach, SolveError, Strength, ValueBound};

/// Prints `perft DEPTH N`: the number of move sequences of length `depth`
/// under `rules` from the position of `source` (the empty board when there
/// is none).
///
/// # Errors
/// When the position cannot be read.
pub fn perft(rules: Rules, depth: u32, source: Option<&Source>, out: &mut dyn Write) -> Result<(), Error> {
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
    /// The table's size and the threads.
    pub engine: EngineSettings,
    pub time_limit: Option<Duration>,
    /// Weak is win, draw or loss (1, 0, -1) rather than the score.
    pub strength: Strength,
    /// Only whether the value is at least this (`--bound V`).
    pub bound: Option<i32>,
}

/// Prints `value V best C1,C2,...`: the value with perfect play (under Max
/// rules the final score difference, player to move minus opponent; under
/// classic rules the score described in [`crate::search::classic`]) and
/// every column achieving it; with a bound to test (`--bound V`), only
/// `value >= B` or `value <= B`, the bound proved on V's side. Search
/// figures go to `err`; on a terminal, a
/// long search shows its progress there.
///
/// # Errors
/// When the position cannot be read, or the time limit runs out.
pub fn solve(source: &Source, options: &SolveOptions, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), Error> {
    let board = source.load(options.rules)?.board;
    let mut engine = options.engine.engine(options.rules)?;
    let start = cpu_time::ProcessTime::now();
    let wall = Instant::now();
    let progress = engine.progress();
    if let Some(at_least) = options.bound {
        let bounded = progress::while_searching(&progress, || engine.bound(&board, at_least, options.time_limit))
            .map_err(|error| gave_up(source, &board, error))?;
        let cpu = start.elapsed();
        match bounded.bound {
            ValueBound::AtLeast(bound) => writeln!(out, "value >= {bound}")?,
            ValueBound::AtMost(bound) => writeln!(out, "value <= {bound}")?,
        }
        return Ok(figures(err, "Bounded", &board, bounded.nodes, (cpu, wall.elapsed()), engine.threads())?);
    }
    // The engine answers from its book at once where the book holds the position.
    let solution = progress::while_searching(&progress, || engine.solve(&board, options.strength, options.time_limit))
        .map_err(|error| gave_up(source, &board, error))?;
    let cpu = start.elapsed();
    writeln!(out, "value {} best {}", solution.value, best_columns(&solution.best))?;
    Ok(figures(err, "Solved", &board, solution.nodes, (cpu, wall.elapsed()), engine.threads())?)
}

/// Why a solve of `board` from `source` stopped without an answer.
fn gave_up(source: &Source, board: &Board, error: SolveError) -> Error {
    let what = format!(
        "gave up solving {} ({} empty cells); positions with fewer empty cells solve much faster",
        source.describe(),
        board.empty_cells()
    );
    Error::GaveUp { what, source: error }
}

/// `VERB N empty cells: NODES nodes in CPU TIME (RATE), WALL s elapsed,
/// THREADS.`: the figures of a search of `board`, on `err`.
fn figures(
    err: &mut dyn Write,
    verb: &str,
    board: &Board,
    nodes: u64,
    (cpu, wall): (Duration, Duration),
    threads: usize,
) -> io::Result<()> {
    writeln!(
        err,
        "{verb} {} empty cells: {nodes} nodes in {}, {:.3} s elapsed, {}.",
        board.empty_cells(),
        cpu_and_rate(nodes, cpu),
        wall.as_secs_f64(),
        threads_phrase(threads),
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
) -> Result<usize, Error> {
    let mut engine = options.engine.engine(options.rules)?;
    let (mut positions, mut nodes, mut bad) = (0u64, 0u64, 0);
    let mut cpu = Duration::ZERO;
    for (number, line) in (1..).zip(input.lines()) {
        let line = line.map_err(|source| Error::Read { name: name.to_owned(), source })?;
        let Some(moves) = line.split_whitespace().next() else { continue };
        let board = match Moves::board(options.rules, moves) {
            Ok(board) => board,
            Err(error) => {
                writeln!(err, "error: {name}, line {number}: bad move string '{}': {error}", moves.escape_debug())?;
                bad += 1;
                continue;
            }
        };
        engine.clear();
        let start = cpu_time::ProcessTime::now();
        let solved = engine.exact_value(&board, options.strength, options.time_limit).map_err(|source| {
            Error::GaveUp { what: format!("{name}, line {number}: gave up solving '{moves}'"), source }
        })?;
        cpu += start.elapsed();
        positions += 1;
        nodes += solved.nodes;
        writeln!(out, "{moves} {}", solved.value)?;
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

/// What `analyse` is asked for.
#[derive(Clone, Debug)]
pub struct AnalyseOptions {
    pub rules: Rules,
    /// The table's size, the threads and the book.
    pub engine: EngineSettings,
    pub budget: Limits,
    /// One JSON object for programs rather than a line per column.
    pub json: bool,
}

/// Prints the value of every column of the position of `source` for the
/// player to move (see [`search::analyse`]): a line per column with its
/// value, `exact` or `depth N`, `best` beside the best columns (`best, not
/// proven` where a value is depth-limited: they are then only the best the
/// search saw) and `full` for a full column; or, with `json`, one object. Search figures go to
/// `err`; on a terminal, a long analysis shows its progress there.
///
/// # Errors
/// When the position cannot be read.
pub fn analyse(
    source: &Source,
    options: &AnalyseOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let board = source.load(options.rules)?.board;
    let mut engine = options.engine.engine(options.rules)?;
    let start = cpu_time::ProcessTime::now();
    let wall = Instant::now();
    let progress = engine.progress();
    let analysis = progress::while_searching(&progress, || search::analyse(&mut engine, &board, &options.budget));
    let cpu = start.elapsed();
    if options.json {
        let moves = match source {
            Source::Moves(moves) => Some(moves.as_str()),
            Source::File(_) => None,
        };
        // Numbers, strings and lists, with no map keyed by anything but a
        // string: nothing serde_json can refuse.
        let json = serde_json::to_string(&AnalysisJson::new(&analysis, moves)).expect("plain data serializes");
        writeln!(out, "{json}")?;
    } else if analysis.value().is_none() {
        writeln!(out, "The game is over: no column can be played.")?;
    } else {
        let best = analysis.best();
        let mark = if analysis.best_is_proven() { "  best" } else { "  best, not proven" };
        for column in Column::ALL {
            match analysis.column(column) {
                None => writeln!(out, "{column}  {:>6}", "full")?,
                Some(value) => {
                    let reach = match value.reach {
                        Reach::Exact => "exact".to_owned(),
                        Reach::Depth(depth) => format!("depth {depth}"),
                    };
                    let mark = if best.contains(&column) { mark } else { "" };
                    writeln!(out, "{column}  {:>6}  {reach}{mark}", value.to_string())?;
                }
            }
        }
    }
    Ok(figures(err, "Analysed", &board, analysis.nodes, (cpu, wall.elapsed()), engine.threads())?)
}

/// The JSON object `analyse --json` prints: the rules, the moves if the
/// position was given as moves, each column's value, whether it is exact
/// and its depth (`null` for a full column, and a depth of `null` for an
/// exact value), the best columns, 1-based, and whether they are proven
/// best (every value exact).
#[derive(serde::Serialize)]
pub struct AnalysisJson<'a> {
    rules: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<&'a str>,
    values: [Option<ColumnValue>; WIDTH],
    exact: [Option<bool>; WIDTH],
    depth: [Option<u32>; WIDTH],
    best: Vec<usize>,
    best_proven: bool,
}

impl AnalysisJson<'_> {
    /// The object for `analysis`, of the position after `moves` if it was
    /// given so.
    #[must_use]
    pub fn new<'a>(analysis: &Analysis, moves: Option<&'a str>) -> AnalysisJson<'a> {
        AnalysisJson {
            rules: analysis.rules.name(),
            moves,
            values: analysis.columns,
            exact: analysis.exact(),
            depth: analysis.depths(),
            best: analysis.best().iter().map(|column| column.number()).collect(),
            best_proven: analysis.best_is_proven(),
        }
    }
}
