//! One refereed game: players take turns until the game ends under its
//! rules (the board is full, or under classic rules a four is made) or one of
//! them forfeits, and every turn is timed and recorded.
//!
//! Every kind of player is asked for its move the same way
//! ([`player::Competitor`]), with the turn's time: the per-move timeout, or
//! less when the side's game clock (`--clock`) has less left; a side whose
//! clock runs out forfeits on time. When the game ends each player is told
//! (a bot gets its protocol's end message) and stopped.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::log::{encode_board, Colour, ForfeitRecord, GameRecord, Outcome, Scores, Side, TurnRecord};
use super::player::{self, Ask, End, PlayerSpec, Turn};
use super::process::Containment;
use super::Error;
use crate::board::{Board, Column};
use crate::display;
use crate::player::Player;
use crate::rules::{self, Rules};

/// A player and how it is shown and logged.
#[derive(Clone, Debug)]
pub struct Seat {
    pub side: Side,
    pub spec: PlayerSpec,
}

impl Seat {
    /// A seat for `command` (`self`, `human` or a template) shown as `name`.
    ///
    /// # Errors
    /// When `command` is a template that cannot be used.
    pub fn new(name: &str, command: &str) -> Result<Seat, Error> {
        let spec = PlayerSpec::parse(command)?;
        Ok(Seat { side: Side { name: name.to_owned(), command: command.trim().to_owned() }, spec })
    }
}

/// The rules of a game and what every program in it is given.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The game played: when it ends and who wins.
    pub rules: Rules,
    /// Substituted for `{depth}`, and the depth `self` searches.
    pub depth: u32,
    /// Per move, for programs; people have all the time they want. `self`
    /// stops searching at half of it, so that it never loses on time.
    pub timeout: Duration,
    /// Each side's total time for the game, beside the timeout per move.
    pub clock: Option<Duration>,
}

/// The terminal, for people who play and for showing the game.
pub struct Console<'a> {
    pub input: &'a mut dyn BufRead,
    pub output: &'a mut dyn Write,
    /// Print the board after every move, not only to a person about to move.
    pub show_moves: bool,
}

/// Everything a game needs to be played.
pub struct Game<'a> {
    /// The game's name in the log and the name of its output directory.
    pub id: String,
    /// Red (player 1) first.
    pub seats: &'a [Seat; 2],
    pub start: Board,
    /// The moves from the empty board to `start`, when it was given by moves.
    pub history: Option<Vec<Column>>,
    /// The moves that led to `start`, as logged: a tournament's opening or
    /// a match's `--start-moves`.
    pub opening: Option<String>,
    pub settings: Settings,
    /// Where the captured output of the programs goes: one file per colour.
    pub output_directory: PathBuf,
    /// How programs are run; none when both players are people.
    pub containment: Option<&'a Containment>,
}

