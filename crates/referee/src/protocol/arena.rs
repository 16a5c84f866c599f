//! The web arena's protocol (seed 004): the arena POSTs one JSON object to the
//! bot's server per request, and the bot answers with one JSON object.
//!
//! - `{"action":"init","game-id":..,"game":"connectFour","players":2,"board":"","player-index":0}`
//!   is answered `{"name":"..."}`.
//! - `{"action":"play-turn",..,"board":[[..7 cells..] x 6],"you":"X"}` is
//!   answered `{"play":N}`, N the column 0-6 as a JSON number.
//!
//! Row 0 of `board` is the bottom row; a cell is `""`, `"X"` (the first
//! player) or `"O"` (the second; the seed's example writes a zero, which is
//! read as `O` too). `connectFour` and `connectfour` are both accepted, and
//! `player-index` and `players` may be missing (another arena omits zero
//! fields); fields this program does not use are ignored. Besides what the
//! arena sends, a play-turn may name `rules` (`classic`, the arena's game, by
//! default, or `max`), `depth`, `time-limit` (seconds) and `perfect` (true to
//! play perfectly: from the opening book, else by solving within the time):
//! the web page asks for moves this way.
//!
//! The host side reads `{"play":3}` and also the seed's `{"play":"3"}`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::host::{self, Fault};
use maxconnect4_game::bitboard::{self, HEIGHT, WIDTH};
use maxconnect4_game::board::{Board, Column, InvalidPosition};
use maxconnect4_game::player::Player;
use maxconnect4_game::rules::Rules;

/// A piece's symbol on the arena's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Symbol {
    /// The first player.
    X,
    /// The second player; `"0"` (a zero) is read as `O` too.
    #[serde(alias = "0")]
    O,
}

impl Symbol {
    /// The player the symbol stands for.
    #[must_use]
    pub const fn player(self) -> Player {
        match self {
            Symbol::X => Player::One,
            Symbol::O => Player::Two,
        }
    }

    /// The symbol of `player`.
    #[must_use]
    pub const fn of(player: Player) -> Symbol {
        match player {
            Player::One => Symbol::X,
            Player::Two => Symbol::O,
        }
    }
}

/// A cell of the arena's board: `""`, `"X"` or `"O"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Cell(pub Option<Symbol>);

/// A board cell that is none of the arena's symbols.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown symbol {0:?} on the board: expected \"\", \"X\" or \"O\"")]
pub struct UnknownSymbol(String);

impl TryFrom<String> for Cell {
    type Error = UnknownSymbol;

    fn try_from(text: String) -> Result<Cell, UnknownSymbol> {
        match text.as_str() {
            "" => Ok(Cell(None)),
            "X" => Ok(Cell(Some(Symbol::X))),
            "O" | "0" => Ok(Cell(Some(Symbol::O))),
            _ => Err(UnknownSymbol(text)),
        }
    }
}

impl From<Cell> for String {
    fn from(cell: Cell) -> String {
        match cell.0 {
            None => String::new(),
            Some(Symbol::X) => "X".to_owned(),
            Some(Symbol::O) => "O".to_owned(),
        }
    }
}

/// The game the arena names: Connect Four, in either spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Game {
    /// Connect Four, `connectFour` on the wire.
    #[serde(rename = "connectFour", alias = "connectfour")]
    ConnectFour,
}

/// The fields every request carries; all optional here.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// The arena's name for the game, any JSON value (`game-id`).
    #[serde(rename = "game-id", default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<serde_json::Value>,
    /// The game to play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<Game>,
    /// The number of players in the game: 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<u32>,
    /// The bot's place in the game (`player-index`): 0 for the first
    /// player, 1 for the second.
    #[serde(rename = "player-index", default, skip_serializing_if = "Option::is_none")]
    pub player_index: Option<u32>,
}

/// A request from the arena (or the web page) to the bot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Request {
    /// The start of a game, answered with the bot's name.
    Init {
        /// The game's fields.
        #[serde(flatten)]
        envelope: Envelope,
    },
    /// A request for one move, answered with a column.
    PlayTurn(PlayTurn),
}

