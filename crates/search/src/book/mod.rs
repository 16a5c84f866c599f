//! Opening books under either rules: the exact value of every position up
//! to a depth, so that the first moves of a game, which a search would take
//! minutes or hours to solve, are answered at once. Everything here is the
//! same for both rule sets but two facts about a finished game (when a move
//! ends it and what it is then worth, [`ended`]) and the largest value; the
//! classic solver and player read the same [`Book`] as the Max-Connect4 engine.
//!
//! A book holds every position that `depth` moves or fewer from its `root`
//! (a move string; the empty board for the shipped book) reach with the game
//! still going, a position and its mirror image stored once, under the
//! smaller of their keys ([`canonical_key`]: a key names one position, so a
//! hit is exact however the position was reached). Values are from the side
//! to move: under classic rules the field's score (see
//! [`crate::classic`]), under Max-Connect4 rules the final score
//! difference with perfect play. Only the deepest layer is solved by search
//! ([`build`]); every shallower position's value is the negamax
//! of its children's ([`Layers::book`](layers::Layers::book)).
//!
//! A position less than `depth` moves from the root has all its children in
//! the book (or they end the game), so its best moves are read from the book
//! too ([`Book::children`]); one at exactly `depth` moves has its value and,
//! where the build recorded it, one best move ([`Known`]).
//!
//! Here, the [`Book`] and what it is asked: a position's value, its
//! children's, a solution read with no search. Beside it, [`format`] (the
//! file's bytes, read and written), [`layers`] (every position of a book,
//! the list its build solves, and the negamax above it) and [`build`] (the
//! deepest layer solved, and a build's progress as data). This module uses
//! none of theirs, so that they can use the book's own items.

pub mod build;
pub mod format;
pub mod layers;

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::classic::Position;
use super::classic::win_now;
use super::outcome::Solution;
use super::request::Strength;
use maxconnect4_game::bitboard::{CELLS, WIDTH, WINDOWS, count_windows};
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::rules::Rules;

/// The key's bits in a record: keys are below 2^49.
const KEY_MASK: u64 = (1 << 49) - 1;

/// Where a record's best move starts: its column's index plus one, three
/// bits (0 for none). Only positions of the deepest layer have one (the
/// others' best moves are read from their children's values).
const BEST_SHIFT: u32 = 49;

/// The bits between the best move and the value, always 0.
const RESERVED: u64 = ((1 << 56) - 1) & !((1 << (BEST_SHIFT + 3)) - 1);

/// Cells on the board, as positions count their moves.
const CELL_COUNT: u32 = CELLS as u32;

/// The classic book shipped with the program: every position up to 8
/// moves from the empty board (see `docs/solver.md`, "Opening book", for
/// how it was built).
const SHIPPED_CLASSIC: &[u8] = include_bytes!("../../../../data/classic.book");

/// The Max-Connect4 book shipped with the program (see `docs/solver.md`,
/// "Opening book", for its root, depth and build).
const SHIPPED_MAX: &[u8] = include_bytes!("../../../../data/max.book");

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

/// What a book build finds for a position of the deepest layer: its exact
/// value and one best move, in the columns of the position its key names
/// (the smaller of its own and its mirror image's key: see
/// [`canonical_key`]). The move is what perfect play needs there at once:
/// knowing the value alone, finding a best move for the first player 6
/// moves deep can take most of a solve (`223665`: 269 M nodes of the
/// solve's 277 M, one thread). `None` where the build does not record one
/// (classic rules: [`build::records_moves`]) or did not yet (a line
/// `KEY VALUE` of an earlier build).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// The exact value for the player to move: the field's score (classic)
    /// or the final score difference (Max-Connect4).
    pub value: i32,
    /// One best move, if the build recorded it.
    pub best: Option<Column>,
}

