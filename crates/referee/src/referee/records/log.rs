//! The game log: one JSON object per line, one line per game, appended when
//! the game ends.
//!
//! A line is the unit of record: a game is logged once its line, newline
//! included, is in the file. A last line without its newline is what a
//! referee killed while writing leaves behind; readers skip it, and the next
//! append cuts it off first. That is what lets a tournament resume with
//! nothing lost and nothing played twice. A line that is not a game record
//! (whoever wrote it) is reported with its number and skipped, never fatal;
//! a tournament plays the game it stood for again.
//!
//! A referee holds its log locked (`File::try_lock`) from start to end, so a second
//! referee on the same log refuses to start instead of giving its games the
//! same numbers.
//!
//! ```text
//! {"id":"1","red":{"name":"self","command":"self"},"green":{"name":"bot","command":"python3 bot.py {in} {out}"},
//!  "rules":"max","depth":5,"timeout":10.0,"start":"0000000/0000000/0000000/0000000/0000000/0000000 1","moves":"4453...",
//!  "score":{"red":12,"green":9},"result":"red","forfeit":null,"turns":[{"player":"red","column":4,"wall":0.02,"cpu":0.01,"ending":"exit status 0"},...]}
//! ```
//! (shown broken over lines here; in the file each record is one line).

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::referee::settings::Settings;
use maxconnect4_game::board::{Board, ColumnFull};

use maxconnect4_game::format::{self, LineEnding};
use maxconnect4_game::moves::MoveStringError;
use maxconnect4_game::player::Player;
use maxconnect4_game::rules::Outcome;

/// What can go wrong with a log file.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The log, or its moves file, cannot be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file that cannot be read.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The log cannot be opened, locked or appended to.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file that cannot be written.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Its folder does not exist, or something other than a file is there.
    #[error(transparent)]
    Refused(#[from] maxconnect4_io::whole::Error),
    /// Another referee holds the log's lock.
    #[error("the log {} is in use by another referee", path.display())]
    InUse {
        /// The log.
        path: PathBuf,
    },
    #[error(
        "{}, line {line} (game {id}): {reason}; the record was edited or damaged: restore the log, or remove the line",
        path.display()
    )]
    /// A game record does not hold up against itself ([`Fault`]), so the
    /// log was edited or damaged.
    Tampered {
        /// The log.
        path: PathBuf,
        /// The record's line, from 1.
        line: usize,
        /// The game's id, escaped for printing.
        id: String,
        /// The first fault found.
        reason: Fault,
    },
}

