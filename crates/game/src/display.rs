//! The board as people see it at the terminal.
//!
//! The text carries ANSI colours (player 1 red, player 2 green, as in the
//! assignment); print it through `anstream`, which drops them when the output
//! is not a terminal or `NO_COLOR` is set.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};

use crate::bitboard::{HEIGHT, WIDTH};
use crate::board::{Board, Column};
use crate::player::Player;
use crate::rules::{Outcome, Rules};

const RED: Style = AnsiColor::Red.on_default().bold();
const GREEN: Style = AnsiColor::Green.on_default().bold();

/// The board drawn with column numbers underneath, then the score line.
///
/// ```text
/// | . . . . . . . |
/// | . . . . . . . |
/// | . 2 . . . . . |
/// | . 1 . . . . 2 |
/// | . 2 . . 1 1 1 |
/// | 1 1 . . 2 2 2 |
/// +---------------+
///   1 2 3 4 5 6 7
/// Score: Player 1 = 0, Player 2 = 0
/// ```
#[must_use]
pub fn board_and_score(board: &Board) -> String {
    board_marking(board, None)
}

/// [`board_and_score`] with the last move made in `last` shown: its piece
/// underlined (on a terminal) and a `^` under the column's number, which
/// shows without colours too.
///
/// ```text
/// +---------------+
///   1 2 3 4 5 6 7
///         ^
/// Score: Player 1 = 0, Player 2 = 0
/// ```
#[must_use]
pub fn board_marking(board: &Board, last: Option<Column>) -> String {
    // The top piece of the column is the one played last.
    let last_cell = last.and_then(|column| Some((column.index(), board.height(column).checked_sub(1)?)));
    let mut text = String::new();
    for row in (0..HEIGHT).rev() {
        text.push('|');
        for column in 0..WIDTH {
            let _ = match board.at(column, row) {
                Some(player) => {
                    let mut style = style(player);
                    if last_cell == Some((column, row)) {
                        style = style.underline();
                    }
                    write!(text, " {style}{}{style:#}", player.number())
                }
                None => write!(text, " ."),
            };
        }
        text.push_str(" |\n");
    }
    text.push_str("+---------------+\n ");
    for column in 1..=WIDTH {
        let _ = write!(text, " {column}");
    }
    text.push('\n');
    if let Some(column) = last {
        let _ = writeln!(text, "{:>width$}", "^", width = 2 * column.number() + 1);
    }
    text.push_str(&score_line(board));
    text.push('\n');
    text
}

/// `Score: Player 1 = X, Player 2 = Y`, the line scripts for the course's
/// programs look for.
#[must_use]
pub fn score_line(board: &Board) -> String {
    format!("Score: Player 1 = {}, Player 2 = {}", board.score(Player::One), board.score(Player::Two))
}

/// The colour of `player`'s pieces.
#[must_use]
pub const fn style(player: Player) -> Style {
    match player {
        Player::One => RED,
        Player::Two => GREEN,
    }
}

/// Who won a finished game under `rules`, and why, as a sentence.
#[must_use]
pub fn result_sentence(rules: Rules, board: &Board) -> String {
    let one = board.score(Player::One);
    let two = board.score(Player::Two);
    match rules {
        Rules::Max => match one.cmp(&two) {
            std::cmp::Ordering::Greater => format!("Player 1 wins, {one} to {two}."),
            std::cmp::Ordering::Less => format!("Player 2 wins, {two} to {one}."),
            std::cmp::Ordering::Equal => format!("The game is a draw, {one} all."),
        },
        Rules::Classic => match rules.outcome(board) {
            Some(Outcome::Win(winner)) => format!("Player {} wins with four in a row.", winner.number()),
            _ => "The game is a draw: the board is full without four in a row.".to_owned(),
        },
    }
}
