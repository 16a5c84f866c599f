//! A logged game, checked against itself before it counts: its start is a
//! position a game reaches, its moves are legal, its score is the one its
//! moves give, its result follows from the rules, a forfeit or the
//! solver's adjudication, and its turns are the moves'. An instructor's
//! standings decide grades: one edited line of a log must not change them
//! unnoticed.

use std::path::Path;

use super::log::{Colour, GameRecord, LogError, Outcome, Records};
use super::replay;
use crate::player::Player;
use crate::rules;

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
/// The first fault found, in words.
pub fn check(record: &GameRecord) -> Result<(), String> {
    let positions = replay::positions(record)?;
    let (start, end) = (positions[0], positions[positions.len() - 1]);
    if record.rules.is_over(&start) {
        return Err("the start position is already the end of a game".to_owned());
    }
    let score = (end.score(Player::One), end.score(Player::Two));
    if (record.score.red, record.score.green) != score {
        return Err(format!(
            "the score says {} to {}, but the moves give {} to {}",
            record.score.red, record.score.green, score.0, score.1
        ));
    }
    let mover = Colour::of(end.to_move());
    let result = match (&record.forfeit, &record.adjudicated) {
        (Some(forfeit), _) if forfeit.player != mover => {
            return Err(format!("{} forfeited, but it was {}'s turn", forfeit.player.name(), mover.name()));
        }
        (Some(forfeit), _) => Outcome::win_for(forfeit.player.other()),
        (None, Some(adjudicated)) if adjudicated.after != record.moves.len() => {
            return Err(format!(
                "the game was adjudicated after {} moves, but {} were played",
                adjudicated.after,
                record.moves.len()
            ));
        }
        (None, Some(adjudicated)) => adjudicated.result,
        (None, None) => match record.rules.outcome(&end) {
            Some(rules::Outcome::Win(winner)) => Outcome::win_for(Colour::of(winner)),
            Some(_) => Outcome::Draw,
            None => return Err("the game is not over, and no one forfeited".to_owned()),
        },
    };
    if record.result != result {
        return Err(format!("the result says {}, but the game gives {}", said(record.result), said(result)));
    }
    turns(record, &positions)
}

/// Whether the turns are the moves': one per move, the forfeited one
/// after them, each by the side to move, in the column played.
fn turns(record: &GameRecord, positions: &[crate::board::Board]) -> Result<(), String> {
    let expected = record.moves.len() + usize::from(record.forfeit.is_some());
    if record.turns.len() != expected {
        return Err(format!("{} turns are logged for {expected}", record.turns.len()));
    }
    let columns = record.moves.chars().map(|digit| digit.to_digit(10).map(|column| column as usize));
    for (index, (turn, column)) in record.turns.iter().zip(columns.map(Some).chain([None])).enumerate() {
        let mover = Colour::of(positions[index].to_move());
        if turn.player != mover || turn.column != column.flatten() {
            return Err(format!("turn {} does not match move {}", index + 1, index + 1));
        }
    }
    Ok(())
}

/// A result in words.
fn said(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Red => "red won",
        Outcome::Green => "green won",
        Outcome::Draw => "a draw",
    }
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
    fn every_edit_is_found() {
        let edited = |edit: &dyn Fn(&mut GameRecord)| {
            let mut record = record();
            edit(&mut record);
            check(&record).unwrap_err()
        };
        assert_eq!(edited(&|r| r.result = Outcome::Red), "the result says red won, but the game gives green won");
        assert_eq!(edited(&|r| r.score.green = 6), "the score says 0 to 6, but the moves give 0 to 0");
        assert_eq!(edited(&|r| r.moves = "1111111".into()), "move 7 is illegal: column 1 is full");
        assert!(edited(&|r| r.moves = "89".into()).starts_with("move 1"));
        assert_eq!(
            edited(&|r| r.forfeit.as_mut().unwrap().player = Colour::Green),
            "green forfeited, but it was red's turn"
        );
        assert_eq!(
            edited(&|r| {
                r.forfeit = None;
            }),
            "the game is not over, and no one forfeited"
        );
        assert_eq!(
            edited(&|r| {
                r.turns.pop();
            }),
            "2 turns are logged for 3"
        );
        assert_eq!(edited(&|r| r.turns[1].column = Some(5)), "turn 2 does not match move 2");
        assert!(edited(&|r| r.start = "0000000/0000000/0000000/0000000/0000000/0000000 9".into())
            .starts_with("the start position is invalid"));
        assert!(edited(&|r| r.start = "0000000/0000000/0000000/0000000/0100000/0000000 2".into())
            .starts_with("the start position is invalid"));
    }
}
