//! Kaggle's ConnectX agents, hosted: a ConnectX agent is a Python function
//! `agent(observation, configuration)` returning a column 0-6, not a
//! program, so a harness ([`HARNESS`], Python, beside this file) loads the
//! agent's file as Kaggle's loader does and speaks for it on its standard
//! input and output, one JSON object a line. Both sides of that wire are
//! here: the harness's messages to the host ([`FromAgent`]) and the host's
//! to the harness ([`ToAgent`]), and the host's state machine ([`Host`]).
//!
//! | host | harness |
//! | ---- | ------- |
//! | (the harness starts and loads the agent's file) | `{"ready":"NAME"}`, NAME the callable it plays; `{"error":"load"}` when loading failed |
//! | `{"configuration":{"rows":6,"columns":7,"inarow":4,"actTimeout":T,..}}`, once | nothing |
//! | `{"observation":{"board":[..42 cells..],"mark":1,"step":0,"remainingOverageTime":S}}` | `{"action":3}`; `{"returned":{"value":"3.0","type":"float"}}` when the agent returned no int; `{"error":"agent"}` when it raised |
//! | `"end"` | exits |
//!
//! The board is Kaggle's: row-major, the top row first, 0 for an empty
//! cell, 1 and 2 for the players' pieces; `mark` is the player to move and
//! `step` the number of pieces on the board. A traceback goes to the
//! harness's stderr, whose last line the referee's verdict quotes, so the
//! wire carries only where it happened.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::host::{self, Fault, PipeHost, Silence, Situation, Step, Then};
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::format;
use maxconnect4_game::rules::Outcome;

/// The harness, run as `python3 -c HARNESS AGENT.py` in the agent's own
/// folder: it loads the file as Kaggle's loader does and speaks this
/// protocol for the agent.
pub const HARNESS: &str = include_str!("connectx.py");

/// The overage time Kaggle's configuration still names, long obsolete
/// (`agentTimeout`), and the episode's limits it gives: agents may read
/// them, though nothing here keeps them.
const AGENT_TIMEOUT: f64 = 60.0;
const EPISODE_STEPS: u32 = 1000;
const RUN_TIMEOUT: f64 = 1200.0;

/// Seconds, written as an integer when whole: Kaggle's `actTimeout` is an
/// integer by default, and agents do `range(configuration.timeout)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seconds(pub f64);

impl Seconds {
    /// `duration` in seconds, to the millisecond: what a clock shows.
    #[must_use]
    pub fn of(duration: Duration) -> Seconds {
        Seconds(duration.as_millis() as f64 / 1000.0)
    }
}

impl Serialize for Seconds {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Whole and within what a double holds exactly.
        if self.0.fract() == 0.0 && self.0.abs() < 9.0e15 {
            serializer.serialize_i64(self.0 as i64)
        } else {
            serializer.serialize_f64(self.0)
        }
    }
}

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Seconds, D::Error> {
        f64::deserialize(deserializer).map(Seconds)
    }
}

/// Kaggle's configuration of a ConnectX game, sent once at the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Configuration {
    /// The board's rows: 6.
    pub rows: u32,
    /// The board's columns: 7.
    pub columns: u32,
    /// How many in a row win: 4.
    pub inarow: u32,
    /// The time a move may take before the overage is drawn on: the
    /// referee's `--timeout`.
    pub act_timeout: Seconds,
    /// The older copy of `actTimeout`.
    pub timeout: Seconds,
    /// Obsolete in Kaggle (60): kept for agents that read it.
    pub agent_timeout: Seconds,
    /// The longest episode Kaggle plays: 1000 steps.
    pub episode_steps: u32,
    /// Kaggle's limit on a whole episode: 1200 s, not kept here.
    pub run_timeout: Seconds,
}

impl Configuration {
    /// The configuration of a game with `act_timeout` a move.
    #[must_use]
    pub fn new(act_timeout: Duration) -> Configuration {
        let act = Seconds::of(act_timeout);
        Configuration {
            rows: 6,
            columns: 7,
            inarow: 4,
            act_timeout: act,
            timeout: act,
            agent_timeout: Seconds(AGENT_TIMEOUT),
            episode_steps: EPISODE_STEPS,
            run_timeout: Seconds(RUN_TIMEOUT),
        }
    }
}

