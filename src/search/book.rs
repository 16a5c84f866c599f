//! Opening books under either rules: the exact value of every position up
//! to a depth, so that the first moves of a game, which a search would take
//! minutes or hours to solve, are answered at once. Everything here is the
//! same for both rule sets but two facts about a finished game (when a move
//! ends it and what it is then worth, [`ended`]) and the largest value; the
//! classic solver and player read the same [`Book`] (`search::classic::book`).
//!
//! A book holds every position that `depth` moves or fewer from its `root`
//! (a move string; the empty board for the shipped book) reach with the game
//! still going, a position and its mirror image stored once, under the
//! smaller of their keys ([`canonical_key`]: a key names one position, so a
//! hit is exact however the position was reached). Values are from the side
//! to move: under classic rules the field's score (see
//! [`crate::search::classic`]), under Max-Connect4 rules the final score
//! difference with perfect play. Only the deepest layer is solved by search
//! (`search::book_build`); every shallower position's value is the negamax
//! of its children's ([`Layers::book`]).
//!
//! A position less than `depth` moves from the root has all its children in
//! the book (or they end the game), so its best moves are read from the book
//! too ([`Book::children`]); one at exactly `depth` moves has only its value.
//!
//! The file (bytes in, bytes out here; reading and writing files is the
//! modes' work), all numbers little-endian:
//!
//! ```text
//! offset  size   what
//! 0       8      magic "MC4BOOK\n"
//! 8       1      format version (1)
//! 9       1      rules (1: classic, 2: Max-Connect4)
//! 10      1      depth, in moves from the root
//! 11      1      n, the length of the root's move string
//! 12      n      the root's move string, digits 1-7
//! 12+n    4      count: the number of positions
//! 16+n    8 each the positions, ascending by key: bits 0-55 the key, 56-63 the value (i8)
//! end-8   8      FNV-1a 64-bit hash of every byte before it
//! ```
//!
//! The rules byte was there from the first classic books, so a Max book
//! needed no new version: a program that knows only classic books refuses a
//! Max one by that byte.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, OnceLock};

use super::classic::win_now;
use super::classic::Position;
use super::outcome::Solution;
use super::request::Strength;
use crate::bitboard::{count_windows, CELLS, WIDTH, WINDOWS};
use crate::board::{Board, Column};
use crate::moves::Moves;
use crate::rules::Rules;

/// The first bytes of every book file.
pub const MAGIC: [u8; 8] = *b"MC4BOOK\n";

/// The format version this program writes and reads.
pub const VERSION: u8 = 1;

/// Bytes of the header before the root's move string.
const HEADER: usize = 12;

/// Bytes per position.
const RECORD: usize = 8;

/// Bytes of the hash at the end.
const HASH: usize = 8;

/// The key's bits in a record.
const KEY_MASK: u64 = (1 << 56) - 1;

/// Cells on the board, as positions count their moves.
const CELL_COUNT: u32 = CELLS as u32;

/// The classic book shipped with the program: every position up to 8
/// moves from the empty board (see `docs/solver.md`, "Opening book", for
/// how it was built).
const SHIPPED_CLASSIC: &[u8] = include_bytes!("../../data/classic.book");

/// The Max-Connect4 book shipped with the program (see `docs/solver.md`,
/// "Opening book", for its root, depth and build).
const SHIPPED_MAX: &[u8] = include_bytes!("../../data/max.book");

/// Why bytes are not a book.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    #[error("not an opening book (it does not start with the book's magic bytes)")]
    NotABook,
    #[error("a book of format version {0}; this program reads version {VERSION}")]
    Version(u8),
    #[error("a book for unknown rules (rules byte {0}); books are for classic (1) or Max-Connect4 (2) rules")]
    Rules(u8),
    #[error("truncated or padded: {found} bytes where the header promises {expected}")]
    Length { expected: usize, found: usize },
    #[error("corrupt: the hash at the end does not match the contents")]
    Hash,
    #[error("its root '{0}' is not a game that goes on under its rules")]
    Root(String),
    #[error("corrupt: position {0} is not after the one before it in key order")]
    Order(usize),
    #[error("corrupt: position {index} has the value {value}, beyond any score")]
    Value { index: usize, value: i8 },
    #[error("corrupt: a position {moves} moves from its root is missing, or a child of it is")]
    Missing { moves: u32 },
    #[error("corrupt: a position {moves} moves from its root has the value {value}, but its best move's is {best}")]
    Inconsistent { moves: u32, value: i32, best: i32 },
    #[error("corrupt: it holds {found} positions where its root and depth have {expected}")]
    Count { expected: usize, found: usize },
}

