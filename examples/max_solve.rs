//! The nodes and time of Max-Connect4 solves, one position after another,
//! each on a new engine with one thread: for comparing changes to the
//! solver side by side (node counts on one thread are the same every run).
//!
//! Run: `cargo run --release --example max_solve -- [--value] MOVES...`:
//! each MOVES is a position given as its moves from the empty board;
//! `--value` finds the value alone (`Engine::exact_value`, what a book
//! build asks), else the value and every best move (`Engine::solve`).

use std::time::Instant;

use maxconnect4::moves::Moves;
use maxconnect4::rules::Rules;
use maxconnect4::search::{Engine, Strength};

/// The table of each solve: the largest it may grow to.
const HASH_BYTES: usize = 1 << 30;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value_only = args.iter().any(|arg| arg == "--value");
    for moves in args.iter().filter(|arg| !arg.starts_with("--")) {
        let board = match Moves::board(Rules::Max, moves) {
            Ok(board) => board,
            Err(error) => {
                eprintln!("max_solve: {moves}: {error}");
                std::process::exit(2);
            }
        };
        let mut engine = Engine::with_book(Rules::Max, HASH_BYTES, None).expect("a table of 1 GiB");
        let start = Instant::now();
        let (value, best, nodes) = if value_only {
            let exact = engine.exact_value(&board, Strength::Strong, None).expect("no time limit");
            (exact.value, String::new(), exact.nodes)
        } else {
            let solution = engine.solve(&board, Strength::Strong, None).expect("no time limit");
            let best: Vec<String> = solution.best.iter().map(ToString::to_string).collect();
            (solution.value, format!(" best {}", best.join(",")), solution.nodes)
        };
        let seconds = start.elapsed().as_secs_f64();
        println!("{moves} empty {} value {value}{best} nodes {nodes} time {seconds:.2} s", board.empty_cells());
    }
}