/// What a ConnectX agent is told on its turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Observation {
    /// The 42 cells, row-major, the top row first: 0 empty, 1 or 2 a piece.
    pub board: Vec<u8>,
    /// The player to move, 1 or 2.
    pub mark: u8,
    /// The pieces on the board: the moves played in Kaggle's episode.
    pub step: u32,
    /// What is left of the agent's overage time, beyond this move's
    /// `actTimeout`.
    pub remaining_overage_time: Seconds,
}

impl Observation {
    /// The observation of the player to move on `board`, with `overage`
    /// left.
    #[must_use]
    pub fn of(board: &Board, overage: Duration) -> Observation {
        Observation {
            board: format::cells_from_the_top(board).to_vec(),
            mark: board.to_move().number(),
            step: board.pieces_played(),
            remaining_overage_time: Seconds::of(overage),
        }
    }
}

/// A line from the host to the harness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToAgent {
    /// The game's configuration, once, before the first observation.
    Configuration(Configuration),
    /// The agent's turn.
    Observation(Observation),
    /// The game is over: the harness exits.
    End,
}

/// Where an agent raised an exception.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// While its file was compiled and run (its imports among it), or no
    /// callable was left to play.
    Load,
    /// When it was called for a move.
    Agent,
}

/// What an agent returned that is no column: its `repr` (shortened) and
/// its type's name (`float`, `numpy.int64`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Returned {
    /// `repr` of the value.
    pub value: String,
    /// Its type, with its module unless a built-in.
    #[serde(rename = "type")]
    pub kind: String,
}

/// A line from the harness to the host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FromAgent {
    /// The file is loaded: the name of the callable played.
    Ready(String),
    /// The agent returned this Python int (a bool is no int here).
    Action(i64),
    /// The agent returned something else.
    Returned(Returned),
    /// The agent raised; its traceback is on the harness's stderr.
    Error(Stage),
}

/// A line that is no message of this protocol, with why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(String);

macro_rules! json_lines {
    ($($message:ty),*) => {$(
        impl fmt::Display for $message {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&serde_json::to_string(self).map_err(|_| fmt::Error)?)
            }
        }

        impl FromStr for $message {
            type Err = ParseError;

            fn from_str(line: &str) -> Result<$message, ParseError> {
                serde_json::from_str(line.trim()).map_err(|error| ParseError(error.to_string()))
            }
        }
    )*};
}

json_lines!(ToAgent, FromAgent);

/// The host's side: the harness loads the agent while the configuration
/// waits in its pipe, says it is ready, and then answers each observation
/// with the agent's action.
#[derive(Clone, Debug)]
pub struct Host {
    configuration: Configuration,
    /// How long loading may take.
    startup: Duration,
    /// The overage the agent is told it has left on its next turn.
    overage: Duration,
    state: State,
    /// The board of the turn.
    board: Board,
    /// The name of the callable played, once loaded.
    agent: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The file is being loaded.
    Loading,
    /// Between turns.
    Idle,
    /// The agent's action is awaited.
    Moving,
}

impl Host {
    /// The host of an agent playing under `configuration`, which has
    /// `startup` to load.
    #[must_use]
    pub fn new(configuration: Configuration, startup: Duration) -> Host {
        Host { configuration, startup, overage: Duration::ZERO, state: State::Idle, board: Board::empty(), agent: None }
    }

    /// Tells the agent on its next turn that `overage` is left beyond the
    /// move's `actTimeout`.
    pub fn set_overage(&mut self, overage: Duration) {
        self.overage = overage;
    }

    /// The name of the callable played, once the file is loaded.
    #[must_use]
    pub fn agent(&self) -> Option<&str> {
        self.agent.as_deref()
    }

    /// The fault of an agent that returned `returned`.
    fn no_column(returned: &Returned) -> Fault {
        // numpy's integers are what agents return by mistake most
        // (`np.argmax`), and Kaggle's schema check refuses them too.
        let hint = if returned.kind.starts_with("numpy.") { "; Kaggle takes a Python int only: int(...)" } else { "" };
        Fault::Garbage(format!(
            "the agent returned {} ({}), not a column (an int 0-6){hint}",
            host::shortened(&returned.value),
            host::shortened(&returned.kind)
        ))
    }
}

impl PipeHost for Host {
    fn take(pending: &mut Vec<u8>, closed: bool) -> Option<String> {
        host::next_line(pending, closed)
    }

    fn greet(&mut self) -> Step {
        self.state = State::Loading;
        Step { send: vec![ToAgent::Configuration(self.configuration.clone()).to_string()], then: Then::Listen }
    }

