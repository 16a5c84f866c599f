//! Which game is played on the board: Max-Connect4 or classic Connect-4.
//!
//! Both are played on the same 6x7 board with the same moves; they differ
//! only in when the game ends and who wins. The board, the engine and the
//! referee all take a [`Rules`] rather than a flag, so that a caller cannot
//! ask one part for one game and another part for the other.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;

use crate::player::Player;

/// The rules a game is played by.
///
/// ```
/// use maxconnect4_game::moves::Moves;
/// use maxconnect4_game::player::Player;
/// use maxconnect4_game::rules::{Outcome, Rules};
///
/// let rules: Rules = "classic".parse().unwrap();
/// assert_eq!(rules, Rules::Classic);
///
/// // Player 1 has four in column 1.
/// let board = Moves::board(Rules::Max, "1212121").unwrap();
/// assert_eq!(Rules::Classic.outcome(&board), Some(Outcome::Win(Player::One)));
/// assert_eq!(Rules::Max.outcome(&board), None, "played until the board is full");
/// assert!(!Rules::Max.is_over(&board));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rules {
    /// Max-Connect4, the assignment's game: played until all 42 cells are
    /// full; each four-in-a-row (overlaps counted) scores a point, and the
    /// higher score wins.
    #[default]
    Max,
    /// Classic Connect-4: the first four-in-a-row wins at once; a full board
    /// without one is a draw.
    Classic,
}

/// How a finished game ended.
///
/// Logs write it as one word, the winner's colour or `draw` (serde's
/// default for `Win(Player)` would be an object).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player won: the higher score (Max-Connect4) or the first
    /// four-in-a-row (classic).
    Win(Player),
    /// Equal scores (Max-Connect4), or a full board without a four (classic).
    Draw,
}

impl Outcome {
    /// Every outcome, in the order logs' errors list their words.
    pub const ALL: [Outcome; 3] = [Outcome::Win(Player::One), Outcome::Win(Player::Two), Outcome::Draw];

    /// The winner, if there is one.
    #[must_use]
    pub const fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(player) => Some(player),
            Outcome::Draw => None,
        }
    }

    /// The outcome as logs write it: `red`, `green` or `draw`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Win(player) => player.colour_name(),
            Outcome::Draw => "draw",
        }
    }

    /// The outcome in words: `red won`, `green won`, `a draw`.
    #[must_use]
    pub const fn said(self) -> &'static str {
        match self {
            Outcome::Win(Player::One) => "red won",
            Outcome::Win(Player::Two) => "green won",
            Outcome::Draw => "a draw",
        }
    }
}

impl serde::Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Outcome {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Outcome, D::Error> {
        /// Reads one of [`Outcome::name`]'s words.
        struct Word;

        impl serde::de::Visitor<'_> for Word {
            type Value = Outcome;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("`red`, `green` or `draw`")
            }

            fn visit_str<E: serde::de::Error>(self, word: &str) -> Result<Outcome, E> {
                Outcome::ALL
                    .into_iter()
                    .find(|outcome| outcome.name() == word)
                    .ok_or_else(|| E::unknown_variant(word, &["red", "green", "draw"]))
            }
        }

        deserializer.deserialize_str(Word)
    }
}

impl Rules {
    /// Both rule sets, the default first.
    pub const ALL: [Rules; 2] = [Rules::Max, Rules::Classic];

    /// The name used on the command line and in logs.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rules::Max => "max",
            Rules::Classic => "classic",
        }
    }

    /// The game in words, as a message names it: `Max-Connect4`, `classic`.
    #[must_use]
    pub const fn game_name(self) -> &'static str {
        match self {
            Rules::Max => "Max-Connect4",
            Rules::Classic => "classic",
        }
    }

    /// How the game on `board` has ended, or `None` while it goes on.
    ///
    /// Under classic rules a player with a four-in-a-row has won. A board
    /// on which both players have one is not a classic position (the game
    /// stopped at the first); it counts as won by the player who moved last,
    /// whose move must have been the one that ended it.
    #[must_use]
    pub fn outcome(self, board: &Board) -> Option<Outcome> {
        match self {
            Rules::Max => board.is_full().then(|| {
                let (one, two) = (board.score(Player::One), board.score(Player::Two));
                match one.cmp(&two) {
                    std::cmp::Ordering::Greater => Outcome::Win(Player::One),
                    std::cmp::Ordering::Less => Outcome::Win(Player::Two),
                    std::cmp::Ordering::Equal => Outcome::Draw,
                }
            }),
            Rules::Classic => {
                let last = board.to_move().other();
                if board.score(last) > 0 {
                    Some(Outcome::Win(last))
                } else if board.score(board.to_move()) > 0 {
                    Some(Outcome::Win(board.to_move()))
                } else {
                    board.is_full().then_some(Outcome::Draw)
                }
            }
        }
    }

    /// Whether the game on `board` is over.
    #[must_use]
    pub fn is_over(self, board: &Board) -> bool {
        self.outcome(board).is_some()
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rules name that is neither `max` nor `classic`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules '{0}': expected 'max' or 'classic'")]
pub struct UnknownRules(pub String);

impl FromStr for Rules {
    type Err = UnknownRules;

    fn from_str(text: &str) -> Result<Rules, UnknownRules> {
        Rules::ALL.into_iter().find(|rules| rules.name() == text).ok_or_else(|| UnknownRules(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Column;

    fn after(moves: &str) -> Board {
        let mut board = Board::empty();
        for digit in moves.bytes() {
            board.play(Column::from_number(usize::from(digit - b'0')).unwrap());
        }
        board
    }

    #[test]
    fn names_round_trip() {
        for rules in Rules::ALL {
            assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
        }
        assert_eq!("Classic".parse::<Rules>(), Err(UnknownRules("Classic".into())));
    }

    #[test]
    fn classic_ends_at_the_first_four_and_max_plays_on() {
        // Player 1 stacks column 1 four times while player 2 plays column 2.
        let board = after("1212121");
        assert_eq!(Rules::Classic.outcome(&board), Some(Outcome::Win(Player::One)));
        assert_eq!(Rules::Max.outcome(&board), None);
        assert_eq!(Rules::Classic.outcome(&after("121212")), None);
    }

    #[test]
    fn a_full_board_ends_both_games() {
        let mut board = Board::empty();
        while !board.is_full() {
            let column = board.legal_columns().next().unwrap();
            board.play(column);
        }
        assert!(Rules::Max.is_over(&board));
        assert!(Rules::Classic.is_over(&board));
    }
}