/// A request to play one move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayTurn {
    /// The game's fields.
    #[serde(flatten)]
    pub envelope: Envelope,
    /// Six rows of seven cells, the bottom row first.
    pub board: Vec<Vec<Cell>>,
    /// The bot's symbol: the player to move.
    pub you: Symbol,
    /// The rules to play by; the arena's classic game when missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Rules>,
    /// Plies to search at most.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Seconds to search at most.
    #[serde(rename = "time-limit", default, skip_serializing_if = "Option::is_none")]
    pub time_limit: Option<f64>,
    /// Play perfectly where the time allows (the book's move, else a
    /// solve's), the depth-limited search only past that.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub perfect: bool,
}

/// A column as the arena's bots send it: a number, or the seed's string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "serde_json::Value", into = "u8")]
pub struct Play(pub Column);

/// A play that is no column of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a column 0-6, got {0}")]
pub struct NotAColumn(serde_json::Value);

impl TryFrom<serde_json::Value> for Play {
    type Error = NotAColumn;

    fn try_from(value: serde_json::Value) -> Result<Play, NotAColumn> {
        let index = match &value {
            serde_json::Value::Number(number) => number.as_u64(),
            serde_json::Value::String(text) => text.trim().parse().ok(),
            _ => None,
        };
        index.and_then(|index| Column::from_index(usize::try_from(index).ok()?)).map(Play).ok_or(NotAColumn(value))
    }
}

impl From<Play> for u8 {
    fn from(play: Play) -> u8 {
        play.0.index() as u8
    }
}

/// An answer from the bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Response {
    /// The answer to `init`: the bot's name.
    Name {
        /// The bot's name.
        name: String,
    },
    /// The answer to a play-turn: the bot's move.
    Play {
        /// The column played.
        play: Play,
        /// Asked to play perfectly (`perfect` in the request): whether the
        /// move is perfect play (the book's or a solve's) or the
        /// depth-limited search's, the solve not having finished in time.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        perfect: Option<bool>,
        /// The position's exact value for the bot, where the move is
        /// perfect play: under Max-Connect4 rules the final score
        /// difference in points, under classic rules the solver's score.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<i32>,
    },
    /// A request the bot refuses, with why.
    Error {
        /// What is wrong with the request.
        error: String,
    },
}

impl Response {
    /// The answer `{"play":N}` alone.
    #[must_use]
    pub const fn play(column: Column) -> Response {
        Response::Play { play: Play(column), perfect: None, value: None }
    }
}

/// A body that is not a request or a response.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(String);

impl FromStr for Request {
    type Err = ParseError;

    fn from_str(body: &str) -> Result<Request, ParseError> {
        serde_json::from_str(body).map_err(|error| ParseError(describe(&error, "a request")))
    }
}

impl Request {
    /// The `init` a host sends once per game: `player-index` 0 for the
    /// first player, 1 for the second.
    #[must_use]
    pub fn init(game_id: &str, player: Player) -> Request {
        Request::Init {
            envelope: Envelope {
                game_id: Some(serde_json::Value::String(game_id.to_owned())),
                game: Some(Game::ConnectFour),
                players: Some(2),
                player_index: Some(if player == Player::One { 0 } else { 1 }),
            },
        }
    }
}

/// The host's reading of a bot's answer to a play-turn: `{"play":N}`, or the
/// seed's `{"play":"N"}`, N a column 0-6; other fields are ignored.
///
/// # Errors
/// When the body is not JSON, has no `play`, or `play` is not a column.
pub fn parse_play(body: &str) -> Result<Column, ParseError> {
    #[derive(Deserialize)]
    struct Answer {
        play: Play,
    }
    serde_json::from_str::<Answer>(body)
        .map(|answer| answer.play.0)
        .map_err(|error| ParseError(describe(&error, "a move")))
}

impl FromStr for Response {
    type Err = ParseError;

    fn from_str(body: &str) -> Result<Response, ParseError> {
        serde_json::from_str(body).map_err(|error| ParseError(describe(&error, "an answer")))
    }
}

/// serde's message, told apart by whether the body was JSON at all.
fn describe(error: &serde_json::Error, what: &str) -> String {
    match error.classify() {
        serde_json::error::Category::Data => format!("not {what}: {error}"),
        _ => format!("not JSON: {error}"),
    }
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| fmt::Error)?)
    }
}

