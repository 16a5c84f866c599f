//! Interactive mode: the computer plays a person at the terminal, following
//! the assignment's loop. After every move the board is saved, to
//! `computer.txt` after the computer's and `human.txt` after the person's.

use std::io::{BufRead, Write};

use std::path::Path;

use super::position::save_board;
use super::settings::EngineSettings;
use super::thinking::think;
use super::Error;
use crate::board::Board;
use crate::bounded::read_board_file;
use crate::display;
use crate::format::{BoardFile, LineEnding};
use crate::player::Player;
use crate::prompt::ask_column;
use crate::rules::{Outcome, Rules};
use crate::search::Limits;

/// Who makes the next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstMove {
    Computer,
    Human,
}

/// Where the board is saved after each side's move.
const COMPUTER_FILE: &str = "computer.txt";
const HUMAN_FILE: &str = "human.txt";

/// Plays a game from the board in `input` (an empty board if there is no such
/// file) until the game ends under `rules`, the person's input ends, or they quit.
/// The computer plays whichever side `first` and the file's turn line give it,
/// searching within `limits` with an engine set up as `settings`; on a
/// terminal, the progress line shows while it thinks.
///
/// # Errors
/// When `input` exists but cannot be read or parsed, a board cannot be saved,
/// or the terminal fails.
pub fn interactive(
    input: &Path,
    first: FirstMove,
    rules: Rules,
    limits: &Limits,
    settings: &EngineSettings,
    human: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let BoardFile { mut board, line_ending } = if input.exists() {
        read_board_file(input)?
    } else {
        writeln!(out, "{} does not exist; starting from an empty board.", input.display())?;
        BoardFile { board: Board::empty(), line_ending: LineEnding::Lf }
    };
    // Found now, not after the first move.
    for saved in [COMPUTER_FILE, HUMAN_FILE] {
        crate::whole::check(Path::new(saved))?;
    }
    let computer = match first {
        FirstMove::Computer => board.to_move(),
        FirstMove::Human => board.to_move().other(),
    };
    let mut engine = settings.engine(rules)?;
    let you = computer.other();
    writeln!(
        out,
        "You are player {} ({}); the computer is player {} ({}).\n\
         After each move the board is saved: the computer's to {COMPUTER_FILE}, yours to {HUMAN_FILE}.",
        you.number(),
        colour_name(you),
        computer.number(),
        colour_name(computer),
    )?;

    let mut last_computer_move = None;
    loop {
        write!(out, "\n{}", display::board_marking(&board, last_computer_move.take()))?;
        if rules.is_over(&board) {
            writeln!(out, "The game is over: {}", result_for_you(rules, &board, you))?;
            return Ok(());
        }
        if board.to_move() == computer {
            let thought = think(&mut engine, &board, limits, settings.play);
            let column = thought.result.column;
            board.play(column);
            writeln!(
                out,
                "\nMove {}: the computer (player {}) plays column {column}.",
                board.pieces_played(),
                computer.number()
            )?;
            thought.report(out)?;
            save_board(Path::new(COMPUTER_FILE), &board, line_ending)?;
            last_computer_move = Some(column);
        } else {
            let Some(column) = ask_column(&board, human, out)? else {
                writeln!(out, "\nThe game is left unfinished.")?;
                return Ok(());
            };
            board.play(column);
            save_board(Path::new(HUMAN_FILE), &board, line_ending)?;
        }
    }
}

/// The colour of `player`'s pieces, as the assignment names them.
fn colour_name(player: Player) -> &'static str {
    match player {
        Player::One => "red",
        Player::Two => "green",
    }
}

/// Who won the finished game on `board`, said to the person playing `you`.
fn result_for_you(rules: Rules, board: &Board, you: Player) -> String {
    let (yours, computers) = (board.score(you), board.score(you.other()));
    let winner = match rules.outcome(board) {
        Some(Outcome::Win(player)) if player == you => "you win",
        Some(Outcome::Win(_)) => "the computer wins",
        _ => "a draw",
    };
    match rules {
        Rules::Max if yours == computers => format!("{winner}, {yours} all."),
        Rules::Max => format!("{winner}, {} to {}.", yours.max(computers), yours.min(computers)),
        Rules::Classic if winner == "a draw" => "a draw: the board is full without four in a row.".to_owned(),
        Rules::Classic => format!("{winner} with four in a row."),
    }
}
