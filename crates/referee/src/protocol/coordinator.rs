//! The coordinator's engine protocol (seed 001), a cousin of chess's UCI: one
//! command a line to the engine, one answer a line back.
//!
//! | coordinator | engine |
//! | ----------- | ------ |
//! | `name` | the engine's name, `NAME-cXXXXXXX` |
//! | `isready` | `readyok` |
//! | `position startpos [MOVES]` | nothing: MOVES are digits 0-6 from the start, no search allowed |
//! | `go ftime X stime Y` | `bestmove Z V`: column Z 0-6, V the evaluation after it; X and Y are the first and second player's milliseconds left |
//! | `perft X` | `perft X Y`: Y positions at depth X, won positions not expanded |
//! | `quit` | `quitting` |
//!
//! Tokens are separated by exactly one space on output: the real
//! coordinator crashes on two. Input is read leniently, as UCI engines read
//! theirs: the real coordinator sends `name AI 0` and `isready AI 0` (the
//! engine it addresses) and `position startpos ` with a trailing space, so
//! words after `name`, `isready` and `quit`, and spaces, are allowed. As a
//! host this program sends what the real coordinator sends, since real
//! engines of its course expect `name AI N` and fail on a bare `name`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::host::{self, Fault, PipeHost, Silence, Situation, Step, Then};
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::player::Player;
use maxconnect4_game::rules::{Outcome, Rules};
use maxconnect4_game::value::Value;

/// The name a bot gives when none is chosen, in the seed's form.
pub const DEFAULT_NAME: &str = "maxconnect4-c0000000";

/// A line from the coordinator to an engine.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// The words after `name`: the real coordinator names the engine it
    /// asks (`AI 0`); empty for a bare `name`.
    Name(String),
    /// The words after `isready`, as for `name`.
    IsReady(String),
    /// The moves from the start position, in order.
    Position(Vec<Column>),
    /// Milliseconds left to the first and to the second player.
    Go {
        /// The first player's time left, in milliseconds.
        first_ms: u64,
        /// The second player's time left, in milliseconds.
        second_ms: u64,
    },
    /// A perft count to this depth, in plies, from the position.
    Perft(u32),
    /// The end of the session: the engine answers and exits.
    Quit,
}

/// A line from an engine to the coordinator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Response {
    /// The engine's name: one or more words, the first not a keyword.
    Name(String),
    /// The engine is ready for the next command.
    ReadyOk,
    /// The column chosen and the evaluation after it, for the engine.
    BestMove {
        /// The column played.
        column: Column,
        /// The evaluation of the position after the move, for the mover.
        value: Value,
    },
    /// The answer to `perft`.
    Perft {
        /// The depth asked for, in plies.
        depth: u32,
        /// The number of move sequences of that length.
        count: u64,
    },
    /// The answer to `quit`, the engine's last line.
    Quitting,
}

/// A line that is not a message of this protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The line's first word is no keyword of the protocol.
    #[error("unknown command '{0}'")]
    UnknownCommand(String),
    /// A line starts with a keyword but the rest does not fit it.
    #[error("malformed '{keyword}' line '{line}': expected {expected}")]
    Malformed {
        /// The line's keyword.
        keyword: &'static str,
        /// The whole line.
        line: String,
        /// What should have followed the keyword.
        expected: &'static str,
    },
    /// The line is empty or only spaces.
    #[error("empty line")]
    Empty,
}

const KEYWORDS: [&str; 4] = ["readyok", "bestmove", "perft", "quitting"];

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Name(to) => with_words(f, "name", to),
            Command::IsReady(to) => with_words(f, "isready", to),
            // The trailing space of an empty position is the real
            // coordinator's.
            Command::Position(moves) => {
                f.write_str("position startpos ")?;
                moves.iter().try_for_each(|column| write!(f, "{}", column.index()))
            }
            Command::Go { first_ms, second_ms } => write!(f, "go ftime {first_ms} stime {second_ms}"),
            Command::Perft(depth) => write!(f, "perft {depth}"),
            Command::Quit => f.write_str("quit"),
        }
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Name(name) => f.write_str(name),
            Response::ReadyOk => f.write_str("readyok"),
            Response::BestMove { column, value } => write!(f, "bestmove {} {value}", column.index()),
            Response::Perft { depth, count } => write!(f, "perft {depth} {count}"),
            Response::Quitting => f.write_str("quitting"),
        }
    }
}