/// Why a play-turn's board cannot be played on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The board has this many rows, not six.
    #[error("the board has {0} rows; expected 6, the bottom row first")]
    Rows(usize),
    /// A row has other than seven cells.
    #[error("row {row} has {cells} cells; expected 7")]
    Cells {
        /// The row, from 0 at the bottom.
        row: usize,
        /// The number of cells it has.
        cells: usize,
    },
    /// The pieces are no position of a game (one floats above an empty
    /// cell).
    #[error("the board is not a position of a game: {0}")]
    Invalid(#[from] InvalidPosition),
    /// The numbers of pieces are ones no game reaches.
    #[error("X has {x} pieces and O {o}; X moves first, so X has as many as O or one more")]
    Counts {
        /// The number of X's pieces.
        x: u32,
        /// The number of O's pieces.
        o: u32,
    },
    /// The counts make the other player the one to move.
    #[error("it is {to_move:?}'s turn, not {you:?}'s")]
    NotYourTurn {
        /// The player to move by the counts.
        to_move: Symbol,
        /// The player the request says is to move.
        you: Symbol,
    },
    /// The board has no empty cell.
    #[error("the board is full")]
    Full,
    /// The game on the board is already over under the rules held here.
    #[error("the game is already over under {0} rules")]
    Over(Rules),
}

impl PlayTurn {
    /// The rules the move is asked for.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules.unwrap_or(Rules::Classic)
    }

    /// A play-turn for `board` (whose player to move is `you`) under `rules`.
    #[must_use]
    pub fn new(board: &Board, rules: Rules) -> PlayTurn {
        let rows = (0..HEIGHT)
            .map(|row| (0..WIDTH).map(|column| Cell(board.at(column, row).map(Symbol::of))).collect())
            .collect();
        PlayTurn {
            envelope: Envelope {
                game_id: None,
                game: Some(Game::ConnectFour),
                players: Some(2),
                player_index: Some(if board.to_move() == Player::One { 0 } else { 1 }),
            },
            board: rows,
            you: Symbol::of(board.to_move()),
            rules: Some(rules),
            depth: None,
            time_limit: None,
            perfect: false,
        }
    }

    /// The position to move from, checked: six rows of seven, pieces resting
    /// on pieces, counts a game reaches, `you` to move, and the game not over.
    ///
    /// # Errors
    /// See [`BoardError`].
    pub fn position(&self) -> Result<Board, BoardError> {
        if self.board.len() != HEIGHT {
            return Err(BoardError::Rows(self.board.len()));
        }
        let mut pieces = [0u64; 2];
        for (row, cells) in self.board.iter().enumerate() {
            if cells.len() != WIDTH {
                return Err(BoardError::Cells { row, cells: cells.len() });
            }
            for (column, cell) in cells.iter().enumerate() {
                if let Some(symbol) = cell.0 {
                    pieces[symbol.player().index()] |= bitboard::cell(column, row);
                }
            }
        }
        let (x, o) = (pieces[0].count_ones(), pieces[1].count_ones());
        if x != o && x != o + 1 {
            return Err(BoardError::Counts { x, o });
        }
        let to_move = if x == o { Symbol::X } else { Symbol::O };
        let board = Board::from_pieces(pieces[0], pieces[1], to_move.player())?;
        if to_move != self.you {
            return Err(BoardError::NotYourTurn { to_move, you: self.you });
        }
        if board.is_full() {
            return Err(BoardError::Full);
        }
        if self.rules().is_over(&board) {
            return Err(BoardError::Over(self.rules()));
        }
        Ok(board)
    }
}

/// The most of an answer a host reads: `{"play":3}` is ten bytes.
pub const ANSWER_LIMIT: u64 = 64 * 1024;

/// What became of a request, as the host's HTTP layer saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// The bot answered with this status and body.
    Answered {
        /// The HTTP status code.
        status: u16,
        /// The answer's body.
        body: String,
    },
    /// No whole answer came in the time given.
    TimedOut,
    /// The bot could not be reached, or the exchange failed: why.
    Unreachable(String),
    /// The answer was longer than [`ANSWER_LIMIT`].
    TooLarge,
}

