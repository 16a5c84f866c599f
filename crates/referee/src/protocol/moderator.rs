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
use std::time::Duration;

use super::host::{self, Fault, PipeHost, Silence, Situation, Then};
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::player::Player;
use maxconnect4_game::rules::{Outcome, Rules};

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
    /// A line to the bot that is neither a column nor an end code.
    #[error("expected a column 1-7 or an end code 0, -1, -2 or -3, got '{0}'")]
    ToBot(String),
    /// A character from the bot that is neither `p`, `?` nor a column.
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
    /// The line is not a message.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The first line is a column other than 1 or 2.
    #[error("the first line must be 1 or 2 (who moves first), got '{0}'")]
    Seat(String),
    /// The opponent's move is in a full column.
    #[error("the opponent's column {0} is full")]
    ColumnFull(Column),
    /// A move came after the game was over, without the end code; holds
    /// the line.
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

/// The host's side of the protocol: the moderator as the referee plays it.
/// The bot prints `p`, is told its seat and, second, prints `?`; each turn
/// it is told the opponent's last column (not on the first player's first
/// turn, which the seat asked for) and answers its own. Its output is read
/// as the moderator reads it, one non-blank character at a time.
#[derive(Clone, Debug)]
pub struct Host {
    player: Player,
    /// How long the bot has to get ready when the game starts.
    startup: Duration,
    state: HostState,
    /// The board of the turn.
    board: Board,
}

/// Where the host is in an exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HostState {
    /// The game starts: this character is due from the bot.
    Greeting(FromBot),
    /// Between turns.
    Idle,
    /// At the start of a turn, before the opponent's column is sent.
    Due(Column),
    /// The bot's column is awaited.
    Moving,
    /// The bot answered this column: nothing more may come.
    Answered(Column),
}

impl Host {
    /// The host of the bot playing `player`, which has `startup` to get
    /// ready when the game starts.
    #[must_use]
    pub const fn new(player: Player, startup: Duration) -> Host {
        Host { player, startup, state: HostState::Idle, board: Board::empty() }
    }
}

impl PipeHost for Host {
    /// The next character that is not blank.
    fn take(pending: &mut Vec<u8>, _closed: bool) -> Option<String> {
        let Some(start) = pending.iter().position(|byte| !byte.is_ascii_whitespace()) else {
            pending.clear();
            return None;
        };
        let taken: Vec<u8> = pending.drain(..=start).skip(start).collect();
        Some(String::from_utf8_lossy(&taken).into_owned())
    }

    /// `p`, the seat, and `?` from the second player.
    fn greet(&mut self) -> host::Step {
        self.state = HostState::Greeting(Bot::greeting());
        host::Step::then(Then::Listen)
    }

    /// # Panics
    /// When the game did not start from the empty board: the protocol has
    /// no start position.
    fn turn(&mut self, position: &Situation<'_>) -> host::Step {
        self.board = *position.board;
        // The opponent's last move; on the first player's first turn the
        // seat asked, and the answer may be there already.
        match position.history.and_then(<[_]>::last) {
            Some(&column) => {
                self.state = HostState::Due(column);
                host::Step::then(Then::Look)
            }
            None => {
                self.state = HostState::Moving;
                host::Step::then(Then::Listen)
            }
        }
    }

    fn heard(&mut self, answer: &str) -> host::Step {
        let message = answer.parse::<FromBot>().ok();
        match (std::mem::replace(&mut self.state, HostState::Idle), message) {
            (HostState::Greeting(FromBot::Ready), Some(FromBot::Ready)) => {
                let send = vec![ToBot::seat(self.player).to_string()];
                if self.player == Player::Two {
                    self.state = HostState::Greeting(FromBot::Waiting);
                    return host::Step { send, then: Then::Listen };
                }
                host::Step { send, then: Then::Ready }
            }
            (HostState::Greeting(wanted), Some(message)) if message == wanted => host::Step::then(Then::Ready),
            (HostState::Greeting(wanted), _) => {
                host::Step::fault(Fault::FailedToStart(format!("it printed '{answer}' where '{wanted}' was due")))
            }
            (HostState::Moving, Some(FromBot::Move(column))) => {
                self.state = HostState::Answered(column);
                host::Step::then(Then::Look)
            }
            (HostState::Moving, _) => {
                host::Step::fault(Fault::Garbage(format!("expected a column 1-7, got '{answer}'")))
            }
            (_, _) => host::Step::fault(host::unasked(answer)),
        }
    }

    fn looked(&mut self, unasked: Option<&str>) -> host::Step {
        match (std::mem::replace(&mut self.state, HostState::Idle), unasked) {
            (HostState::Answered(column), Some(text)) => {
                host::Step::fault(host::second_answer(&column.to_string(), text))
            }
            (HostState::Answered(column), None) => host::Step::then(host::judged(&self.board, column).into()),
            (_, Some(text)) => host::Step::fault(host::unasked(text)),
            (HostState::Due(column), None) => {
                self.state = HostState::Moving;
                host::Step { send: vec![ToBot::Column(column).to_string()], then: Then::Listen }
            }
            (state, None) => {
                self.state = state;
                host::Step::then(Then::Listen)
            }
        }
    }

    fn silent(&mut self, silence: Silence) -> Fault {
        match self.state {
            HostState::Greeting(wanted) => host::failed_to_start(silence, self.startup, &wanted.to_string()),
            _ => host::no_answer(silence),
        }
    }

