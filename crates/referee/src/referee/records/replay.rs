//! Replaying a logged game move by move, as it was shown when it was played.
//!
//! The log keeps only the start position and the columns, so replaying
//! plays the moves again; a record that was edited into an illegal game is
//! reported, not shown.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::referee::Error;
use crate::referee::annotation;
use crate::referee::game::summary;
use crate::referee::log::{self, Fault, GameRecord};
use maxconnect4_game::board::Board;
use maxconnect4_game::display;
use maxconnect4_game::moves;
use maxconnect4_game::player::Player;
use maxconnect4_game::rules::Rules;
use maxconnect4_search::{Engine, Limits};

/// The start position and the position after each move of `record`, under
/// the record's rules.
///
/// # Errors
/// When the start position does not parse or a move is not legal (under
/// classic rules, a move after a four).
pub fn positions(record: &GameRecord) -> Result<Vec<Board>, Fault> {
    let mut board = log::decode_board(&record.start).map_err(Fault::Start)?;
    let mut positions = vec![board];
    for (index, digit) in record.moves.chars().enumerate() {
        let move_number = index + 1;
        let column = moves::read_column(move_number, digit).map_err(Fault::NotAColumn)?;
        if record.settings.rules.is_over(&board) {
            return Err(Fault::AfterTheEnd { move_number });
        }
        board.try_play(column).map_err(|full| Fault::Full { move_number, full })?;
        positions.push(board);
    }
    Ok(positions)
}

/// A game read from a log to be shown or annotated.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The log it was read from.
    pub path: PathBuf,
    /// Which game, from 1, and how many the log holds.
    pub number: usize,
    /// The number of games in the log.
    pub count: usize,
    /// The game's record.
    pub record: GameRecord,
    /// The start position and the position after each move.
    pub positions: Vec<Board>,
}

/// Reads game `number` (from 1; the last game if none) of the log at
/// `path` and plays its moves again.
///
/// # Errors
/// When the log cannot be read, has no such game, or the game's moves are
/// not legal. Lines that are not game records are reported to `warnings` and
/// skipped; games are counted without them.
///
/// `rules`, when given, overrides the rules the log records (a log written
/// before games had rules reads as Max-Connect4).
pub fn load(
    path: &Path,
    number: Option<usize>,
    rules: Option<Rules>,
    warnings: &mut dyn std::io::Write,
) -> Result<Loaded, Error> {
    std::fs::metadata(path).map_err(|source| Error::io("read", path, source))?;
    let logged = log::read(path)?;
    for warning in logged.warnings(path) {
        crate::referee::error::warn(warnings, &warning);
    }
    let records = logged.games;
    let count = records.len();
    if count == 0 {
        return Err(Error::NoGames(path.to_owned()));
    }
    let number = number.unwrap_or(count);
    let mut record = records
        .get(number.saturating_sub(1))
        .filter(|_| number >= 1)
        .ok_or_else(|| Error::NoSuchGame { log: path.to_owned(), count, number })?
        .clone();
    if let Some(rules) = rules {
        record.settings.rules = rules;
    }
    let positions = positions(&record).map_err(|fault| Error::BadGame { log: path.to_owned(), number, fault })?;
    Ok(Loaded { path: path.to_owned(), number, count, record, positions })
}

impl Loaded {
    /// The line that introduces the game.
    #[must_use]
    pub fn heading(&self) -> String {
        format!(
            "Game {} of {} in {} (logged as game {}): red {} against green {}.",
            self.number,
            self.count,
            self.path.display(),
            maxconnect4_game::printable::printable(&self.record.id, maxconnect4_game::printable::LINE),
            self.record.red.shown(),
            self.record.green.shown()
        )
    }
}

/// Shows `game`: the start, each move with a pause of `delay` before it,
/// and the result; with `annotate`, each move's note under its board (see
/// [`annotation`](crate::referee::annotation)).
///
/// # Errors
/// When `out` cannot be written.
pub fn replay(
    game: &Loaded,
    delay: Duration,
    mut annotate: Option<(&mut Engine, &Limits)>,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let terminal = |error| Error::terminal(error);
    let (record, positions) = (&game.record, &game.positions);
    writeln!(out, "{}", game.heading()).map_err(terminal)?;
    write!(out, "\n{}", display::board_and_score(&positions[0])).map_err(terminal)?;
    for (index, (pair, digit)) in positions.windows(2).zip(record.moves.chars()).enumerate() {
        std::thread::sleep(delay);
        let colour = pair[0].to_move();
        let side = record.side(colour);
        let board = display::board_and_score(&pair[1]);
        write!(out, "\nMove {}: {} ({}) plays column {digit}.\n{board}", index + 1, colour.colour_name(), side.shown())
            .map_err(terminal)?;
        if let Some((engine, budget)) = annotate.as_mut()
            && let Some(note) = annotation::note(index + 1, &pair[0], &pair[1], engine, budget)
        {
            writeln!(out, "{}", note.line(&side.shown())).map_err(terminal)?;
        }
        out.flush().map_err(terminal)?;
    }
    let last = positions.last().expect("the start position");
    write!(out, "\n{}", summary(record, last)).map_err(terminal)?;
    Ok(())
}

/// The `annotate` command: every move of `game` with its note, then each
/// player's tally; or with `json`, all of it as one JSON object.
///
/// # Errors
/// When `out` cannot be written.
pub fn annotated(
    game: &Loaded,
    engine: &mut Engine,
    budget: &Limits,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let terminal = |error| Error::terminal(error);
    let record = &game.record;
    if json {
        let notes = annotation::annotate(&game.positions, engine, budget);
        writeln!(out, "{}", annotation::json(record, game.number, &notes)).map_err(terminal)?;
        return Ok(());
    }
    writeln!(out, "{}", game.heading()).map_err(terminal)?;
    let mut notes = Vec::new();
    for (index, pair) in game.positions.windows(2).enumerate() {
        if let Some(note) = annotation::note(index + 1, &pair[0], &pair[1], engine, budget) {
            writeln!(out, "{}", note.line(&record.side(note.colour).shown())).map_err(terminal)?;
            out.flush().map_err(terminal)?;
            notes.push(note);
        }
    }
    writeln!(out).map_err(terminal)?;
    for (colour, tally) in Player::BOTH.into_iter().zip(annotation::tallies(&notes)) {
        let who = format!("{} ({})", colour.colour_name(), record.side(colour).shown());
        writeln!(out, "{}", tally.line(&who, record.settings.rules)).map_err(terminal)?;
    }
    Ok(())
}
