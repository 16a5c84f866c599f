//! `bench`: a fixed workload for measuring the engine's speed. The positions
//! and depths never change, so the node total changes only when the search
//! does; a test pins it.

use crate::moves::Moves;
use std::io::Write;
use std::time::{Duration, Instant};

use super::progress;
use super::settings::EngineSettings;
use super::thinking::{cpu_and_rate, threads_phrase};
use super::Error;
use crate::board::Board;
use crate::format;
use crate::rules::Rules;
use crate::search::{Limits, Strength};

/// The workload: a name, a board file (as text), and the depth, or `None`
/// to solve it exactly.
pub const BENCH_POSITIONS: [(&str, &str, Option<u32>); 6] = [
    ("empty board", "0000000\n0000000\n0000000\n0000000\n0000000\n0000000\n1\n", Some(14)),
    ("input2", "0000000\n0000000\n0200000\n0100002\n0200111\n1100222\n1\n", Some(14)),
    ("opening", "0000000\n0000000\n0000000\n0002000\n0021100\n0012210\n1\n", Some(14)),
    ("middle game", "0000000\n0002000\n0011200\n0022100\n0011210\n2221121\n1\n", Some(14)),
    ("endgame, 22 empty", "0000000\n0010200\n0110110\n0220210\n0210120\n0212212\n1\n", None),
    ("endgame, 20 empty", "0011000\n0012001\n0022002\n0221001\n0221002\n1111202\n1\n", None),
];

/// The deep workload (`bench --deep`), the searches the speed-up from more
/// threads is measured on (`reports/FIGURES.md`, Threads), up to a few
/// seconds each on one thread: one-move to depth 20 from the empty board
/// (`input_files/input1.txt`) and to depth 22 from `input2.txt`, and solves
/// of `input2.txt` (30 empty cells) and of `solve/empty28_a.txt` and
/// `empty28_d.txt`.
pub const DEEP_BENCH_POSITIONS: [(&str, &str, Option<u32>); 5] = [
    ("empty board", "0000000\n0000000\n0000000\n0000000\n0000000\n0000000\n1\n", Some(20)),
    ("input2", "0000000\n0000000\n0200000\n0100002\n0200111\n1100222\n1\n", Some(22)),
    ("input2, 30 empty", "0000000\n0000000\n0200000\n0100002\n0200111\n1100222\n1\n", None),
    ("empty28_a", "0000000\n0012000\n0021000\n0012000\n0121000\n2212001\n1\n", None),
    ("empty28_d", "0001000\n0001200\n0001200\n0002100\n0001200\n0102122\n1\n", None),
];

/// The classic workload: a name, a move string, and the depth, or `None`
/// to solve it exactly (two positions of the Middle-Medium benchmark set, see
/// `reports/FIGURES.md`).
pub const CLASSIC_BENCH_POSITIONS: [(&str, &str, Option<u32>); 5] = [
    ("empty board", "", Some(16)),
    ("opening", "4453", Some(16)),
    ("middle game", "444343522655", Some(18)),
    ("middle-medium 1", "274552224131661", None),
    ("middle-medium 3", "2531276566711153", None),
];

/// The positions of the workload for `rules` (the deep one if `deep`),
/// with their names and depths.
fn positions(rules: Rules, deep: bool) -> Vec<(&'static str, Board, Option<u32>)> {
    match rules {
        Rules::Max => (if deep { &DEEP_BENCH_POSITIONS[..] } else { &BENCH_POSITIONS[..] })
            .iter()
            .map(|&(name, text, depth)| {
                (name, format::parse(text.as_bytes()).expect("bench positions are valid").board, depth)
            })
            .collect(),
        Rules::Classic => CLASSIC_BENCH_POSITIONS
            .iter()
            .map(|&(name, moves, depth)| (name, Moves::board(rules, moves).expect("bench positions are valid"), depth))
            .collect(),
    }
}

/// Searches every bench position of `rules` (of the deep workload if
/// `deep`, for Max-Connect4) with a fresh table, with an
/// engine set up as `settings`, and prints each one's figures and the
/// total: nodes, CPU time of all threads, and the time elapsed, which is
/// what more threads shorten.
///
/// # Errors
/// When the table's memory cannot be had or writing to `out` fails.
pub fn bench(rules: Rules, deep: bool, settings: &EngineSettings, out: &mut dyn Write) -> Result<(), Error> {
    let mut engine = settings.engine(rules)?;
    // The bench measures the search, not the operating system mapping memory in.
    engine.map_in_table();
    let mut total_nodes = 0;
    let mut total_cpu = Duration::ZERO;
    let mut total_wall = Duration::ZERO;
    let progress = engine.progress();
    for (name, board, depth) in positions(rules, deep) {
        engine.clear();
        let start = cpu_time::ProcessTime::now();
        let wall = Instant::now();
        let (nodes, what) = progress::while_searching(&progress, || match depth {
            Some(depth) => {
                let result = engine.search(&board, &Limits::depth(depth)).expect("bench positions are not full");
                (result.nodes, format!("depth {depth}, column {}", result.column))
            }
            None => {
                let solution = engine.solve(&board, Strength::Strong, None).expect("no time limit");
                (solution.nodes, format!("solved, value {}", solution.value))
            }
        });
        let cpu = start.elapsed();
        let wall = wall.elapsed();
        total_nodes += nodes;
        total_cpu += cpu;
        total_wall += wall;
        writeln!(
            out,
            "{name:<18} {what:<22} {nodes:>10} nodes  {}, {:.3} s elapsed",
            cpu_and_rate(nodes, cpu),
            wall.as_secs_f64()
        )?;
    }
    writeln!(
        out,
        "bench: {total_nodes} nodes in {}, {:.3} s elapsed, {}",
        cpu_and_rate(total_nodes, total_cpu),
        total_wall.as_secs_f64(),
        threads_phrase(engine.threads())
    )?;
    Ok(())
}