/// `keyword`, then `words` after a space if there are any.
fn with_words(f: &mut fmt::Formatter<'_>, keyword: &str, words: &str) -> fmt::Result {
    f.write_str(keyword)?;
    if words.is_empty() { Ok(()) } else { write!(f, " {words}") }
}

/// A column written 0-6.
fn column(token: &str) -> Option<Column> {
    match token.as_bytes() {
        &[digit @ b'0'..=b'6'] => Column::from_index(usize::from(digit - b'0')),
        _ => None,
    }
}

impl FromStr for Command {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Command, ParseError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let malformed = |keyword, expected| ParseError::Malformed { keyword, line: line.trim().to_owned(), expected };
        match words.as_slice() {
            [] => Err(ParseError::Empty),
            ["name", to @ ..] => Ok(Command::Name(to.join(" "))),
            ["isready", to @ ..] => Ok(Command::IsReady(to.join(" "))),
            ["quit", ..] => Ok(Command::Quit),
            ["position", "startpos", moves @ ..] => moves
                .iter()
                .flat_map(|token| token.split_inclusive(|_| true))
                .map(column)
                .collect::<Option<Vec<Column>>>()
                .map(Command::Position)
                .ok_or_else(|| malformed("position", "'position startpos' and digits 0-6")),
            ["position", ..] => Err(malformed("position", "'position startpos' and digits 0-6")),
            ["go", "ftime", first, "stime", second, ..] => match (first.parse(), second.parse()) {
                (Ok(first_ms), Ok(second_ms)) => Ok(Command::Go { first_ms, second_ms }),
                _ => Err(malformed("go", "'go ftime X stime Y' with X and Y whole milliseconds")),
            },
            ["go", ..] => Err(malformed("go", "'go ftime X stime Y' with X and Y whole milliseconds")),
            ["perft", depth, ..] => {
                depth.parse().map(Command::Perft).map_err(|_| malformed("perft", "'perft X', X a depth"))
            }
            ["perft", ..] => Err(malformed("perft", "'perft X', X a depth")),
            _ => Err(ParseError::UnknownCommand(line.trim().to_owned())),
        }
    }
}

impl FromStr for Response {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Response, ParseError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let malformed = |keyword, expected| ParseError::Malformed { keyword, line: line.trim().to_owned(), expected };
        match words.as_slice() {
            [] => Err(ParseError::Empty),
            ["readyok"] => Ok(Response::ReadyOk),
            ["quitting"] => Ok(Response::Quitting),
            ["bestmove", z, v] => match (column(z), v.parse()) {
                (Some(column), Ok(value)) => Ok(Response::BestMove { column, value }),
                _ => Err(malformed("bestmove", "'bestmove Z V', Z a column 0-6 and V a whole number")),
            },
            ["perft", depth, count] => match (depth.parse(), count.parse()) {
                (Ok(depth), Ok(count)) => Ok(Response::Perft { depth, count }),
                _ => Err(malformed("perft", "'perft X Y' with whole numbers")),
            },
            [first, ..] if KEYWORDS.contains(first) => {
                Err(malformed(KEYWORDS.iter().find(|keyword| *keyword == first).expect("a keyword"), "its arguments"))
            }
            _ => Ok(Response::Name(words.join(" "))),
        }
    }
}

/// What the engine computes, so the state machine can be driven without one.
pub trait Think {
    /// The best move on `board` (where the game is not over) within `time`,
    /// and the evaluation after it for the mover.
    fn best_move(&mut self, board: &Board, time: Duration) -> (Column, Value);
    /// Perft under the engine's rules.
    fn perft(&mut self, board: &Board, depth: u32) -> u64;
}

/// A command the engine cannot act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    /// The line is not a command.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A move of `position` cannot be played.
    #[error("move {number} of the position, column {column}, is illegal: {why}")]
    IllegalPosition {
        /// The move's place in the list, from 1.
        number: usize,
        /// The move's column, 0-6 as on the wire.
        column: usize,
        /// Why it cannot be played.
        why: &'static str,
    },
    /// `go` came when the game of the position is over.
    #[error("'go' on a finished game")]
    GameOver,
    /// `go` came with no position standing.
    #[error("'go' with no position, or after a position that was refused: send a legal position first")]
    NoPosition,
    /// `perft` asked for a depth past [`MAX_PERFT_DEPTH`].
    #[error(
        "perft {0} is refused: at most {MAX_PERFT_DEPTH} plies (perft 14 takes 14 s here, each ply more about 7 times as long)"
    )]
    PerftTooDeep(u32),
}