/// Why a book cannot have this root and depth.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RootError {
    #[error("bad move string '{0}'")]
    Moves(String),
    #[error("the root is a finished game")]
    Finished,
    #[error("the book would reach past the full board: at most {0} moves from this root")]
    TooDeep(u32),
}

/// The rules byte of a book for `rules`.
const fn rules_byte(rules: Rules) -> u8 {
    match rules {
        Rules::Classic => 1,
        Rules::Max => 2,
    }
}

/// The rules of a book's rules byte.
const fn rules_of_byte(byte: u8) -> Option<Rules> {
    match byte {
        1 => Some(Rules::Classic),
        2 => Some(Rules::Max),
        _ => None,
    }
}

/// No value under `rules` is larger: classic, a win with the first
/// player's fourth stone, the seventh of the game; Max-Connect4, every
/// window of the board one player's.
#[must_use]
pub const fn largest_value(rules: Rules) -> i32 {
    match rules {
        Rules::Classic => win_now(6),
        Rules::Max => WINDOWS as i32,
    }
}

/// If the move that made `child` ended the game under `rules`, what it is
/// worth to the player who made it: classic, a four (the score of a win
/// then) or a full board (a draw); Max-Connect4, a full board (the final
/// score difference). `None` when the game goes on.
#[must_use]
pub fn ended(rules: Rules, child: &Position) -> Option<i32> {
    match rules {
        Rules::Classic if child.last_mover_won() => Some(win_now(child.moves() - 1)),
        Rules::Classic => (child.moves() == CELL_COUNT).then_some(0),
        Rules::Max => (child.moves() == CELL_COUNT)
            .then(|| count_windows(child.opponent()) as i32 - count_windows(child.current()) as i32),
    }
}

/// The value of `child` for the player who moved into it: what the move
/// ended the game with, else minus `value_of`'s value of the child (`None`
/// when it has none).
fn child_value(rules: Rules, child: &Position, value_of: impl Fn(&Position) -> Option<i32>) -> Option<i32> {
    ended(rules, child).or_else(|| value_of(child).map(|value| -value))
}

/// Which book: the rules, the root and the depth. A book is the same
/// whoever builds it, in one run or in shards, so this names it: a build's
/// progress files say it, and only files of one build are merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSpec {
    pub rules: Rules,
    /// The root's move string.
    pub root: String,
    /// Moves from the root to the deepest positions.
    pub depth: u32,
}

impl fmt::Display for BookSpec {
    /// `rules max, root '44', depth 4`.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "rules {}, root '{}', depth {}", self.rules.name(), self.root, self.depth)
    }
}

/// An opening book: positions by key and their exact values, under one rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    spec: BookSpec,
    root_moves: u32,
    /// Ascending by key: bits 0-55 the key, 56-63 the value.
    records: Vec<u64>,
}

impl Book {
    /// The book shipped with the program for `rules`, parsed once.
    ///
    /// # Panics
    /// Never: the shipped bytes are checked by the tests.
    #[must_use]
    pub fn shipped_for(rules: Rules) -> Arc<Book> {
        static CLASSIC: OnceLock<Arc<Book>> = OnceLock::new();
        static MAX: OnceLock<Arc<Book>> = OnceLock::new();
        let (book, bytes) = match rules {
            Rules::Classic => (&CLASSIC, SHIPPED_CLASSIC),
            Rules::Max => (&MAX, SHIPPED_MAX),
        };
        book.get_or_init(|| Arc::new(Book::parse(bytes).expect("the shipped books are valid (tested)"))).clone()
    }

