//! The classic opening book: the exact value of every position up to a
//! depth, so that the first moves of a game, which a search would take
//! minutes to solve, are answered at once.
//!
//! A book holds every position that `depth` moves or fewer from its `root`
//! (a move string; the empty board for the shipped book) reach with the game
//! still going, a position and its mirror image stored once, under the
//! smaller of their keys ([`Position::key`]: a key names one position, so a
//! hit is exact however the position was reached). Only the deepest layer is
//! solved by search ([`build`](super::build::build)); every shallower position's value is the
//! negamax of its children's, read from the book itself.
//!
//! A position less than `depth` moves from the root has all its children in
//! the book (or they end the game), so its best moves are read from the book
//! too ([`Book::best`]); one at exactly `depth` moves has only its value.
//!
//! The file (bytes in, bytes out here; reading and writing files is the
//! modes' work), all numbers little-endian:
//!
//! ```text
//! offset  size   what
//! 0       8      magic "MC4BOOK\n"
//! 8       1      format version (1)
//! 9       1      rules (1: classic)
//! 10      1      depth, in moves from the root
//! 11      1      n, the length of the root's move string
//! 12      n      the root's move string, digits 1-7
//! 12+n    4      count: the number of positions
//! 16+n    8 each the positions, ascending by key: bits 0-55 the key, 56-63 the value (i8)
//! end-8   8      FNV-1a 64-bit hash of every byte before it
//! ```

use crate::moves::Moves;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};

use super::position::{win_now, Position, CELL_COUNT};
use crate::bitboard::WIDTH;
use crate::board::Column;
use crate::rules::Rules;

/// The first bytes of every book file.
pub const MAGIC: [u8; 8] = *b"MC4BOOK\n";

/// The format version this program writes and reads.
pub const VERSION: u8 = 1;

/// The rules byte of a classic book.
const CLASSIC: u8 = 1;

/// Bytes of the header before the root's move string.
const HEADER: usize = 12;

/// Bytes per position.
const RECORD: usize = 8;

/// Bytes of the hash at the end.
const HASH: usize = 8;

/// The key's bits in a record.
const KEY_MASK: u64 = (1 << 56) - 1;

/// The book shipped with the program: the empty board and every position one
/// move from it (see `docs/solver.md`, "Opening book", for how it was built and
/// why no deeper).
const SHIPPED: &[u8] = include_bytes!("../../../data/classic.book");

/// Why bytes are not a book.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    #[error("not an opening book (it does not start with the book's magic bytes)")]
    NotABook,
    #[error("a book of format version {0}; this program reads version {VERSION}")]
    Version(u8),
    #[error("a book for other rules (rules byte {0}); books are for classic rules")]
    Rules(u8),
    #[error("truncated or padded: {found} bytes where the header promises {expected}")]
    Length { expected: usize, found: usize },
    #[error("corrupt: the hash at the end does not match the contents")]
    Hash,
    #[error("its root '{0}' is not a classic game")]
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

/// No classic score is larger: a win with the first player's fourth stone,
/// the seventh stone of the game.
const MAX_SCORE: i32 = win_now(6);

/// An opening book: positions by key and their exact values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    root: String,
    root_moves: u32,
    depth: u32,
    /// Ascending by key: bits 0-55 the key, 56-63 the value.
    records: Vec<u64>,
}

impl Book {
    /// The book shipped with the program, parsed once.
    ///
    /// # Panics
    /// Never: the shipped bytes are checked by the tests.
    #[must_use]
    pub fn shipped() -> Arc<Book> {
        static BOOK: OnceLock<Arc<Book>> = OnceLock::new();
        BOOK.get_or_init(|| Arc::new(Book::parse(SHIPPED).expect("the shipped book is valid (tested)"))).clone()
    }

    /// The book of `values` (each position's value by [`canonical_key`]),
    /// `depth` moves from the root `root`, a move string of `root_moves`
    /// moves: what [`build`](super::build::build) makes.
    pub(super) fn from_values(root: String, root_moves: u32, depth: u32, values: &HashMap<u64, i32>) -> Book {
        let mut records: Vec<u64> = values.iter().map(|(&key, &value)| record(key, value)).collect();
        records.sort_unstable_by_key(|record| record & KEY_MASK);
        Book { root, root_moves, depth, records }
    }