/// The deepest perft the engine counts, so that it is back reading its
/// input (a `quit`) in seconds, not days: on this project's machine
/// classic perft 12 from the empty board takes 1.0 s and perft 14 14.4 s
/// (release build).
pub const MAX_PERFT_DEPTH: u32 = 14;

/// The time to think about one move with `left` on the clock and `played`
/// plies already played: the usable time (less a reserve for the pipes and
/// the coordinator's bookkeeping) spread over half the mover's remaining
/// moves, so early, harder moves get more and the clock is never run out.
#[must_use]
pub fn think_time(left: Duration, played: u32) -> Duration {
    /// Kept back from every move's share: 100 ms (the coordinator's Java
    /// round trip and the launcher) and 5% of the clock.
    const RESERVE_FIXED: Duration = Duration::from_millis(100);
    let usable = left.saturating_sub(RESERVE_FIXED + left / 20);
    let moves_left = (maxconnect4_game::bitboard::CELLS as u32).saturating_sub(played).div_ceil(2).max(1);
    usable / moves_left.div_ceil(2)
}

/// The engine's side of the protocol.
#[derive(Clone, Debug)]
pub struct Bot {
    rules: Rules,
    name: String,
    board: Board,
    played: u32,
    /// Whether no position stands: none was sent yet, or the last was
    /// refused (`go` must not answer for the one before it).
    refused: bool,
    quit: bool,
}

impl Bot {
    /// An engine called `name` playing under `rules`, at the start position.
    #[must_use]
    pub fn new(rules: Rules, name: String) -> Bot {
        Bot { rules, name, board: Board::empty(), played: 0, refused: true, quit: false }
    }

    /// Whether `quit` has been answered: the engine should exit.
    #[must_use]
    pub const fn has_quit(&self) -> bool {
        self.quit
    }

    /// Handles one line; returns the answer to print, if any.
    ///
    /// # Errors
    /// A line that is not a command, an illegal position or `go` on a
    /// finished game.
    pub fn receive(&mut self, line: &str, think: &mut impl Think) -> Result<Option<Response>, BotError> {
        let command = line.parse::<Command>();
        if matches!(line.split_whitespace().next(), Some("position")) {
            // Refused until a position is taken, even if this line is not one.
            self.refused = true;
        }
        Ok(match command? {
            Command::Name(_) => Some(Response::Name(self.name.clone())),
            Command::IsReady(_) => Some(Response::ReadyOk),
            Command::Position(moves) => {
                let mut board = Board::empty();
                for (index, &column) in moves.iter().enumerate() {
                    let illegal = |why| BotError::IllegalPosition { number: index + 1, column: column.index(), why };
                    if self.rules.is_over(&board) {
                        return Err(illegal("the game was already over"));
                    }
                    board.try_play(column).map_err(|_| illegal("the column is full"))?;
                }
                self.board = board;
                self.played = moves.len() as u32;
                self.refused = false;
                None
            }
            Command::Go { first_ms, second_ms } => {
                if self.refused {
                    return Err(BotError::NoPosition);
                }
                if self.rules.is_over(&self.board) {
                    return Err(BotError::GameOver);
                }
                let left = if self.played.is_multiple_of(2) { first_ms } else { second_ms };
                let (column, value) =
                    think.best_move(&self.board, think_time(Duration::from_millis(left), self.played));
                Some(Response::BestMove { column, value })
            }
            Command::Perft(depth) if depth > MAX_PERFT_DEPTH => return Err(BotError::PerftTooDeep(depth)),
            Command::Perft(depth) => Some(Response::Perft { depth, count: think.perft(&self.board, depth) }),
            Command::Quit => {
                self.quit = true;
                Some(Response::Quitting)
            }
        })
    }
}

