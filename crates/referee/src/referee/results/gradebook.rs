//! The gradebook: one row per student of a run, to import into a course's
//! grade sheet. `check --class` writes what was found, how it was built and
//! whether it played; a tournament, and `results` from its logs, add the
//! games, points, forfeits by kind, rank and rating. A student whose program
//! could not be found, built or checked, or who was dropped, has a row like
//! every other, with the reason: nobody vanishes from a grading run.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::referee::figures::Figures;
use crate::referee::ratings::Rating;
use crate::referee::standings::Standing;
use maxconnect4_game::printable::csv_field;

/// How a student's program did in the check before the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    /// It started and played a legal move.
    Passed,
    /// It did not; the row's reason says why.
    Failed,
    /// It failed, and the tournament played without it (`--drop-failing`).
    Dropped,
    /// The tournament played without a check (`--no-check`).
    NotChecked,
}

impl Check {
    /// The word in the gradebook's `check` column.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Check::Passed => "passed",
            Check::Failed => "failed",
            Check::Dropped => "dropped",
            Check::NotChecked => "not checked",
        }
    }
}

/// What a student earned in the games of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Earned {
    /// From 1, as the standings rank.
    pub rank: usize,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost, forfeits included.
    pub losses: u32,
    /// Points, as the standings count them ([`POINTS`](crate::referee::standings::POINTS)).
    pub points: u32,
    /// Forfeits by verdict, in the order first met: `timeout 2, no-output 1`.
    pub forfeits: String,
    /// The Elo rating and its 95% interval, where the games give them.
    pub rating: Option<(f64, Option<f64>)>,
}

/// One student's row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The student: the player's name in the standings.
    pub student: String,
    /// What was found and how it was built: `Java, built with ...`.
    pub program: String,
    /// How the program fared in the pre-flight check.
    pub check: Check,
    /// Why the program failed or was dropped; empty when it passed.
    pub reason: String,
    /// Its games, where a tournament played them.
    pub earned: Option<Earned>,
}

/// What a tournament knows of an entrant that its games do not say: kept
/// in its manifest, so that `results` writes the same gradebook from the
/// logs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The player's name.
    pub name: String,
    /// What was found and how it was built, for a class's student; empty
    /// for a player given by its command.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub program: String,
    /// How it fared in the pre-flight check.
    pub check: Check,
    /// Why it failed the check or was dropped; empty when it passed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
}

/// The gradebook of a tournament: a row for each player of `standings`
/// (best first, dropped players among them, last), with its `figures` and
/// `ratings` (both in the standings' order) and what `entries` say of it.
#[must_use]
pub fn of_tournament(standings: &[Standing], figures: &[Figures], ratings: &[Rating], entries: &[Entry]) -> Vec<Row> {
    standings
        .iter()
        .enumerate()
        .map(|(index, standing)| {
            let entry = entries.iter().find(|entry| entry.name == standing.name);
            let figures = figures.iter().find(|figures| figures.name == standing.name);
            let rating = ratings.iter().find(|rating| rating.name == standing.name).filter(|_| standing.games > 0);
            Row {
                student: standing.name.clone(),
                program: entry.map(|entry| entry.program.clone()).unwrap_or_default(),
                check: entry.map_or(Check::NotChecked, |entry| entry.check),
                reason: entry.map(|entry| entry.reason.clone()).unwrap_or_default(),
                earned: Some(Earned {
                    rank: index + 1,
                    games: standing.games,
                    wins: standing.wins,
                    draws: standing.draws,
                    losses: standing.losses,
                    points: standing.points,
                    forfeits: figures.map(Figures::forfeits_text).unwrap_or_default(),
                    rating: rating.map(|rating| (rating.elo, rating.margin.is_finite().then_some(rating.margin))),
                }),
            }
        })
        .collect()
}

/// The gradebook's columns.
pub const COLUMNS: [&str; 13] = [
    "student", "program", "check", "reason", "rank", "games", "wins", "draws", "losses", "points", "forfeits",
    "rating", "interval",
];

/// `rows` as CSV, a header first: text cells as [`csv_field`] makes them
/// (one line each, never a spreadsheet's formula), numbers as they are, an
/// empty cell where there is nothing to say.
#[must_use]
pub fn csv(rows: &[Row]) -> String {
    let mut text = COLUMNS.join(",");
    text.push('\n');
    for row in rows {
        let mut cells = vec![
            csv_field(&row.student),
            csv_field(&row.program),
            row.check.word().to_owned(),
            if row.reason.is_empty() { String::new() } else { csv_field(&row.reason) },
        ];
        match &row.earned {
            Some(earned) => {
                let counts =
                    [earned.rank as u32, earned.games, earned.wins, earned.draws, earned.losses, earned.points];
                cells.extend(counts.map(|count| count.to_string()));
                cells.push(if earned.forfeits.is_empty() { String::new() } else { csv_field(&earned.forfeits) });
                let (rating, interval) = match earned.rating {
                    Some((rating, interval)) => {
                        (format!("{rating:.0}"), interval.map_or(String::new(), |interval| format!("{interval:.0}")))
                    }
                    None => (String::new(), String::new()),
                };
                cells.extend([rating, interval]);
            }
            None => cells.extend(std::iter::repeat_n(String::new(), COLUMNS.len() - 4)),
        }
        let _ = writeln!(text, "{}", cells.join(","));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_for_every_student_numbers_as_numbers_text_never_a_formula() {
        let rows = [
            Row {
                student: "alice".to_owned(),
                program: "Python 3".to_owned(),
                check: Check::Passed,
                reason: String::new(),
                earned: Some(Earned {
                    rank: 1,
                    games: 4,
                    wins: 3,
                    draws: 1,
                    losses: 0,
                    points: 7,
                    forfeits: String::new(),
                    rating: Some((0.0, None)),
                }),
            },
            Row {
                student: "=dave".to_owned(),
                program: "C, built with `gcc -O2 -o maxconnect4 main.c -lm`".to_owned(),
                check: Check::Dropped,
                reason: "no output: the output file was not written, said \"bye\"".to_owned(),
                earned: None,
            },
        ];
        assert_eq!(
            csv(&rows),
            "student,program,check,reason,rank,games,wins,draws,losses,points,forfeits,rating,interval\n\
             alice,Python 3,passed,,1,4,3,1,0,7,,0,\n\
             '=dave,\"C, built with `gcc -O2 -o maxconnect4 main.c -lm`\",dropped,\
             \"no output: the output file was not written, said \"\"bye\"\"\",,,,,,,,,\n"
        );
    }
}
