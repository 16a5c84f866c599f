//! Max-Connect4: Connect-4 played until the board is full, each player
//! scoring a point for every four-in-a-row of their colour.
//!
//! The modules form layers, each naming only its own layer and those below
//! (`docs/architecture.md` has one line per module; `tests/it/architecture.rs`
//! checks that no module depends on itself through others):
//! - front ends: [`modes`], [`report`], [`referee`], [`serve`];
//! - [`protocol`]: both sides of each protocol (the arenas', the one-move
//!   board files), without I/O;
//! - [`search`]: one [`search::Engine`] for both rule sets;
//! - services the front ends share, over the core: [`contain`] (running
//!   others' programs, for the referee and the report), [`atomic`], [`bounded`],
//!   [`signals`], [`prompt`], [`memory`], [`plot`];
//! - the core, without I/O: [`shard`], [`format`], [`display`], [`printable`], [`moves`], [`score`],
//!   [`rules`], [`board`], [`lines`], [`features`], [`value`], [`player`],
//!   [`random`], [`bitboard`].

pub mod atomic;
pub mod bitboard;
pub mod board;
pub mod bounded;
pub mod contain;
pub mod display;
pub mod features;
pub mod format;
pub mod lines;
pub mod memory;
pub mod modes;
pub mod moves;
pub mod player;
pub mod plot;
pub mod printable;
pub mod prompt;
pub mod protocol;
pub mod random;
pub mod referee;
pub mod report;
pub mod rules;
pub mod score;
pub mod search;
pub mod serve;
pub mod shard;
pub mod signals;
pub mod value;
