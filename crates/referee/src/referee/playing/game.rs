//! One refereed game: players take turns until the game ends under its
//! rules (the board is full, or under classic rules a four is made) or one of
//! them forfeits, or with adjudication the solver proves its result, and
//! every turn is timed and recorded.
//!
//! Every kind of player is asked for its move the same way
//! ([`player::Competitor`]), with the turn's time: the per-move timeout, or
//! less when the side's game clock (`--clock`) has less left; a side whose
//! clock runs out forfeits on time. When the game ends each player is told
//! (a bot gets its protocol's end message) and stopped.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::referee::Error;
use crate::referee::adjudication::{Adjudication, Adjudicator};
use crate::referee::console::Console;
use crate::referee::log::{GameRecord, TurnRecord};
use crate::referee::player::{self, Ask, End, Seating, Turn};
use crate::referee::result::{GameResult, PlayedTurn};
use crate::referee::seat::Seat;
use crate::referee::settings::Settings;
use maxconnect4_contain::Containment;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::display;
use maxconnect4_game::moves::Moves;
use maxconnect4_game::player::Player;

/// Everything a game needs to be played.
pub struct Game<'a> {
    /// The game's name in the log and the name of its output directory.
    pub id: String,
    /// Red (player 1) first, each able to play from `start`: the match or
    /// the tournament checked that before ([`Seat::check_start`]).
    pub seats: &'a [Seat; 2],
    /// The position the game starts from.
    pub start: Board,
    /// The moves from the empty board to `start`, when it was given by moves.
    pub history: Option<Moves>,
    /// The moves that led to `start`, as logged: a tournament's opening or
    /// a match's `--start-moves`.
    pub opening: Option<Moves>,
    /// The rules and the limits the game is played under.
    pub settings: Settings,
    /// Where the captured output of the programs goes: one file per colour.
    pub output_directory: PathBuf,
    /// How programs are run; none when both players are people.
    pub containment: Option<&'a Containment>,
}

