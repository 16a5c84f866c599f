//! Max-Connect4: Connect-4 played until the board is full, each player
//! scoring a point for every four-in-a-row of their colour.
//!
//! This crate is the front end: the [`modes`] a person uses, the timing
//! [`report`] and the server ([`serve`]), over the workspace's crates,
//! which it re-exports under the names the code has always used:
//! - `maxconnect4-referee`: [`referee`] and [`protocol`];
//! - `maxconnect4-contain`: [`contain`], running others' programs;
//! - `maxconnect4-search`: [`search`], one engine for both rule sets;
//! - `maxconnect4-io`: [`whole`], [`bounded`], [`signals`], [`prompt`],
//!   [`memory`], [`plot`];
//! - `maxconnect4-game`, the core without I/O: [`board`], [`rules`],
//!   [`moves`], [`score`], [`format`] and the rest.
//!
//! Each crate names only those below it, which the compiler keeps
//! (`docs/architecture.md`).

pub use maxconnect4_contain as contain;
pub use maxconnect4_game::{
    bitboard, board, display, features, format, lines, moves, player, printable, random, rules, score, shard, value,
};
pub use maxconnect4_io::{bounded, memory, plot, prompt, signals, whole};
pub use maxconnect4_referee::{protocol, referee};
pub use maxconnect4_search as search;

pub mod modes;
pub mod report;
pub mod serve;
