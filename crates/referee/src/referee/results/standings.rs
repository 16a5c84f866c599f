//! A tournament's standings: each player's games, wins, draws, losses,
//! forfeits, points and score difference, counted from the game records
//! and ranked, as a table for the terminal, as CSV, and the forfeits' reasons
//! under the table. The tournament makes them and the chart draws them.

use maxconnect4_game::player::Player;
use maxconnect4_game::printable::{LINE, NAME, csv_field, padded, printable, right};
use maxconnect4_game::rules::Outcome;
use std::fmt::Write as _;

use crate::referee::log::GameRecord;

/// Points for a win, a draw and a loss (a forfeit is a loss).
pub const POINTS: [u32; 3] = [2, 1, 0];

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The player's name.
    pub name: String,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost, forfeits included.
    pub losses: u32,
    /// Losses by forfeit (these count among the losses too).
    pub forfeits: u32,
    /// Points by [`POINTS`].
    pub points: u32,
    /// Own score minus the opponent's, summed over games played to the end.
    pub score_difference: i64,
}

/// The standings of `names` after `records`, best first: a player who
/// played no game last; then by points; at equal points fewer forfeits
/// first (a game lost by forfeit ranks below one lost at the board, whose
/// score difference it would otherwise beat with its +0); then score
/// difference, then wins, then name.
#[must_use]
pub fn standings(names: &[String], records: &[&GameRecord]) -> Vec<Standing> {
    let mut table: Vec<Standing> = names
        .iter()
        .map(|name| Standing {
            name: name.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            forfeits: 0,
            points: 0,
            score_difference: 0,
        })
        .collect();
    for record in records {
        for colour in Player::BOTH {
            let Some(standing) = table.iter_mut().find(|standing| standing.name == record.side(colour).name) else {
                continue;
            };
            standing.games += 1;
            match record.result {
                Outcome::Draw => standing.draws += 1,
                result if result.winner() == Some(colour) => standing.wins += 1,
                _ => standing.losses += 1,
            }
            match &record.forfeit {
                Some(forfeit) => standing.forfeits += u32::from(forfeit.player == colour),
                None => standing.score_difference += record.score_difference(colour),
            }
        }
    }
    for standing in &mut table {
        standing.points = standing.wins * POINTS[0] + standing.draws * POINTS[1] + standing.losses * POINTS[2];
    }
    table.sort_by_key(|standing| {
        let earned = (standing.games > 0, standing.points, std::cmp::Reverse(standing.forfeits));
        (std::cmp::Reverse((earned, standing.score_difference, standing.wins)), standing.name.clone())
    });
    table
}

impl Standing {
    /// The line of the standings at `rank` (from 1), as [`COLUMNS`] name them.
    fn cells(&self, rank: usize) -> [String; 9] {
        let counts = [self.games, self.wins, self.draws, self.losses, self.forfeits, self.points];
        let [games, wins, draws, losses, forfeits, points] = counts.map(|count| count.to_string());
        let difference = format!("{:+}", self.score_difference);
        [rank.to_string(), self.name.clone(), games, wins, draws, losses, forfeits, points, difference]
    }
}

/// The columns of the standings table.
pub const COLUMNS: [&str; 9] =
    ["rank", "player", "games", "wins", "draws", "losses", "forfeits", "points", "score difference"];

/// The standings as a table for the terminal: the name left-aligned, the
/// numbers right-aligned.
#[must_use]
pub fn standings_table(standings: &[Standing]) -> String {
    let rows = standings.iter().enumerate().map(|(index, s)| s.cells(index + 1).to_vec());
    aligned(std::iter::once(COLUMNS.map(str::to_owned).to_vec()).chain(rows).collect(), &[1])
}

/// `rows` (a header first) as lines of columns two spaces apart, as wide as
/// their widest cell: the columns numbered in `left` left-aligned (words),
/// the rest right-aligned (numbers).
#[must_use]
pub fn aligned(rows: Vec<Vec<String>>, left: &[usize]) -> String {
    // A cell may be a name from a log: escaped, and shortened to fit.
    let rows: Vec<Vec<String>> =
        rows.into_iter().map(|row| row.iter().map(|cell| printable(cell, NAME)).collect()).collect();
    let mut widths: Vec<usize> = Vec::new();
    for row in &rows {
        widths.resize(widths.len().max(row.len()), 0);
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(
                |(column, (cell, &width))| {
                    if left.contains(&column) { padded(cell, width) } else { right(cell, width) }
                },
            )
            .collect();
        let _ = writeln!(text, "{}", cells.join("  ").trim_end());
    }
    text
}

/// One player's forfeits of one verdict.
pub struct Forfeits<'a> {
    /// The player's name.
    pub player: &'a str,
    /// The verdict's one-word kind, as logged (`timeout`).
    pub verdict: &'a str,
    /// The games forfeited so, in the records' order: never empty.
    pub games: Vec<&'a GameRecord>,
}

