//! Annotating a logged game: each move against the best column of the
//! position it was played in, so that a player sees which move threw the
//! result away (a blunder) and, under Max-Connect4 rules, which gave away
//! points (an inaccuracy).
//!
//! Each position is analysed as `analyse` does ([`search::analyse`]), within
//! one budget per position, and judged as [`Analysis::judge`] defines it,
//! so the command line, the replay and the web page mark the same moves. A
//! judgement is certain only when the move's value and the best value are
//! both exact; one made on depth-limited values is the search's guess, and
//! says so. Under Max-Connect4 rules a depth-limited difference under a
//! point is the evaluation's noise, so it is not called an inaccuracy.

use std::cmp::Ordering;
use std::fmt::Write as _;

use serde::Serialize;

use crate::referee::log::GameRecord;
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::player::Player;
use maxconnect4_game::rules::Rules;
use maxconnect4_search::{self as search, Analysis, ColumnValue, Engine, Judgement, Limits, Reach};

/// One move of a game and the analysis of the position it was played in.
#[derive(Clone, Debug)]
pub struct Note {
    /// From 1, counting from the record's start position.
    pub number: usize,
    /// The side that played it.
    pub colour: Player,
    /// The column played.
    pub column: Column,
    /// The analysis of the position before the move.
    pub analysis: Analysis,
}

/// How one player's moves were judged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Judged {
    /// The player's moves judged.
    pub moves: u32,
    /// Moves that threw the result away.
    pub blunders: u32,
    /// Moves that gave away points without changing the result;
    /// Max-Connect4 rules only.
    pub inaccuracies: u32,
    /// Points given away by the blunders and inaccuracies (Max-Connect4
    /// rules).
    pub points_lost: f64,
    /// Moves judged on a depth-limited value, the move's or the best's.
    pub uncertain: u32,
}

impl Note {
    /// The value of the move played, for the player who played it.
    #[must_use]
    pub fn played(&self) -> ColumnValue {
        self.analysis.column(self.column).expect("a logged move was legal, so its column has a value")
    }

    /// The best value of the position, for the same player.
    #[must_use]
    pub fn best(&self) -> ColumnValue {
        self.analysis.value().expect("a position a move was played in is not over")
    }

    /// Whether the judgement rests on exact values only.
    #[must_use]
    pub fn is_certain(&self) -> bool {
        self.played().is_exact() && self.best().is_exact()
    }

    /// What the move lost against the best, in points (Max-Connect4) or
    /// score (classic).
    #[must_use]
    pub fn lost(&self) -> f64 {
        self.analysis.lost(self.column).unwrap_or(0.0)
    }

    /// How the move compares with the best: as [`Analysis::judge`] where
    /// both values are exact. Where one is depth-limited, only what the
    /// search can stand behind is marked: under Max-Connect4 rules a loss
    /// of a point or more (less is the evaluation's noise: +0.3 is no
    /// proven win); under classic rules a move whose own result is proven
    /// (a depth-limited classic value is a heuristic, whose sign is no
    /// result at all).
    #[must_use]
    pub fn judgement(&self) -> Judgement {
        let judgement = self.analysis.judge(self.column).unwrap_or(Judgement::Sound);
        match self.analysis.rules {
            _ if self.is_certain() => judgement,
            Rules::Max if self.lost() >= 1.0 => judgement,
            Rules::Max => Judgement::Sound,
            // A proven loss (or draw) where the best move's result is open.
            Rules::Classic if self.played().is_exact() && class(self.played()) < class(self.best()) => {
                Judgement::Blunder
            }
            Rules::Classic => Judgement::Sound,
        }
    }

    /// The shallower depth of the move's value and the best value, when
    /// either is depth-limited.
    fn depth(&self) -> Option<u32> {
        let depth = |value: ColumnValue| match value.reach {
            Reach::Exact => None,
            Reach::Depth(depth) => Some(depth),
        };
        depth(self.played()).into_iter().chain(depth(self.best())).min()
    }

