//! What a node costs when nothing but the evaluation is paid for: the
//! ceiling on nodes per second for any search with this evaluation.
//!
//! Searches the four depth-limited `bench` positions with two table-free,
//! centre-first alpha-betas: the library's plain one, which makes every move,
//! and one whose nodes one ply above the horizon read their children's values
//! without making the moves, as the engine's do. A transposition table and
//! move ordering only add to this cost per node; what they save is nodes.
//!
//! Run: `cargo run --release --example node_cost [DEPTH]` (default 13).

use maxconnect4::bitboard::column_cells;
use maxconnect4::board::{Board, Column};
use maxconnect4::modes::BENCH_POSITIONS;
use maxconnect4::score::{evaluate, value_after};
use maxconnect4::search::alpha_beta;
use maxconnect4::value::{Value, INFINITY};

/// A search of a board that returns the nodes it visited.
type NodesSearched<'a> = dyn Fn(&Board) -> u64 + 'a;

/// Fail-soft negamax, counting nodes as the engine does: one ply above the
/// horizon, each child is a node, evaluated without being made.
fn negamax(board: &Board, depth: u32, mut alpha: Value, beta: Value, nodes: &mut u64) -> Value {
    *nodes += 1;
    let depth = depth.min(board.empty_cells());
    if depth == 0 {
        return evaluate(board);
    }
    let playable = board.playable_cells();
    let mut best = -INFINITY;
    for column in Column::CENTRE_FIRST {
        let cell = playable & column_cells(column.index());
        if cell == 0 {
            continue;
        }
        let value = match depth {
            1 => {
                *nodes += 1;
                value_after(board, cell)
            }
            _ => -negamax(&board.after(column), depth - 1, -beta, -alpha, nodes),
        };
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn main() {
    let depth = std::env::args().nth(1).map_or(13, |depth| depth.parse().expect("DEPTH is a number"));
    let boards: Vec<Board> = BENCH_POSITIONS
        .iter()
        .filter(|(_, _, depth)| depth.is_some())
        .map(|(_, text, _)| maxconnect4::format::parse(text.as_bytes()).expect("valid").board)
        .collect();
    let searches: [(&str, &NodesSearched<'_>); 2] = [
        ("alpha-beta, every move made", &|board| alpha_beta(board, depth).expect("not full").nodes),
        ("alpha-beta, horizon children read", &|board| {
            let mut nodes = 0;
            negamax(board, depth, -INFINITY, INFINITY, &mut nodes);
            nodes
        }),
    ];
    for (name, search) in searches {
        let start = cpu_time::ThreadTime::now();
        let nodes: u64 = boards.iter().map(search).sum();
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{name:<36} depth {depth}: {nodes} nodes in {seconds:.3} s ({:.1} M nodes/s)",
            nodes as f64 / seconds / 1e6
        );
    }
}
