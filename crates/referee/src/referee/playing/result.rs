//! A game as it was played, in the referee's own types: the seats, the
//! settings, the start, each turn with its column or forfeit and its times,
//! and the last position. The log's record ([`GameRecord`], the JSON wire
//! form) is made from it, so the referee never reads its own log back to
//! learn what the game already knew.

use std::time::Duration;

use crate::protocol::verdict::Forfeit;
use crate::referee::adjudication::Adjudication;
use crate::referee::log::{Adjudicated, ForfeitRecord, GameRecord, Scores, TurnRecord, encode_board};
use crate::referee::player::Turn;
use crate::referee::seat::Seat;
use crate::referee::settings::Settings;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::moves::Moves;
use maxconnect4_game::player::Player;
use maxconnect4_game::rules::Outcome;

/// One turn of a game: who, and how it went.
#[derive(Clone, Debug)]
pub struct PlayedTurn {
    /// The side that moved.
    pub player: Player,
    /// The move or the forfeit, and its times.
    pub turn: Turn,
    /// What was left on the mover's clock after the turn, in a game with one.
    pub clock: Option<Duration>,
}

/// One game, played to its end or to a forfeit.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The game's name in the log and the name of its output directory.
    pub id: String,
    /// Red (player 1) first.
    pub seats: [Seat; 2],
    /// The rules and the limits the game was played under.
    pub settings: Settings,
    /// The position the game started from.
    pub start: Board,
    /// The moves that led to `start`, as logged: a tournament's opening or
    /// a match's `--start-moves`.
    pub opening: Option<Moves>,
    /// Every turn in order; only the last can be a forfeit.
    pub turns: Vec<PlayedTurn>,
    /// The last position.
    pub board: Board,
    /// Set when the solver ended the game before its end by the rules.
    pub adjudicated: Option<Adjudication>,
}

impl GameResult {
    /// The columns played from the start.
    pub fn moves(&self) -> impl Iterator<Item = Column> + '_ {
        self.turns.iter().filter_map(|played| played.turn.result.as_ref().ok().copied())
    }

    /// Who forfeited and why, if a side did.
    #[must_use]
    pub fn forfeit(&self) -> Option<(Player, &Forfeit)> {
        let last = self.turns.last()?;
        last.turn.result.as_ref().err().map(|forfeit| (last.player, forfeit))
    }

    /// The result: the other side wins a forfeit, the solver's result
    /// stands in an adjudicated game, otherwise the rules judge the last
    /// position.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        if let Some((player, _)) = self.forfeit() {
            return Outcome::Win(player.other());
        }
        let outcome = self.adjudicated.map(|adjudicated| adjudicated.outcome);
        outcome.or_else(|| self.settings.rules.outcome(&self.board)).unwrap_or(Outcome::Draw)
    }

    /// The game's record in the log: times to the microsecond, the start as
    /// one line, the moves as digits.
    #[must_use]
    pub fn record(&self) -> GameRecord {
        let [red, green] = &self.seats;
        GameRecord {
            id: self.id.clone(),
            red: red.side(),
            green: green.side(),
            settings: self.settings,
            start: encode_board(&self.start),
            opening: self.opening.as_ref().map(ToString::to_string),
            moves: self.moves().collect::<Moves>().to_string(),
            score: Scores { red: self.board.score(Player::One), green: self.board.score(Player::Two) },
            result: self.outcome(),
            forfeit: self.forfeit().map(|(player, forfeit)| ForfeitRecord {
                player,
                verdict: forfeit.kind().to_owned(),
                reason: forfeit.to_string(),
            }),
            adjudicated: self
                .adjudicated
                .map(|adjudicated| Adjudicated { after: adjudicated.after, result: self.outcome() }),
            turns: self
                .turns
                .iter()
                .map(|played| TurnRecord {
                    player: played.player,
                    column: played.turn.result.as_ref().ok().map(|column| column.number()),
                    wall: seconds(played.turn.wall),
                    cpu: played.turn.cpu.map(seconds),
                    ending: played.turn.ending.clone(),
                    clock: played.clock.map(seconds),
                })
                .collect(),
        }
    }
}