    fn turn(&mut self, position: &Situation<'_>) -> Step {
        self.board = *position.board;
        self.state = State::Moving;
        Step {
            send: vec![ToAgent::Observation(Observation::of(&self.board, self.overage)).to_string()],
            then: Then::Listen,
        }
    }

    fn heard(&mut self, answer: &str) -> Step {
        let message = answer.parse::<FromAgent>();
        match (std::mem::replace(&mut self.state, State::Idle), message) {
            (State::Loading, Ok(FromAgent::Ready(name))) => {
                self.agent = Some(name);
                Step::then(Then::Ready)
            }
            (State::Loading, Ok(FromAgent::Error(_))) => {
                Step::fault(Fault::FailedToStart("the agent's file could not be loaded".to_owned()))
            }
            (State::Loading, _) => Step::fault(Fault::FailedToStart(format!(
                "it printed '{}' where the agent's loading was due",
                host::shortened(answer)
            ))),
            (State::Moving, Ok(FromAgent::Action(number))) => {
                match usize::try_from(number).ok().and_then(Column::from_index) {
                    Some(column) => Step::then(host::judged(&self.board, column).into()),
                    None => Step::fault(Fault::Garbage(format!("the agent returned {number}, not a column 0-6"))),
                }
            }
            (State::Moving, Ok(FromAgent::Returned(returned))) => Step::fault(Host::no_column(&returned)),
            (State::Moving, Ok(FromAgent::Error(_))) => {
                Step::fault(Fault::NoOutput("the agent raised an exception".to_owned()))
            }
            (State::Moving, _) => {
                Step::fault(Fault::Garbage(format!("expected the agent's action, got '{}'", host::shortened(answer))))
            }
            (State::Idle, _) => Step::fault(host::unasked(answer)),
        }
    }

    /// Never asked for: no step of this host looks.
    fn looked(&mut self, unasked: Option<&str>) -> Step {
        match unasked {
            Some(text) => Step::fault(host::unasked(text)),
            None => Step::then(Then::Listen),
        }
    }

    fn silent(&mut self, silence: Silence) -> Fault {
        if self.state != State::Loading {
            return host::no_answer(silence);
        }
        Fault::FailedToStart(match silence {
            Silence::Deadline => format!("the agent's file was not loaded within {} s", self.startup.as_secs_f64()),
            Silence::Gone(how) => format!("{how} before the agent's file was loaded"),
            Silence::Flood => "it printed too much before the agent's file was loaded".to_owned(),
        })
    }

