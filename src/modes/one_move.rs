//! One-move mode: read a board file, make one move, write the board file.
//! Programs play each other by passing these files back and forth.

use std::io::Write;
use std::path::Path;

use super::{read_board_file, save_board, think, EngineSettings};
use crate::display;
use crate::search::Limits;

/// Reads `input`, prints the board, and unless the game is over chooses a
/// move with a search within `limits` by an engine set up as `settings`, prints
/// the new board and writes it to `output` in the same format. A finished
/// game leaves `output` untouched.
///
/// # Errors
/// When `input` cannot be read or parsed, or `output` cannot be written.
pub fn one_move(
    input: &Path,
    output: &Path,
    limits: &Limits,
    settings: &EngineSettings,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let file = read_board_file(input)?;
    let mut board = file.board;
    let mut engine = settings.engine()?;
    write!(out, "{}", display::board_and_score(&board))?;
    if board.is_full() {
        writeln!(out, "The game is over: {}", display::result_sentence(&board))?;
        return Ok(());
    }
    let mover = board.to_move();
    let thought = think(&mut engine, &board, limits);
    board.play(thought.result.column);
    writeln!(out, "\nPlayer {} plays column {}.", mover.number(), thought.result.column)?;
    thought.report(out)?;
    write!(out, "{}", display::board_and_score(&board))?;
    save_board(output, &board, file.line_ending)?;
    Ok(())
}
