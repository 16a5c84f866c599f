//! A logged game, checked against itself before it counts: its start is a
//! position a game reaches (the one its opening leads to, when it has
//! one), its moves are legal, its score is the one its moves give, its
//! result follows from the rules, a forfeit or the solver's adjudication,
//! and its turns are the moves'. A tournament's game is also the game its
//! id schedules (`OPENING+RED+GREEN`): those players in those colours, from
//! that opening. An instructor's standings decide grades: one edited line
//! of a log must not change them unnoticed, least of all red and green
//! swapped, which leaves a game consistent in every other way and gives
//! the loser the win.

use std::path::Path;

use crate::referee::fixtures::Fixture;
use crate::referee::log::{Fault, GameRecord, LogError, Records};
use crate::referee::replay;
use maxconnect4_game::moves::Moves;
use maxconnect4_game::player::Player;
use maxconnect4_game::printable::{LINE, printable};
use maxconnect4_game::rules::{Outcome, Rules};

/// Checks every game of the log at `path` against itself, as every reader
/// that counts games does before it counts them.
///
/// # Errors
/// The first game that does not hold up, with its line of the log.
pub fn records(records: &Records, path: &Path) -> Result<(), LogError> {
    for (record, &line) in records.games.iter().zip(&records.lines) {
        check(record).map_err(|reason| LogError::Tampered {
            path: path.to_owned(),
            line,
            id: record.id.escape_debug().to_string(),
            reason,
        })?;
    }
    Ok(())
}

/// Why `record` does not hold up, if it does not.
///
/// # Errors
/// The first fault found.
pub fn check(record: &GameRecord) -> Result<(), Fault> {
    if let Some(game) = Fixture::named(&record.id) {
        scheduled(record, &game)?;
    }
    let positions = replay::positions(record)?;
    let (start, end) = (positions[0], positions[positions.len() - 1]);
    if let Some(opening) = &record.opening {
        // Played as the referee played it to make the start: from the
        // empty board, whatever the rules.
        let after = Moves::board(Rules::Max, opening).map_err(Fault::OpeningNotMoves)?;
        if after != start {
            return Err(Fault::NotTheOpening { opening: opening.as_str().into() });
        }
    }
    if record.settings.rules.is_over(&start) {
        return Err(Fault::StartIsOver);
    }
    let score = (end.score(Player::One), end.score(Player::Two));
    if (record.score.red, record.score.green) != score {
        return Err(Fault::Score { said: (record.score.red, record.score.green), given: score });
    }
    let mover = end.to_move();
    let result = match (&record.forfeit, &record.adjudicated) {
        (Some(forfeit), _) if forfeit.player != mover => {
            return Err(Fault::Forfeit { forfeiter: forfeit.player, mover });
        }
        (Some(forfeit), _) => Outcome::Win(forfeit.player.other()),
        (None, Some(adjudicated)) if adjudicated.after != record.moves.len() => {
            return Err(Fault::Adjudicated { after: adjudicated.after, played: record.moves.len() });
        }
        (None, Some(adjudicated)) => adjudicated.result,
        (None, None) => record.settings.rules.outcome(&end).ok_or(Fault::NotOver)?,
    };
    if record.result != result {
        return Err(Fault::Result { said: record.result, given: result });
    }
    turns(record, &positions)
}

/// Whether `record`, named as a tournament names `game`, is that game: its
/// players in their colours, and its opening.
fn scheduled(record: &GameRecord, game: &Fixture) -> Result<(), Fault> {
    if (record.red.name.as_str(), record.green.name.as_str()) != (game.red.as_str(), game.green.as_str()) {
        let shown = |name: &str| printable(name, LINE);
        return Err(Fault::Players {
            scheduled: Box::new((shown(&game.red), shown(&game.green))),
            logged: Box::new((shown(&record.red.name), shown(&record.green.name))),
        });
    }
    if record.opening.as_deref() != Some(game.opening.as_str()) {
        let scheduled = game.opening.as_str().into();
        return Err(Fault::Opening { scheduled, logged: record.opening.as_deref().map(Box::from) });
    }
    Ok(())
}