impl Game<'_> {
    /// Plays the game to its end and returns how it went.
    ///
    /// # Errors
    /// When the referee cannot do its own part: create directories or
    /// files, find its own executable for `self`, or use the terminal. A
    /// player's failure is a forfeit in the result, not an error.
    pub fn play(&self, mut console: Option<&mut Console<'_>>) -> Result<GameResult, Error> {
        let base = std::env::current_dir().map_err(|source| Error::io("find", Path::new("."), source))?;
        let seating = Seating {
            game_id: &self.id,
            settings: self.settings,
            output_directory: &self.output_directory,
            containment: self.containment,
            base: &base,
            output_kept: true,
        };
        let [red, green] = self.seats;
        let mut players =
            [player::seat(&red.spec, Player::One, &seating)?, player::seat(&green.spec, Player::Two, &seating)?];
        let mut board = self.start;
        let mut history = self.history.clone();
        let mut turns: Vec<PlayedTurn> = Vec::new();
        if let Some(console) = console.as_deref_mut().filter(|console| console.show_moves) {
            self.show_players(console)?;
        }
        // Each side's time used against its clock.
        let mut used = [Duration::ZERO; 2];
        let mut adjudicator = match self.settings.adjudication {
            Some(budget) => Adjudicator::new(self.settings.rules, budget)?,
            None => None,
        };
        let mut adjudicated = None;
        while !self.settings.rules.is_over(&board) {
            let colour = board.to_move();
            let ply = turns.len() + 1;
            let (timeout, clock) = (self.settings.timeout, self.settings.clock);
            let left = used.map(|used| clock.map_or(timeout, |clock| clock.saturating_sub(used)));
            let mover = &mut players[colour.index()];
            let ask = Ask {
                board: &board,
                history: history.as_ref().map(Moves::columns),
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
            let forfeited = match turn.result {
                Ok(column) => {
                    board.play(column);
                    if let Some(history) = &mut history {
                        history.push(column);
                    }
                    if let Some(console) = console.as_deref_mut().filter(|console| console.show_moves) {
                        self.show_move(console, (ply, colour, column), &turn, &board)?;
                    }
                    false
                }
                Err(_) => true,
            };
            let clock = clock.map(|clock| clock.saturating_sub(used[colour.index()]));
            turns.push(PlayedTurn { player: colour, turn, clock });
            if forfeited {
                break;
            }
            if let Some(adjudicator) = adjudicator.as_mut().filter(|_| !self.settings.rules.is_over(&board))
                && let Some(outcome) = adjudicator.proven(&board)
            {
                adjudicated = Some(Adjudication { after: turns.len(), outcome });
                break;
            }
        }
        let result = GameResult {
            id: self.id.clone(),
            seats: self.seats.clone(),
            settings: self.settings,
            start: self.start,
            opening: self.opening.clone(),
            turns,
            board,
            adjudicated,
        };
        let forfeiter = result.forfeit().map(|(player, _)| player);
        let outcome = if forfeiter.is_some() {
            None
        } else {
            adjudicated.map(|adjudicated| adjudicated.outcome).or_else(|| self.settings.rules.outcome(&board))
        };
        for colour in Player::BOTH {
            players[colour.index()].finish(End { outcome, forfeited: forfeiter == Some(colour) })?;
        }
        Ok(result)
    }

    /// Who plays which colour, and the start position.
    fn show_players(&self, console: &mut Console<'_>) -> Result<(), Error> {
        for colour in Player::BOTH {
            writeln!(
                console.output,
                "{} (player {}): {}",
                capitalised(colour.colour_name()),
                colour.number(),
                self.seats[colour.index()].name
            )
            .map_err(Error::terminal)?;
        }
        write!(console.output, "\n{}", display::board_and_score(&self.start)).map_err(Error::terminal)
    }

    /// The move `ply` of `colour` into `column`, its times, and the board after it.
    fn show_move(
        &self,
        console: &mut Console<'_>,
        (ply, colour, column): (usize, Player, Column),
        turn: &Turn,
        board: &Board,
    ) -> Result<(), Error> {
        let time = turn.cpu.map_or(String::new(), |cpu| {
            format!(" in {:.3} s ({:.3} s CPU)", turn.wall.as_secs_f64(), cpu.as_secs_f64())
        });
        write!(
            console.output,
            "\nMove {ply}: {} ({}) plays column {column}{time}.\n{}",
            colour.colour_name(),
            maxconnect4_game::printable::printable(&self.seats[colour.index()].name, maxconnect4_game::printable::LINE),
            display::board_and_score(board)
        )
        .map_err(Error::terminal)
    }
}

/// The end of a game in words: the result with the score, the winner and
/// why, and the time each side used. `board` is the last position.
#[must_use]
pub fn summary(record: &GameRecord, board: &Board) -> String {
    let named = |colour: Player| {
        format!("{} (player {}, {})", colour.colour_name(), colour.number(), record.side(colour).shown())
    };
    let mut text = String::new();
    if let Some(forfeit) = &record.forfeit {
        let reason = maxconnect4_game::printable::printable(&forfeit.reason, usize::MAX);
        text.push_str(&format!("{} forfeits: {reason}\n", capitalised(&named(forfeit.player))));
        text.push_str(&format!("When the game stopped: {}\n", display::score_line(board)));
    } else if let Some(adjudicated) = &record.adjudicated {
        let proven = match adjudicated.result.winner() {
            Some(winner) => format!("{} wins", named(winner)),
            None => "the game is a draw".to_owned(),
        };
        let moves = if adjudicated.after == 1 { "move" } else { "moves" };
        text.push_str(&format!(
            "Adjudicated after {} {moves}: the solver proves that with best play {proven}.\n",
            adjudicated.after
        ));
    } else {
        // The sentence gives the score: the board shown last has it too.
        text.push_str(&format!("{}\n", display::result_sentence(record.settings.rules, board)));
    }
    match record.result.winner() {
        Some(winner) => text.push_str(&format!("Winner: {}.\n", named(winner))),
        None => text.push_str("No winner.\n"),
    }
    for colour in Player::BOTH {
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
        text.push_str(&format!("Time used by {}: {wall:.3} s{cpu} over {count}.\n", colour.colour_name()));
    }
    text
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| first.to_uppercase().chain(chars).collect())
}
