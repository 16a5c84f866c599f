//! The positions of a book, layer by layer from its root: the list its
//! build solves (the deepest layer, always in the same order, so that it
//! can be shared out) and the negamax that gives every shallower position
//! its value from the deepest layer's.

use std::collections::{HashMap, HashSet};

use super::{Book, BookSpec, KEY_MASK, Known, canonical_key, child_value, ended, record};
use crate::classic::Position;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::moves::Moves;

/// Why a book cannot have this root and depth.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RootError {
    /// The root, given, is not a game's move string under the rules.
    #[error("bad move string '{0}'")]
    Moves(String),
    /// The root's game is over, so there is nothing to solve.
    #[error("the root is a finished game")]
    Finished,
    /// The depth is more than the root's empty cells, which are given.
    #[error("the book would reach past the full board: at most {0} moves from this root")]
    TooDeep(u32),
}

/// A position of a book's layers and how it was first reached.
#[derive(Clone, Copy, Debug)]
struct Node {
    position: Position,
    /// Its parent's place in the layer above (0 for the root).
    parent: u32,
    /// The column played from the parent (0 for the root).
    column: u8,
}

/// The positions of a book: every position `depth` moves or fewer from the
/// root where the game goes on under the rules, layer by layer, a position
/// and its mirror image once. Within a layer, positions are in the order
/// they are first reached (parents in order, each one's columns left to
/// right), so that siblings are neighbours; the deepest layer in this order
/// is the list a build solves, prints (`book --list`) and shares out
/// (`--shard`), the same on every machine.
#[derive(Clone, Debug)]
pub struct Layers {
    spec: BookSpec,
    root_board: Board,
    layers: Vec<Vec<Node>>,
}

impl Layers {
    /// The layers of the book `spec` names.
    ///
    /// # Errors
    /// When the root is not a position, is a finished game, or is fewer
    /// than the depth's moves from a full board.
    pub fn new(spec: &BookSpec) -> Result<Layers, RootError> {
        let BookSpec { rules, ref root, depth } = *spec;
        let root_board = Moves::board(rules, root).map_err(|_| RootError::Moves(root.to_owned()))?;
        if rules.is_over(&root_board) {
            return Err(RootError::Finished);
        }
        if depth > root_board.empty_cells() {
            return Err(RootError::TooDeep(root_board.empty_cells()));
        }
        let mut layers = vec![vec![Node { position: Position::of(&root_board), parent: 0, column: 0 }]];
        for _ in 0..depth {
            let mut seen = HashSet::new();
            let mut next = Vec::new();
            for (parent, node) in (0_u32..).zip(layers.last().expect("the root's layer")) {
                for column in Column::ALL {
                    let Some(child) = node.position.after_column(column) else { continue };
                    if ended(rules, &child).is_none() && seen.insert(canonical_key(&child)) {
                        let column = u8::try_from(column.index()).expect("seven columns");
                        next.push(Node { position: child, parent, column });
                    }
                }
            }
            layers.push(next);
        }
        Ok(Layers { spec: spec.clone(), root_board, layers })
    }

    /// Which book's layers these are.
    #[must_use]
    pub const fn spec(&self) -> &BookSpec {
        &self.spec
    }

    /// Moves played before the root.
    pub(super) fn root_moves(&self) -> u32 {
        self.root_board.pieces_played()
    }