/// Whether the turns are the moves': one per move, the forfeited one
/// after them, each by the side to move, in the column played.
fn turns(record: &GameRecord, positions: &[maxconnect4_game::board::Board]) -> Result<(), Fault> {
    let expected = record.moves.len() + usize::from(record.forfeit.is_some());
    if record.turns.len() != expected {
        return Err(Fault::Turns { logged: record.turns.len(), expected });
    }
    let columns = record.moves.chars().map(|digit| digit.to_digit(10).map(|column| column as usize));
    for (index, (turn, column)) in record.turns.iter().zip(columns.map(Some).chain([None])).enumerate() {
        let mover = positions[index].to_move();
        if turn.player != mover || turn.column != column.flatten() {
            return Err(Fault::Turn(index + 1));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of the README's kind: red plays column 1 throughout, green
    /// column 2 and so on, to a full board.
    fn record() -> GameRecord {
        serde_json::from_value(serde_json::json!({
            "id": "1", "red": {"name": "a", "command": "self"}, "green": {"name": "b", "command": "self"},
            "depth": 1, "timeout": 2.0, "start": "0000000/0000000/0000000/0000000/0000000/0000000 1",
            "opening": "", "moves": "12", "score": {"red": 0, "green": 0}, "result": "green",
            "forfeit": {"player": "red", "verdict": "timeout", "reason": "timeout"},
            "turns": [
                {"player": "red", "column": 1, "wall": 0.5, "cpu": 0.25},
                {"player": "green", "column": 2, "wall": 0.5, "cpu": 0.25},
                {"player": "red", "column": null, "wall": 2.0, "cpu": 2.0},
            ],
        }))
        .unwrap()
    }

    #[test]
    fn a_game_as_played_holds_up() {
        assert_eq!(check(&record()), Ok(()));
    }

    #[test]
    fn a_tournament_game_is_the_game_its_id_schedules() {
        let mut game = record();
        game.id = "empty+a+b".into();
        assert_eq!(check(&game), Ok(()));
        let edited = |edit: &dyn Fn(&mut GameRecord)| {
            let mut record = game.clone();
            edit(&mut record);
            check(&record).unwrap_err()
        };
        let swapped = edited(&|r| std::mem::swap(&mut r.red, &mut r.green));
        assert_eq!(
            swapped.to_string(),
            "the schedule has a as red and b as green in this game, but the record has b as red and a as green"
        );
        let renamed = edited(&|r| r.green.name = "mallory\n".into());
        assert_eq!(
            renamed,
            Fault::Players {
                scheduled: Box::new(("a".into(), "b".into())),
                logged: Box::new(("a".into(), "mallory\\n".into()))
            }
        );
        let opening = edited(&|r| r.opening = Some("44".into()));
        assert_eq!(
            opening.to_string(),
            "the schedule plays this game from the empty board, but the record has opening 44"
        );
        let none = edited(&|r| r.opening = None);
        assert_eq!(
            none.to_string(),
            "the schedule plays this game from the empty board, but the record has no opening"
        );
        let mut from_44 = game.clone();
        from_44.id = "44+a+b".into();
        assert_eq!(
            check(&from_44).unwrap_err().to_string(),
            "the schedule plays this game from opening 44, but the record has the empty board"
        );

        // A match's game is numbered: it has no schedule, and its players
        // may be either way round.
        let mut numbered = game.clone();
        numbered.id = "3".into();
        std::mem::swap(&mut numbered.red, &mut numbered.green);
        assert_eq!(check(&numbered), Ok(()));
    }

    #[test]
    fn a_game_with_an_opening_starts_where_its_opening_leads() {
        let mut game = record();
        game.opening = Some("4".into());
        let elsewhere = check(&game).unwrap_err();
        assert_eq!(elsewhere, Fault::NotTheOpening { opening: "4".into() });
        assert_eq!(elsewhere.to_string(), "the start position is not the position after the opening 4");
        game.opening = Some("48".into());
        assert_eq!(
            check(&game).unwrap_err().to_string(),
            "the opening is not a game's moves: move 2 is '8', not a column 1-7"
        );
        game.opening = Some(String::new());
        game.start = "0000000/0000000/0000000/0000000/0000000/0001000 2".into();
        assert_eq!(
            check(&game).unwrap_err().to_string(),
            "the start position is not the empty board, where the opening (no moves) leaves it"
        );
    }

    #[test]
    fn every_edit_is_found() {
        let edited = |edit: &dyn Fn(&mut GameRecord)| {
            let mut record = record();
            edit(&mut record);
            check(&record).unwrap_err()
        };
        let result = edited(&|r| r.result = Outcome::Win(Player::One));
        assert_eq!(result, Fault::Result { said: Outcome::Win(Player::One), given: Outcome::Win(Player::Two) });
        assert_eq!(result.to_string(), "the result says red won, but the game gives green won");
        let score = edited(&|r| r.score.green = 6);
        assert_eq!(score, Fault::Score { said: (0, 6), given: (0, 0) });
        assert_eq!(score.to_string(), "the score says 0 to 6, but the moves give 0 to 0");
        let full = edited(&|r| r.moves = "1111111".into());
        assert_eq!(full.to_string(), "move 7 is illegal: column 1 is full");
        assert!(matches!(full, Fault::Full { move_number: 7, .. }));
        assert!(matches!(edited(&|r| r.moves = "89".into()), Fault::NotAColumn(_)));
        let forfeit = edited(&|r| r.forfeit.as_mut().unwrap().player = Player::Two);
        assert_eq!(forfeit, Fault::Forfeit { forfeiter: Player::Two, mover: Player::One });
        assert_eq!(forfeit.to_string(), "green forfeited, but it was red's turn");
        assert_eq!(edited(&|r| r.forfeit = None), Fault::NotOver);
        assert_eq!(
            edited(&|r| {
                r.turns.pop();
            }),
            Fault::Turns { logged: 2, expected: 3 }
        );
        let turn = edited(&|r| r.turns[1].column = Some(5));
        assert_eq!((turn.clone(), turn.to_string()), (Fault::Turn(2), "turn 2 does not match move 2".to_owned()));
        assert!(matches!(
            edited(&|r| r.start = "0000000/0000000/0000000/0000000/0000000/0000000 9".into()),
            Fault::Start(_)
        ));
        assert!(matches!(
            edited(&|r| r.start = "0000000/0000000/0000000/0000000/0100000/0000000 2".into()),
            Fault::Start(_)
        ));
    }
}
