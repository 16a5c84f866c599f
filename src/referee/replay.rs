//! Replaying a logged game move by move, as it was shown when it was played.
//!
//! The log keeps only the start position and the columns, so replaying
//! plays the moves again; a record that was edited into an illegal game is
//! reported, not shown.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use super::game::summary;
use super::log::{self, Colour, GameRecord};
use super::Error;
use crate::board::Board;
use crate::display;
use crate::moves;
use crate::rules::Rules;

/// The start position and the position after each move of `record`, under
/// the record's rules.
///
/// # Errors
/// When the start position does not parse or a move is not legal (under
/// classic rules, a move after a four).
pub fn positions(record: &GameRecord) -> Result<Vec<Board>, String> {
    let mut board =
        log::decode_board(&record.start).map_err(|error| format!("the start position is invalid: {error}"))?;
    let mut positions = vec![board];
    for (index, digit) in record.moves.chars().enumerate() {
        let column = moves::read_column(index + 1, digit).map_err(|error| error.to_string())?;
        if record.rules.is_over(&board) {
            return Err(format!("move {} is illegal: the game was over", index + 1));
        }
        board.try_play(column).map_err(|error| format!("move {} is illegal: {error}", index + 1))?;
        positions.push(board);
    }
    Ok(positions)
}

/// Shows game `number` (from 1; the last game if none) of the log at
/// `path`: the start, each move with a pause of `delay` before it, and the
/// result.
///
/// # Errors
/// When the log cannot be read, has no such game, or the game's moves are
/// not legal. Lines that are not game records are reported on stderr and
/// skipped; games are counted without them.
///
/// `rules`, when given, overrides the rules the log records (a log written
/// before games had rules reads as Max-Connect4).
pub fn replay(
    path: &Path,
    number: Option<usize>,
    rules: Option<Rules>,
    delay: Duration,
    out: &mut dyn Write,
) -> Result<(), Error> {
    std::fs::metadata(path).map_err(|source| Error::io("read", path, source))?;
    let logged = log::read(path)?;
    for warning in logged.warnings(path) {
        eprintln!("{warning}");
    }
    let records = logged.games;
    let count = records.len();
    if count == 0 {
        return Err(Error::Replay(format!("{} holds no games", path.display())));
    }
    let number = number.unwrap_or(count);
    let mut record = records
        .get(number.saturating_sub(1))
        .filter(|_| number >= 1)
        .ok_or_else(|| {
            let games = if count == 1 { "game" } else { "games" };
            Error::Replay(format!("{} holds {count} {games}; there is no game {number}", path.display()))
        })?
        .clone();
    if let Some(rules) = rules {
        record.rules = rules;
    }
    let record = &record;
    let positions =
        positions(record).map_err(|reason| Error::Replay(format!("game {number} of {}: {reason}", path.display())))?;
    let terminal = |error| Error::terminal(error);
    writeln!(
        out,
        "Game {number} of {count} in {} (logged as game {}): red {} against green {}.",
        path.display(),
        record.id,
        record.red.name,
        record.green.name
    )
    .map_err(terminal)?;
    write!(out, "\n{}", display::board_and_score(&positions[0])).map_err(terminal)?;
    for (index, (pair, digit)) in positions.windows(2).zip(record.moves.chars()).enumerate() {
        std::thread::sleep(delay);
        let colour = Colour::of(pair[0].to_move());
        let side = record.side(colour);
        let board = display::board_and_score(&pair[1]);
        write!(out, "\nMove {}: {} ({}) plays column {digit}.\n{board}", index + 1, colour.name(), side.name)
            .map_err(terminal)?;
        out.flush().map_err(terminal)?;
    }
    let last = positions.last().expect("the start position");
    write!(out, "\n{}", summary(record, last)).map_err(terminal)?;
    Ok(())
}