    /// The book in `bytes`.
    ///
    /// # Errors
    /// When the bytes are not a whole, uncorrupted classic book of this version.
    pub fn parse(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(BookError::NotABook);
        }
        let short = |expected| BookError::Length { expected, found: bytes.len() };
        let header = bytes.get(..HEADER).ok_or_else(|| short(HEADER + 4 + HASH))?;
        if header[8] != VERSION {
            return Err(BookError::Version(header[8]));
        }
        if header[9] != CLASSIC {
            return Err(BookError::Rules(header[9]));
        }
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
        let root_board = Moves::board(Rules::Classic, &root).map_err(|_| BookError::Root(root.clone()))?;
        if Rules::Classic.is_over(&root_board) {
            return Err(BookError::Root(root));
        }
        let mut records = Vec::with_capacity(count);
        for (index, chunk) in contents[root_end + 4..].chunks_exact(RECORD).enumerate() {
            let record = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            if records.last().is_some_and(|&last: &u64| last & KEY_MASK >= record & KEY_MASK) {
                return Err(BookError::Order(index));
            }
            let value = value_of(record);
            if i32::from(value).abs() > MAX_SCORE {
                return Err(BookError::Value { index, value });
            }
            records.push(record);
        }
        let book = Book { root_moves: root_board.pieces_played(), root, depth, records };
        book.check(&Position::of(&root_board))?;
        Ok(book)
    }

    /// Checks that the book holds every position it should, no other, and
    /// that every position short of its depth has the value of its best
    /// move: a book whose hash matches may still have been written wrong.
    fn check(&self, root: &Position) -> Result<(), BookError> {
        let layers = layers(root, self.depth);
        let expected = layers.iter().map(Vec::len).sum();
        if self.records.len() != expected {
            return Err(BookError::Count { expected, found: self.records.len() });
        }
        for (moves, layer) in (0_u32..).zip(&layers) {
            for position in layer {
                let value = self.value(position).ok_or(BookError::Missing { moves })?;
                if moves == self.depth {
                    continue;
                }
                let children = self.children(position).ok_or(BookError::Missing { moves })?;
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
        let mut bytes = Vec::with_capacity(HEADER + self.root.len() + 4 + self.records.len() * RECORD + HASH);
        bytes.extend_from_slice(&MAGIC);
        bytes.push(VERSION);
        bytes.push(CLASSIC);
        bytes.push(u8::try_from(self.depth).expect("a depth within the board"));
        bytes.push(u8::try_from(self.root.len()).expect("a root within the board"));
        bytes.extend_from_slice(self.root.as_bytes());
        bytes.extend_from_slice(&u32::try_from(self.records.len()).expect("fewer positions than 2^32").to_le_bytes());
        for record in &self.records {
            bytes.extend_from_slice(&record.to_le_bytes());
        }
        bytes.extend_from_slice(&fnv1a(&bytes).to_le_bytes());
        bytes
    }

    /// The root's move string.
    #[must_use]
    pub fn root(&self) -> &str {
        &self.root
    }

    /// How many moves from the root the book reaches.
    #[must_use]
    pub const fn depth(&self) -> u32 {
        self.depth
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

    /// The value of every column's move from `position` for its mover
    /// (`None` for a full column), when the book holds the position and all
    /// its children: the position is less than [`depth`](Book::depth) moves
    /// from the root.
    #[must_use]
    pub fn children(&self, position: &Position) -> Option<[Option<i32>; WIDTH]> {
        if position.moves() >= self.root_moves + self.depth || self.value(position).is_none() {
            return None;
        }
        let mut values = [None; WIDTH];
        for column in Column::ALL {
            if let Some(child) = position.after_column(column) {
                values[column.index()] = Some(child_value(self, position, &child)?);
            }
        }
        Some(values)
    }
}

/// The value of `child` of `position` for `position`'s mover, from the book.
pub(super) fn child_value(book: &Book, position: &Position, child: &Position) -> Option<i32> {
    if child.last_mover_won() {
        Some(win_now(position.moves()))
    } else if child.moves() == CELL_COUNT {
        Some(0)
    } else {
        book.value(child).map(|value| -value)
    }
}

/// The value byte of a record.
const fn value_of(record: u64) -> i8 {
    (record >> 56) as u8 as i8
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

/// The positions `depth` moves or fewer from `root` where the game goes on,
/// layer by layer, a position and its mirror image once; within a layer in
/// the order they are first reached, so that siblings are neighbours.
#[must_use]
pub fn layers(root: &Position, depth: u32) -> Vec<Vec<Position>> {
    let mut layers = vec![vec![*root]];
    for _ in 0..depth {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for position in layers.last().expect("the root's layer") {
            let mut playable = position.playable();
            while playable != 0 {
                let cell = playable & playable.wrapping_neg();
                playable &= playable - 1;
                let child = position.after(cell);
                if !child.last_mover_won() && seen.insert(canonical_key(&child)) {
                    next.push(child);
                }
            }
        }
        layers.push(next);
    }
    layers
}

/// A position's record: its key and value in one word.
fn record(key: u64, value: i32) -> u64 {
    let value = i8::try_from(value).expect("a score fits a byte");
    key | (u64::from(value as u8) << 56)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn board(moves: &str) -> Board {
        Moves::board(Rules::Classic, moves).unwrap()
    }

    fn small_book() -> Book {
        use crate::search::classic::build::{build, BuildOptions};
        let options = BuildOptions { depth: 2, threads: 2, hash_bytes: 1 << 20, known: &HashMap::new() };
        build(&board("52753311433677442422121"), "52753311433677442422121", &options, &|_| {}).unwrap()
    }

    /// Parsing `bytes` gives `expected` (an error's message, or the book's length).
    fn check(bytes: &[u8], expected: Result<usize, &str>) {
        let parsed = Book::parse(bytes).map(|book| book.len()).map_err(|error| error.to_string());
        assert_eq!(parsed, expected.map_err(str::to_owned));
    }

    #[test]
    fn a_book_reads_back_as_written() {
        let book = small_book();
        let bytes = book.to_bytes();
        assert_eq!(Book::parse(&bytes).unwrap(), book);
        check(&bytes, Ok(book.len()));
    }

    #[test]
    fn damaged_books_are_refused_with_the_reason() {
        let bytes = small_book().to_bytes();
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
        check(&rules, Err("a book for other rules (rules byte 0); books are for classic rules"));
    }

    #[test]
    fn records_out_of_order_or_out_of_range_are_refused() {
        let book = small_book();
        let mut swapped = book.clone();
        swapped.records.swap(0, 1);
        check(&swapped.to_bytes(), Err("corrupt: position 1 is not after the one before it in key order"));
        let mut beyond = book;
        beyond.records[2] = (beyond.records[2] & KEY_MASK) | (100 << 56);
        check(&beyond.to_bytes(), Err("corrupt: position 2 has the value 100, beyond any score"));
    }

    #[test]
    fn the_shipped_book_is_whole() {
        let book = Book::shipped();
        assert_eq!(book.root(), "");
        assert_eq!(book.depth(), 1);
        assert_eq!(book.len(), 5);
        assert_eq!(book.value(&Position::of(&Board::empty())), Some(1));
    }
}