/// Seconds to the microsecond, as logged.
fn seconds(duration: Duration) -> f64 {
    (duration.as_secs_f64() * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::log::Side;
    use crate::referee::player::PlayerSpec;
    use maxconnect4_game::rules::{Outcome, Rules};

    fn column(number: usize) -> Column {
        Column::from_number(number).unwrap()
    }

    fn turn(player: Player, result: Result<Column, Forfeit>, wall: Duration, clock: Duration) -> PlayedTurn {
        let turn = Turn { result, wall, cpu: Some(wall / 2), ending: Some("exit status 0".to_owned()) };
        PlayedTurn { player, turn, clock: Some(clock) }
    }

    #[test]
    fn the_record_is_made_from_the_result() {
        let opening = vec![column(4), column(3)];
        let start = opening.iter().fold(Board::empty(), |board, &column| board.after(column));
        let seat = |name: &str, command: &str| Seat::new(name, PlayerSpec::parse(command).unwrap());
        let timeout = Duration::from_millis(1500);
        let result = GameResult {
            id: "43+a+b".to_owned(),
            seats: [seat("a", " self "), seat("b", "self")],
            settings: Settings {
                rules: Rules::Classic,
                depth: 3,
                timeout,
                clock: Some(Duration::from_secs(30)),
                adjudication: None,
            },
            start,
            opening: Some(Moves::from(opening)),
            turns: vec![
                turn(Player::One, Ok(column(5)), Duration::from_nanos(250_000_400), Duration::from_millis(29_750)),
                turn(Player::Two, Err(Forfeit::Timeout(timeout)), timeout, Duration::from_millis(28_500)),
            ],
            board: start.after(column(5)),
            adjudicated: None,
        };
        assert_eq!(result.moves().collect::<Vec<_>>(), [column(5)]);
        assert_eq!(result.outcome(), Outcome::Win(Player::One));
        let record = result.record();
        assert_eq!(record.red, Side { name: "a".to_owned(), command: "self".to_owned() });
        let logged = record.settings;
        assert_eq!(
            (logged.rules, logged.depth, logged.timeout, logged.clock),
            (Rules::Classic, 3, Duration::from_millis(1500), Some(Duration::from_secs(30)))
        );
        assert_eq!(record.start, encode_board(&start));
        assert_eq!((record.opening.as_deref(), record.moves.as_str()), (Some("43"), "5"));
        assert_eq!(record.moves_line(), "435");
        assert_eq!(record.result, Outcome::Win(Player::One));
        let forfeit = record.forfeit.as_ref().unwrap();
        assert_eq!((forfeit.player, forfeit.verdict.as_str()), (Player::Two, "timeout"));
        assert_eq!(forfeit.reason, Forfeit::Timeout(timeout).to_string());
        assert_eq!(record.turns[0].column, Some(5));
        assert_eq!(
            (record.turns[0].wall, record.turns[0].cpu, record.turns[0].clock),
            (0.25, Some(0.125), Some(29.75))
        );
        assert_eq!((record.turns[1].column, record.turns[1].clock), (None, Some(28.5)));
        assert_eq!((record.settings.adjudication, record.adjudicated), (None, None));
    }

    #[test]
    fn an_adjudicated_game_has_the_solvers_result() {
        // Red holds 3 to 5 on the bottom row: green cannot stop both ends.
        let moves: Vec<Column> = [3, 3, 4, 4, 5].into_iter().map(column).collect();
        let seat = |name: &str| Seat::new(name, PlayerSpec::parse("self").unwrap());
        let timeout = Duration::from_secs(1);
        let result = GameResult {
            id: "33+a+b".to_owned(),
            seats: [seat("a"), seat("b")],
            settings: Settings { rules: Rules::Classic, depth: 1, timeout, clock: None, adjudication: Some(1000) },
            start: Board::empty(),
            opening: None,
            turns: moves
                .iter()
                .enumerate()
                .map(|(ply, &column)| PlayedTurn {
                    player: if ply % 2 == 0 { Player::One } else { Player::Two },
                    turn: Turn { result: Ok(column), wall: timeout / 10, cpu: None, ending: None },
                    clock: None,
                })
                .collect(),
            board: moves.iter().fold(Board::empty(), |board, &column| board.after(column)),
            adjudicated: Some(Adjudication { after: 5, outcome: Outcome::Win(Player::One) }),
        };
        assert_eq!(result.outcome(), Outcome::Win(Player::One), "the board alone says the game goes on");
        let record = result.record();
        assert_eq!(record.result, Outcome::Win(Player::One));
        assert_eq!(record.settings.adjudication, Some(1000));
        assert_eq!(record.adjudicated, Some(Adjudicated { after: 5, result: Outcome::Win(Player::One) }));
    }
}
