//! Building a classic opening book: the deepest layer solved by threads,
//! each with its own [`Solver`], the shallower layers by negamax over the
//! book itself (see [`super::book`] for what a book holds). Apart from the
//! book's format and lookups, which the solver reads.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::book::{canonical_key, child_value, layers, Book};
use super::position::{Position, CELL_COUNT};
use super::solver::Solver;
use crate::bitboard::WIDTH;
use crate::board::{Board, Column};
use crate::rules::Rules;
use crate::search::table::TableTooLarge;

/// Why a book cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("the root is a finished game")]
    FinishedRoot,
    #[error("the book would reach past the full board: at most {0} moves from this root")]
    TooDeep(u32),
    #[error(transparent)]
    Table(#[from] TableTooLarge),
}

/// One position of the deepest layer solved, as [`build`] reports it.
#[derive(Clone, Copy, Debug)]
pub struct Solved {
    /// The position's key in the book.
    pub key: u64,
    pub value: i32,
    /// Positions of the deepest layer solved so far (those known before included) and in all.
    pub done: usize,
    pub total: usize,
    /// Positions visited by the search of this one.
    pub nodes: u64,
}

/// What [`build`] is asked for.
pub struct BuildOptions<'a> {
    /// Moves from the root to the deepest layer.
    pub depth: u32,
    /// Threads solving the deepest layer.
    pub threads: usize,
    /// Each thread's table size.
    pub hash_bytes: usize,
    /// Values of deepest-layer positions already solved (by key), e.g. by an
    /// interrupted build: not solved again.
    pub known: &'a HashMap<u64, i32>,
}

/// Builds the book of every position up to `options.depth` moves from
/// `root`: the deepest layer solved by `options.threads` threads, each with
/// its own solver (whose table carries over between positions: neighbours in
/// the queue are siblings and share much of their trees), taking positions
/// from one queue; every shallower layer by negamax over the book. Each
/// position solved is reported to `on_solved` (from the solving thread).
///
/// # Errors
/// When the root is a finished game, the depth reaches past a full board,
/// or a table cannot be had.
pub fn build(
    root: &Board,
    root_moves: &str,
    options: &BuildOptions,
    on_solved: &(dyn Fn(Solved) + Sync),
) -> Result<Book, BuildError> {
    if Rules::Classic.is_over(root) {
        return Err(BuildError::FinishedRoot);
    }
    let root_position = Position::of(root);
    if root_position.moves() + options.depth > CELL_COUNT {
        return Err(BuildError::TooDeep(CELL_COUNT - root_position.moves()));
    }
    let layers = layers(&root_position, options.depth);
    let deepest = layers.last().expect("the root's layer at least");
    let mut values: HashMap<u64, i32> = HashMap::with_capacity(layers.iter().map(Vec::len).sum());
    let unknown: Vec<Position> =
        deepest.iter().filter(|position| !options.known.contains_key(&canonical_key(position))).copied().collect();
    for position in deepest {
        if let Some(&value) = options.known.get(&canonical_key(position)) {
            values.insert(canonical_key(position), value);
        }
    }
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(deepest.len() - unknown.len());
    let solved = Mutex::new(Vec::with_capacity(unknown.len()));
    let solvers: Vec<Solver> =
        (0..options.threads.max(1)).map(|_| Solver::new(options.hash_bytes)).collect::<Result<_, _>>()?;
    std::thread::scope(|scope| {
        for mut solver in solvers {
            let (unknown, next, done, solved) = (&unknown, &next, &done, &solved);
            let total = deepest.len();
            scope.spawn(move || {
                while let Some(position) = unknown.get(next.fetch_add(1, Ordering::Relaxed)) {
                    solver.start(None);
                    let value = solver.value(position, false).expect("no deadline");
                    let key = canonical_key(position);
                    solved.lock().expect("no thread panics holding it").push((key, value));
                    let done = done.fetch_add(1, Ordering::Relaxed) + 1;
                    on_solved(Solved { key, value, done, total, nodes: solver.nodes() });
                }
            });
        }
    });
    values.extend(solved.into_inner().expect("no thread panicked"));
    let book = |values: &HashMap<u64, i32>| {
        Book::from_values(root_moves.to_owned(), root_position.moves(), options.depth, values)
    };
    for layer in layers.iter().rev().skip(1) {
        // The layer below is in `values`: read each position's children there.
        let below = book(&values);
        for position in layer {
            let value = (0..WIDTH)
                .filter_map(|index| {
                    let child = position.after_column(Column::from_index(index).expect("a column"))?;
                    Some(child_value(&below, position, &child).expect("the layer below is complete"))
                })
                .max()
                .expect("a position where the game goes on has a move");
            values.insert(canonical_key(position), value);
        }
    }
    Ok(book(&values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Moves;

    #[test]
    fn the_book_agrees_with_the_solver() {
        let root = Moves::board(Rules::Classic, "52753311433677442422121").unwrap();
        let options = BuildOptions { depth: 2, threads: 2, hash_bytes: 1 << 20, known: &HashMap::new() };
        let book = build(&root, "52753311433677442422121", &options, &|_| {}).unwrap();
        let root = Position::of(&root);
        let mut solver = Solver::new(1 << 20).unwrap();
        let layers = layers(&root, 2);
        assert_eq!(book.len(), layers.iter().map(Vec::len).sum::<usize>());
        for (depth, layer) in layers.iter().enumerate() {
            for position in layer {
                solver.start(None);
                let value = solver.value(position, false).unwrap();
                assert_eq!(book.value(position), Some(value));
                let children = book.children(position);
                assert_eq!(children.is_some(), depth < 2);
                if let Some(children) = children {
                    assert_eq!(children.iter().flatten().max(), Some(&value));
                    for column in Column::ALL {
                        let reaches = solver.reaches(position, column, value, false).unwrap();
                        assert_eq!(children[column.index()] == Some(value), reaches, "column {column}");
                    }
                }
            }
        }
    }
}
