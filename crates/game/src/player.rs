//! The two players, below everything that speaks of them: the lines, the
//! board, the rules and the protocols.

use std::fmt;

/// One of the two players. Player 1 is red and player 2 green in the
/// assignment; board files write them as `1` and `2`, and the referee's logs
/// by their colours, `red` and `green`.
///
/// A whole word wide, like every other field of
/// [`Board`](crate::board::Board): the search
/// copies a board right after a move wrote it, and a copy that reads a
/// word of which a move wrote only a byte waits for the write to reach the
/// cache (it cost a third of plain alpha-beta's time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[repr(u64)]
pub enum Player {
    /// The player who moves first on the empty board: red, `1`.
    #[serde(rename = "red")]
    One,
    /// The player who moves second: green, `2`.
    #[serde(rename = "green")]
    Two,
}

impl Player {
    /// Both players, player 1 first.
    pub const BOTH: [Player; 2] = [Player::One, Player::Two];

    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Player {
        match self {
            Player::One => Player::Two,
            Player::Two => Player::One,
        }
    }

    /// The player's number as written in board files: 1 or 2.
    #[must_use]
    pub const fn number(self) -> u8 {
        match self {
            Player::One => 1,
            Player::Two => 2,
        }
    }

    /// The player written as `number` (1 or 2) in a board file.
    #[must_use]
    pub const fn from_number(number: u8) -> Option<Player> {
        match number {
            1 => Some(Player::One),
            2 => Some(Player::Two),
            _ => None,
        }
    }

    /// The player's colour, as logs and messages name it: `red` or `green`.
    #[must_use]
    pub const fn colour_name(self) -> &'static str {
        match self {
            Player::One => "red",
            Player::Two => "green",
        }
    }

    /// 0 for player 1, 1 for player 2: an index into per-player arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.number())
    }
}
