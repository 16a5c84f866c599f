//! Labels the early positions of `examples/eval_data.rs`'s output with a
//! deep search's value instead of their game's result, to fit the weights
//! to (see `examples/eval_fit.rs`).
//!
//! A position labelled `game` takes the result of its game's own
//! continuation, played by shallow searches with one move in ten random:
//! early in the game that result says little about the position, and a fit
//! to it learns that early windows matter little. A search DEPTH plies deep
//! (with the evaluation compiled in at its leaves) is a less noisy estimate
//! of what the position is worth. Solved positions (`exact`) are kept.
//!
//! Output, one position a line: `MOVES LABEL KIND`, the label of a searched
//! position in points for player 1 (to a 32nd) and its kind `search`.
//!
//! Run: `cargo run --release --example eval_relabel -- DEPTH < eval.txt > relabelled.txt`

use maxconnect4::moves::Moves;
use std::io::{BufRead, Write};

use anyhow::{anyhow, Context};

use maxconnect4::player::Player;
use maxconnect4::rules::Rules;
use maxconnect4::search::{Engine, Limits};
use maxconnect4::value::POINT;

fn usage() -> ! {
    eprintln!("usage: eval_relabel DEPTH < eval.txt > relabelled.txt");
    std::process::exit(2);
}

fn main() -> anyhow::Result<()> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let [depth] = arguments.as_slice() else { usage() };
    let Ok(depth) = depth.parse::<u32>() else { usage() };
    let mut engine = Engine::max_without_book(16 << 20);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (number, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.context("cannot read standard input")?;
        let bad = |what: &str| anyhow!("line {}: {what}", number + 1);
        let [moves, _, kind] = line.split(' ').collect::<Vec<_>>()[..] else {
            return Err(bad("expected MOVES LABEL KIND"));
        };
        if kind != "game" {
            writeln!(out, "{line}")?;
            continue;
        }
        let board = Moves::board(Rules::Max, moves).map_err(|error| bad(&error.to_string()))?;
        let value = engine.search(&board, &Limits::depth(depth)).ok_or_else(|| bad("the board is full"))?.value;
        // The search gives the mover's view; labels are player 1's.
        let value = if board.to_move() == Player::One { value } else { -value };
        writeln!(out, "{moves} {} search", f64::from(value) / f64::from(POINT))?;
    }
    out.flush()?;
    Ok(())
}