    /// The note as a line, `name` playing: the move's value, the best
    /// columns' and the judgement, each value marked exact or with its
    /// depth.
    #[must_use]
    pub fn line(&self, name: &str) -> String {
        let mut line = format!(
            "Move {}, {} ({name}) plays {}: {}",
            self.number,
            self.colour.colour_name(),
            self.column.number(),
            shown(self.played())
        );
        let best = self.analysis.best();
        if best.contains(&self.column) {
            match self.analysis.shallowest() {
                None => line.push_str(", a best move."),
                Some(depth) => {
                    let _ = write!(line, ", a best move at depth {depth}, not proven.");
                }
            }
            return line;
        }
        let columns: Vec<String> = best.iter().map(|column| column.number().to_string()).collect();
        let _ = write!(line, "; best {}: {}.", columns.join(", "), shown(self.best()));
        let guess = self.depth().map_or(String::new(), |depth| format!(" (at depth {depth}, not proven)"));
        match self.judgement() {
            Judgement::Blunder => {
                let _ = write!(line, " Blunder{guess}: {}.", thrown(self.best(), self.played()));
            }
            Judgement::Inaccuracy => {
                let _ = write!(line, " Inaccuracy{guess}: {} lost.", points(self.lost()));
            }
            Judgement::Sound => {}
        }
        line
    }
}

/// `+3 exact`, `0 exact`, `-0.41 at depth 8`: a value for the player who
/// moves, signed unless it is 0.
fn shown(value: ColumnValue) -> String {
    let sign = if value.value > 0 { "+" } else { "" };
    match value.reach {
        Reach::Exact => format!("{sign}{} exact", value.value / value.unit),
        Reach::Depth(depth) => format!("{sign}{:.2} at depth {depth}", value.score()),
    }
}

/// The result a value stands for: its sign, except that a depth-limited
/// classic value is a heuristic that proves nothing, counted as open
/// (equal to a draw: not lost).
fn class(value: ColumnValue) -> Ordering {
    if value.unit == Analysis::unit(Rules::Classic) && !value.is_exact() { Ordering::Equal } else { value.class() }
}

/// What a blunder threw away: `a win thrown to a loss`, `an open result
/// thrown to a loss`.
fn thrown(best: ColumnValue, played: ColumnValue) -> String {
    let name = |value: ColumnValue| match class(value) {
        Ordering::Greater => "a win",
        Ordering::Equal if value.is_exact() || value.unit != Analysis::unit(Rules::Classic) => "a draw",
        Ordering::Equal => "an open result",
        Ordering::Less => "a loss",
    };
    format!("{} thrown to {}", name(best), name(played))
}

/// `1 point`, `2.5 points`.
fn points(points: f64) -> String {
    if (points - 1.0).abs() < f64::EPSILON {
        "1 point".to_owned()
    } else {
        format!("{} points", (points * 100.0).round() / 100.0)
    }
}

/// The note of the move from `before` to `after`, move `number` of a
/// game: the position before it analysed with `engine` within `budget`.
/// `None` when `after` does not follow from `before` by one move.
pub fn note(number: usize, before: &Board, after: &Board, engine: &mut Engine, budget: &Limits) -> Option<Note> {
    let column = Column::ALL.into_iter().find(|&column| before.can_play(column) && before.after(column) == *after)?;
    Some(Note { number, colour: before.to_move(), column, analysis: search::analyse(engine, before, budget) })
}

/// The notes of every move of a game, given its start position and the
/// position after each move.
pub fn annotate(positions: &[Board], engine: &mut Engine, budget: &Limits) -> Vec<Note> {
    let pairs = positions.windows(2).enumerate();
    pairs.filter_map(|(index, pair)| note(index + 1, &pair[0], &pair[1], engine, budget)).collect()
}

/// Each colour's tally of `notes`, red first.
#[must_use]
pub fn tallies(notes: &[Note]) -> [Judged; 2] {
    let mut tallies = [Judged::default(); 2];
    for note in notes {
        let tally = &mut tallies[note.colour.index()];
        tally.moves += 1;
        tally.uncertain += u32::from(!note.is_certain());
        match note.judgement() {
            Judgement::Blunder => tally.blunders += 1,
            Judgement::Inaccuracy => tally.inaccuracies += 1,
            Judgement::Sound => continue,
        }
        // Only the moves judged count: a sound move's depth-limited loss
        // of a fraction of a point is noise.
        if note.analysis.rules == Rules::Max {
            tally.points_lost += note.lost();
        }
    }
    tallies
}