    /// The book in `bytes`.
    ///
    /// # Errors
    /// When the bytes are not a whole, uncorrupted book of this version.
    pub fn parse(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(BookError::NotABook);
        }
        let short = |expected| BookError::Length { expected, found: bytes.len() };
        let header = bytes.get(..HEADER).ok_or_else(|| short(HEADER + 4 + HASH))?;
        if header[8] != VERSION {
            return Err(BookError::Version(header[8]));
        }
        let rules = rules_of_byte(header[9]).ok_or(BookError::Rules(header[9]))?;
        let depth = u32::from(header[10]);
        let root_end = HEADER + usize::from(header[11]);
        let count_bytes = bytes.get(root_end..root_end + 4).ok_or_else(|| short(root_end + 4 + HASH))?;
        let count = u32::from_le_bytes(count_bytes.try_into().expect("four bytes")) as usize;
        let expected = root_end + 4 + count * RECORD + HASH;
        if bytes.len() != expected {
            return Err(short(expected));
        }
        let (contents, hash) = bytes.split_at(expected - HASH);
        if fnv1a(contents).to_le_bytes() != hash {
            return Err(BookError::Hash);
        }
        let root = String::from_utf8_lossy(&bytes[HEADER..root_end]).into_owned();
        let spec = BookSpec { rules, root, depth };
        let layers = Layers::new(&spec).map_err(|_| BookError::Root(spec.root.clone()))?;
        let mut records = Vec::with_capacity(count);
        for (index, chunk) in contents[root_end + 4..].chunks_exact(RECORD).enumerate() {
            let record = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            if records.last().is_some_and(|&last: &u64| last & KEY_MASK >= record & KEY_MASK) {
                return Err(BookError::Order(index));
            }
            let value = value_of(record);
            if i32::from(value).abs() > largest_value(rules) {
                return Err(BookError::Value { index, value });
            }
            records.push(record);
        }
        let book = Book { spec, root_moves: layers.root_moves(), records };
        book.check(&layers)?;
        Ok(book)
    }

    /// Checks that the book holds every position of `layers`, no other, and
    /// that every position short of its depth has the value of its best
    /// move: a book whose hash matches may still have been written wrong.
    fn check(&self, layers: &Layers) -> Result<(), BookError> {
        let expected = layers.len();
        if self.records.len() != expected {
            return Err(BookError::Count { expected, found: self.records.len() });
        }
        for (moves, layer) in (0_u32..).zip(&layers.layers) {
            for node in layer {
                let value = self.value(&node.position).ok_or(BookError::Missing { moves })?;
                if moves == self.spec.depth {
                    continue;
                }
                let children = self.children(&node.position).ok_or(BookError::Missing { moves })?;
                let best = children.iter().flatten().copied().max().ok_or(BookError::Missing { moves })?;
                if best != value {
                    return Err(BookError::Inconsistent { moves, value, best });
                }
            }
        }
        Ok(())
    }

    /// The book as bytes, as [`parse`](Book::parse) reads them.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let BookSpec { rules, root, depth } = &self.spec;
        let mut bytes = Vec::with_capacity(HEADER + root.len() + 4 + self.records.len() * RECORD + HASH);
        bytes.extend_from_slice(&MAGIC);
        bytes.push(VERSION);
        bytes.push(rules_byte(*rules));
        bytes.push(u8::try_from(*depth).expect("a depth within the board"));
        bytes.push(u8::try_from(root.len()).expect("a root within the board"));
        bytes.extend_from_slice(root.as_bytes());
        bytes.extend_from_slice(&u32::try_from(self.records.len()).expect("fewer positions than 2^32").to_le_bytes());
        for record in &self.records {
            bytes.extend_from_slice(&record.to_le_bytes());
        }
        bytes.extend_from_slice(&fnv1a(&bytes).to_le_bytes());
        bytes
    }

    /// Which book this is.
    #[must_use]
    pub const fn spec(&self) -> &BookSpec {
        &self.spec
    }

    /// The rules the book's values are for.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.spec.rules
    }

    /// The root's move string.
    #[must_use]
    pub fn root(&self) -> &str {
        &self.spec.root
    }

    /// How many moves from the root the book reaches.
    #[must_use]
    pub const fn depth(&self) -> u32 {
        self.spec.depth
    }

    /// The number of positions stored (a position and its mirror image once).
    #[must_use]
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether the book holds no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Every position's key (the smaller of its own and its mirror image's)
    /// and value, ascending by key.
    pub fn entries(&self) -> impl Iterator<Item = (u64, i32)> + '_ {
        self.records.iter().map(|&record| (record & KEY_MASK, i32::from(value_of(record))))
    }

    /// The value of `position`, if the book holds it.
    #[must_use]
    pub fn value(&self, position: &Position) -> Option<i32> {
        let key = canonical_key(position);
        self.records
            .binary_search_by_key(&key, |record| record & KEY_MASK)
            .ok()
            .map(|index| i32::from(value_of(self.records[index])))
    }

    /// The solution of `board` read from the book, with no search: its
    /// value (with [`Strength::Weak`], its sign) and the columns that
    /// achieve it, when the book holds the position and all its children
    /// (see [`children`](Book::children)) and is for `rules`.
    #[must_use]
    pub fn solution(&self, rules: Rules, board: &Board, strength: Strength) -> Option<Solution> {
        if rules != self.spec.rules {
            return None;
        }
        let position = Position::of(board);
        let children = self.children(&position)?;
        let sign = |value: i32| if strength == Strength::Weak { value.signum() } else { value };
        let value = sign(self.value(&position)?);
        let best = Column::ALL.into_iter().filter(|column| children[column.index()].map(sign) == Some(value)).collect();
        Some(Solution { value, best, nodes: 0 })
    }

    /// The value of `board` read from the book (with [`Strength::Weak`],
    /// its sign), when the book holds it and is for `rules`.
    #[must_use]
    pub fn board_value(&self, rules: Rules, board: &Board, strength: Strength) -> Option<i32> {
        let value = (rules == self.spec.rules).then(|| self.value(&Position::of(board)))??;
        Some(if strength == Strength::Weak { value.signum() } else { value })
    }

    /// The value of every column's move from `board` for its mover (with
    /// [`Strength::Weak`], its sign; `None` for a full column), when the
    /// book holds the position and all its children (see
    /// [`children`](Book::children)) and is for `rules`.
    #[must_use]
    pub fn move_values(&self, rules: Rules, board: &Board, strength: Strength) -> Option<[Option<i32>; WIDTH]> {
        let children = (rules == self.spec.rules).then(|| self.children(&Position::of(board)))??;
        Some(children.map(|value| value.map(|value| if strength == Strength::Weak { value.signum() } else { value })))
    }

    /// The value of the move `column` (which must be playable) from `board`
    /// for the player who makes it, read from the book: what the move ends
    /// the game with, or minus the book's value of the position it leaves;
    /// `None` when the book does not hold that position or is not for `rules`.
    #[must_use]
    pub fn move_value(&self, rules: Rules, board: &Board, column: Column) -> Option<i32> {
        let child = Position::of(&board.after(column));
        (rules == self.spec.rules).then(|| child_value(rules, &child, |child| self.value(child)))?
    }

    /// The value of every column's move from `position` for its mover
    /// (`None` for a full column), when the book holds the position and all
    /// its children: the position is less than [`depth`](Book::depth) moves
    /// from the root.
    #[must_use]
    pub fn children(&self, position: &Position) -> Option<[Option<i32>; WIDTH]> {
        if position.moves() >= self.root_moves + self.spec.depth || self.value(position).is_none() {
            return None;
        }
        let mut values = [None; WIDTH];
        for column in Column::ALL {
            if let Some(child) = position.after_column(column) {
                values[column.index()] = Some(child_value(self.spec.rules, &child, |child| self.value(child))?);
            }
        }
        Some(values)
    }
}

