//! The nodes and time of Max-Connect4 solves, one position after another,
//! each on a new engine with one thread: for comparing changes to the
//! solver side by side (node counts on one thread are the same every run).
//!
//! Run: `cargo run --release --example max_solve -- [--value | --best]
//! [--carry | --known] [--threads N] MOVES...`: each MOVES is a position
//! given as its moves from the empty board; `--value` finds the value
//! alone (`Engine::exact_value`, what a book build asks), `--best` the
//! value and one best move (`Engine::best_move`, what perfect play asks),
//! else the value and every best move (`Engine::solve`); `--carry` solves
//! them all on one engine, whose table carries over from one to the next as
//! a book build's does; `--known` first finds each position's value on an
//! engine of its own (not counted), then solves it on an engine whose book
//! holds that value alone, as a book's deepest layer does
//! (`Engine::best_move` and `Engine::solve` then only search which moves
//! reach the value); `--threads N` searches each with N threads (default
//! 1).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use maxconnect4::moves::Moves;
use maxconnect4::rules::Rules;
use maxconnect4::search::book::{layers::Layers, BookSpec, Known};
use maxconnect4::search::{Engine, Strength};

/// The table of each solve: the largest it may grow to.
const HASH_BYTES: usize = 1 << 30;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value_only = args.iter().any(|arg| arg == "--value");
    let one_best = args.iter().any(|arg| arg == "--best");
    let carry = args.iter().any(|arg| arg == "--carry");
    let known = args.iter().any(|arg| arg == "--known");
    if carry && known {
        eprintln!("max_solve: --carry and --known cannot go together: --known solves each on an engine of its own");
        std::process::exit(2);
    }
    let threads_at = args.iter().position(|arg| arg == "--threads");
    let threads = match threads_at.map(|at| args.get(at + 1).map(|n| n.parse::<usize>())) {
        None => 1,
        Some(Some(Ok(threads))) if threads > 0 => threads,
        Some(_) => {
            eprintln!("max_solve: --threads takes a number of threads, 1 or more");
            std::process::exit(2);
        }
    };
    let new_engine = || {
        let mut engine = Engine::with_book(Rules::Max, HASH_BYTES, None).expect("a table of 1 GiB");
        engine.set_threads(threads);
        engine
    };
    let mut carried = new_engine();
    let positions =
        args.iter().enumerate().filter(|&(at, arg)| !arg.starts_with("--") && Some(at) != threads_at.map(|t| t + 1));
    for (_, moves) in positions {
        let board = match Moves::board(Rules::Max, moves) {
            Ok(board) => board,
            Err(error) => {
                eprintln!("max_solve: {moves}: {error}");
                std::process::exit(2);
            }
        };
        let mut fresh;
        let engine = if known {
            let value = new_engine().exact_value(&board, Strength::Strong, None).expect("no time limit").value;
            fresh = engine_knowing(moves, value, threads);
            &mut fresh
        } else if carry {
            &mut carried
        } else {
            fresh = new_engine();
            &mut fresh
        };
        let start = Instant::now();
        let (value, best, nodes) = if value_only {
            let exact = engine.exact_value(&board, Strength::Strong, None).expect("no time limit");
            (exact.value, String::new(), exact.nodes)
        } else {
            let solution = if one_best {
                engine.best_move(&board, None).expect("no time limit")
            } else {
                engine.solve(&board, Strength::Strong, None).expect("no time limit")
            };
            let best: Vec<String> = solution.best.iter().map(ToString::to_string).collect();
            (solution.value, format!(" best {}", best.join(",")), solution.nodes)
        };
        let seconds = start.elapsed().as_secs_f64();
        println!("{moves} empty {} value {value}{best} nodes {nodes} time {seconds:.2} s", board.empty_cells());
    }
}

/// An engine with `threads` threads whose book holds the position after
/// `moves` and its value alone: a book of depth 0 rooted there.
fn engine_knowing(moves: &str, value: i32, threads: usize) -> Engine {
    let layers = Layers::new(&BookSpec { rules: Rules::Max, root: moves.to_owned(), depth: 0 }).expect("a position");
    let values: HashMap<u64, Known> = layers.deepest_keys().map(|key| (key, Known { value, best: None })).collect();
    let book = Arc::new(layers.book(&values).expect("the root's value"));
    let mut engine = Engine::with_book(Rules::Max, HASH_BYTES, Some(book)).expect("a table of 1 GiB");
    engine.set_threads(threads);
    engine
}
