//! The terminal, for people who play and for showing a game as it is played.

use std::io::{BufRead, Write};

/// The terminal, for people who play and for showing the game.
pub struct Console<'a> {
    /// Where a person's moves are read from.
    pub input: &'a mut dyn BufRead,
    /// Where the boards, prompts and results are written.
    pub output: &'a mut dyn Write,
    /// Print the board after every move, not only to a person about to move.
    pub show_moves: bool,
}
