//! The file format of opening books: a [`Book`] parsed from bytes and
//! written to bytes (reading and writing files is the modes' work), its
//! contents checked against its root and depth as it is read. All numbers
//! little-endian:
//!
//! ```text
//! offset  size   what
//! 0       8      magic "MC4BOOK\n"
//! 8       1      format version (1, or 2 where positions have best moves)
//! 9       1      rules (1: classic, 2: Max-Connect4)
//! 10      1      depth, in moves from the root
//! 11      1      n, the length of the root's move string
//! 12      n      the root's move string, digits 1-7
//! 12+n    4      count: the number of positions
//! 16+n    8 each the positions, ascending by key: bits 0-48 the key, 49-51
//!                the best move (version 2: its column 1-7, 0 for none; only
//!                the deepest positions have one), 52-55 zero, 56-63 the
//!                value (i8)
//! end-8   8      FNV-1a 64-bit hash of every byte before it
//! ```
//!
//! The rules byte was there from the first classic books, so a Max book
//! needed no new version: a program that knows only classic books refuses a
//! Max one by that byte.

use super::layers::Layers;
use super::{Book, BookSpec, KEY_MASK, RESERVED, best_of, largest_value, value_of};
use maxconnect4_game::rules::Rules;

/// The first bytes of every book file.
pub const MAGIC: [u8; 8] = *b"MC4BOOK\n";

/// The format version of books whose deepest positions have best moves;
/// a book without any is written as version 1, which it is, and which
/// programs that predate best moves read.
pub const VERSION: u8 = 2;

/// The version of books without best moves.
const VERSION_WITHOUT_MOVES: u8 = 1;

/// Bytes of the header before the root's move string.
const HEADER: usize = 12;

/// Bytes per position.
const RECORD: usize = 8;

/// Bytes of the hash at the end.
const HASH: usize = 8;

/// Why bytes are not a book.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// The bytes do not start with the magic bytes.
    #[error("not an opening book (it does not start with the book's magic bytes)")]
    NotABook,
    /// A format version this program does not read; the version is given.
    #[error("a book of format version {0}; this program reads versions {VERSION_WITHOUT_MOVES} and {VERSION}")]
    Version(u8),
    /// A rules byte that names neither rules; the byte is given.
    #[error("a book for unknown rules (rules byte {0}); books are for classic (1) or Max-Connect4 (2) rules")]
    Rules(u8),
    /// Fewer or more bytes than the header calls for.
    #[error("truncated or padded: {found} bytes where the header promises {expected}")]
    Length {
        /// The bytes the header calls for.
        expected: usize,
        /// The bytes there are.
        found: usize,
    },
    /// The hash at the end is not the contents'.
    #[error("corrupt: the hash at the end does not match the contents")]
    Hash,
    /// The root, given, is not a move string of a game still going on.
    #[error("its root '{0}' is not a game that goes on under its rules")]
    Root(String),
    /// A record whose key is not above the one before; its place is given.
    #[error("corrupt: position {0} is not after the one before it in key order")]
    Order(usize),
    /// A record whose value is larger than any under the book's rules.
    #[error("corrupt: position {index} has the value {value}, beyond any score")]
    Value {
        /// The record's place, from 0.
        index: usize,
        /// The value it holds.
        value: i8,
    },
    /// A record with reserved bits set, or a best move in a book of the
    /// version without them.
    #[error("corrupt: position {index} has bits set that no version {version} book has")]
    Bits {
        /// The record's place, from 0.
        index: usize,
        /// The book's format version.
        version: u8,
    },
    /// A best move stored for a position short of the book's depth.
    #[error("corrupt: a position {moves} moves from its root has a best move, which only the deepest have")]
    BestAbove {
        /// The position's moves from the root.
        moves: u32,
    },
    /// A stored best move that plays a full column.
    #[error("corrupt: a position {moves} moves from its root has a best move in a full column")]
    BestFull {
        /// The position's moves from the root.
        moves: u32,
    },
    /// A position the book must hold, or a child of one, is not in it.
    #[error("corrupt: a position {moves} moves from its root is missing, or a child of it is")]
    Missing {
        /// The position's moves from the root.
        moves: u32,
    },
    /// A position whose value is not that of its best move.
    #[error("corrupt: a position {moves} moves from its root has the value {value}, but its best move's is {best}")]
    Inconsistent {
        /// The position's moves from the root.
        moves: u32,
        /// The value the book holds for it.
        value: i32,
        /// The value of its best move, read from its children.
        best: i32,
    },
    /// More or fewer records than the positions of its root and depth.
    #[error("corrupt: it holds {found} positions where its root and depth have {expected}")]
    Count {
        /// The positions its root and depth reach.
        expected: usize,
        /// The records it holds.
        found: usize,
    },
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

impl Book {
    /// The book in `bytes`.
    ///
    /// # Errors
    /// When the bytes are not a whole, uncorrupted book of this version.
    pub fn parse(bytes: &[u8]) -> Result<Book, BookError> {
        let book = Book::read(bytes)?;
        let layers = Layers::new(&book.spec).map_err(|_| BookError::Root(book.spec.root.clone()))?;
        book.check(&layers)?;
        Ok(book)
    }

