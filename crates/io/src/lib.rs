//! The I/O services maxconnect4's front ends share, over the game:
//! [`whole`] (a file written whole or not at all, an output folder
//! checked), [`bounded`] (board files and other inputs read with a limit),
//! [`signals`] (what Ctrl-C removes), [`prompt`] (a person's moves at the
//! terminal), [`memory`] (what a transposition table may take) and
//! [`plot`] (charts drawn with an embedded font).

#![warn(missing_docs)]

pub mod bounded;
pub mod memory;
pub mod plot;
pub mod prompt;
pub mod signals;
pub mod whole;
