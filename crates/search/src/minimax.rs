//! Plain minimax (in negamax form): every line to the full depth, no pruning.

use super::SearchResult;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::score::evaluate;
use maxconnect4_game::value::{INFINITY, Value};

/// Chooses a move for the player to move by a full-width search `depth`
/// plies deep. Returns `None` when the board is full.
///
/// # Panics
/// When `depth` is 0.
#[must_use]
pub fn minimax(board: &Board, depth: u32) -> Option<SearchResult> {
    assert!(depth >= 1, "search depth must be at least 1");
    let mut nodes = 1;
    let (column, value) = best_child(board, |child, _| -negamax(child, depth - 1, &mut nodes))?;
    Some(SearchResult { column, value, nodes, depth: depth.min(board.empty_cells()) })
}

/// The minimax value of `board` for the player to move, `depth` plies deep.
fn negamax(board: &Board, depth: u32, nodes: &mut u64) -> Value {
    *nodes += 1;
    if depth == 0 || board.is_full() {
        return evaluate(board);
    }
    Column::CENTRE_FIRST
        .into_iter()
        .filter(|&column| board.can_play(column))
        .map(|column| -negamax(&board.after(column), depth - 1, nodes))
        .max()
        .expect("a board that is not full has a legal move")
}

/// Searches the children of `board` in centre-first order, asking
/// `child_value(child, best)` for the value of each from the root mover's
/// side given the best value so far, and keeps the first best. Returns `None`
/// on a full board. The root of both plain searches, this one and
/// [`alpha_beta`](super::alpha_beta).
pub(super) fn best_child(
    board: &Board,
    mut child_value: impl FnMut(&Board, Value) -> Value,
) -> Option<(Column, Value)> {
    let mut best: Option<(Column, Value)> = None;
    for column in Column::CENTRE_FIRST {
        if !board.can_play(column) {
            continue;
        }
        let best_value = best.map_or(-INFINITY, |(_, value)| value);
        let value = child_value(&board.after(column), best_value);
        if value > best_value {
            best = Some((column, value));
        }
    }
    best
}
