//! A game's moves as players write them: the columns played from the empty
//! board, `1` to `7`, first player first (`4453`).
//!
//! [`Moves`] is the one place a move string is read and written: board
//! files' openings, the referee's logs and openings, the command line and
//! the protocols all go through it. It sits above [`crate::board`] and
//! [`crate::rules`] because which moves make a game depends on the rules (no
//! move follows a classic game's four).

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Column};
use crate::player::Player;
use crate::rules::{Outcome, Rules};

/// Why a move string (the columns played from the empty board, `1` to `7`,
/// such as `4453`) is not a game. Moves count from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveStringError {
    /// A character that is not a digit `1` to `7`.
    #[error("move {index} is '{}', not a column 1-7", found.escape_debug())]
    NotAColumn {
        /// Which move, from 1.
        index: usize,
        /// The character written for it.
        found: char,
    },
    /// A move into a column that has no room left.
    #[error("move {index} plays column {column}, which is full")]
    ColumnFull {
        /// Which move, from 1.
        index: usize,
        /// The full column.
        column: Column,
    },
    /// Under classic rules, a move after a four-in-a-row ended the game.
    #[error("move {index} plays column {column} after the game ended: {winner} has four in a row")]
    AfterTheEnd {
        /// Which move, from 1.
        index: usize,
        /// The column it plays.
        column: Column,
        /// The player whose four ended the game.
        winner: Player,
    },
}

/// A sequence of columns played from the empty board.
///
/// ```
/// use maxconnect4_game::moves::{MoveStringError, Moves};
/// use maxconnect4_game::player::Player;
/// use maxconnect4_game::rules::Rules;
///
/// let moves: Moves = "4453".parse().unwrap();
/// assert_eq!(moves.len(), 4);
/// assert_eq!(moves.to_string(), "4453");
/// let board = moves.play(Rules::Max).unwrap();
/// assert_eq!(board.to_move(), Player::One);
///
/// // Player 1's four in column 1 ends a classic game but not a Max-Connect4 one.
/// assert!(Moves::board(Rules::Max, "12121212").is_ok());
/// let error = Moves::board(Rules::Classic, "12121212").unwrap_err();
/// assert!(matches!(error, MoveStringError::AfterTheEnd { index: 8, winner: Player::One, .. }));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Moves(Vec<Column>);

impl Moves {
    /// No moves: the empty board.
    #[must_use]
    pub const fn new() -> Moves {
        Moves(Vec::new())
    }

    /// The columns, first move first.
    #[must_use]
    pub fn columns(&self) -> &[Column] {
        &self.0
    }

    /// How many moves.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds a move at the end.
    pub fn push(&mut self, column: Column) {
        self.0.push(column);
    }

    /// The position after these moves under `rules`.
    ///
    /// # Errors
    /// When a move plays a full column or (classic rules) follows the four
    /// that ended the game; the error names the move.
    pub fn play(&self, rules: Rules) -> Result<Board, MoveStringError> {
        let mut board = Board::empty();
        for (index, &column) in (1..).zip(&self.0) {
            play(rules, &mut board, index, column)?;
        }
        Ok(board)
    }

    /// The position after the moves written `text` (such as `4453`) under
    /// `rules`, read and played a move at a time ([`read_column`] then as
    /// [`Moves::play`] does), so that the error names the first wrong move.
    ///
    /// # Errors
    /// When a character is not a column, a move plays a full column, or
    /// (classic rules) a move follows the four that ended the game; the
    /// error names the move.
    pub fn board(rules: Rules, text: &str) -> Result<Board, MoveStringError> {
        let mut board = Board::empty();
        for (index, found) in (1..).zip(text.chars()) {
            let column = read_column(index, found)?;
            play(rules, &mut board, index, column)?;
        }
        Ok(board)
    }
}

/// Move `index`'s column (moves count from 1), written `found`: `1` to `7`.
///
/// # Errors
/// When `found` is not a column.
pub fn read_column(index: usize, found: char) -> Result<Column, MoveStringError> {
    found
        .to_digit(10)
        .and_then(|digit| Column::from_number(digit as usize))
        .ok_or(MoveStringError::NotAColumn { index, found })
}

/// Plays move `index`, `column`, on `board` under `rules`.
fn play(rules: Rules, board: &mut Board, index: usize, column: Column) -> Result<(), MoveStringError> {
    if let Some(Outcome::Win(winner)) = rules.outcome(board) {
        return Err(MoveStringError::AfterTheEnd { index, column, winner });
    }
    board.try_play(column).map_err(|_| MoveStringError::ColumnFull { index, column })
}

impl FromStr for Moves {
    type Err = MoveStringError;

    /// Reads `4453`; the empty string is no moves.
    fn from_str(text: &str) -> Result<Moves, MoveStringError> {
        (1..).zip(text.chars()).map(|(index, found)| read_column(index, found)).collect::<Result<_, _>>().map(Moves)
    }
}

impl fmt::Display for Moves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|column| write!(f, "{column}"))
    }
}

impl From<Vec<Column>> for Moves {
    fn from(columns: Vec<Column>) -> Moves {
        Moves(columns)
    }
}

impl FromIterator<Column> for Moves {
    fn from_iter<I: IntoIterator<Item = Column>>(columns: I) -> Moves {
        Moves(columns.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Moves::board(rules, moves)` is the board after the columns of `same`,
    /// played one by one, or the error `message`.
    fn check_moves(rules: Rules, moves: &str, expected: Result<&str, &str>) {
        let board = Moves::board(rules, moves);
        let column = |digit: u8| Column::from_number(usize::from(digit - b'0')).unwrap();
        match expected {
            Ok(same) => {
                let played = same.bytes().fold(Board::empty(), |board, digit| board.after(column(digit)));
                assert_eq!(board, Ok(played), "{moves}");
            }
            Err(message) => assert_eq!(board.map_err(|error| error.to_string()), Err(message.to_owned()), "{moves}"),
        }
    }

    #[test]
    fn move_strings() {
        check_moves(Rules::Classic, "", Ok(""));
        check_moves(Rules::Classic, "4453", Ok("4453"));
        check_moves(Rules::Classic, "44a3", Err("move 3 is 'a', not a column 1-7"));
        check_moves(Rules::Max, "448", Err("move 3 is '8', not a column 1-7"));
        check_moves(Rules::Max, "0", Err("move 1 is '0', not a column 1-7"));
        check_moves(Rules::Max, "4\n", Err("move 2 is '\\n', not a column 1-7"));
        check_moves(Rules::Max, "2222222", Err("move 7 plays column 2, which is full"));
        // The first wrong move is named, whatever follows it.
        check_moves(Rules::Max, "44444448", Err("move 7 plays column 4, which is full"));
        check_moves(
            Rules::Classic,
            "12121213",
            Err("move 8 plays column 3 after the game ended: player 1 has four in a row"),
        );
        check_moves(Rules::Max, "12121213", Ok("12121213"));
    }

    #[test]
    fn a_move_string_reads_and_writes_back() {
        for text in ["", "4453", "1234567"] {
            assert_eq!(text.parse::<Moves>().unwrap().to_string(), text);
        }
        assert_eq!("4453".parse::<Moves>().unwrap().len(), 4);
    }
}
