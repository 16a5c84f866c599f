//! Per-player figures of a tournament: how much time each program took and
//! how it lost the games it forfeited, counted from the game records' turns.
//!
//! An instructor asks of each program not only how it placed but whether it
//! played near the time limit (and so may forfeit on a slower machine), how
//! much CPU it burned, and why it forfeited. Every turn a program was asked
//! to move counts, the one it forfeited included: its time was spent.

use maxconnect4_game::player::Player;
use maxconnect4_game::printable::csv_field;
use std::fmt::Write as _;

use crate::referee::log::GameRecord;
use crate::referee::standings::{self, Standing};

/// A move that took at least this share of its time limit was near it.
pub const NEAR_LIMIT: f64 = 0.9;

/// One player's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// The player's name.
    pub name: String,
    /// Turns the player was asked to move.
    pub moves: u32,
    /// Wall-clock seconds of all its turns.
    pub wall: f64,
    /// The longest turn, in wall-clock seconds.
    pub longest: f64,
    /// CPU seconds of all its turns; none when no turn was measured (a person).
    pub cpu: Option<f64>,
    /// Turns that took at least [`NEAR_LIMIT`] of the game's time per move.
    pub near_limit: u32,
    /// Each verdict it forfeited by, with its count, in the order first met.
    pub forfeits: Vec<(String, u32)>,
    /// Own score minus the opponents', as in the standings.
    pub score_difference: i64,
}

impl Figures {
    /// Mean wall-clock seconds per turn; none without turns.
    #[must_use]
    pub fn mean(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.wall / f64::from(self.moves))
    }

    /// The forfeits as `time-limit 2, memory-limit 1`; empty for none.
    #[must_use]
    pub fn forfeits_text(&self) -> String {
        let each: Vec<String> = self.forfeits.iter().map(|(verdict, count)| format!("{verdict} {count}")).collect();
        each.join(", ")
    }

    /// The cells of [`COLUMNS`]: seconds to the millisecond, `none` where
    /// there is nothing to measure or no forfeit.
    fn cells(&self, none: &str) -> [String; 6] {
        let or_none = |text: String| if text.is_empty() { none.to_owned() } else { text };
        let seconds = |value: Option<f64>| or_none(value.map_or_else(String::new, |value| format!("{value:.3}")));
        [
            self.moves.to_string(),
            seconds(self.mean()),
            seconds((self.moves > 0).then_some(self.longest)),
            seconds(self.cpu),
            self.near_limit.to_string(),
            or_none(self.forfeits_text()),
        ]
    }
}

/// The figures' columns, after the player's name.
pub const COLUMNS: [&str; 6] = ["moves", "mean s/move", "max s/move", "cpu s", "near limit", "forfeits"];

/// The same columns as the standings CSV names them, appended to its own.
const CSV_COLUMNS: [&str; 6] =
    ["moves", "mean_move_seconds", "max_move_seconds", "cpu_seconds", "moves_near_limit", "forfeits_by_verdict"];

/// The figures of each player of `standings`, in its order, from `records`.
#[must_use]
pub fn figures(standings: &[Standing], records: &[&GameRecord]) -> Vec<Figures> {
    standings
        .iter()
        .map(|standing| {
            let mut figures = Figures {
                name: standing.name.clone(),
                moves: 0,
                wall: 0.0,
                longest: 0.0,
                cpu: None,
                near_limit: 0,
                forfeits: Vec::new(),
                score_difference: standing.score_difference,
            };
            for record in records {
                for colour in Player::BOTH.into_iter().filter(|&colour| record.side(colour).name == standing.name) {
                    figures.add(record, colour);
                }
            }
            figures
        })
        .collect()
}

impl Figures {
    /// Counts the turns and the forfeit of `colour` in `record`.
    fn add(&mut self, record: &GameRecord, colour: Player) {
        for turn in record.turns.iter().filter(|turn| turn.player == colour) {
            self.moves += 1;
            self.wall += turn.wall;
            self.longest = self.longest.max(turn.wall);
            if let Some(cpu) = turn.cpu {
                *self.cpu.get_or_insert(0.0) += cpu;
            }
            self.near_limit += u32::from(turn.wall >= NEAR_LIMIT * record.settings.timeout.as_secs_f64());
        }
        if let Some(forfeit) = record.forfeit.as_ref().filter(|forfeit| forfeit.player == colour) {
            match self.forfeits.iter_mut().find(|(verdict, _)| *verdict == forfeit.verdict) {
                Some((_, count)) => *count += 1,
                None => self.forfeits.push((forfeit.verdict.clone(), 1)),
            }
        }
    }
}

/// The figures as a table for the terminal, headed `Time and forfeits`.
#[must_use]
pub fn figures_table(figures: &[Figures]) -> String {
    let header = std::iter::once("player").chain(COLUMNS).map(str::to_owned).collect();
    let rows = figures.iter().map(|figures| std::iter::once(figures.name.clone()).chain(figures.cells("-")).collect());
    // The name and the forfeits are words, the rest numbers.
    let table = standings::aligned(std::iter::once(header).chain(rows).collect(), &[0, COLUMNS.len()]);
    format!(
        "Time and forfeits (seconds per move; near limit: moves that took at least {}% of the time allowed):\n{table}",
        NEAR_LIMIT * 100.0
    )
}

