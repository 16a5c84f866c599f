//! Max-Connect4: Connect-4 played until the board is full, each player
//! scoring a point for every four-in-a-row of their colour.
//!
//! The core ([`bitboard`], [`lines`], [`board`], [`features`], [`score`], [`search`],
//! [`format`], [`display`]) does no I/O; [`modes`], [`report`], [`referee`], [`memory`],
//! [`bounded`], [`prompt`] and the binary read and write files and the terminal, and
//! the referee runs other programs. [`protocol`] holds the arenas' protocols without
//! I/O; `bot` ([`modes::bot`]) and [`serve`] put them on pipes and sockets.

pub mod atomic;
pub mod bitboard;
pub mod board;
pub mod bounded;
pub mod display;
pub mod features;
pub mod format;
pub mod lines;
pub mod memory;
pub mod modes;
pub mod moves;
pub mod player;
pub mod plot;
pub mod prompt;
pub mod protocol;
pub mod referee;
pub mod report;
pub mod rules;
pub mod score;
pub mod search;
pub mod serve;
pub mod signals;
pub mod value;
