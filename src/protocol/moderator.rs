//! The Connect 4 Moderator's protocol (seed 000): a bot on standard input and
//! output, one small integer a line.
//!
//! The bot first prints `p`. The moderator sends `1` (the bot moves first and
//! prints a column, 1-7) or `2` (the bot prints `?` and waits); then it sends
//! each of the opponent's columns, 1-7, and the bot answers with its own, until
//! an end code: `0` (an error), `-1` (player 1 won), `-2` (player 2 won) or
//! `-3` (a tie). The moderator reads everything a bot printed with the line
//! breaks stripped, so a bot prints nothing else on standard output, and the
//! host reads a bot's output one non-blank character at a time.
//!
//! The wire cannot tell "you move first" from "the opponent played column 1":
//! both are `1`. [`ToBot`] is therefore what the wire says (a column or an end
//! code) and [`Bot`] knows that the first number is the seat.

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Column};

use crate::player::Player;
use crate::rules::{Outcome, Rules};

/// How a game ended, as the moderator tells the bots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// `0`: the game ended in an error (an illegal move or garbage).
    Error,
    /// `-1` or `-2`: that player won.
    Win(Player),
    /// `-3`: nobody won.
    Tie,
}

impl End {
    /// The code for a finished game's outcome.
    #[must_use]
    pub const fn of(outcome: Outcome) -> End {
        match outcome {
            Outcome::Win(player) => End::Win(player),
            Outcome::Draw => End::Tie,
        }
    }

    const fn code(self) -> i8 {
        match self {
            End::Error => 0,
            End::Win(Player::One) => -1,
            End::Win(Player::Two) => -2,
            End::Tie => -3,
        }
    }
}

/// A line from the moderator to a bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToBot {
    /// `1`-`7`: the seat (only `1` or `2`, as the first line) or the
    /// opponent's column.
    Column(Column),
    /// `0`, `-1`, `-2`, `-3`: the game is over.
    End(End),
}

/// What a bot sends to the moderator: one character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FromBot {
    /// `p`: the bot has started.
    Ready,
    /// `?`: the bot moves second and is waiting.
    Waiting,
    /// `1`-`7`: the bot's column.
    Move(Column),
}

/// A line or character that is not a message of this protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("expected a column 1-7 or an end code 0, -1, -2 or -3, got '{0}'")]
    ToBot(String),
    #[error("expected 'p', '?' or a column 1-7, got '{0}'")]
    FromBot(String),
}

impl ToBot {
    /// The first line to a bot: `1` if it moves first, `2` if second.
    #[must_use]
    pub const fn seat(player: Player) -> ToBot {
        match player {
            Player::One => ToBot::Column(Column::ALL[0]),
            Player::Two => ToBot::Column(Column::ALL[1]),
        }
    }
}

impl fmt::Display for ToBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToBot::Column(column) => write!(f, "{column}"),
            ToBot::End(end) => write!(f, "{}", end.code()),
        }
    }
}

impl FromStr for ToBot {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<ToBot, ParseError> {
        let error = || ParseError::ToBot(line.to_owned());
        match line.trim().parse::<i8>().map_err(|_| error())? {
            0 => Ok(ToBot::End(End::Error)),
            -1 => Ok(ToBot::End(End::Win(Player::One))),
            -2 => Ok(ToBot::End(End::Win(Player::Two))),
            -3 => Ok(ToBot::End(End::Tie)),
            number @ 1..=7 => Ok(ToBot::Column(Column::from_number(number as usize).ok_or_else(error)?)),
            _ => Err(error()),
        }
    }
}

impl fmt::Display for FromBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FromBot::Ready => f.write_str("p"),
            FromBot::Waiting => f.write_str("?"),
            FromBot::Move(column) => write!(f, "{column}"),
        }
    }
}

impl FromStr for FromBot {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<FromBot, ParseError> {
        match text.trim() {
            "p" => Ok(FromBot::Ready),
            "?" => Ok(FromBot::Waiting),
            digit @ ("1" | "2" | "3" | "4" | "5" | "6" | "7") => {
                Ok(FromBot::Move(Column::from_number(usize::from(digit.as_bytes()[0] - b'0')).expect("1-7")))
            }
            _ => Err(ParseError::FromBot(text.to_owned())),
        }
    }
}

/// What the bot does after a line from the moderator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Print this and wait for the next line.
    Send(FromBot),
    /// The opponent's move ended the game: print nothing and wait for the
    /// end code.
    Wait,
    /// The game is over: exit.
    Exit(End),
}

/// A line the bot cannot act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error("the first line must be 1 or 2 (who moves first), got '{0}'")]
    Seat(String),
    #[error("the opponent's column {0} is full")]
    ColumnFull(Column),
    #[error("a move arrived after the game ended ({0})")]
    AfterEnd(String),
}

/// The bot's side of the protocol: keeps the board from the moves it hears
/// and asks `choose` for its own.
#[derive(Clone, Debug)]
pub struct Bot {
    rules: Rules,
    /// `None` until the moderator has said who moves first.
    board: Option<Board>,
}

impl Bot {
    /// A bot about to start a game under `rules`.
    #[must_use]
    pub const fn new(rules: Rules) -> Bot {
        Bot { rules, board: None }
    }

    /// What the bot prints when it starts.
    #[must_use]
    pub const fn greeting() -> FromBot {
        FromBot::Ready
    }