impl<'a> Forfeits<'a> {
    /// The reason given the first time.
    #[must_use]
    pub fn reason(&self) -> &'a str {
        self.games[0].forfeit.as_ref().map_or("", |forfeit| forfeit.reason.as_str())
    }
}

/// Every forfeit of the players in `standings` in `records`, by player and
/// verdict: the players in the standings' order, each one's verdicts in the
/// order first met.
#[must_use]
pub fn forfeits<'a>(standings: &'a [Standing], records: &[&'a GameRecord]) -> Vec<Forfeits<'a>> {
    let mut groups: Vec<Forfeits<'a>> = Vec::new();
    for standing in standings.iter().filter(|standing| standing.forfeits > 0) {
        let first = groups.len();
        for &record in records {
            let Some(forfeit) = record.forfeit.as_ref() else { continue };
            if record.side(forfeit.player).name != standing.name {
                continue;
            }
            match groups[first..].iter_mut().find(|group| group.verdict == forfeit.verdict) {
                Some(group) => group.games.push(record),
                None => {
                    groups.push(Forfeits { player: &standing.name, verdict: &forfeit.verdict, games: vec![record] })
                }
            }
        }
    }
    groups
}

/// Why the players in `standings` forfeited in `records`, for the lines
/// under the standings table: per player, each verdict with its count and
/// the reason the first time it was given. Empty when nobody forfeited.
#[must_use]
pub fn forfeit_reasons(standings: &[Standing], records: &[&GameRecord]) -> String {
    let mut text = String::new();
    let groups = forfeits(standings, records);
    for player in groups.chunk_by(|one, other| one.player == other.player) {
        let count: usize = player.iter().map(|group| group.games.len()).sum();
        let games = if count == 1 { "game" } else { "games" };
        let _ = writeln!(text, "{} forfeited {count} {games}:", printable(player[0].player, NAME));
        for group in player {
            let first_line = group.reason().lines().next().unwrap_or_default();
            let (verdict, reason) = (printable(group.verdict, NAME), printable(first_line, LINE));
            let _ = writeln!(text, "  {} × {verdict}, for example: {reason}", group.games.len());
        }
    }
    if text.is_empty() { text } else { format!("\nForfeits (the whole reasons are in the log):\n{text}") }
}

/// The standings as CSV, with a header line (a name from a match's log may
/// hold anything, and is written as one field of text; the numbers as they
/// are, a score difference's sign and all).
#[must_use]
pub fn standings_csv(standings: &[Standing]) -> String {
    let mut text = COLUMNS.map(|column| column.replace(' ', "_")).join(",");
    text.push('\n');
    for (index, standing) in standings.iter().enumerate() {
        let mut cells = standing.cells(index + 1);
        // The name is the one cell of text.
        cells[1] = csv_field(&cells[1]);
        let _ = writeln!(text, "{}", cells.join(","));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of `red` against `green` ending `result`, by `forfeit`'s
    /// forfeit if any, with red ahead by `margin` where it was played out.
    fn game(red: &str, green: &str, result: &str, forfeit: Option<&str>, margin: u32) -> GameRecord {
        let forfeit = forfeit.map_or(
            serde_json::Value::Null,
            |player| serde_json::json!({"player": player, "verdict": "no-output", "reason": "no output"}),
        );
        serde_json::from_value(serde_json::json!({
            "id": format!("{red}+{green}"), "red": {"name": red, "command": "self"},
            "green": {"name": green, "command": "self"}, "depth": 1, "timeout": 2.0,
            "start": "0000000/0000000/0000000/0000000/0000000/0000000 1", "opening": "", "moves": "1",
            "score": {"red": margin, "green": 0}, "result": result, "forfeit": forfeit, "turns": [],
        }))
        .unwrap()
    }

    /// An instructor's gauntlet: `dave` forfeits every game, `carol` and
    /// `bob` lose theirs at the board by much, `eve` plays none. Ranked by
    /// score difference alone, dave's +0 came before carol's and bob's.
    #[test]
    fn a_forfeit_ranks_below_a_game_lost_and_no_game_ranks_last() {
        let records = [
            game("me", "dave", "red", Some("green"), 0),
            game("me", "carol", "red", None, 49),
            game("me", "bob", "red", None, 94),
        ];
        let records: Vec<&GameRecord> = records.iter().collect();
        let names = ["eve", "dave", "carol", "bob", "me"].map(str::to_owned);
        let ranked: Vec<String> = standings(&names, &records).into_iter().map(|standing| standing.name).collect();
        assert_eq!(ranked, ["me", "carol", "bob", "dave", "eve"]);
    }
}