/// The standings CSV with the figures' columns at the end of each line, so
/// that readers of the standings' own columns read it as before; a cell
/// with nothing to measure is empty.
#[must_use]
pub fn standings_csv(standings: &[Standing], figures: &[Figures]) -> String {
    let base = standings::standings_csv(standings);
    let header = CSV_COLUMNS.join(",");
    let rows = figures.iter().map(|figures| figures.cells("").map(|cell| csv_field(&cell)).join(","));
    let mut text = String::new();
    for (line, extra) in base.lines().zip(std::iter::once(header).chain(rows)) {
        let _ = writeln!(text, "{line},{extra}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::log::{ForfeitRecord, TurnRecord};
    use crate::referee::standings::standings;
    use maxconnect4_game::rules::Outcome;

    /// A game between `red` and `green` with a time limit of 10 s and the
    /// `turns` given as (colour, wall, cpu), forfeited by `forfeit`'s
    /// colour with its verdict, if any.
    fn game(
        red: &str,
        green: &str,
        turns: &[(Player, f64, Option<f64>)],
        forfeit: Option<(Player, &str)>,
    ) -> GameRecord {
        let line = format!(
            r#"{{"id":"1","red":{{"name":"{red}","command":"self"}},"green":{{"name":"{green}","command":"self"}},"depth":3,"timeout":10.0,"start":"0000000/0000000/0000000/0000000/0000000/0000000 1","moves":"","score":{{"red":3,"green":1}},"result":"red","forfeit":null,"turns":[]}}"#
        );
        let mut record: GameRecord = serde_json::from_str(&line).unwrap();
        record.turns = turns
            .iter()
            .map(|&(player, wall, cpu)| TurnRecord { player, column: Some(1), wall, cpu, ending: None, clock: None })
            .collect();
        record.forfeit = forfeit.map(|(player, verdict)| ForfeitRecord {
            player,
            verdict: verdict.to_owned(),
            reason: format!("{verdict}: why"),
        });
        if let Some((player, _)) = forfeit {
            record.result = Outcome::Win(player.other());
        }
        record
    }

    #[test]
    fn times_near_limit_cpu_and_forfeits_by_verdict() {
        use Player::{One, Two};
        let games = [
            // a: 1, 9 (exactly 90% of 10 s: near the limit), 2; b: 3.
            game("a", "b", &[(One, 1.0, Some(0.5)), (Two, 3.0, Some(2.0)), (One, 9.0, Some(8.0))], None),
            // b forfeits on time (10.5 s), a plays 2 s.
            game("a", "b", &[(One, 2.0, Some(1.5)), (Two, 10.5, Some(10.0))], Some((Two, "timeout"))),
            // b forfeits twice more, once by memory: b is green here.
            game("a", "b", &[(One, 0.0, Some(0.0)), (Two, 0.2, None)], Some((Two, "memory-limit"))),
            game("b", "a", &[(One, 8.9, Some(1.0))], Some((One, "timeout"))),
        ];
        let records: Vec<&GameRecord> = games.iter().collect();
        let table = standings(&["a".to_owned(), "b".to_owned()], &records);
        let figures = figures(&table, &records);
        let a = &figures[0];
        assert_eq!((a.name.as_str(), a.moves, a.near_limit), ("a", 4, 1));
        assert_eq!((a.mean(), a.longest, a.cpu), (Some(3.0), 9.0, Some(10.0)));
        assert!(a.forfeits.is_empty());
        let b = &figures[1];
        assert_eq!((b.moves, b.near_limit, b.longest), (4, 1, 10.5));
        assert_eq!(b.mean(), Some(22.6 / 4.0));
        assert_eq!(b.cpu, Some(13.0), "a turn with no CPU time adds none");
        assert_eq!(b.forfeits_text(), "timeout 2, memory-limit 1");
        assert_eq!(b.score_difference, -2, "the one game played to the end, lost 1 to 3");
        assert_eq!(
            figures_table(&figures),
            "Time and forfeits (seconds per move; near limit: moves that took at least 90% of the time allowed):\n\
             player  moves  mean s/move  max s/move   cpu s  near limit  forfeits\n\
             a           4        3.000       9.000  10.000           1  -\n\
             b           4        5.650      10.500  13.000           1  timeout 2, memory-limit 1\n"
        );
        let csv = standings_csv(&table, &figures);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "rank,player,games,wins,draws,losses,forfeits,points,score_difference,\
             moves,mean_move_seconds,max_move_seconds,cpu_seconds,moves_near_limit,forfeits_by_verdict"
        );
        assert_eq!(lines[2], "2,b,4,0,0,4,3,0,-2,4,5.650,10.500,13.000,1,\"timeout 2, memory-limit 1\"");
    }

    #[test]
    fn a_player_without_turns_or_cpu_times_shows_dashes() {
        let games = [game("a", "b", &[(Player::One, 0.5, None)], Some((Player::Two, "failed-to-start")))];
        let records: Vec<&GameRecord> = games.iter().collect();
        let table = standings(&["a".to_owned(), "b".to_owned()], &records);
        let figures = figures(&table, &records);
        assert_eq!(figures[0].cells("-"), ["1", "0.500", "0.500", "-", "0", "-"].map(str::to_owned));
        assert_eq!(figures[1].cells("-"), ["0", "-", "-", "-", "0", "failed-to-start 1"].map(str::to_owned));
        let csv = standings_csv(&table, &figures);
        assert_eq!(csv.lines().nth(2), Some("2,b,1,0,0,1,1,0,+0,0,,,,0,failed-to-start 1"), "empty cells, not dashes");
    }

    #[test]
    fn a_cell_with_a_comma_or_quote_is_quoted() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "two\\nlines", "one line");
    }
}