impl Game<'_> {
    /// Plays the game to its end and returns its record.
    ///
    /// # Errors
    /// When the referee cannot do its own part: create directories or
    /// files, find its own executable for `self`, or use the terminal. A
    /// player's failure is a forfeit in the record, not an error.
    pub fn play(&self, mut console: Option<&mut Console<'_>>) -> Result<GameRecord, Error> {
        let base = std::env::current_dir().map_err(|source| Error::io("find", Path::new("."), source))?;
        let mut players = [player::seat(self, Colour::Red, &base)?, player::seat(self, Colour::Green, &base)?];
        let mut board = self.start;
        let mut history = self.history.clone();
        let mut record = self.empty_record();
        if let Some(console) = console.as_deref_mut().filter(|console| console.show_moves) {
            for colour in Colour::BOTH {
                writeln!(
                    console.output,
                    "{} (player {}): {}",
                    capitalised(colour.name()),
                    colour.player().number(),
                    self.side(colour).name
                )
                .map_err(Error::terminal)?;
            }
            write!(console.output, "\n{}", display::board_and_score(&board)).map_err(Error::terminal)?;
        }
        // Each side's time used against its clock.
        let mut used = [Duration::ZERO; 2];
        while !self.settings.rules.is_over(&board) {
            let colour = Colour::of(board.to_move());
            let ply = record.turns.len() + 1;
            let (timeout, clock) = (self.settings.timeout, self.settings.clock);
            let left = used.map(|used| clock.map_or(timeout, |clock| clock.saturating_sub(used)));
            let mover = &mut players[colour.index()];
            let ask = Ask {
                board: &board,
                history: history.as_deref(),
                ply,
                time: left[colour.index()].min(timeout),
                clock: clock.filter(|_| left[colour.index()] < timeout),
                left,
            };
            let turn = if mover.is_timed() && ask.time.is_zero() {
                Turn::lost(ask.out_of_time())
            } else {
                mover.play(&ask, console.as_deref_mut())?
            };
            if mover.is_timed() {
                used[colour.index()] += turn.wall;
            }
            record.turns.push(TurnRecord {
                player: colour,
                column: turn.result.as_ref().ok().map(|column| column.number()),
                wall: seconds(turn.wall),
                cpu: turn.cpu.map(seconds),
                ending: turn.ending,
                clock: clock.map(|clock| seconds(clock.saturating_sub(used[colour.index()]))),
            });
            match turn.result {
                Ok(column) => {
                    board.play(column);
                    record.moves.push_str(&column.to_string());
                    if let Some(history) = &mut history {
                        history.push(column);
                    }
                    if let Some(console) = console.as_deref_mut().filter(|console| console.show_moves) {
                        let side = self.side(colour);
                        let time = turn.cpu.map_or(String::new(), |cpu| {
                            format!(" in {:.3} s ({:.3} s CPU)", turn.wall.as_secs_f64(), cpu.as_secs_f64())
                        });
                        write!(
                            console.output,
                            "\nMove {ply}: {} ({}) plays column {column}{time}.\n{}",
                            colour.name(),
                            side.name,
                            display::board_and_score(&board)
                        )
                        .map_err(Error::terminal)?;
                    }
                }
                Err(forfeit) => {
                    record.forfeit = Some(ForfeitRecord {
                        player: colour,
                        verdict: forfeit.kind().to_owned(),
                        reason: forfeit.to_string(),
                    });
                    break;
                }
            }
        }
        record.score = Scores { red: board.score(Player::One), green: board.score(Player::Two) };
        let outcome = if record.forfeit.is_some() { None } else { self.settings.rules.outcome(&board) };
        record.result = match (&record.forfeit, outcome) {
            (Some(forfeit), _) => Outcome::win_for(forfeit.player.other()),
            (None, Some(rules::Outcome::Win(winner))) => Outcome::win_for(Colour::of(winner)),
            (None, _) => Outcome::Draw,
        };
        for colour in Colour::BOTH {
            let forfeited = record.forfeit.as_ref().is_some_and(|forfeit| forfeit.player == colour);
            players[colour.index()].finish(End { outcome, forfeited })?;
        }
        Ok(record)
    }

    fn side(&self, colour: Colour) -> &Side {
        &self.seats[colour.index()].side
    }

    /// The record before the first move.
    fn empty_record(&self) -> GameRecord {
        GameRecord {
            id: self.id.clone(),
            red: self.side(Colour::Red).clone(),
            green: self.side(Colour::Green).clone(),
            rules: self.settings.rules,
            depth: self.settings.depth,
            timeout: self.settings.timeout.as_secs_f64(),
            clock: self.settings.clock.map(|clock| clock.as_secs_f64()),
            start: encode_board(&self.start),
            opening: self.opening.clone(),
            moves: String::new(),
            score: Scores { red: 0, green: 0 },
            result: Outcome::Draw,
            forfeit: None,
            turns: Vec::new(),
        }
    }
}

/// The end of a game in words: the result with the score, the winner and
/// why, and the time each side used. `board` is the last position.
#[must_use]
pub fn summary(record: &GameRecord, board: &Board) -> String {
    let named = |colour: Colour| {
        format!("{} (player {}, {})", colour.name(), colour.player().number(), record.side(colour).name)
    };
    let mut text = String::new();
    if let Some(forfeit) = &record.forfeit {
        text.push_str(&format!("{} forfeits: {}\n", capitalised(&named(forfeit.player)), forfeit.reason));
        text.push_str(&format!("When the game stopped: {}\n", display::score_line(board)));
    } else {
        // The sentence gives the score: the board shown last has it too.
        text.push_str(&format!("{}\n", display::result_sentence(record.rules, board)));
    }
    match record.result.winner() {
        Some(winner) => text.push_str(&format!("Winner: {}.\n", named(winner))),
        None => text.push_str("No winner.\n"),
    }
    for colour in Colour::BOTH {
        let turns: Vec<&TurnRecord> = record.turns.iter().filter(|turn| turn.player == colour).collect();
        if turns.is_empty() {
            continue;
        }
        let wall: f64 = turns.iter().map(|turn| turn.wall).sum();
        let cpu = turns.iter().map(|turn| turn.cpu).sum::<Option<f64>>();
        let cpu = cpu.map_or(String::new(), |cpu| format!(", {cpu:.3} s CPU"));
        let count = match turns.len() {
            1 => "1 turn".to_owned(),
            many => format!("{many} turns"),
        };
        text.push_str(&format!("Time used by {}: {wall:.3} s{cpu} over {count}.\n", colour.name()));
    }
    text
}

/// Seconds to the microsecond, as logged.
fn seconds(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1e6).round() / 1e6
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| first.to_uppercase().chain(chars).collect())
}
