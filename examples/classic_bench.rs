//! The classic solver against the six public benchmark sets (see
//! `tests/data/connect4-benchmarks/README.md`): every position's value
//! checked against the published score, and the mean time per position.
//!
//! Each position is solved as on its own: the table is cleared before it,
//! outside the timed part, and only the solve is timed, in wall time (no
//! opening book).
//!
//! Run: `cargo run --release --example classic_bench -- SET [N] [--weak] [--threads T]`,
//! SET being a set's name (`End-Easy`, `Middle-Easy`, `Middle-Medium`,
//! `Begin-Easy`, `Begin-Medium`, `Begin-Hard`) or a file of `MOVES SCORE`
//! lines, N the number of positions to solve (from the first; default all),
//! `--weak` solving for win, draw or loss only, `--threads T` solving each
//! position with T threads (default 1). Exits with 1 if any value is wrong.
//!
//! `classic_bench -- --position MOVES [--weak] [--threads T] [--hash MB]`
//! solves one position (`''` for the empty board) with a table of MB
//! megabytes (default 1024) and prints its value, nodes and time.

use maxconnect4::moves::Moves;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use maxconnect4::rules::Rules;
use maxconnect4::search::classic::{Solver, BENCHMARK_SETS};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let weak = args.iter().any(|arg| arg == "--weak");
    let mut args: Vec<&String> = args.iter().filter(|arg| *arg != "--weak").collect();
    let (Some(threads), Some(hash)) = (option(&mut args, "--threads", 1), option(&mut args, "--hash", 1024)) else {
        eprintln!("--threads and --hash take a whole number");
        return ExitCode::from(2);
    };
    if args.first().is_some_and(|arg| *arg == "--position") {
        return solve_one(args.get(1).map_or("", |moves| moves.as_str()), weak, threads, hash);
    }
    let Some(set) = args.first() else {
        eprintln!("usage: classic_bench SET [N] [--weak]");
        return ExitCode::from(2);
    };
    let limit = args.get(1).map_or(Ok(usize::MAX), |text| text.parse::<usize>());
    let Ok(limit) = limit else {
        eprintln!("N must be a whole number");
        return ExitCode::from(2);
    };
    let path = BENCHMARK_SETS
        .iter()
        .find(|(name, _)| name == set)
        .map_or_else(|| PathBuf::from(set), |(_, file)| benchmark_directory().join(file));
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("cannot read {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let mut solver = Solver::new(64 << 20).expect("64 MB").with_threads(threads);
    solver.map_in_table();
    let (mut positions, mut wrong, mut nodes) = (0u32, 0u32, 0u64);
    let mut cpu = Duration::ZERO;
    let mut slowest = Duration::ZERO;
    for line in text.lines().take(limit) {
        let mut words = line.split_whitespace();
        let (Some(moves), Some(score)) = (words.next(), words.next().and_then(|score| score.parse::<i32>().ok()))
        else {
            eprintln!("{}: not a 'MOVES SCORE' line: {line}", path.display());
            return ExitCode::FAILURE;
        };
        let board = Moves::board(Rules::Classic, moves).expect("benchmark positions are games");
        solver.clear();
        let start = Instant::now();
        let value = solver.board_value(&board, weak, None).expect("no time limit");
        let took = start.elapsed();
        cpu += took;
        slowest = slowest.max(took);
        nodes += solver.nodes();
        positions += 1;
        let expected = if weak { score.signum() } else { score };
        if value != expected {
            wrong += 1;
            eprintln!("{moves}: found {value}, published {expected}");
        }
    }
    let mean = cpu.as_secs_f64() / f64::from(positions.max(1));
    println!(
        "{set}: {positions} positions, {wrong} wrong, mean {:.1} us, slowest {:.1} ms, {:.0} nodes per position, {:.1} M nodes/s, {threads} threads",
        mean * 1e6,
        slowest.as_secs_f64() * 1e3,
        nodes as f64 / f64::from(positions.max(1)),
        nodes as f64 / cpu.as_secs_f64().max(1e-9) / 1e6
    );
    if wrong > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Solves the position after `moves` and prints its value, nodes and time.
fn solve_one(moves: &str, weak: bool, threads: usize, hash: usize) -> ExitCode {
    let Ok(board) = Moves::board(Rules::Classic, moves) else {
        eprintln!("bad move string '{moves}'");
        return ExitCode::from(2);
    };
    let mut solver = Solver::new(hash << 20).expect("the table's memory").with_threads(threads);
    let (start, cpu) = (Instant::now(), cpu_time::ProcessTime::now());
    let value = solver.board_value(&board, weak, None).expect("no time limit");
    let (wall, cpu) = (start.elapsed().as_secs_f64(), cpu.elapsed().as_secs_f64());
    println!(
        "'{moves}': value {value}, {} nodes in {wall:.1} s wall, {cpu:.1} s CPU, {threads} threads, {hash} MB",
        solver.nodes()
    );
    ExitCode::SUCCESS
}

/// The whole number after `name` in `args` (removing both), `default` if
/// `name` is absent, `None` if what follows is not a number.
fn option(args: &mut Vec<&String>, name: &str, default: usize) -> Option<usize> {
    let Some(at) = args.iter().position(|arg| *arg == name) else { return Some(default) };
    let value = args.get(at + 1)?.parse().ok()?;
    args.drain(at..at + 2);
    Some(value)
}

/// `../shared/data/connect4-benchmarks` beside the repository, or where
/// `CONNECT4_BENCHMARKS` says.
fn benchmark_directory() -> PathBuf {
    std::env::var_os("CONNECT4_BENCHMARKS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/connect4-benchmarks"),
        PathBuf::from,
    )
}