impl Judged {
    /// The tally as a line for the player `who`: `red (me): 1 blunder, 2
    /// inaccuracies, 5 points lost; 3 of 20 moves judged at a depth.`
    #[must_use]
    pub fn line(&self, who: &str, rules: Rules) -> String {
        let count = |count: u32, one: &str, many: &str| match count {
            0 => format!("no {many}"),
            1 => format!("1 {one}"),
            _ => format!("{count} {many}"),
        };
        let mut line = format!("{who}: {}", count(self.blunders, "blunder", "blunders"));
        if rules == Rules::Max {
            let inaccuracies = count(self.inaccuracies, "inaccuracy", "inaccuracies");
            let _ = write!(line, ", {inaccuracies}, {} lost", points(self.points_lost));
        }
        if self.uncertain > 0 {
            let _ = write!(line, "; {} of its {} moves judged on depth-limited values", self.uncertain, self.moves);
        }
        line.push('.');
        line
    }
}

/// The annotation as JSON for programs: the game, each move's values and
/// judgement, and each player's tally.
#[must_use]
pub fn json(record: &GameRecord, number: usize, notes: &[Note]) -> serde_json::Value {
    let value = |value: ColumnValue| serde_json::json!(value.score());
    let depth = |value: ColumnValue| match value.reach {
        Reach::Exact => serde_json::Value::Null,
        Reach::Depth(depth) => serde_json::json!(depth),
    };
    let moves: Vec<serde_json::Value> = notes
        .iter()
        .map(|note| {
            let (played, best) = (note.played(), note.best());
            serde_json::json!({
                "number": note.number,
                "player": note.colour,
                "column": note.column.number(),
                "value": value(played),
                "exact": played.is_exact(),
                "depth": depth(played),
                "best": note.analysis.best().iter().map(|column| column.number()).collect::<Vec<_>>(),
                "best_value": value(best),
                "best_exact": best.is_exact(),
                "lost": note.lost(),
                "judgement": match note.judgement() {
                    Judgement::Sound => "sound",
                    Judgement::Inaccuracy => "inaccuracy",
                    Judgement::Blunder => "blunder",
                },
                "certain": note.is_certain(),
            })
        })
        .collect();
    let [red, green] = tallies(notes);
    serde_json::json!({
        "game": number,
        "id": record.id,
        "rules": record.settings.rules.name(),
        "red": record.red.name,
        "green": record.green.name,
        "moves": moves,
        "tally": {"red": red, "green": green},
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use maxconnect4_game::value::POINT;

    fn note(columns: [Option<ColumnValue>; 7], played: usize) -> Note {
        let analysis = Analysis { rules: Rules::Max, columns, nodes: 0 };
        Note { number: 3, colour: Player::One, column: Column::from_number(played).unwrap(), analysis }
    }

    /// A move of the best value is a best move for certain only when every
    /// column's value is exact: a column only estimated may be better.
    #[test]
    fn a_best_move_among_estimates_is_not_proven() {
        let exact = |points: i32| Some(ColumnValue { value: points * POINT, unit: POINT, reach: Reach::Exact });
        let guess = |points: i32| Some(ColumnValue { value: points * POINT, unit: POINT, reach: Reach::Depth(9) });
        let certain = note([exact(1), exact(2), exact(0), exact(2), None, exact(-1), exact(0)], 2);
        assert_eq!(certain.line("ann"), "Move 3, red (ann) plays 2: +2 exact, a best move.");
        let seen = note([exact(1), exact(2), guess(0), exact(2), None, exact(-1), exact(0)], 2);
        assert_eq!(seen.line("ann"), "Move 3, red (ann) plays 2: +2 exact, a best move at depth 9, not proven.");
    }
}