    /// Kaggle tells an agent nothing at the end: this only ends the harness.
    fn goodbye(&self, _: Option<Outcome>) -> String {
        ToAgent::End.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use maxconnect4_game::moves::Moves;
    use maxconnect4_game::rules::Rules;
    use proptest::prelude::*;

    /// The host of the agent to move after `moves` (columns 1-7), loaded,
    /// told `overage`, driven by `script` from its turn (see
    /// [`host::tests::drive`]).
    fn turn(moves: &str, overage: u64, script: &[&str]) -> Vec<String> {
        let board = Moves::board(Rules::Max, moves).unwrap();
        let mut host = Host::new(Configuration::new(Duration::from_secs(2)), Duration::from_secs(30));
        let step = host.greet();
        assert_eq!(host::tests::drive(&mut host, step, &[r#"{"ready":"agent"}"#]).last().unwrap(), "ready");
        host.set_overage(Duration::from_millis(overage));
        let step = host.turn(&Situation { board: &board, history: None, left: [Duration::ZERO; 2] });
        host::tests::drive(&mut host, step, script)
    }

    #[test]
    fn the_agent_is_configured_once_then_told_each_position_as_kaggle_tells_it() {
        let mut host = Host::new(Configuration::new(Duration::from_millis(2500)), Duration::from_secs(30));
        let step = host.greet();
        assert_eq!(
            host::tests::drive(&mut host, step, &[r#"{"ready":"my_agent"}"#]),
            [
                r#"> {"configuration":{"rows":6,"columns":7,"inarow":4,"actTimeout":2.5,"timeout":2.5,"agentTimeout":60,"episodeSteps":1000,"runTimeout":1200}}"#,
                r#"< {"ready":"my_agent"}"#,
                "ready"
            ]
        );
        assert_eq!(host.agent(), Some("my_agent"));
        // Player 1 in column 4, player 2 on top: the bottom row is last.
        let said = turn("44", 1500, &[r#"{"action":3}"#]);
        let mut board = vec!["0"; 42];
        board[38] = "1";
        board[31] = "2";
        assert_eq!(
            said,
            [
                format!(
                    r#"> {{"observation":{{"board":[{}],"mark":1,"step":2,"remainingOverageTime":1.5}}}}"#,
                    board.join(",")
                ),
                r#"< {"action":3}"#.to_owned(),
                "move 4".to_owned()
            ]
        );
        assert_eq!(Host::new(Configuration::new(Duration::ZERO), Duration::ZERO).goodbye(None), r#""end""#);
    }

    #[test]
    fn bad_agents_forfeit_in_the_verdicts_words() {
        let verdict = |moves: &str, answer: &str| turn(moves, 0, &[answer]).pop().unwrap();
        assert_eq!(verdict("", r#"{"action":7}"#), "unparseable answer: the agent returned 7, not a column 0-6");
        assert_eq!(verdict("", r#"{"action":-1}"#), "unparseable answer: the agent returned -1, not a column 0-6");
        assert_eq!(verdict("111111", r#"{"action":0}"#), "illegal move: column 1 is full");
        assert_eq!(
            verdict("", r#"{"returned":{"value":"3.0","type":"float"}}"#),
            "unparseable answer: the agent returned 3.0 (float), not a column (an int 0-6)"
        );
        assert_eq!(
            verdict("", r#"{"returned":{"value":"3","type":"numpy.int64"}}"#),
            "unparseable answer: the agent returned 3 (numpy.int64), not a column (an int 0-6); \
             Kaggle takes a Python int only: int(...)"
        );
        assert_eq!(verdict("", r#"{"error":"agent"}"#), "no output: the agent raised an exception");
        assert_eq!(verdict("", "3"), "unparseable answer: expected the agent's action, got '3'");
        assert_eq!(turn("", 0, &["!deadline"]).pop().unwrap(), "timeout");
        let loading = |script: &[&str]| {
            let mut host = Host::new(Configuration::new(Duration::from_secs(1)), Duration::from_secs(30));
            let step = host.greet();
            host::tests::drive(&mut host, step, script).pop().unwrap()
        };
        assert_eq!(loading(&[r#"{"error":"load"}"#]), "failed to start: the agent's file could not be loaded");
        assert_eq!(loading(&["!deadline"]), "failed to start: the agent's file was not loaded within 30 s");
        assert_eq!(
            loading(&["!gone it ended (exit status 1)"]),
            "failed to start: it ended (exit status 1) before the agent's file was loaded"
        );
        assert_eq!(loading(&["hello"]), "failed to start: it printed 'hello' where the agent's loading was due");
    }

    fn from_agent() -> impl Strategy<Value = FromAgent> {
        prop_oneof![
            ".{0,20}".prop_map(FromAgent::Ready),
            any::<i64>().prop_map(FromAgent::Action),
            (".{0,20}", "[a-z.]{1,12}").prop_map(|(value, kind)| FromAgent::Returned(Returned { value, kind })),
            prop_oneof![Just(Stage::Load), Just(Stage::Agent)].prop_map(FromAgent::Error),
        ]
    }

    fn to_agent() -> impl Strategy<Value = ToAgent> {
        prop_oneof![
            (0u64..100_000).prop_map(|ms| ToAgent::Configuration(Configuration::new(Duration::from_millis(ms)))),
            (prop::collection::vec(0..7usize, 0..60), 0u64..100_000).prop_map(|(columns, ms)| {
                let mut board = Board::empty();
                for column in columns.into_iter().filter_map(Column::from_index) {
                    let _ = board.try_play(column);
                }
                ToAgent::Observation(Observation::of(&board, Duration::from_millis(ms)))
            }),
            Just(ToAgent::End),
        ]
    }

    proptest! {
        #[test]
        fn messages_print_on_one_line_and_parse_back(to in to_agent(), from in from_agent()) {
            prop_assert!(!to.to_string().contains('\n') && !from.to_string().contains('\n'));
            prop_assert_eq!(to.to_string().parse::<ToAgent>(), Ok(to));
            prop_assert_eq!(from.to_string().parse::<FromAgent>(), Ok(from));
        }

        #[test]
        fn any_line_is_a_message_or_an_error(line in ".{0,40}") {
            let _ = line.parse::<FromAgent>();
            let _ = line.parse::<ToAgent>();
        }
    }
}
