//! One-move mode: read a board file, make one move, write the board file.
//! Programs play each other by passing these files back and forth.

use std::io::Write;
use std::path::Path;

use super::{save_board, think, Source};
use crate::display;
use crate::rules::Rules;
use crate::search::{Engine, Limits};

/// Reads the position from `input`, prints the board, and unless the game
/// is over under `rules` chooses a move with a search within `limits` using
/// a table of `hash_bytes`, prints the new board and writes it to `output`
/// in the same format. A finished game leaves `output` untouched.
///
/// # Errors
/// When `input` cannot be read or parsed, or `output` cannot be written.
pub fn one_move(
    input: &Source,
    output: &Path,
    rules: Rules,
    limits: &Limits,
    hash_bytes: usize,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let file = input.load(rules)?;
    let mut board = file.board;
    let mut engine = Engine::for_rules(rules, hash_bytes)?;
    write!(out, "{}", display::board_and_score(&board))?;
    if rules.is_over(&board) {
        writeln!(out, "The game is over: {}", display::result_sentence(rules, &board))?;
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