    /// The book in `bytes`, its header, hash and records checked, but not
    /// position by position against the positions it must hold
    /// ([`check`](Book::check)): for the books built into the program,
    /// which the tests check whole. Checking costs a one-move search 25 ms
    /// of its 30 under classic rules (the book of every position up to 8
    /// moves), at every move a referee asks for.
    ///
    /// # Errors
    /// As [`parse`](Book::parse), but for what only the check finds.
    pub(super) fn read(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(BookError::NotABook);
        }
        let short = |expected| BookError::Length { expected, found: bytes.len() };
        let header = bytes.get(..HEADER).ok_or_else(|| short(HEADER + 4 + HASH))?;
        let version = header[8];
        if version != VERSION && version != VERSION_WITHOUT_MOVES {
            return Err(BookError::Version(version));
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
        // One digit a move.
        let root_moves = u32::try_from(root.len()).map_err(|_| BookError::Root(root.clone()))?;
        let spec = BookSpec { rules, root, depth };
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
            if record & RESERVED != 0 || (version == VERSION_WITHOUT_MOVES && best_of(record).is_some()) {
                return Err(BookError::Bits { index, version });
            }
            records.push(record);
        }
        Ok(Book { spec, root_moves, records })
    }

    /// Checks that the book holds every position of `layers`, no other, and
    /// that every position short of its depth has the value of its best
    /// move: a book whose hash matches may still have been written wrong.
    fn check(&self, layers: &Layers) -> Result<(), BookError> {
        let expected = layers.len();
        if self.records.len() != expected {
            return Err(BookError::Count { expected, found: self.records.len() });
        }
        for (moves, position) in layers.positions() {
            let value = self.value(position).ok_or(BookError::Missing { moves })?;
            if let Some(best) = self.stored_best(position) {
                if moves != self.spec.depth {
                    return Err(BookError::BestAbove { moves });
                }
                if position.after_column(best).is_none() {
                    return Err(BookError::BestFull { moves });
                }
            }
            if moves == self.spec.depth {
                continue;
            }
            let children = self.children(position).ok_or(BookError::Missing { moves })?;
            let best = children.iter().flatten().copied().max().ok_or(BookError::Missing { moves })?;
            if best != value {
                return Err(BookError::Inconsistent { moves, value, best });
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
        let moves = self.records.iter().any(|&record| best_of(record).is_some());
        bytes.push(if moves { VERSION } else { VERSION_WITHOUT_MOVES });
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
}

/// The 64-bit FNV-1a hash: enough to tell a damaged file from a whole one.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::canonical_key;
    use crate::book::tests::{CLASSIC_ROOT, MAX_ROOT, small_book};
    use crate::classic::Position;

    /// Parsing `bytes` gives `expected` (an error's message, or the book's length).
    fn check(bytes: &[u8], expected: Result<usize, &str>) {
        let parsed = Book::parse(bytes).map(|book| book.len()).map_err(|error| error.to_string());
        assert_eq!(parsed, expected.map_err(str::to_owned));
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
        check(&version, Err("a book of format version 7; this program reads versions 1 and 2"));
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
    fn best_moves_are_kept_where_they_can_be() {
        let book = small_book(Rules::Max, MAX_ROOT, 2);
        let bytes = book.to_bytes();
        assert_eq!(bytes[8], VERSION, "a book with best moves");
        let mut without = book.clone();
        without.records.iter_mut().for_each(|record| *record &= !(0b111 << 49));
        assert_eq!(without.to_bytes()[8], 1, "without, the version earlier programs read");
        check(&without.to_bytes(), Ok(book.len()));
        let index_of = |moves: &str| {
            let position = Position::of(&maxconnect4_game::moves::Moves::board(Rules::Max, moves).unwrap());
            book.records.iter().position(|&record| record & KEY_MASK == canonical_key(&position)).unwrap()
        };
        let mut above = book.clone();
        above.records[index_of(MAX_ROOT)] |= 1 << 49;
        check(
            &above.to_bytes(),
            Err("corrupt: a position 0 moves from its root has a best move, which only the deepest have"),
        );
        // Columns 2 to 6 of the root are full.
        let deepest = index_of(&format!("{MAX_ROOT}11"));
        let mut full = book.clone();
        full.records[deepest] = full.records[deepest] & !(0b111 << 49) | 4 << 49;
        check(&full.to_bytes(), Err("corrupt: a position 2 moves from its root has a best move in a full column"));
        let mut reserved = book.clone();
        reserved.records[deepest] |= 1 << 53;
        check(
            &reserved.to_bytes(),
            Err(&format!("corrupt: position {deepest} has bits set that no version 2 book has")),
        );
        let mut old = bytes;
        old[8] = 1;
        let hash = fnv1a(&old[..old.len() - 8]).to_le_bytes();
        let end = old.len() - 8;
        old[end..].copy_from_slice(&hash);
        check(&old, Err(&format!("corrupt: position {deepest} has bits set that no version 1 book has")));
    }
}