/// The host's side of the protocol: the arena as the referee plays it. It
/// sends `init` once per game (whose answer it does not read: a bot it
/// cannot reach cannot play), then a play-turn per move, and reads the
/// bot's column from each answer.
#[derive(Clone, Debug)]
pub struct Host {
    /// The bot's URL, for the verdicts.
    url: String,
    game_id: String,
    player: Player,
    rules: Rules,
    /// How long the bot has to answer `init`.
    startup: Duration,
    initialised: bool,
    /// The board of the turn.
    board: Board,
}

impl Host {
    /// The host of the bot at `url` playing `player` in game `game_id`
    /// under `rules`, which has `startup` to answer `init`.
    #[must_use]
    pub fn new(url: &str, game_id: &str, player: Player, rules: Rules, startup: Duration) -> Host {
        Host {
            url: url.to_owned(),
            game_id: game_id.to_owned(),
            player,
            rules,
            startup,
            initialised: false,
            board: Board::empty(),
        }
    }

    /// The `init` to send and the time it has, until the bot is ready.
    #[must_use]
    pub fn init(&self) -> Option<(Request, Duration)> {
        (!self.initialised).then(|| (Request::init(&self.game_id, self.player), self.startup))
    }

    /// What became of `init`.
    ///
    /// # Errors
    /// The fault of a bot that cannot be reached or answers too late.
    pub fn initialised(&mut self, delivery: Delivery) -> Result<(), Fault> {
        match delivery {
            // The arena does not check the answer to `init` (a blank page
            // will do).
            Delivery::Answered { .. } | Delivery::TooLarge => {
                self.initialised = true;
                Ok(())
            }
            Delivery::TimedOut => {
                Err(Fault::FailedToStart(format!("no answer to init within {} s", self.startup.as_secs_f64())))
            }
            Delivery::Unreachable(reason) => {
                Err(Fault::FailedToStart(format!("no answer from {} to init: {reason}", self.url)))
            }
        }
    }

    /// The play-turn asking for a move on `board`.
    #[must_use]
    pub fn turn(&mut self, board: &Board) -> Request {
        self.board = *board;
        let mut request = PlayTurn::new(board, self.rules);
        request.envelope.game_id = Some(serde_json::Value::String(self.game_id.clone()));
        Request::PlayTurn(request)
    }