/// The host's side of the protocol: the coordinator as the referee plays
/// it, sending what the real coordinator sends. When the game starts it
/// asks `name AI N` and `isready AI N`; each turn it sends `position
/// startpos MOVES` and `isready AI N`, then `go ftime X stime Y` once the
/// engine is ready, and reads `bestmove Z V`; `quit` ends the game.
#[derive(Clone, Debug)]
pub struct Host {
    /// `AI 0` for the first player, `AI 1` for the second: the engine the
    /// real coordinator addresses.
    engine: String,
    /// How long the engine has to get ready when the game starts.
    startup: Duration,
    /// Whether the game's first exchange is under way.
    greeting: bool,
    state: HostState,
    /// The board of the turn.
    board: Board,
}

/// Where the host is in an exchange.
#[derive(Clone, Debug)]
enum HostState {
    /// Between turns.
    Idle,
    /// At the start of a turn, before the position is sent: these
    /// commands are due, `go` after the engine is ready.
    Due { position: Command, go: Command },
    /// The answer to this command is awaited; `go` is due after it.
    Asked { command: Command, go: Option<Command> },
    /// The engine answered this column: nothing more may come.
    Answered(Column),
}

impl Host {
    /// The host of the engine playing `player`, which has `startup` to get
    /// ready when the game starts.
    #[must_use]
    pub fn new(player: Player, startup: Duration) -> Host {
        let engine = format!("AI {}", player.index());
        Host { engine, startup, greeting: false, state: HostState::Idle, board: Board::empty() }
    }

    /// Sends `command` and awaits its answer, `go` due after it.
    fn ask(&mut self, command: Command, go: Option<Command>) -> Step {
        let send = vec![command.to_string()];
        self.state = HostState::Asked { command, go };
        Step { send, then: Then::Listen }
    }
}

/// The answer due to `command`, as a verdict names it.
const fn expected(command: &Command) -> &'static str {
    match command {
        Command::Name(_) => "NAME",
        Command::Go { .. } => "bestmove Z V",
        _ => "readyok",
    }
}

impl PipeHost for Host {
    /// One answer a line.
    fn take(pending: &mut Vec<u8>, closed: bool) -> Option<String> {
        host::next_line(pending, closed)
    }

    /// `name AI N`, then `isready AI N`.
    fn greet(&mut self) -> Step {
        self.greeting = true;
        self.ask(Command::Name(self.engine.clone()), None)
    }

    /// # Panics
    /// When the game did not start from moves: the protocol has no other
    /// way to tell a position.
    fn turn(&mut self, position: &Situation<'_>) -> Step {
        self.greeting = false;
        self.board = *position.board;
        let history = position.history.expect("a coordinator engine plays only games started from moves");
        let [first_ms, second_ms] = position.left.map(|left| u64::try_from(left.as_millis()).unwrap_or(u64::MAX));
        self.state =
            HostState::Due { position: Command::Position(history.to_vec()), go: Command::Go { first_ms, second_ms } };
        Step::then(Then::Look)
    }

    fn heard(&mut self, answer: &str) -> Step {
        let HostState::Asked { command, go } = std::mem::replace(&mut self.state, HostState::Idle) else {
            return Step::fault(host::unasked(answer));
        };
        match (&command, answer.parse::<Response>()) {
            (Command::Name(_), Ok(Response::Name(_))) => self.ask(Command::IsReady(self.engine.clone()), None),
            (Command::IsReady(_), Ok(Response::ReadyOk)) => match go {
                Some(go) => self.ask(go, None),
                None => Step::then(Then::Ready),
            },
            (Command::Go { .. }, Ok(Response::BestMove { column, .. })) => {
                self.state = HostState::Answered(column);
                Step::then(Then::Look)
            }
            _ => {
                let reason =
                    format!("expected '{}' after '{command}', got '{}'", expected(&command), host::shortened(answer));
                Step::fault(if self.greeting { Fault::FailedToStart(reason) } else { Fault::Garbage(reason) })
            }
        }
    }

    fn looked(&mut self, unasked: Option<&str>) -> Step {
        match (std::mem::replace(&mut self.state, HostState::Idle), unasked) {
            (HostState::Answered(column), Some(text)) => {
                Step::fault(host::second_answer(&format!("bestmove {}", column.index()), text))
            }
            (HostState::Answered(column), None) => Step::then(host::judged(&self.board, column).into()),
            (_, Some(text)) => Step::fault(host::unasked(text)),
            (HostState::Due { position, go }, None) => {
                let mut step = self.ask(Command::IsReady(self.engine.clone()), Some(go));
                step.send.insert(0, position.to_string());
                step
            }
            (state, None) => {
                self.state = state;
                Step::then(Then::Listen)
            }
        }
    }