/// Which book: the rules, the root and the depth. A book is the same
/// whoever builds it, in one run or in shards, so this names it: a build's
/// progress files say it, and only files of one build are merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSpec {
    /// The rules its values are under.
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
    /// Ascending by key: bits 0-48 the key, 49-51 the best move (the
    /// deepest positions'), 56-63 the value.
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
        book.get_or_init(|| Arc::new(Book::read(bytes).expect("the shipped books are valid (tested)"))).clone()
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

    /// The best move of `position` the book holds, in the position's own
    /// columns: only positions of the deepest layer have one, and only
    /// where the build recorded it (see [`Known`]).
    #[must_use]
    pub fn stored_best(&self, position: &Position) -> Option<Column> {
        let key = canonical_key(position);
        let index = self.records.binary_search_by_key(&key, |record| record & KEY_MASK).ok()?;
        Some(key_column(position, best_of(self.records[index])?))
    }

    /// The value of `board` and one best move read from the book, with no
    /// search: every best move where it holds the position's children (see
    /// [`solution`](Book::solution)), else the one the deepest layer
    /// stores (see [`stored_best`](Book::stored_best)). For the score, not
    /// its sign: a move that achieves the score achieves its sign, but the
    /// sign has other moves, which a solve of it would list.
    #[must_use]
    pub fn one_best(&self, rules: Rules, board: &Board) -> Option<Solution> {
        if let Some(solution) = self.solution(rules, board, Strength::Strong) {
            return Some(solution);
        }
        let position = Position::of(board);
        let value = (rules == self.spec.rules).then(|| self.value(&position))??;
        let best = self.stored_best(&position)?;
        Some(Solution { value, best: vec![best], nodes: 0 })
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

/// The best move of a record, if it has one.
const fn best_of(record: u64) -> Option<Column> {
    match (record >> BEST_SHIFT) & 0b111 {
        0 => None,
        number => Column::from_number(number as usize),
    }
}

/// A position's record: its key, value and best move in one word.
fn record(key: u64, Known { value, best }: Known) -> u64 {
    let value = i8::try_from(value).expect("a score fits a byte");
    let best = best.map_or(0, |column| column.number() as u64);
    key | best << BEST_SHIFT | (u64::from(value as u8) << 56)
}

/// `column` of `position` in the columns of the position its key names
/// (see [`canonical_key`]): mirrored where that is the mirror image. And
/// back: mirroring twice is the column itself.
#[must_use]
pub const fn key_column(position: &Position, column: Column) -> Column {
    if canonical_key(position) == position.key() { column } else { column.mirrored() }
}

/// The key a position is stored under: the smaller of its own and its mirror image's.
#[must_use]
pub const fn canonical_key(position: &Position) -> u64 {
    let key = position.key();
    let mirrored = position.mirrored_key();
    if mirrored < key { mirrored } else { key }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::layers::Layers;
    use super::*;
    use crate::Engine;
    use maxconnect4_game::moves::Moves;

    /// The books built in are read without their check (see
    /// [`Book::read`]): each passes it, and reads the same either way.
    #[test]
    fn the_shipped_books_pass_every_check() {
        for bytes in [SHIPPED_CLASSIC, SHIPPED_MAX] {
            assert_eq!(Book::parse(bytes).unwrap(), Book::read(bytes).unwrap());
        }
    }

    /// A classic Middle-Easy benchmark position (23 stones).
    pub(super) const CLASSIC_ROOT: &str = "52753311433677442422121";

    /// A Max-Connect4 position with 12 empty cells, columns 1 and 7,
    /// symmetric.
    pub(super) const MAX_ROOT: &str = "444444333333555555222222666666";

    /// The spec of the book of `depth` moves from `root` under `rules`.
    pub(super) fn spec(rules: Rules, root: &str, depth: u32) -> BookSpec {
        BookSpec { rules, root: root.to_owned(), depth }
    }

    /// The exact value of `board` by a fresh solve.
    pub(super) fn solved(rules: Rules, board: &Board) -> i32 {
        let mut engine = Engine::with_book(rules, 1 << 20, None).unwrap();
        engine.exact_value(board, Strength::Strong, None).unwrap().value
    }

    /// The book of `root` `depth` moves deep, its deepest layer solved
    /// here with a best move each, as a build solves it.
    pub(super) fn small_book(rules: Rules, root: &str, depth: u32) -> Book {
        let layers = Layers::new(&spec(rules, root, depth)).unwrap();
        let mut engine = Engine::with_book(rules, 1 << 20, None).unwrap();
        let mut values = HashMap::new();
        for (place, key) in layers.deepest_keys().enumerate() {
            let board = layers.board(place);
            let solution = engine.best_move(&board, None).unwrap();
            let best = Some(key_column(&Position::of(&board), solution.best[0]));
            values.insert(key, Known { value: solution.value, best });
        }
        layers.book(&values).unwrap()
    }

    #[test]
    fn books_under_either_rules_agree_with_fresh_solves() {
        for (rules, root) in [(Rules::Classic, CLASSIC_ROOT), (Rules::Max, MAX_ROOT)] {
            let book = small_book(rules, root, 2);
            let bytes = book.to_bytes();
            assert_eq!(Book::parse(&bytes).unwrap(), book, "{rules} reads back as written");
            assert_eq!(bytes[9], if rules == Rules::Classic { 1 } else { 2 }, "the rules byte");
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
    fn the_deepest_positions_best_moves_are_read_in_their_own_columns() {
        // A position and its mirror image share a record, whose move is in
        // the columns of the one its key names. Neither root is symmetric,
        // and some positions have a best move whose mirror image is not one.
        for (rules, root) in [(Rules::Classic, CLASSIC_ROOT), (Rules::Max, "4453526671234455667711")] {
            let book = small_book(rules, root, 2);
            assert_eq!(Book::parse(&book.to_bytes()).unwrap(), book, "{rules}: the moves read back");
            let layers = Layers::new(&spec(rules, root, 2)).unwrap();
            let mut fresh = Engine::with_book(rules, 1 << 20, None).unwrap();
            let (mut mirrored_ones, mut telling) = (0, 0);
            for place in 0..layers.deepest_keys().count() {
                let moves = layers.moves(place);
                let mirror: String = moves.chars().map(|c| char::from(b'8' - (c as u8 - b'0'))).collect();
                for moves in [moves, mirror] {
                    let board = Moves::board(rules, &moves).unwrap();
                    let position = Position::of(&board);
                    mirrored_ones += usize::from(canonical_key(&position) != position.key());
                    let one = book.one_best(rules, &board).unwrap();
                    assert_eq!((one.best.len(), one.nodes), (1, 0), "{moves}");
                    assert_eq!(one.value, book.value(&position).unwrap());
                    let reached = fresh.move_value(&board, one.best[0], None).unwrap().value;
                    assert_eq!(reached, one.value, "{rules} {moves}: the stored move reaches the value");
                    let mirror_image = one.best[0].mirrored();
                    if board.legal_columns().any(|column| column == mirror_image)
                        && fresh.move_value(&board, mirror_image, None).unwrap().value < one.value
                    {
                        telling += 1;
                    }
                    assert_eq!(book.solution(rules, &board, Strength::Strong), None, "not every best move");
                }
            }
            assert!(mirrored_ones > 0, "{rules}: some positions are read through their mirror image's key");
            assert!(telling > 0, "{rules}: some positions whose move read the wrong way round would fall short");
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