/// What does not hold up in a logged game (`referee::audit`): the first
/// fault found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// The start position is not a board in the log's encoding.
    #[error("the start position is invalid: {0}")]
    Start(format::ParseError),
    /// A character of the moves is not a column 1-7.
    #[error(transparent)]
    NotAColumn(MoveStringError),
    /// A move was played after the game was over by its rules.
    #[error("move {move_number} is illegal: the game was over")]
    AfterTheEnd {
        /// The move, from 1.
        move_number: usize,
    },
    /// A move was played in a full column.
    #[error("move {move_number} is illegal: {full}")]
    Full {
        /// The move, from 1.
        move_number: usize,
        /// The full column.
        full: ColumnFull,
    },
    /// The game was over before its first move.
    #[error("the start position is already the end of a game")]
    StartIsOver,
    /// The logged scores are not those of the final position.
    #[error("the score says {} to {}, but the moves give {} to {}", .said.0, .said.1, .given.0, .given.1)]
    Score {
        /// The logged scores, red's then green's.
        said: (u32, u32),
        /// The final position's scores, red's then green's.
        given: (u32, u32),
    },
    /// The side logged as forfeiting was not the one to move.
    #[error("{} forfeited, but it was {}'s turn", .forfeiter.colour_name(), .mover.colour_name())]
    Forfeit {
        /// The side logged as forfeiting.
        forfeiter: Player,
        /// The side to move in the final position.
        mover: Player,
    },
    /// The adjudication's move count is not the number of moves played.
    #[error("the game was adjudicated after {after} moves, but {played} were played")]
    Adjudicated {
        /// The moves the adjudication says were played.
        after: usize,
        /// The moves logged.
        played: usize,
    },
    /// The game ended neither by the rules, nor by a forfeit, nor by
    /// adjudication.
    #[error("the game is not over, and no one forfeited")]
    NotOver,
    /// The logged result is not the game's.
    #[error("the result says {}, but the game gives {}", .said.said(), .given.said())]
    Result {
        /// The logged result.
        said: Outcome,
        /// The result the moves, forfeit or adjudication give.
        given: Outcome,
    },
    /// The number of turns is not one per move plus the forfeited one.
    #[error("{logged} turns are logged for {expected}")]
    Turns {
        /// The turns logged.
        logged: usize,
        /// The turns the moves and forfeit call for.
        expected: usize,
    },
    /// A turn's side or column is not its move's; numbered from 1, as
    /// the move it should be.
    #[error("turn {0} does not match move {0}")]
    Turn(usize),
    /// A tournament's game (its id `OPENING+RED+GREEN`) logged with other
    /// players in its colours, as when red and green were swapped: names as
    /// shown ([`Side::shown`]), the schedule's then the record's (boxed: a
    /// fault is in every `Result` of the referee, which must stay small).
    #[error(
        "the schedule has {} as red and {} as green in this game, but the record has {} as red and {} as green",
        .scheduled.0, .scheduled.1, .logged.0, .logged.1
    )]
    Players {
        /// The schedule's red and green.
        scheduled: Box<(String, String)>,
        /// The record's red and green.
        logged: Box<(String, String)>,
    },
    /// A tournament's game logged from another opening than its id's.
    #[error(
        "the schedule plays this game from {}, but the record has {}",
        opening_words(Some(.scheduled)), opening_words(.logged.as_deref())
    )]
    Opening {
        /// The opening's moves by the game's id.
        scheduled: Box<str>,
        /// The record's opening, if it has one.
        logged: Option<Box<str>>,
    },
    /// The record's opening is not a string of legal moves.
    #[error("the opening is not a game's moves: {0}")]
    OpeningNotMoves(MoveStringError),
    /// The opening's moves lead elsewhere than the start position.
    #[error("the start position is not {}", match &**.opening {
        "" => "the empty board, where the opening (no moves) leaves it".to_owned(),
        opening => format!("the position after the opening {}", maxconnect4_game::printable::printable(opening, maxconnect4_game::printable::LINE)),
    })]
    NotTheOpening {
        /// The record's opening.
        opening: Box<str>,
    },
}

/// An opening in a sentence: `opening 44`, `the empty board`, or `no
/// opening` for a game logged without one.
fn opening_words(opening: Option<&str>) -> String {
    match opening {
        None => "no opening".to_owned(),
        Some("") => "the empty board".to_owned(),
        Some(opening) => {
            format!("opening {}", maxconnect4_game::printable::printable(opening, maxconnect4_game::printable::LINE))
        }
    }
}

/// A line of a log that is not a game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The line's number, from 1.
    pub line: usize,
    /// Why it is not a game record.
    pub reason: String,
}

/// What a log holds: its game records, and the lines that are not.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Records {
    /// The games, in the log's order.
    pub games: Vec<GameRecord>,
    /// The lines that are not game records.
    pub skipped: Vec<Skipped>,
    /// The line of the log each of `games` is on.
    pub lines: Vec<usize>,
}

impl Records {
    /// One warning line per skipped line of the log at `path`.
    #[must_use]
    pub fn warnings(&self, path: &Path) -> Vec<String> {
        self.skipped
            .iter()
            .map(|skipped| {
                format!(
                    "warning: {}, line {}: not a game record ({}); skipped",
                    path.display(),
                    skipped.line,
                    skipped.reason
                )
            })
            .collect()
    }
}

/// A player as logged: the name shown and the command as the user wrote it
/// (`self`, `human` or a template).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// The player's name (a match's player is named by its command).
    pub name: String,
    /// The command, as the user wrote it.
    pub command: String,
}

impl Side {
    /// The name as printed: a match's player is named by its command,
    /// which may hold anything ([`printable`](maxconnect4_game::printable)).
    #[must_use]
    pub fn shown(&self) -> String {
        maxconnect4_game::printable::printable(&self.name, maxconnect4_game::printable::LINE)
    }
}

/// Final (or, after a forfeit, last) scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scores {
    /// Red's points.
    pub red: u32,
    /// Green's points.
    pub green: u32,
}

/// Who forfeited and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForfeitRecord {
    /// The side that forfeited, and so lost.
    pub player: Player,
    /// `timeout`, `no-output`, `unparseable`, `illegal-move`, `failed-to-start` or `quit`.
    pub verdict: String,
    /// The whole verdict, as printed.
    pub reason: String,
}

