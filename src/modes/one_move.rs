//! One-move mode: read a board file, make one move, write the board file.
//! Programs play each other by passing these files back and forth.

use std::io::{self, Write};
use std::path::Path;

use super::position::{save_board, Source};
use super::settings::EngineSettings;
use super::thinking::think;
use super::Error;
use crate::display;
use crate::rules::Rules;
use crate::search::Limits;
use crate::whole;

/// Reads the position from `input`, prints the board, and unless the game
/// is over under `rules` chooses a move with a search within `limits` by an
/// engine set up as `settings`, prints the new board and writes it to `output`
/// in the same format. A finished game leaves `output` untouched. `output`
/// is checked before the search (a regular file or nothing, in a directory
/// that exists), and the move is saved even if `out` fails: a rival waits
/// for the file, not the text.
///
/// # Errors
/// When `input` cannot be read or parsed, `output` cannot be written, or
/// `out` failed (after `output` was written).
pub fn one_move(
    input: &Source,
    output: &Path,
    rules: Rules,
    limits: &Limits,
    settings: &EngineSettings,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let file = input.load(rules)?;
    whole::check(output)?;
    let mut board = file.board;
    let mut engine = settings.engine(rules)?;
    let mut out = FallibleOut { out, failure: None };
    let _ = write!(out, "{}", display::board_and_score(&board));
    if rules.is_over(&board) {
        let _ = writeln!(out, "The game is over: {}", display::result_sentence(rules, &board));
        return out.finish().map_or(Ok(()), |failure| Err(Error::Console { failure, saved: None }));
    }
    let mover = board.to_move();
    let thought = think(&mut engine, &board, limits, settings.play);
    board.play(thought.result.column);
    let _ = writeln!(out, "\nPlayer {} plays column {}.", mover.number(), thought.result.column);
    let _ = thought.report(&mut out);
    let _ = write!(out, "{}", display::board_and_score(&board));
    save_board(output, &board, file.line_ending)?;
    match out.finish() {
        Some(failure) => Err(Error::Console { failure, saved: Some(output.to_owned()) }),
        None => Ok(()),
    }
}

/// Standard output that may fail (a full disk, a reader gone) without
/// stopping the move: the first failure is kept and reported at the end.
struct FallibleOut<'a> {
    out: &'a mut dyn Write,
    failure: Option<io::Error>,
}

impl Write for FallibleOut<'_> {
    fn write(&mut self, text: &[u8]) -> io::Result<usize> {
        if self.failure.is_none() {
            self.failure = self.out.write_all(text).err();
        }
        Ok(text.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.failure.is_none() {
            self.failure = self.out.flush().err();
        }
        Ok(())
    }
}

impl FallibleOut<'_> {
    /// Flushes, then gives the first failure.
    fn finish(mut self) -> Option<io::Error> {
        let _ = self.flush();
        self.failure
    }
}
