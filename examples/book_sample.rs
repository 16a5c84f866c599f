//! What a deeper opening book would cost: the mean time to solve a position
//! `D` moves from the empty board, measured on a seeded random sample (each
//! position reached by random moves, the game still going), single thread,
//! the table cleared before each position, CPU time of the solve alone.
//! Multiplied by the number of positions at that depth, it estimates the
//! build time of `maxconnect4 book --depth D` (which keeps each thread's
//! table from one position to the next, so it does somewhat better).
//!
//! Run: `cargo run --release --example book_sample -- D [N]` (N positions,
//! default 8). Prints one line per position (value, seconds, nodes) and the mean.

use std::process::ExitCode;
use std::time::Duration;

use maxconnect4::board::{Board, Column};
use maxconnect4::rules::Rules;
use maxconnect4::search::classic::Solver;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth = args.first().and_then(|text| text.parse::<usize>().ok());
    let count = args.get(1).map_or(Some(8), |text| text.parse::<usize>().ok());
    let (Some(depth), Some(count)) = (depth, count) else {
        eprintln!("usage: book_sample D [N]");
        return ExitCode::from(2);
    };
    let mut seed = 0x9E37_79B9_7F4A_7C15 ^ depth as u64;
    let mut random = move |below: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % below as u64) as usize
    };
    let mut solver = Solver::new(64 << 20).expect("64 MB");
    let mut total = Duration::ZERO;
    let mut solved = 0;
    while solved < count {
        let mut board = Board::empty();
        let mut moves = String::new();
        for _ in 0..depth {
            let legal: Vec<Column> = board.legal_columns().collect();
            let column = legal[random(legal.len())];
            board.play(column);
            moves.push_str(&column.to_string());
            if Rules::Classic.is_over(&board) {
                break;
            }
        }
        if Rules::Classic.is_over(&board) {
            continue;
        }
        solver.clear();
        let start = cpu_time::ThreadTime::now();
        let value = solver.board_value(&board, false, None).expect("no time limit");
        let took = start.elapsed();
        total += took;
        solved += 1;
        println!("{moves}: value {value}, {:.3} s, {} nodes", took.as_secs_f64(), solver.nodes());
    }
    println!("depth {depth}: {count} positions, mean {:.3} s of CPU time", total.as_secs_f64() / count as f64);
    ExitCode::SUCCESS
}