    /// The seat is the only line of the greeting: its verdict names the
    /// `p` it answers.
    fn refused(&mut self, how: String) -> Fault {
        match self.state {
            HostState::Greeting(_) => host::failed_to_start(Silence::Gone(how), self.startup, "p"),
            _ => host::no_answer(Silence::Gone(how)),
        }
    }

    /// The end code: who won, or `0` when the opponent forfeited.
    fn goodbye(&self, outcome: Option<Outcome>) -> String {
        ToBot::End(outcome.map_or(End::Error, End::of)).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use maxconnect4_game::moves::Moves;
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

    /// The host of `player`'s bot, 10 s to start, driven by `script` from
    /// the greeting (see [`host::tests::drive`]).
    fn greeting(player: Player, script: &[&str]) -> Vec<String> {
        let mut host = Host::new(player, Duration::from_secs(10));
        let step = host.greet();
        host::tests::drive(&mut host, step, script)
    }

    /// The host of the bot to move after `moves` (columns 1-7 from the
    /// empty board), once greeted, driven by `script` from its turn.
    fn turn(moves: &str, script: &[&str]) -> Vec<String> {
        let board = Moves::board(Rules::Classic, moves).unwrap();
        let mut host = Host::new(board.to_move(), Duration::from_secs(10));
        let step = host.greet();
        let answers: &[&str] = if board.to_move() == Player::One { &["p"] } else { &["p", "?"] };
        assert_eq!(host::tests::drive(&mut host, step, answers).last().map(String::as_str), Some("ready"));
        let history: Vec<Column> =
            moves.bytes().map(|digit| Column::from_number(usize::from(digit - b'0')).unwrap()).collect();
        let left = [Duration::from_secs(10); 2];
        let step = host.turn(&Situation { board: &board, history: Some(&history), left });
        host::tests::drive(&mut host, step, script)
    }

    #[test]
    fn the_host_seats_the_bot_and_passes_the_moves_on() {
        assert_eq!(greeting(Player::One, &["p"]), ["< p", "> 1", "ready"]);
        assert_eq!(greeting(Player::Two, &["p", "?"]), ["< p", "> 2", "< ?", "ready"]);
        // Red's first move answers the seat: nothing is sent.
        assert_eq!(turn("", &["4", ""]), ["< 4", "move 4"]);
        assert_eq!(turn("4", &["", "3", ""]), ["> 4", "< 3", "move 3"]);
        let ends = [Some(Outcome::Win(Player::One)), Some(Outcome::Win(Player::Two)), Some(Outcome::Draw), None];
        let host = Host::new(Player::One, Duration::ZERO);
        assert_eq!(ends.map(|outcome| host.goodbye(outcome)), ["-1", "-2", "-3", "0"]);
    }

    #[test]
    fn the_host_reads_one_character_at_a_time() {
        let mut pending = b" \n4\r\n?p".to_vec();
        let taken: Vec<String> = std::iter::from_fn(|| Host::take(&mut pending, false)).collect();
        assert_eq!(taken, ["4", "?", "p"]);
        let mut pending = b"\n \r\n".to_vec();
        assert_eq!(Host::take(&mut pending, true), None);
        assert!(pending.is_empty());
    }

    #[test]
    fn the_host_forfeits_bad_bots_in_the_verdicts_words() {
        let failed = |player, script: &[&str]| greeting(player, script).pop().unwrap();
        assert_eq!(failed(Player::One, &["1"]), "failed to start: it printed '1' where 'p' was due");
        assert_eq!(failed(Player::Two, &["p", "p"]), "failed to start: it printed 'p' where '?' was due");
        assert_eq!(failed(Player::One, &["!deadline"]), "failed to start: it printed no 'p' within 10 s");
        assert_eq!(
            failed(Player::Two, &["p", "!gone it ended (exit status 0)"]),
            "failed to start: it ended (exit status 0) before printing '?'"
        );
        // The seat is refused: the verdict names the 'p' it answers.
        assert_eq!(
            failed(Player::Two, &["p", "!refuses it no longer reads its standard input"]),
            "failed to start: it no longer reads its standard input before printing 'p'"
        );
        assert_eq!(failed(Player::One, &["!flood"]), "failed to start: it printed too much before 'p'");
        for (moves, script, verdict) in [
            ("", &["h"][..], "unparseable answer: expected a column 1-7, got 'h'"),
            ("1", &["", "8"], "unparseable answer: expected a column 1-7, got '8'"),
            ("1", &["", "p"], "unparseable answer: expected a column 1-7, got 'p'"),
            ("1", &["2"], "unparseable answer: it printed '2' when no move was asked"),
            ("", &["1", "1"], "unparseable answer: it answered 1 and then '1'; one move a turn"),
            (
                "1",
                &["", "4", &"4".repeat(100)],
                "unparseable answer: it answered 4 and then '4444444444444444444444444444444444444444...'; one move a turn",
            ),
            ("1", &["", "!deadline"], "timeout"),
            (
                "1",
                &["", "!gone it closed its standard output"],
                "no output: it closed its standard output without answering",
            ),
            ("1", &["", "!refuses it ended (exit status 3)"], "no output: it ended (exit status 3) without answering"),
            ("", &["!flood"], "unparseable answer: it printed more than 64 KiB without an answer"),
            ("111111", &["", "1", ""], "illegal move: column 1 is full"),
        ] {
            assert_eq!(turn(moves, script).pop().unwrap(), verdict, "{moves} {script:?}");
        }
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