    /// The move in what became of the turn's play-turn.
    ///
    /// # Errors
    /// The fault of a bot that gave no answer, an answer that is not a
    /// column, or a full column.
    pub fn answered(&self, delivery: Delivery) -> Result<Column, Fault> {
        let (status, body) = match delivery {
            Delivery::Answered { status, body } => (status, body),
            Delivery::TimedOut => return Err(Fault::OutOfTime),
            Delivery::Unreachable(reason) => {
                return Err(Fault::NoOutput(format!("no answer from {}: {reason}", self.url)));
            }
            Delivery::TooLarge => {
                return Err(Fault::Garbage(format!("the answer is over {} KiB", ANSWER_LIMIT / 1024)));
            }
        };
        if !(200..300).contains(&status) {
            let reason = format!("{} answered HTTP {status} ('{}')", self.url, host::shortened(&body));
            return Err(Fault::NoOutput(reason));
        }
        let column = parse_play(&body)
            .map_err(|error| Fault::Garbage(format!("{error} (the answer reads '{}')", host::shortened(&body))))?;
        host::judged(&self.board, column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use maxconnect4_game::moves::Moves;
    use proptest::prelude::*;

    /// Parses `body` as a request and checks the position it asks about (the
    /// six rows top first as in a board file, then the player to move) or the
    /// error.
    fn check(body: &str, expected: &str) {
        let actual = match body.parse::<Request>() {
            Ok(Request::PlayTurn(turn)) => match turn.position() {
                Ok(board) => {
                    let grid = maxconnect4_game::format::write(&board, maxconnect4_game::format::LineEnding::Lf);
                    grid.lines().collect::<Vec<_>>().join("/")
                }
                Err(error) => format!("error: {error}"),
            },
            Ok(Request::Init { .. }) => "init".to_owned(),
            Err(error) => format!("error: {error}"),
        };
        assert_eq!(actual, expected, "body {body}");
    }

    const EMPTY_ROW: &str = r#"["","","","","","",""]"#;

    fn turn(rows: &[&str], you: &str) -> String {
        let rows: Vec<String> = rows
            .iter()
            .map(|row| (*row).to_owned())
            .chain(std::iter::repeat_n(EMPTY_ROW.to_owned(), 6 - rows.len().min(6)))
            .collect();
        format!(
            r#"{{"game-id":"9916","action":"play-turn","game":"connectFour","players":2,"board":[{}],"you":"{you}","player-index":0}}"#,
            rows.join(",")
        )
    }

    #[test]
    fn the_seeds_messages() {
        check(
            r#"{"game-id":"1126","action":"init","game":"connectFour","players":2,"board":"","player-index":0}"#,
            "init",
        );
        check(&turn(&[], "X"), "0000000/0000000/0000000/0000000/0000000/0000000/1");
        // The seed's map, its zero read as O: row 0 is the bottom.
        check(
            &turn(&[r#"["","","","X","0","",""]"#, r#"["","","","X","","",""]"#], "O"),
            "0000000/0000000/0000000/0000000/0001000/0001200/2",
        );
        check(
            r#"{"action":"play-turn","game":"connectfour","board":[[],[],[],[],[],[]],"you":"X"}"#,
            "error: row 0 has 0 cells; expected 7",
        );
    }

    #[test]
    fn bad_requests_are_errors() {
        check("not json", "error: not JSON: expected ident at line 1 column 2");
        check(
            r#"{"action":"dance"}"#,
            "error: not a request: unknown variant `dance`, expected `init` or `play-turn` at line 1 column 17",
        );
        check(r#"{"action":"play-turn","board":[]}"#, "error: not a request: missing field `you`");
        check(
            &turn(&[r#"["","","Z","","","",""]"#], "O"),
            "error: not a request: unknown symbol \"Z\" on the board: expected \"\", \"X\" or \"O\"",
        );
        check(&turn(&[r#"["X","","","","","",""]"#], "X"), "error: it is O's turn, not X's");
        check(
            &turn(&[r#"["O","","","","","",""]"#], "X"),
            "error: X has 0 pieces and O 1; X moves first, so X has as many as O or one more",
        );
        check(
            &turn(&[EMPTY_ROW, r#"["X","","","","","",""]"#], "O"),
            "error: the board is not a position of a game: the piece in column 1, row 2 floats above an empty cell",
        );
        check(
            &turn(
                &[
                    r#"["X","O","","","","",""]"#,
                    r#"["X","O","","","","",""]"#,
                    r#"["X","O","","","","",""]"#,
                    r#"["X","","","","","",""]"#,
                ],
                "O",
            ),
            "error: the game is already over under classic rules",
        );
        let full: Vec<String> = (0..6)
            .map(|row| {
                let cells: Vec<&str> =
                    (0..7).map(|column| if (column / 2 + row) % 2 == 0 { "\"X\"" } else { "\"O\"" }).collect();
                format!("[{}]", cells.join(","))
            })
            .collect();
        let full: Vec<&str> = full.iter().map(String::as_str).collect();
        let body = turn(&full, "X").replace(r#""you":"X""#, r#""you":"X","rules":"max""#);
        check(&body, "error: the board is full");
    }

    #[test]
    fn answers_parse_leniently_and_print_numbers() {
        assert_eq!(r#"{"play":"3"}"#.parse(), Ok(Response::play(Column::ALL[3])));
        assert_eq!(Response::play(Column::ALL[3]).to_string(), r#"{"play":3}"#);
        assert_eq!(r#"{"name":"bot"}"#.parse(), Ok(Response::Name { name: "bot".into() }));
        assert!(r#"{"play":7}"#.parse::<Response>().is_err());
        assert!(r#"{"play":-1}"#.parse::<Response>().is_err());
    }

    #[test]
    fn the_host_reads_a_move_or_says_what_is_wrong() {
        let check = |body: &str, expected: Result<usize, &str>| {
            let actual = parse_play(body).map(Column::number).map_err(|error| error.to_string());
            assert_eq!(actual, expected.map_err(str::to_owned), "body {body}");
        };
        check(r#"{"play":3}"#, Ok(4));
        check(r#"{"play":"0","name":"x"}"#, Ok(1));
        check("I resign", Err("not JSON: expected value at line 1 column 1"));
        check(r#"{"name":"bot"}"#, Err("not a move: missing field `play` at line 1 column 14"));
        check(r#"{"play":7}"#, Err("not a move: expected a column 0-6, got 7 at line 1 column 10"));
        check(r#"{"play":[1]}"#, Err("not a move: expected a column 0-6, got [1] at line 1 column 12"));
        let init = Request::init("g1", Player::Two).to_string();
        assert_eq!(init, r#"{"action":"init","game-id":"g1","game":"connectFour","players":2,"player-index":1}"#);
        assert!(matches!(init.parse(), Ok(Request::Init { .. })));
    }

    #[test]
    fn the_host_inits_once_and_judges_each_answer() {
        let mut host = Host::new("http://bot/", "g1", Player::Two, Rules::Max, Duration::from_secs(30));
        let (init, time) = host.init().unwrap();
        assert_eq!(
            (init.to_string().as_str(), time),
            (
                r#"{"action":"init","game-id":"g1","game":"connectFour","players":2,"player-index":1}"#,
                Duration::from_secs(30)
            )
        );
        let fault = |reason: &str| Err(Fault::FailedToStart(reason.to_owned()));
        assert_eq!(host.initialised(Delivery::TimedOut), fault("no answer to init within 30 s"));
        assert_eq!(
            host.initialised(Delivery::Unreachable("connection refused".into())),
            fault("no answer from http://bot/ to init: connection refused")
        );
        assert!(host.init().is_some());
        // Any answer, even one too long to read, will do.
        assert_eq!(host.initialised(Delivery::TooLarge), Ok(()));
        assert_eq!(host.init(), None);
        let board = Moves::board(Rules::Max, "111111").unwrap();
        let Request::PlayTurn(turn) = host.turn(&board) else { panic!("not a play-turn") };
        assert_eq!(
            (turn.position(), turn.rules, turn.envelope.game_id),
            (Ok(board), Some(Rules::Max), Some("g1".into()))
        );
        let answered = |status, body: &str| host.answered(Delivery::Answered { status, body: body.to_owned() });
        assert_eq!(answered(200, r#"{"play":"3"}"#), Ok(Column::ALL[3]));
        assert_eq!(answered(200, r#"{"play":0}"#), Err(Fault::Illegal(Column::ALL[0])));
        assert_eq!(
            answered(500, &"oops ".repeat(10)),
            Err(Fault::NoOutput(
                "http://bot/ answered HTTP 500 ('oops oops oops oops oops oops oops oops ...')".into()
            ))
        );
        assert_eq!(
            answered(200, "4"),
            Err(Fault::Garbage("not a move: invalid type: integer `4`, expected struct Answer at line 1 column 1 (the answer reads '4')".into()))
        );
        assert_eq!(host.answered(Delivery::TimedOut), Err(Fault::OutOfTime));
        assert_eq!(host.answered(Delivery::TooLarge), Err(Fault::Garbage("the answer is over 64 KiB".into())));
        assert_eq!(
            host.answered(Delivery::Unreachable("reset".into())),
            Err(Fault::NoOutput("no answer from http://bot/: reset".into()))
        );
    }

    fn board() -> impl Strategy<Value = Board> {
        proptest::collection::vec(0..7usize, 0..42).prop_map(|columns| {
            let mut board = Board::empty();
            for index in columns {
                let _ = board.try_play(Column::ALL[index]);
            }
            board
        })
    }

    proptest! {
        #[test]
        fn requests_round_trip(board in board(), max in any::<bool>()) {
            let rules = if max { Rules::Max } else { Rules::Classic };
            let request = Request::PlayTurn(PlayTurn::new(&board, rules));
            prop_assert_eq!(request.to_string().parse::<Request>(), Ok(request.clone()));
            if let Request::PlayTurn(turn) = request
                && !board.is_full() && !rules.is_over(&board) {
                    prop_assert_eq!(turn.position(), Ok(board));
                }
        }

        #[test]
        fn responses_round_trip(index in 0..7usize, name in "[ -~]{0,10}") {
            for response in [Response::play(Column::ALL[index]), Response::Name { name: name.clone() }] {
                prop_assert_eq!(response.to_string().parse::<Response>(), Ok(response.clone()));
            }
        }

        #[test]
        fn any_body_is_a_request_or_an_error(body in ".{0,40}") {
            if let Ok(Request::PlayTurn(turn)) = body.parse::<Request>() {
                let _ = turn.position();
            }
        }
    }
}