/// One turn: who, which column (none for the turn that forfeited), how
/// long in wall-clock seconds and in CPU seconds (none for a person).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// The side that moved.
    pub player: Player,
    /// The column played, 1-7; none for the turn that forfeited.
    pub column: Option<usize>,
    /// The turn's wall-clock time, in seconds.
    pub wall: f64,
    /// The program's CPU time, in seconds; none for a person.
    pub cpu: Option<f64>,
    /// How the program ended, e.g. `exit status 0`; none for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<String>,
    /// Seconds left on the mover's clock after the turn, in a game with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<f64>,
}

/// A game the solver ended before its end by the rules (`tournament
/// --adjudicate`): after how many moves from `start`, and the result it
/// proved, which is the game's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudicated {
    /// The moves played from `start` when the solver ended the game.
    pub after: usize,
    /// The result the solver proved.
    pub result: Outcome,
}

/// One game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's name, also the name of its directory of captured output.
    pub id: String,
    /// Player 1.
    pub red: Side,
    /// Player 2.
    pub green: Side,
    /// The rules and limits the game was played under, as fields of the
    /// record where they stand.
    #[serde(flatten)]
    pub settings: Settings,
    /// The start position; see [`encode_board`].
    pub start: String,
    /// The moves that led to `start`: a tournament's opening, a match's
    /// `--start-moves`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<String>,
    /// The columns played from `start`, one digit 1-7 per move.
    pub moves: String,
    /// The final scores, or the last ones after a forfeit.
    pub score: Scores,
    /// How the game ended.
    pub result: Outcome,
    /// Who forfeited and why, if anyone did.
    pub forfeit: Option<ForfeitRecord>,
    /// Set when the solver ended the game (see [`Adjudicated`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudicated: Option<Adjudicated>,
    /// Every turn, in order: one per move, then the forfeited one.
    pub turns: Vec<TurnRecord>,
}

impl GameRecord {
    /// The side of `colour`.
    #[must_use]
    pub const fn side(&self, colour: Player) -> &Side {
        match colour {
            Player::One => &self.red,
            Player::Two => &self.green,
        }
    }

    /// `colour`'s score minus the opponent's.
    #[must_use]
    pub const fn score_difference(&self, colour: Player) -> i64 {
        let (red, green) = (self.score.red as i64, self.score.green as i64);
        match colour {
            Player::One => red - green,
            Player::Two => green - red,
        }
    }
}

/// A board on one line: the six rows of its board file, top first, joined
/// by `/`, then a space and the player to move.
#[must_use]
pub fn encode_board(board: &Board) -> String {
    let text = format::write(board, LineEnding::Lf);
    let lines: Vec<&str> = text.lines().collect();
    format!("{} {}", lines[..6].join("/"), lines[6])
}

/// Reads a board written by [`encode_board`].
///
/// # Errors
/// When the text is not a board so written.
pub fn decode_board(text: &str) -> Result<Board, format::ParseError> {
    format::parse(text.replace(['/', ' '], "\n").as_bytes()).map(|file| file.board)
}

/// The directory beside a log that holds each game's captured output:
/// `games.jsonl` keeps it in `games.output/`, which must be a folder or
/// nothing, not a symbolic link ([`maxconnect4_io::whole::check_folder`]).
#[must_use]
pub fn output_directory(log: &Path) -> PathBuf {
    log.with_extension("output")
}

/// The file beside a log that has each game's moves on a line, as the
/// Connect 4 Moderator logs them: `games.jsonl` keeps them in `games.moves`.
#[must_use]
pub fn moves_file(log: &Path) -> PathBuf {
    log.with_extension("moves")
}

impl GameRecord {
    /// The game's line in the moves file: the columns played, one digit
    /// 1-7 each, from the empty board when the game started there or from
    /// moves (the opening included), else from the start position.
    #[must_use]
    pub fn moves_line(&self) -> String {
        format!("{}{}", self.opening.as_deref().unwrap_or_default(), self.moves)
    }
}

/// The most a log may hold: a game's record is about 2 KB, so this is half a
/// million games, far more than a class tournament plays (200 programs in a
/// round robin with one opening are 40,000 games); a device or a runaway
/// file is refused instead of read until memory runs out.
pub const LOG_LIMIT: u64 = 1 << 30;

