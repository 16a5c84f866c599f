//! A tournament's crosstable: who beat whom. For every ordered pair of
//! players, the row player's wins, draws and losses against the column
//! player, counted from the game records (a forfeit is a loss), as a table
//! for the terminal and as CSV, one line per pair, for a spreadsheet.

use maxconnect4_game::player::Player;
use maxconnect4_game::printable::{NAME, csv_field, padded, printable};
use maxconnect4_game::rules::Outcome;
use std::fmt::Write as _;

use crate::referee::log::GameRecord;
use crate::referee::standings::{POINTS, Standing};

/// One player's results against one opponent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeadToHead {
    /// Games the player won against the opponent.
    pub wins: u32,
    /// Games drawn between the two.
    pub draws: u32,
    /// Games the player lost against the opponent, forfeits included.
    pub losses: u32,
}

impl HeadToHead {
    /// Games played between the two.
    #[must_use]
    pub const fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points earned in them, as the standings count them.
    #[must_use]
    pub const fn points(self) -> u32 {
        self.wins * POINTS[0] + self.draws * POINTS[1] + self.losses * POINTS[2]
    }
}

/// Every pair's head-to-head results, the players in the standings' order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    /// The players, best first.
    pub names: Vec<String>,
    /// `results[row][column]`: the row player against the column player.
    pub results: Vec<Vec<HeadToHead>>,
}

/// The crosstable of the players of `standings` after `records`; games of
/// players not in the standings are left out.
#[must_use]
pub fn crosstable(standings: &[Standing], records: &[&GameRecord]) -> Crosstable {
    let names: Vec<String> = standings.iter().map(|standing| standing.name.clone()).collect();
    let mut results = vec![vec![HeadToHead::default(); names.len()]; names.len()];
    let index = |name: &str| names.iter().position(|known| known == name);
    for record in records {
        let (Some(red), Some(green)) = (index(&record.red.name), index(&record.green.name)) else {
            continue;
        };
        for (colour, row, column) in [(Player::One, red, green), (Player::Two, green, red)] {
            let cell = &mut results[row][column];
            match record.result {
                Outcome::Draw => cell.draws += 1,
                result if result.winner() == Some(colour) => cell.wins += 1,
                _ => cell.losses += 1,
            }
        }
    }
    Crosstable { names, results }
}

impl Crosstable {
    /// The table for the terminal: a row per player, a column per opponent,
    /// each cell `wins-draws-losses`, `-` against itself.
    #[must_use]
    pub fn table(&self) -> String {
        let cell = |row: usize, column: usize| {
            let result = self.results[row][column];
            if row == column { "-".to_owned() } else { format!("{}-{}-{}", result.wins, result.draws, result.losses) }
        };
        let names: Vec<String> = self.names.iter().map(|name| printable(name, NAME)).collect();
        let length = |text: &str| text.chars().count();
        let first = names.iter().map(|name| length(name)).max().unwrap_or(0);
        let widths: Vec<usize> = (0..names.len())
            .map(|column| {
                (0..names.len()).map(|row| cell(row, column).len()).max().unwrap_or(0).max(length(&names[column]))
            })
            .collect();
        let mut text = String::from("Crosstable (each row's wins-draws-losses against each column):\n");
        let header: Vec<String> = names.iter().zip(&widths).map(|(name, &width)| padded(name, width)).collect();
        let _ = writeln!(text, "{}  {}", padded("", first), header.join("  ").trim_end());
        for (row, name) in names.iter().enumerate() {
            let cells: Vec<String> =
                widths.iter().enumerate().map(|(column, &width)| padded(&cell(row, column), width)).collect();
            let _ = writeln!(text, "{}  {}", padded(name, first), cells.join("  ").trim_end());
        }
        text
    }

    /// The CSV: a header, then a line for each ordered pair that played.
    #[must_use]
    pub fn csv(&self) -> String {
        let mut text = String::from("player,opponent,games,wins,draws,losses,points\n");
        for (row, player) in self.names.iter().enumerate() {
            for (column, opponent) in self.names.iter().enumerate() {
                let result = self.results[row][column];
                if row != column && result.games() > 0 {
                    let HeadToHead { wins, draws, losses } = result;
                    let (games, points) = (result.games(), result.points());
                    let (player, opponent) = (csv_field(player), csv_field(opponent));
                    let _ = writeln!(text, "{player},{opponent},{games},{wins},{draws},{losses},{points}");
                }
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::standings::standings;

    fn record(red: &str, green: &str, result: &str) -> GameRecord {
        let line = format!(
            r#"{{"id":"1","red":{{"name":"{red}","command":"self"}},"green":{{"name":"{green}","command":"self"}},"depth":3,"timeout":1.0,"start":"000000000000000000000000000000000000000000","moves":"","score":{{"red":0,"green":0}},"result":"{result}","turns":[]}}"#
        );
        serde_json::from_str(&line).unwrap()
    }

    #[test]
    fn each_pair_is_counted_from_both_sides_in_the_standings_order() {
        let games = [
            record("a", "b", "red"),
            record("b", "a", "red"),
            record("a", "c", "draw"),
            record("c", "a", "green"),
            record("b", "c", "red"),
        ];
        let records: Vec<&GameRecord> = games.iter().collect();
        let names = ["c", "b", "a"].map(str::to_owned);
        let table = crosstable(&standings(&names, &records), &records);
        // a: 1 win and 1 loss against b, 1 win and 1 draw against c: 6 points.
        assert_eq!(table.names, ["a", "b", "c"]);
        let h = |wins, draws, losses| HeadToHead { wins, draws, losses };
        assert_eq!(table.results[0], [h(0, 0, 0), h(1, 0, 1), h(1, 1, 0)]);
        assert_eq!(table.results[1], [h(1, 0, 1), h(0, 0, 0), h(1, 0, 0)]);
        assert_eq!(table.results[2], [h(0, 1, 1), h(0, 0, 1), h(0, 0, 0)]);
        assert_eq!(
            table.table(),
            "Crosstable (each row's wins-draws-losses against each column):\n\
             \u{20}  a      b      c\n\
             a  -      1-0-1  1-1-0\n\
             b  1-0-1  -      1-0-0\n\
             c  0-1-1  0-0-1  -\n"
        );
        assert_eq!(
            table.csv(),
            "player,opponent,games,wins,draws,losses,points\n\
             a,b,2,1,0,1,2\na,c,2,1,1,0,3\nb,a,2,1,0,1,2\nb,c,1,1,0,0,2\nc,a,2,0,1,1,1\nc,b,1,0,0,1,0\n"
        );
    }
}