/// The value byte of a record.
const fn value_of(record: u64) -> i8 {
    (record >> 56) as u8 as i8
}

/// A position's record: its key and value in one word.
fn record(key: u64, value: i32) -> u64 {
    let value = i8::try_from(value).expect("a score fits a byte");
    key | (u64::from(value as u8) << 56)
}

/// The key a position is stored under: the smaller of its own and its mirror image's.
#[must_use]
pub const fn canonical_key(position: &Position) -> u64 {
    let key = position.key();
    let mirrored = position.mirrored_key();
    if mirrored < key {
        mirrored
    } else {
        key
    }
}

/// The 64-bit FNV-1a hash: enough to tell a damaged file from a whole one.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
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
    fn root_moves(&self) -> u32 {
        self.root_board.pieces_played()
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

    /// The book of these layers from the values of the deepest layer's
    /// positions (by key; other keys are ignored): each shallower
    /// position's value is the best of its children's, read from the layer
    /// below or from how the move ends the game.
    ///
    /// # Errors
    /// The places in the deepest layer of the positions `deepest` lacks.
    pub fn book(&self, deepest: &HashMap<u64, i32>) -> Result<Book, Vec<usize>> {
        let mut values: HashMap<u64, i32> = HashMap::with_capacity(self.len());
        let mut missing = Vec::new();
        for (place, key) in self.deepest_keys().enumerate() {
            match deepest.get(&key) {
                Some(&value) => {
                    values.insert(key, value);
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
        let mut records: Vec<u64> = values.iter().map(|(&key, &value)| record(key, value)).collect();
        records.sort_unstable_by_key(|record| record & KEY_MASK);
        Ok(Book { spec: self.spec.clone(), root_moves: self.root_moves(), records })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Engine;

    /// A classic Middle-Easy benchmark position (23 stones).
    const CLASSIC_ROOT: &str = "52753311433677442422121";

    /// A Max-Connect4 position with 12 empty cells, columns 1 and 7,
    /// symmetric.
    const MAX_ROOT: &str = "444444333333555555222222666666";

    /// The spec of the book of `depth` moves from `root` under `rules`.
    fn spec(rules: Rules, root: &str, depth: u32) -> BookSpec {
        BookSpec { rules, root: root.to_owned(), depth }
    }

    /// The exact value of `board` by a fresh solve.
    fn solved(rules: Rules, board: &Board) -> i32 {
        let mut engine = Engine::with_book(rules, 1 << 20, None).unwrap();
        engine.exact_value(board, Strength::Strong, None).unwrap().value
    }

    /// The book of `root` `depth` moves deep, its deepest layer solved here.
    fn small_book(rules: Rules, root: &str, depth: u32) -> Book {
        let layers = Layers::new(&spec(rules, root, depth)).unwrap();
        let values: HashMap<u64, i32> =
            layers.deepest_keys().enumerate().map(|(place, key)| (key, solved(rules, &layers.board(place)))).collect();
        layers.book(&values).unwrap()
    }

    /// Parsing `bytes` gives `expected` (an error's message, or the book's length).
    fn check(bytes: &[u8], expected: Result<usize, &str>) {
        let parsed = Book::parse(bytes).map(|book| book.len()).map_err(|error| error.to_string());
        assert_eq!(parsed, expected.map_err(str::to_owned));
    }

    #[test]
    fn books_under_either_rules_agree_with_fresh_solves() {
        for (rules, root) in [(Rules::Classic, CLASSIC_ROOT), (Rules::Max, MAX_ROOT)] {
            let book = small_book(rules, root, 2);
            let bytes = book.to_bytes();
            assert_eq!(Book::parse(&bytes).unwrap(), book, "{rules} reads back as written");
            assert_eq!(bytes[9], rules_byte(rules));
            let root_board = Moves::board(rules, root).unwrap();
            let mut engine = Engine::with_book(rules, 1 << 20, None).unwrap();
            let solution = engine.solve(&root_board, Strength::Strong, None).unwrap();
            let children = book.children(&Position::of(&root_board)).unwrap();
            assert_eq!(book.value(&Position::of(&root_board)), Some(solution.value), "{rules}");
            let best: Vec<Column> =
                Column::ALL.into_iter().filter(|column| children[column.index()] == Some(solution.value)).collect();
            assert_eq!(best, solution.best, "{rules}: the best columns read from the book");
            let read = book.solution(rules, &root_board, Strength::Strong).unwrap();
            assert_eq!((read.value, read.best, read.nodes), (solution.value, solution.best, 0));
            let weak = book.solution(rules, &root_board, Strength::Weak).unwrap();
            assert_eq!(weak.value, solution.value.signum());
            let other = if rules == Rules::Max { Rules::Classic } else { Rules::Max };
            assert_eq!(book.solution(other, &root_board, Strength::Strong), None, "a book answers under its rules");
        }
    }

    #[test]
    fn a_max_book_counts_full_boards_and_holds_a_position_and_its_mirror_once() {
        // Two empty cells, both in column 1: one move, then the board is full.
        let root = "4444443333335555552222226666667777771111";
        let layers = Layers::new(&spec(Rules::Max, root, 2)).unwrap();
        assert_eq!(layers.len(), 2, "the root and its one child; a full board is not stored");
        let book = small_book(Rules::Max, root, 2);
        let board = Moves::board(Rules::Max, root).unwrap();
        assert_eq!(book.value(&Position::of(&board)), Some(solved(Rules::Max, &board)));
        // A symmetric root: its moves in columns 1 and 7 are one position.
        let book = small_book(Rules::Max, MAX_ROOT, 1);
        assert_eq!(book.len(), 2);
        let children = book.children(&Position::of(&Moves::board(Rules::Max, MAX_ROOT).unwrap())).unwrap();
        assert_eq!(children[0], children[6]);
        assert!(children[1..6].iter().all(Option::is_none), "full columns");
    }

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
        let mut values: HashMap<u64, i32> = layers.deepest_keys().map(|key| (key, 0)).collect();
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

    #[test]
    fn damaged_books_are_refused_with_the_reason() {
        let bytes = small_book(Rules::Classic, CLASSIC_ROOT, 2).to_bytes();
        let len = bytes.len();
        check(b"", Err("not an opening book (it does not start with the book's magic bytes)"));
        check(b"MC4BOOK\n", Err("truncated or padded: 8 bytes where the header promises 24"));
        check(
            &bytes[..len - 1],
            Err(&format!("truncated or padded: {} bytes where the header promises {len}", len - 1)),
        );
        let mut padded = bytes.clone();
        padded.push(0);
        check(&padded, Err(&format!("truncated or padded: {} bytes where the header promises {len}", len + 1)));
        let mut flipped = bytes.clone();
        flipped[30] ^= 1;
        check(&flipped, Err("corrupt: the hash at the end does not match the contents"));
        let mut version = bytes.clone();
        version[8] = 7;
        check(&version, Err("a book of format version 7; this program reads version 1"));
        let mut rules = bytes;
        rules[9] = 0;
        check(
            &rules,
            Err("a book for unknown rules (rules byte 0); books are for classic (1) or Max-Connect4 (2) rules"),
        );
    }

    #[test]
    fn records_out_of_order_or_out_of_range_are_refused() {
        let book = small_book(Rules::Classic, CLASSIC_ROOT, 2);
        let mut swapped = book.clone();
        swapped.records.swap(0, 1);
        check(&swapped.to_bytes(), Err("corrupt: position 1 is not after the one before it in key order"));
        let mut beyond = book;
        beyond.records[2] = (beyond.records[2] & KEY_MASK) | (100 << 56);
        check(&beyond.to_bytes(), Err("corrupt: position 2 has the value 100, beyond any score"));
    }

    #[test]
    fn the_shipped_book_is_whole() {
        let book = Book::shipped_for(Rules::Classic);
        assert_eq!(book.rules(), Rules::Classic);
        assert_eq!(book.root(), "");
        // Every position up to 8 moves, a position and its mirror image once.
        assert_eq!(book.depth(), 8);
        assert_eq!(book.len(), 4 + 25 + 121 + 568 + 2_144 + 8_231 + 27_109 + 91_295 + 1);
        assert_eq!(book.value(&Position::of(&Board::empty())), Some(1));
        // The Max book's contents are the build's (the lead's, at merge):
        // only that it is whole, for Max rules, and holds its root's moves.
        let max = Book::shipped_for(Rules::Max);
        assert_eq!(max.rules(), Rules::Max);
        assert!(max.depth() >= 1);
        let root = Moves::board(Rules::Max, max.root()).unwrap();
        assert!(max.solution(Rules::Max, &root, Strength::Strong).is_some_and(|solution| !solution.best.is_empty()));
    }
}