/// Reads every complete record of the log at `path`; a log that does not
/// exist yet has none.
///
/// # Errors
/// When the file cannot be read.
pub fn read(path: &Path) -> Result<Records, LogError> {
    match maxconnect4_io::bounded::read(path, LOG_LIMIT, "log of games") {
        Ok(text) => Ok(parse(&text)),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Records::default()),
        Err(source) => Err(LogError::Read { path: path.to_owned(), source }),
    }
}

/// The complete lines of a log: records, and lines skipped with their number.
fn parse(text: &[u8]) -> Records {
    let complete = &text[..text.iter().rposition(|&b| b == b'\n').map_or(0, |end| end + 1)];
    let mut records = Records::default();
    for (index, line) in complete.split(|&b| b == b'\n').enumerate() {
        if line.trim_ascii().is_empty() {
            continue;
        }
        match serde_json::from_slice(line) {
            Ok(record) => {
                records.games.push(record);
                records.lines.push(index + 1);
            }
            Err(error) => records.skipped.push(Skipped { line: index + 1, reason: error.to_string() }),
        }
    }
    records
}

/// A log open for a referee, locked until dropped.
pub struct Log {
    path: PathBuf,
    file: File,
}

impl Log {
    /// Opens the log at `path`, creating it if needed (its folder must
    /// exist, as every output's: [`maxconnect4_io::whole::make_folder`]), and locks it.
    ///
    /// # Errors
    /// When it cannot be opened, or another referee holds it.
    pub fn open(path: &Path) -> Result<Log, LogError> {
        let error = |source| LogError::Write { path: path.to_owned(), source };
        maxconnect4_io::whole::check(path)?;
        let mut options = OpenOptions::new();
        // Not waiting on a named pipe, which is then refused.
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
        let file = options.read(true).append(true).create(true).open(path).map_err(error)?;
        maxconnect4_io::bounded::regular(&file).map_err(error)?;
        match file.try_lock() {
            Ok(()) => Ok(Log { path: path.to_owned(), file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(LogError::InUse { path: path.to_owned() }),
            Err(std::fs::TryLockError::Error(source)) => Err(error(source)),
        }
    }

    /// The log's file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Everything in the log now, the moves file made to agree with it
    /// ([`reconcile_moves`](Self::reconcile_moves)).
    ///
    /// # Errors
    /// When it cannot be read.
    pub fn records(&mut self) -> Result<Records, LogError> {
        let records = self.read()?;
        self.reconcile_moves(&records.games)?;
        Ok(records)
    }

    /// Everything in the log now, the moves file left as it is: for a
    /// reader that checks the games before it trusts them
    /// ([`audit`](crate::referee::audit)), so that an edited record is refused, not
    /// copied into the moves file.
    ///
    /// # Errors
    /// When it cannot be read.
    pub fn read(&mut self) -> Result<Records, LogError> {
        let text = self
            .file
            .seek(SeekFrom::Start(0))
            .and_then(|_| maxconnect4_io::bounded::read_from(self.file.try_clone()?, LOG_LIMIT, "log of games"))
            .map_err(|source| LogError::Read { path: self.path.clone(), source })?;
        Ok(parse(&text))
    }

    /// Makes the moves file agree with the log's `games`: a referee stopped
    /// between writing a game's record and its moves (the record comes
    /// first, and is on disk first) leaves the moves file a game short, or
    /// with half a line. The log is the truth; the moves file is rewritten
    /// from it, atomically, when the two disagree.
    ///
    /// # Errors
    /// When the moves file cannot be read or written.
    pub fn reconcile_moves(&self, games: &[GameRecord]) -> Result<(), LogError> {
        let moves = moves_file(&self.path);
        let expected: String = games.iter().map(|game| format!("{}\n", game.moves_line())).collect();
        let found = match maxconnect4_io::bounded::read(&moves, LOG_LIMIT, "file of games' moves") {
            Ok(found) => found,
            Err(error) if error.kind() == io::ErrorKind::NotFound && games.is_empty() => return Ok(()),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(source) => return Err(LogError::Read { path: moves, source }),
        };
        if found != expected.as_bytes() {
            maxconnect4_io::whole::write(&moves, expected.as_bytes())
                .map_err(|source| LogError::Write { path: moves.clone(), source: io::Error::other(source) })?;
        }
        Ok(())
    }

    /// Appends `record` as one line, after cutting off an unfinished last
    /// line, and waits until it is on disk.
    ///
    /// # Errors
    /// When the file cannot be repaired or written.
    pub fn append(&mut self, record: &GameRecord) -> Result<(), LogError> {
        let error = |source| LogError::Write { path: self.path.clone(), source };
        cut_unfinished_line(&mut self.file).map_err(error)?;
        let mut line = serde_json::to_string(record).expect("a game record serialises");
        line.push('\n');
        self.file.write_all(line.as_bytes()).map_err(error)?;
        self.file.sync_data().map_err(error)?;
        // The moves file is written only under the log's lock, after the
        // record: a game is in it once it is in the log.
        let moves = moves_file(&self.path);
        let error = |source| LogError::Write { path: moves.clone(), source };
        let mut file = OpenOptions::new().read(true).append(true).create(true).open(&moves).map_err(error)?;
        cut_unfinished_line(&mut file).map_err(error)?;
        file.write_all(format!("{}\n", record.moves_line()).as_bytes()).map_err(error)
    }
}

/// Truncates `file` after its last newline, if it does not end with one.
fn cut_unfinished_line(file: &mut File) -> io::Result<()> {
    let length = file.metadata()?.len();
    if length == 0 {
        return Ok(());
    }
    let mut last = [0];
    file.seek(SeekFrom::Start(length - 1))?;
    file.read_exact(&mut last)?;
    if last[0] == b'\n' {
        return Ok(());
    }
    let mut text = Vec::new();
    file.seek(SeekFrom::Start(0))?;
    file.read_to_end(&mut text)?;
    let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |end| end + 1);
    file.set_len(keep as u64)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use maxconnect4_game::board::Column;
    use maxconnect4_game::rules::Rules;

    fn record(id: &str) -> GameRecord {
        let side = |name: &str| Side { name: name.to_owned(), command: "self".to_owned() };
        GameRecord {
            id: id.to_owned(),
            red: side("a"),
            green: side("b"),
            settings: Settings {
                rules: Rules::Classic,
                depth: 3,
                timeout: Duration::from_millis(1500),
                clock: Some(Duration::from_secs(30)),
                adjudication: None,
            },
            start: encode_board(&Board::empty()),
            opening: None,
            moves: "4".to_owned(),
            score: Scores { red: 0, green: 0 },
            result: Outcome::Draw,
            forfeit: Some(ForfeitRecord {
                player: Player::Two,
                verdict: "timeout".to_owned(),
                reason: "too slow".to_owned(),
            }),
            adjudicated: None,
            turns: vec![TurnRecord {
                player: Player::One,
                column: Some(4),
                wall: 0.25,
                cpu: Some(0.125),
                ending: None,
                clock: Some(29.75),
            }],
        }
    }

    #[test]
    fn a_log_records_its_rules_and_old_logs_read_as_max() {
        let line = serde_json::to_string(&record("1")).unwrap();
        assert!(line.contains(r#""rules":"classic""#), "{line}");
        let old = line.replace(r#""rules":"classic","#, "");
        let read: GameRecord = serde_json::from_str(&old).unwrap();
        assert_eq!(read.settings.rules, Rules::Max);
    }

    /// Lines as the referee wrote them before a game's settings were one
    /// type: a classic game adjudicated with a clock, a forfeit, a
    /// Max-Connect4 game of a log older than rules with a tenth of a second
    /// a move.
    const WRITTEN_BEFORE: [&str; 3] = [
        r#"{"id":"44+a+c","red":{"name":"a","command":"self"},"green":{"name":"c","command":"python3 bot.py valid {in} {out}"},"rules":"classic","depth":3,"timeout":1.5,"clock":30.0,"adjudication":1000,"start":"0000000/0000000/0000000/0000000/0002000/0001000 1","opening":"44","moves":"4151","score":{"red":0,"green":0},"result":"red","forfeit":null,"adjudicated":{"after":4,"result":"red"},"turns":[{"player":"red","column":4,"wall":0.012935,"cpu":0.005195,"ending":"exit status 0","clock":29.987065},{"player":"green","column":1,"wall":0.056151,"cpu":0.044488,"ending":"exit status 0","clock":29.943849},{"player":"red","column":5,"wall":0.002177,"cpu":0.004671,"ending":"exit status 0","clock":29.984888},{"player":"green","column":1,"wall":0.069145,"cpu":0.045669,"ending":"exit status 0","clock":29.874703}]}"#,
        r#"{"id":"44+b+a","red":{"name":"b","command":"python3 bot.py slow {in} {out}"},"green":{"name":"a","command":"self"},"rules":"max","depth":3,"timeout":2.0,"start":"0000000/0000000/0000000/0000000/0002000/0001000 1","opening":"44","moves":"","score":{"red":0,"green":0},"result":"green","forfeit":{"player":"red","verdict":"timeout","reason":"timeout: no move within 2 s; the player was stopped"},"turns":[{"player":"red","column":null,"wall":2.0,"cpu":0.041426,"ending":"timed out and killed"}]}"#,
        r#"{"id":"1","red":{"name":"self","command":"self"},"green":{"name":"human","command":"human"},"depth":5,"timeout":0.1,"start":"0000000/0000000/0000000/0000000/0000000/0000000 1","moves":"4","score":{"red":0,"green":0},"result":"draw","forfeit":{"player":"green","verdict":"quit","reason":"quit"},"turns":[{"player":"red","column":4,"wall":0.05,"cpu":0.05},{"player":"green","column":null,"wall":1.25,"cpu":null}]}"#,
    ];

    #[test]
    fn lines_written_before_read_and_write_back_byte_for_byte() {
        for line in &WRITTEN_BEFORE[..2] {
            let record: GameRecord = serde_json::from_str(line).unwrap();
            assert_eq!(serde_json::to_string(&record).unwrap(), *line);
        }
        let adjudicated: GameRecord = serde_json::from_str(WRITTEN_BEFORE[0]).unwrap();
        let settings = Settings {
            rules: Rules::Classic,
            depth: 3,
            timeout: Duration::from_millis(1500),
            clock: Some(Duration::from_secs(30)),
            adjudication: Some(1000),
        };
        assert_eq!(adjudicated.settings, settings);
        // A log older than rules is Max-Connect4's, and now says so.
        let old: GameRecord = serde_json::from_str(WRITTEN_BEFORE[2]).unwrap();
        assert_eq!(old.settings.timeout, Duration::from_millis(100));
        let with_rules = WRITTEN_BEFORE[2].replace(r#""depth""#, r#""rules":"max","depth""#);
        assert_eq!(serde_json::to_string(&old).unwrap(), with_rules);
    }

    #[test]
    fn times_logged_read_back_as_the_same_seconds() {
        for seconds in [0.1, 0.3, 1.5, 2.0, 10.0, 30.0, 0.000_001, 123_456.789, 1e9] {
            let mut logged = record("1");
            logged.settings.timeout = Duration::from_secs_f64(seconds);
            logged.settings.clock = Some(Duration::from_secs_f64(seconds));
            let line = serde_json::to_string(&logged).unwrap();
            let read: GameRecord = serde_json::from_str(&line).unwrap();
            assert_eq!(read, logged);
            assert_eq!(serde_json::to_string(&read).unwrap(), line);
            assert!(line.contains(&format!(r#""timeout":{seconds:?},"#)), "{line}");
        }
    }

    #[test]
    fn a_time_that_is_no_time_is_no_record() {
        let line = serde_json::to_string(&record("1")).unwrap();
        for (from, to) in [(r#""timeout":1.5"#, r#""timeout":-1.5"#), (r#""clock":30.0"#, r#""clock":1e300"#)] {
            let damaged = line.replace(from, to);
            assert_ne!(damaged, line);
            let error = serde_json::from_str::<GameRecord>(&damaged).unwrap_err().to_string();
            assert!(error.contains("seconds"), "{error}");
        }
        // JSON has no NaN or infinity: the nearest a file comes is a
        // number too large for a float, which serde_json refuses itself.
        assert!(serde_json::from_str::<GameRecord>(&line.replace(r#""timeout":1.5"#, r#""timeout":1e999"#)).is_err());
    }

    #[test]
    fn results_and_sides_are_the_words_logs_have_always_held() {
        /// The log's own result type before it was the game's `Outcome`.
        #[derive(Debug, Deserialize)]
        #[serde(rename_all = "lowercase")]
        #[allow(dead_code)]
        enum Before {
            Red,
            Green,
            Draw,
        }
        let words = [
            (Outcome::Win(Player::One), "\"red\""),
            (Outcome::Win(Player::Two), "\"green\""),
            (Outcome::Draw, "\"draw\""),
        ];
        for (outcome, word) in words {
            assert_eq!(serde_json::to_string(&outcome).unwrap(), word);
            assert_eq!(serde_json::from_str::<Outcome>(word).unwrap(), outcome);
        }
        for (player, word) in [(Player::One, "\"red\""), (Player::Two, "\"green\"")] {
            assert_eq!(serde_json::to_string(&player).unwrap(), word);
            assert_eq!(serde_json::from_str::<Player>(word).unwrap(), player);
        }
        // What is no result is refused in the same words as before.
        for bad in ["\"blue\"", "\"Red\"", "\"\""] {
            let error = serde_json::from_str::<Outcome>(bad).unwrap_err().to_string();
            assert_eq!(error, serde_json::from_str::<Before>(bad).unwrap_err().to_string());
        }
        assert!(serde_json::from_str::<Outcome>("1").is_err());
        assert!(serde_json::from_str::<Outcome>(r#"{"Win":"One"}"#).is_err());
        assert!(serde_json::from_str::<Player>("\"One\"").is_err());
    }

    #[test]
    fn adjudication_is_logged_only_where_there_was_some() {
        let plain = serde_json::to_string(&record("1")).unwrap();
        assert!(!plain.contains("adjudicat"), "a game without adjudication is logged as before: {plain}");
        let mut adjudicated = record("2");
        adjudicated.settings.adjudication = Some(100_000);
        adjudicated.adjudicated = Some(Adjudicated { after: 1, result: Outcome::Win(Player::One) });
        let line = serde_json::to_string(&adjudicated).unwrap();
        assert!(line.contains(r#""adjudication":100000,"#), "{line}");
        assert!(line.contains(r#""adjudicated":{"after":1,"result":"red"}"#), "{line}");
        assert_eq!(serde_json::from_str::<GameRecord>(&line).unwrap(), adjudicated);
    }

    #[test]
    fn boards_fit_on_one_line() {
        let board = Board::empty().after(Column::from_number(4).unwrap());
        let line = encode_board(&board);
        assert_eq!(line, "0000000/0000000/0000000/0000000/0000000/0001000 2");
        assert_eq!(decode_board(&line), Ok(board));
        assert!(decode_board("0000000/0000000 1").is_err());
    }

    #[test]
    fn records_round_trip_and_unfinished_lines_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("games.jsonl");
        assert_eq!(read(&path).unwrap(), Records::default());
        // A log's folder must exist, as every output's.
        assert!(matches!(Log::open(&path), Err(LogError::Refused(maxconnect4_io::whole::Error::NoDirectory { .. }))));
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let mut log = Log::open(&path).unwrap();
        log.append(&record("1")).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 1);
        assert!(text.contains(r#""forfeit":{"player":"green","verdict":"timeout","reason":"too slow"}"#), "{text}");

        // A referee killed while writing leaves half a line.
        std::fs::write(&path, format!("{text}{}", &text[..20])).unwrap();
        assert_eq!(read(&path).unwrap().games, [record("1")]);
        log.append(&record("2")).unwrap();
        assert_eq!(log.records().unwrap().games, [record("1"), record("2")]);
        // Each game's moves, from the opening, on a line of the moves file.
        let moves = moves_file(&path);
        assert_eq!(moves, dir.path().join("sub").join("games.moves"));
        assert_eq!(std::fs::read_to_string(&moves).unwrap(), "4\n4\n");
        let mut opened = record("3");
        opened.opening = Some("44".to_owned());
        std::fs::write(&moves, "4\n4\n12").unwrap();
        log.append(&opened).unwrap();
        assert_eq!(std::fs::read_to_string(&moves).unwrap(), "4\n4\n444\n", "an unfinished line is cut");

        std::fs::write(&path, format!("{text}not json\n{text}")).unwrap();
        let records = read(&path).unwrap();
        assert_eq!(records.games, [record("1"), record("1")]);
        assert_eq!(
            records.warnings(Path::new("games.jsonl")),
            ["warning: games.jsonl, line 2: not a game record (expected ident at line 1 column 2); skipped"]
        );
    }

    #[test]
    fn a_log_has_one_referee_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        let log = Log::open(&path).unwrap();
        let error = Log::open(&path).err().unwrap().to_string();
        assert!(
            error.starts_with("the log ") && error.ends_with("games.jsonl is in use by another referee"),
            "{error}"
        );
        drop(log);
        assert!(Log::open(&path).is_ok());
    }
}