    /// Every position, root first, layer by layer, each with its moves from the root.
    pub(super) fn positions(&self) -> impl Iterator<Item = (u32, &Position)> + '_ {
        (0_u32..).zip(&self.layers).flat_map(|(moves, layer)| layer.iter().map(move |node| (moves, &node.position)))
    }

    /// The positions of every layer.
    #[must_use]
    pub fn len(&self) -> usize {
        self.layers.iter().map(Vec::len).sum()
    }

    /// Whether there is no position (never: the root is one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The deepest layer.
    fn deepest(&self) -> &[Node] {
        self.layers.last().expect("the root's layer at least")
    }

    /// The keys of the deepest layer's positions, in the order of the list.
    pub fn deepest_keys(&self) -> impl Iterator<Item = u64> + '_ {
        self.deepest().iter().map(|node| canonical_key(&node.position))
    }

    /// The family of each position of the deepest layer, by place: its
    /// siblings (positions first reached from the same parent, neighbours
    /// in the list, whose move strings differ in the last move alone)
    /// share it, and families are numbered from 0 in the list's order.
    #[must_use]
    pub fn families(&self) -> Vec<usize> {
        let deepest = self.deepest();
        let mut family = 0;
        (0..deepest.len())
            .map(|place| {
                if place > 0 && deepest[place].parent != deepest[place - 1].parent {
                    family += 1;
                }
                family
            })
            .collect()
    }

    /// The columns played from the root to the position at `place` in the
    /// deepest layer.
    fn path(&self, place: usize) -> Vec<Column> {
        let mut path = Vec::with_capacity(self.layers.len());
        let mut index = place;
        for layer in self.layers[1..].iter().rev() {
            let node = layer[index];
            path.push(Column::from_index(usize::from(node.column)).expect("a column"));
            index = node.parent as usize;
        }
        path.reverse();
        path
    }

    /// The move string, from the empty board, of the position at `place`
    /// in the deepest layer (as it was first reached).
    #[must_use]
    pub fn moves(&self, place: usize) -> String {
        let mut moves = self.spec.root.clone();
        moves.extend(self.path(place).iter().map(|column| char::from(b'0' + column.number() as u8)));
        moves
    }

    /// The board of the position at `place` in the deepest layer.
    #[must_use]
    pub fn board(&self, place: usize) -> Board {
        let mut board = self.root_board;
        for column in self.path(place) {
            board.play(column);
        }
        board
    }

    /// The book of these layers from the values (and best moves, where
    /// known) of the deepest layer's positions (by key; other keys are
    /// ignored): each shallower
    /// position's value is the best of its children's, read from the layer
    /// below or from how the move ends the game.
    ///
    /// # Errors
    /// The places in the deepest layer of the positions `deepest` lacks.
    pub fn book(&self, deepest: &HashMap<u64, Known>) -> Result<Book, Vec<usize>> {
        let mut values: HashMap<u64, i32> = HashMap::with_capacity(self.len());
        let mut moves: HashMap<u64, Column> = HashMap::new();
        let mut missing = Vec::new();
        for (place, key) in self.deepest_keys().enumerate() {
            match deepest.get(&key) {
                Some(known) => {
                    values.insert(key, known.value);
                    moves.extend(known.best.map(|best| (key, best)));
                }
                None => missing.push(place),
            }
        }
        if !missing.is_empty() {
            return Err(missing);
        }
        for layer in self.layers.iter().rev().skip(1) {
            // The layer below is in `values`: read each position's children there.
            for node in layer {
                let value = Column::ALL
                    .iter()
                    .filter_map(|&column| {
                        let child = node.position.after_column(column)?;
                        let value =
                            child_value(self.spec.rules, &child, |child| values.get(&canonical_key(child)).copied());
                        Some(value.expect("the layer below is complete"))
                    })
                    .max()
                    .expect("a position where the game goes on has a move");
                values.insert(canonical_key(&node.position), value);
            }
        }
        let mut records: Vec<u64> =
            values.iter().map(|(&key, &value)| record(key, Known { value, best: moves.get(&key).copied() })).collect();
        records.sort_unstable_by_key(|record| record & KEY_MASK);
        Ok(Book { spec: self.spec.clone(), root_moves: self.root_moves(), records })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::tests::{CLASSIC_ROOT, MAX_ROOT, spec};
    use maxconnect4_game::rules::Rules;

    #[test]
    fn the_list_is_deterministic_and_its_moves_reach_its_positions() {
        let layers = Layers::new(&spec(Rules::Classic, CLASSIC_ROOT, 2)).unwrap();
        let again = Layers::new(&spec(Rules::Classic, CLASSIC_ROOT, 2)).unwrap();
        let keys: Vec<u64> = layers.deepest_keys().collect();
        assert_eq!(keys, again.deepest_keys().collect::<Vec<_>>());
        assert_eq!(keys.iter().collect::<HashSet<_>>().len(), keys.len(), "each position once");
        for (place, &key) in keys.iter().enumerate() {
            let board = Moves::board(Rules::Classic, &layers.moves(place)).unwrap();
            assert_eq!(board, layers.board(place));
            assert_eq!(canonical_key(&Position::of(&board)), key);
        }
    }

    #[test]
    fn a_book_needs_every_deepest_value() {
        let layers = Layers::new(&spec(Rules::Classic, CLASSIC_ROOT, 1)).unwrap();
        let mut values: HashMap<u64, Known> =
            layers.deepest_keys().map(|key| (key, Known { value: 0, best: None })).collect();
        let last = layers.deepest_keys().last().unwrap();
        values.remove(&last);
        let first = layers.deepest_keys().next().unwrap();
        values.remove(&first);
        assert_eq!(layers.book(&values), Err(vec![0, layers.deepest().len() - 1]));
    }

    #[test]
    fn roots_that_cannot_have_books_are_refused() {
        assert_eq!(Layers::new(&spec(Rules::Max, "48", 1)).unwrap_err(), RootError::Moves("48".to_owned()));
        assert_eq!(Layers::new(&spec(Rules::Classic, "4455667", 1)).unwrap_err(), RootError::Finished);
        assert_eq!(Layers::new(&spec(Rules::Max, MAX_ROOT, 13)).unwrap_err(), RootError::TooDeep(12));
        assert!(Layers::new(&spec(Rules::Max, "4455667", 1)).is_ok(), "a four does not end Max-Connect4");
    }
}