    fn silent(&mut self, silence: Silence) -> Fault {
        match &self.state {
            HostState::Asked { command, .. } if self.greeting => {
                host::failed_to_start(silence, self.startup, expected(command))
            }
            _ => host::no_answer(silence),
        }
    }

    fn goodbye(&self, _: Option<Outcome>) -> String {
        Command::Quit.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use maxconnect4_game::moves::Moves;
    use proptest::prelude::*;

    /// Plays the leftmost column, valued by the time it was given in ms, and
    /// counts perft by brute force under classic rules.
    struct Leftmost;

    impl Think for Leftmost {
        fn best_move(&mut self, board: &Board, time: Duration) -> (Column, Value) {
            (board.legal_columns().next().unwrap(), time.as_millis() as Value)
        }
        fn perft(&mut self, board: &Board, depth: u32) -> u64 {
            maxconnect4_search::perft(Rules::Classic, board, depth) as u64
        }
    }

    /// Feeds `lines` to one engine and checks each answer ("" for none,
    /// "error: ..." for an error).
    fn check(lines: &[&str], expected: &[&str]) {
        let mut bot = Bot::new(Rules::Classic, DEFAULT_NAME.to_owned());
        let answers: Vec<String> = lines
            .iter()
            .map(|line| match bot.receive(line, &mut Leftmost) {
                Ok(answer) => answer.map(|answer| answer.to_string()).unwrap_or_default(),
                Err(error) => format!("error: {error}"),
            })
            .collect();
        assert_eq!(answers, expected, "lines {lines:?}");
    }

    #[test]
    fn a_session() {
        check(
            &[
                "name",
                "isready",
                "position startpos 0123456 ",
                "isready",
                "go ftime 120000 stime 120000",
                "perft 2",
                "quit",
            ],
            &["maxconnect4-c0000000", "readyok", "", "readyok", "bestmove 0 12655", "perft 2 49", "quitting"],
        );
        check(&["position startpos", "go ftime 1000 stime 5000"], &["", "bestmove 0 77"]);
        check(&["position startpos 3", "go ftime 1000 stime 5000"], &["", "bestmove 0 422"]);
    }

    #[test]
    fn go_needs_a_position_first() {
        let no_position =
            "error: 'go' with no position, or after a position that was refused: send a legal position first";
        check(&["name", "go ftime 1000 stime 5000"], &["maxconnect4-c0000000", no_position]);
        check(
            &["go ftime 1000 stime 5000", "position startpos", "go ftime 1000 stime 5000"],
            &[no_position, "", "bestmove 0 77"],
        );
    }

    /// The error one line alone gets.
    fn bot_error(line: &str) -> String {
        Bot::new(Rules::Classic, String::new()).receive(line, &mut Leftmost).unwrap_err().to_string()
    }

    #[test]
    fn the_real_coordinators_words_are_understood() {
        // As seed 001's coordinator jar sends them.
        check(
            &[
                "name AI 0",
                "isready AI 0",
                "position startpos ",
                "isready AI 0",
                "go ftime 1000 stime 5000",
                "quit AI 0",
            ],
            &["maxconnect4-c0000000", "readyok", "", "readyok", "bestmove 0 77", "quitting"],
        );
        assert_eq!(Command::Name("AI 0".into()).to_string(), "name AI 0");
        assert_eq!(Command::Position(Vec::new()).to_string(), "position startpos ");
    }

    #[test]
    fn bad_lines_are_errors() {
        check(&["hello"], &["error: unknown command 'hello'"]);
        check(&[""], &["error: empty line"]);
        check(
            &["go ftime 1 stime"],
            &[
                "error: malformed 'go' line 'go ftime 1 stime': expected 'go ftime X stime Y' with X and Y whole milliseconds",
            ],
        );
        check(
            &["position startpos 7"],
            &["error: malformed 'position' line 'position startpos 7': expected 'position startpos' and digits 0-6"],
        );
        check(
            &["position startpos 0000000"],
            &["error: move 7 of the position, column 0, is illegal: the column is full"],
        );
        check(
            &["position startpos 01010101"],
            &["error: move 8 of the position, column 1, is illegal: the game was already over"],
        );
        check(&["position startpos 0101010", "go ftime 5 stime 5"], &["", "error: 'go' on a finished game"]);
        let refused = "error: 'go' with no position, or after a position that was refused: send a legal position first";
        for position in ["position startpos 0000000", "position startpos 9", "position"] {
            check(
                &["position startpos 3", position, "go ftime 5 stime 5"],
                &["", &format!("error: {}", bot_error(position)), refused],
            );
        }
        check(
            &["perft 15"],
            &[
                "error: perft 15 is refused: at most 14 plies (perft 14 takes 14 s here, each ply more about 7 times as long)",
            ],
        );
        check(&["perft x"], &["error: malformed 'perft' line 'perft x': expected 'perft X', X a depth"]);
    }

    #[test]
    fn the_clock_lasts_a_whole_game() {
        // Using every move's whole share at 120 s per side leaves time at the end.
        let mut left = Duration::from_secs(120);
        for played in (0..42).step_by(2) {
            let share = think_time(left, played);
            assert!(share < left, "ply {played}: {share:?} of {left:?}");
            left -= share;
        }
        assert!(left >= Duration::from_millis(100), "{left:?}");
        assert!(think_time(Duration::from_secs(120), 0) >= Duration::from_secs(9));
    }

    /// The host of red's engine, 30 s to start, driven by `script` from
    /// the greeting (see [`host::tests::drive`]).
    fn greeting(player: Player, script: &[&str]) -> Vec<String> {
        let mut host = Host::new(player, Duration::from_secs(30));
        let step = host.greet();
        host::tests::drive(&mut host, step, script)
    }

    /// The host of red's engine after a greeting, driven by `script` from
    /// its turn after `moves` (played from the empty board), with 60 s and
    /// 5 s left.
    fn turn(moves: &str, script: &[&str]) -> Vec<String> {
        let mut host = Host::new(Player::One, Duration::from_secs(30));
        let step = host.greet();
        let greeted = host::tests::drive(&mut host, step, &["bot-c0000001", "readyok"]);
        assert_eq!(greeted.last().map(String::as_str), Some("ready"));
        let history: Vec<Column> =
            moves.bytes().map(|digit| Column::from_index(usize::from(digit - b'0')).unwrap()).collect();
        let board = Moves::board(Rules::Classic, &moves.bytes().map(|digit| char::from(digit + 1)).collect::<String>())
            .unwrap();
        let left = [Duration::from_secs(60), Duration::from_secs(5)];
        let step = host.turn(&Situation { board: &board, history: Some(&history), left });
        host::tests::drive(&mut host, step, script)
    }

    #[test]
    fn the_host_says_what_the_real_coordinator_says() {
        assert_eq!(
            greeting(Player::One, &["maxconnect4-c0000000", "readyok"]),
            ["> name AI 0", "< maxconnect4-c0000000", "> isready AI 0", "< readyok", "ready"]
        );
        assert_eq!(greeting(Player::Two, &["x y", "readyok"])[..3], ["> name AI 1", "< x y", "> isready AI 1"]);
        // The empty position keeps its trailing space; the clocks are in ms.
        assert_eq!(
            turn("", &["", "readyok", "bestmove 3 0", ""]),
            [
                "> position startpos ",
                "> isready AI 0",
                "< readyok",
                "> go ftime 60000 stime 5000",
                "< bestmove 3 0",
                "move 4"
            ]
        );
        assert_eq!(turn("0123", &["", "readyok", "bestmove 6 -12", ""])[0], "> position startpos 0123");
        assert_eq!(Host::new(Player::Two, Duration::ZERO).goodbye(None), "quit");
    }

    #[test]
    fn the_host_forfeits_bad_engines_in_the_verdicts_words() {
        // Getting ready.
        for (script, verdict) in [
            (&["readyok"][..], "expected 'NAME' after 'name AI 0', got 'readyok'"),
            (&["bot", "bestmove 3 0"], "expected 'readyok' after 'isready AI 0', got 'bestmove 3 0'"),
            (&["!deadline"], "it printed no 'NAME' within 30 s"),
            (&["bot", "!gone it ended (exit status 1)"], "it ended (exit status 1) before printing 'readyok'"),
            (
                &["!refuses it no longer reads its standard input"],
                "it no longer reads its standard input before printing 'NAME'",
            ),
            (&["!flood"], "it printed too much before 'NAME'"),
        ] {
            assert_eq!(
                greeting(Player::One, script).pop().unwrap(),
                format!("failed to start: {verdict}"),
                "{script:?}"
            );
        }
        // Its turn.
        let long = "bestmove ".repeat(10);
        for (script, verdict) in [
            (
                &["", "readyok", "bestmove 7 0"][..],
                "unparseable answer: expected 'bestmove Z V' after 'go ftime 60000 stime 5000', got 'bestmove 7 0'",
            ),
            (&["", "readok"], "unparseable answer: expected 'readyok' after 'isready AI 0', got 'readok'"),
            (
                &["", "readyok", long.as_str()],
                "unparseable answer: expected 'bestmove Z V' after 'go ftime 60000 stime 5000', got 'bestmove bestmove bestmove bestmove best...'",
            ),
            (&["bestmove 3 0"], "unparseable answer: it printed 'bestmove 3 0' when no move was asked"),
            (
                &["", "readyok", "bestmove 3 0", "bestmove 3 0\nquitting"],
                "unparseable answer: it answered bestmove 3 and then 'bestmove 3 0\\nquitting'; one move a turn",
            ),
            (&["", "readyok", "!deadline"], "timeout"),
            (
                &["", "!gone it ended (killed by signal 9)"],
                "no output: it ended (killed by signal 9) without answering",
            ),
            (
                &["", "!refuses it no longer reads its standard input"],
                "no output: it no longer reads its standard input without answering",
            ),
            (&["", "readyok", "!flood"], "unparseable answer: it printed more than 64 KiB without an answer"),
        ] {
            assert_eq!(turn("", script).last().unwrap(), verdict, "{script:?}");
        }
        // A full column is an illegal move.
        assert_eq!(
            turn("000000", &["", "readyok", "bestmove 0 1", ""]).last().unwrap(),
            "illegal move: column 1 is full"
        );
        assert_eq!(turn("000000", &["", "readyok", "bestmove 1 1", ""]).last().unwrap(), "move 2");
    }

    fn command() -> impl Strategy<Value = Command> {
        prop_oneof![
            prop_oneof![Just(String::new()), "[A-Z]{1,3} [0-9]"].prop_map(Command::Name),
            prop_oneof![Just(String::new()), "[A-Z]{1,3} [0-9]"].prop_map(Command::IsReady),
            Just(Command::Quit),
            proptest::collection::vec(0..7usize, 0..42)
                .prop_map(|moves| Command::Position(moves.into_iter().map(|index| Column::ALL[index]).collect())),
            (any::<u64>(), any::<u64>()).prop_map(|(first_ms, second_ms)| Command::Go { first_ms, second_ms }),
            any::<u32>().prop_map(Command::Perft),
        ]
    }

    fn response() -> impl Strategy<Value = Response> {
        prop_oneof![
            "[a-z][a-z0-9]{0,8}-c[0-9]{7}"
                .prop_filter("not a keyword", |name| !KEYWORDS.contains(&name.as_str()))
                .prop_map(Response::Name),
            Just(Response::ReadyOk),
            Just(Response::Quitting),
            (0..7usize, any::<i32>())
                .prop_map(|(index, value)| Response::BestMove { column: Column::ALL[index], value }),
            (any::<u32>(), any::<u64>()).prop_map(|(depth, count)| Response::Perft { depth, count }),
        ]
    }

    proptest! {
        #[test]
        fn commands_round_trip(message in command()) {
            prop_assert_eq!(message.to_string().parse::<Command>(), Ok(message));
        }

        #[test]
        fn responses_round_trip(message in response()) {
            let line = message.to_string();
            prop_assert!(!line.contains("  "), "two spaces in {}", line);
            prop_assert_eq!(line.parse::<Response>(), Ok(message));
        }

        #[test]
        fn any_line_is_a_message_or_an_error(line in "[a-z0-9 ]{0,20}") {
            let _ = line.parse::<Response>();
            let _ = line.parse::<Command>();
        }
    }
}
