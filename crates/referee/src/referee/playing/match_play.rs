//! The `match` command: one game between two players, shown on the
//! terminal (a person plays there), appended to the log, its result
//! printed. Whether each player can play from the start is checked here,
//! before the log is opened or any program started.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use crate::referee::Error;
use crate::referee::console::Console;
use crate::referee::game::{self, Game};
use crate::referee::log::{self, Log};
use crate::referee::player::PlayerSpec;
use crate::referee::result::GameResult;
use crate::referee::seat::{self, Seat};
use crate::referee::settings::Settings;
use maxconnect4_contain::sandbox::Isolation;
use maxconnect4_game::board::Board;
use maxconnect4_game::moves::Moves;
use maxconnect4_io::bounded;

/// Where a match starts.
pub enum Start {
    /// A board file, read when the match starts.
    File(PathBuf),
    /// The position after these moves from the empty board (none: the
    /// empty board).
    Moves(Moves),
}

/// One game as the `match` command plays it.
pub struct MatchOptions {
    /// What plays each colour; each is shown by its spec as given.
    pub red: PlayerSpec,
    /// What plays green, the second player.
    pub green: PlayerSpec,
    /// The rules and the limits the game is played under.
    pub settings: Settings,
    /// The position the game starts from.
    pub start: Start,
    /// The game log the game is appended to.
    pub log: PathBuf,
    /// Print only the result, not every move.
    pub quiet: bool,
    /// How the programs are run: sandbox, limits, environment.
    pub isolation: Isolation,
}

/// Plays one game, showing it on `output` (and asking people on `input`),
/// appends it to the log and prints the result; what the person running it
/// is warned of (a log's lines that are not records, no sandbox) goes to
/// `warnings`.
///
/// # Errors
/// When a player cannot play from the start, the start file or the log
/// cannot be read, or the referee cannot write its files or use the
/// terminal.
pub fn play_match(
    options: &MatchOptions,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<GameResult, Error> {
    let seats =
        [Seat::new(options.red.given(), options.red.clone()), Seat::new(options.green.given(), options.green.clone())];
    let (start, history) = match &options.start {
        Start::File(path) => {
            let text = bounded::board_file_bytes(path).map_err(|source| Error::io("read", path, source))?;
            let board = maxconnect4_game::format::parse(&text)
                .map_err(|source| Error::StartFile { path: path.clone(), source })?
                .board;
            (board, None)
        }
        Start::Moves(moves) => {
            (moves.columns().iter().fold(Board::empty(), |board, &column| board.after(column)), Some(moves.clone()))
        }
    };
    for seat in &seats {
        seat.check_start(&start, history.as_ref().map(Moves::columns))?;
    }
    let output_root = log::output_directory(&options.log);
    if log::moves_file(&options.log) == options.log {
        return Err(Error::LogIsMovesFile(options.log.clone()));
    }
    if output_root == options.log {
        return Err(Error::LogIsOutputFolder { log: options.log.clone(), folder: output_root });
    }
    if output_root.exists() && !output_root.is_dir() {
        return Err(Error::OutputNotAFolder(output_root));
    }
    // A link there would send the programs' output wherever it points.
    maxconnect4_io::whole::check_folder(&output_root)?;
    let mut log = Log::open(&options.log)?;
    let records = log.records()?;
    for warning in records.warnings(&options.log) {
        crate::referee::error::warn(warnings, &warning);
    }
    let id = next_id(&records, &output_root);
    let private = [options.log.as_path(), &log::moves_file(&options.log), &output_root];
    let containment = seat::containment(&seats, options.isolation.clone(), &private, warnings)?;
    let output_directory = output_root.join(&id);
    let opening = history.clone().filter(|moves| !moves.is_empty());
    let game = Game {
        id,
        seats: &seats,
        start,
        history,
        opening,
        settings: options.settings,
        output_directory,
        containment: containment.as_ref(),
    };
    let mut console = Console { input, output, show_moves: !options.quiet };
    let result = game.play(Some(&mut console))?;
    let record = result.record();
    log.append(&record)?;
    let kept = if game.output_directory.exists() {
        format!("; the programs' output is in {}", game.output_directory.display())
    } else {
        String::new()
    };
    let logged = format!("Game {} appended to {}{kept}.", record.id, options.log.display());
    // A blank line parts the summary from the boards above it, if any were shown.
    let shown = console.show_moves || seats.iter().any(|seat| seat.spec.is_human());
    let separator = if shown { "\n" } else { "" };
    writeln!(console.output, "{separator}{}{logged}", game::summary(&record, &result.board))
        .map_err(Error::terminal)?;
    Ok(result)
}

/// The number of the next game of a match log: one more than any number
/// used by a record or a line, skipping any whose output folder is there
/// already (a game whose line was lost).
fn next_id(records: &log::Records, output_root: &Path) -> String {
    let used = records.games.iter().filter_map(|record| record.id.parse::<usize>().ok());
    let lines = records.games.len() + records.skipped.len();
    let mut id = used.chain(std::iter::once(lines)).max().unwrap_or(0) + 1;
    while output_root.join(id.to_string()).exists() {
        id += 1;
    }
    id.to_string()
}