    /// The board as the bot knows it (empty before the seat is known).
    #[must_use]
    pub fn board(&self) -> Board {
        self.board.unwrap_or_else(Board::empty)
    }

    /// Handles one line from the moderator; `choose` picks the bot's column
    /// on a board where the game is not over.
    ///
    /// # Errors
    /// When the line is not a message, the first line is not a seat, or a
    /// move cannot be played.
    pub fn receive(&mut self, line: &str, choose: impl FnOnce(&Board) -> Column) -> Result<Step, BotError> {
        let message: ToBot = line.parse()?;
        let column = match message {
            ToBot::End(end) => return Ok(Step::Exit(end)),
            ToBot::Column(column) => column,
        };
        let Some(board) = &mut self.board else {
            let board = self.board.insert(Board::empty());
            return match column.number() {
                1 => Ok(Step::Send(FromBot::Move(choose(board)))).inspect(|step| Self::record(board, step)),
                2 => Ok(Step::Send(FromBot::Waiting)),
                _ => Err(BotError::Seat(line.trim().to_owned())),
            };
        };
        if self.rules.is_over(board) {
            return Err(BotError::AfterEnd(line.trim().to_owned()));
        }
        board.try_play(column).map_err(|full| BotError::ColumnFull(full.0))?;
        if self.rules.is_over(board) {
            return Ok(Step::Wait);
        }
        let step = Step::Send(FromBot::Move(choose(board)));
        Self::record(board, &step);
        Ok(step)
    }

    fn record(board: &mut Board, step: &Step) {
        if let Step::Send(FromBot::Move(column)) = step {
            board.play(*column);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn leftmost(board: &Board) -> Column {
        board.legal_columns().next().unwrap()
    }

    /// Feeds `lines` to a new bot choosing the leftmost column and checks
    /// what it answers (each answer's wire form, or the error's message).
    fn check(lines: &[&str], expected: &[&str]) {
        let mut bot = Bot::new(Rules::Classic);
        let answers: Vec<String> = lines
            .iter()
            .map(|line| match bot.receive(line, leftmost) {
                Ok(Step::Send(message)) => message.to_string(),
                Ok(Step::Exit(end)) => format!("exit {}", ToBot::End(end)),
                Ok(Step::Wait) => "wait".to_owned(),
                Err(error) => format!("error: {error}"),
            })
            .collect();
        assert_eq!(answers, expected, "lines {lines:?}");
    }

    #[test]
    fn a_game_as_either_player() {
        check(&["1", "4", "4", "-1"], &["1", "1", "1", "exit -1"]);
        check(&["2\n", "7\n", "7\r\n", "-3"], &["?", "1", "1", "exit -3"]);
        check(&["2", "0"], &["?", "exit 0"]);
    }

    #[test]
    fn bad_lines_are_errors() {
        check(&["3"], &["error: the first line must be 1 or 2 (who moves first), got '3'"]);
        check(&["x"], &["error: expected a column 1-7 or an end code 0, -1, -2 or -3, got 'x'"]);
        check(&["2", "8"], &["?", "error: expected a column 1-7 or an end code 0, -1, -2 or -3, got '8'"]);
        check(&["2", ""], &["?", "error: expected a column 1-7 or an end code 0, -1, -2 or -3, got ''"]);
        // The bot fills column 1 with the opponent; a seventh piece there is refused.
        check(&["2", "1", "1", "1", "1"], &["?", "1", "1", "1", "error: the opponent's column 1 is full"]);
        // Classic: after player 1's four nothing more is played.
        // Classic: once the opponent has four the bot waits for the end code;
        // a move after its own four is an error.
        check(&["2", "2", "2", "2", "2", "-1"], &["?", "1", "1", "1", "wait", "exit -1"]);
        check(&["1", "2", "2", "2", "5"], &["1", "1", "1", "1", "error: a move arrived after the game ended (5)"]);
    }

    #[test]
    fn bot_characters_parse() {
        assert_eq!("p".parse(), Ok(FromBot::Ready));
        assert_eq!("?".parse(), Ok(FromBot::Waiting));
        assert_eq!("8".parse::<FromBot>(), Err(ParseError::FromBot("8".into())));
        assert_eq!("pp".parse::<FromBot>(), Err(ParseError::FromBot("pp".into())));
    }

    fn to_bot() -> impl Strategy<Value = ToBot> {
        prop_oneof![
            (0..7usize).prop_map(|index| ToBot::Column(Column::ALL[index])),
            prop_oneof![Just(End::Error), Just(End::Win(Player::One)), Just(End::Win(Player::Two)), Just(End::Tie)]
                .prop_map(ToBot::End),
        ]
    }

    fn from_bot() -> impl Strategy<Value = FromBot> {
        prop_oneof![
            Just(FromBot::Ready),
            Just(FromBot::Waiting),
            (0..7usize).prop_map(|index| FromBot::Move(Column::ALL[index]))
        ]
    }

    proptest! {
        #[test]
        fn to_bot_round_trips(message in to_bot()) {
            prop_assert_eq!(message.to_string().parse::<ToBot>(), Ok(message));
        }

        #[test]
        fn from_bot_round_trips(message in from_bot()) {
            prop_assert_eq!(message.to_string().parse::<FromBot>(), Ok(message));
        }

        #[test]
        fn any_line_is_a_message_or_an_error(line in ".{0,12}") {
            let _ = line.parse::<ToBot>();
            let _ = line.parse::<FromBot>();
            let _ = Bot::new(Rules::Classic).receive(&line, leftmost);
        }
    }
}
