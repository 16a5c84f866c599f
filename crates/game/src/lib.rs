//! Max-Connect4 and classic Connect-4, the game itself: the [`board`] and
//! its [`Column`](board::Column)s, the [`rules`] of both games, the
//! [`score`] of a position read from the four-in-a-rows each line holds,
//! a game's [`moves`] as players write them, and [board files](format).
//! No I/O: no file, terminal or clock is touched here.
//!
//! ```
//! use maxconnect4_game::moves::Moves;
//! use maxconnect4_game::rules::Rules;
//!
//! let board = Moves::board(Rules::Max, "4453").unwrap();
//! assert_eq!(board.pieces_played(), 4);
//! assert!(Moves::board(Rules::Max, "48").is_err(), "there is no column 8");
//! ```
//!
//! From the bottom: [`bitboard`] (the bit layout), [`player`], [`value`],
//! [`features`], [`lines`], [`board`], [`rules`], [`score`], [`moves`],
//! [`format`], [`display`], [`printable`], [`random`], [`shard`].

#![warn(missing_docs)]

pub mod bitboard;
pub mod board;
pub mod display;
pub mod features;
pub mod format;
pub mod lines;
pub mod moves;
pub mod player;
pub mod printable;
pub mod random;
pub mod rules;
pub mod score;
pub mod shard;
pub mod value;
