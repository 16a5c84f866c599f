//! Minimax with alpha-beta pruning, as the assignment asks: the same value
//! as [`minimax`](super::minimax), found by skipping lines that cannot matter.

use super::SearchResult;
use super::minimax::best_child;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::score::evaluate;
use maxconnect4_game::value::{INFINITY, Value};

/// Chooses a move for the player to move by an alpha-beta search `depth`
/// plies deep. Returns `None` when the board is full.
///
/// # Panics
/// When `depth` is 0.
#[must_use]
pub fn alpha_beta(board: &Board, depth: u32) -> Option<SearchResult> {
    assert!(depth >= 1, "search depth must be at least 1");
    let mut nodes = 1;
    let (column, value) = best_child(board, |child, best| -negamax(child, depth - 1, -INFINITY, -best, &mut nodes))?;
    Some(SearchResult { column, value, nodes, depth: depth.min(board.empty_cells()) })
}

/// Alpha-beta in negamax form, fail-soft. With `v` the minimax value of
/// `board` at `depth` and `r` the result: if `alpha < r < beta` then `r == v`;
/// if `r <= alpha` then `v <= r`; if `r >= beta` then `v >= r`.
fn negamax(board: &Board, depth: u32, mut alpha: Value, beta: Value, nodes: &mut u64) -> Value {
    *nodes += 1;
    if depth == 0 || board.is_full() {
        return evaluate(board);
    }
    let mut best = -INFINITY;
    for column in Column::CENTRE_FIRST {
        if !board.can_play(column) {
            continue;
        }
        let value = -negamax(&board.after(column), depth - 1, -beta, -alpha, nodes);
        if value > best {
            best = value;
            if value > alpha {
                alpha = value;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}
