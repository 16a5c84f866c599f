//! A tournament's results, from its game records to what it prints and
//! writes: the standings, the crosstable, the ratings, the chart, their CSV
//! files and the terminal report.
//!
//! They are made from records alone (whoever played them: a tournament that
//! just ended, or logs read again), so a tournament and a command that reads
//! logs show the same results. Every file is written whole or not at all,
//! and the set of them together ([`atomic`](maxconnect4_io::whole)), so a reader
//! never sees half a page or standings from one run beside ratings from
//! another.

use maxconnect4_game::printable::{NAME, padded, printable};
use std::io::Write;
use std::path::Path;

use crate::referee::Error;
use crate::referee::chart;
use crate::referee::crosstable::{Crosstable, crosstable};
use crate::referee::figures::{self, Figures, figures, figures_table};
use crate::referee::gradebook::{self, Entry};
use crate::referee::log::GameRecord;
use crate::referee::page;
use crate::referee::ratings::{Rating, ratings, ratings_csv, ratings_table};
use crate::referee::standings::{Standing, forfeit_reasons, standings, standings_table};
use maxconnect4_io::whole;

/// The results of a set of games between named players.
pub struct Results {
    /// The games counted, each once.
    records: Vec<GameRecord>,
    /// The player rated 0.
    anchor: String,
    standings: Vec<Standing>,
    crosstable: Crosstable,
    /// In the standings' order.
    ratings: Vec<Rating>,
    /// In the standings' order.
    figures: Vec<Figures>,
    /// What the games do not say of the entrants (what was found and
    /// built, the check), for the gradebook.
    entries: Vec<Entry>,
}

impl Results {
    /// The results of `records` for the players `names` (games of anyone
    /// else are left out), rated from `anchor`, or from the first player
    /// when no player has that name. The caller counts each game once.
    #[must_use]
    pub fn new(names: Vec<String>, anchor: &str, records: Vec<GameRecord>) -> Results {
        let records: Vec<GameRecord> = records
            .into_iter()
            .filter(|record| names.contains(&record.red.name) && names.contains(&record.green.name))
            .collect();
        let counted: Vec<&GameRecord> = records.iter().collect();
        let standings = standings(&names, &counted);
        let crosstable = crosstable(&standings, &counted);
        let anchor =
            if names.iter().any(|name| name == anchor) { anchor } else { names.first().map_or("", String::as_str) };
        // The ratings in the standings' order, measured from the anchor;
        // a player with no games (dropped) is not rated, and comes last as
        // in the standings, rather than at the prior's guess.
        let ranked: Vec<String> =
            standings.iter().filter(|standing| standing.games > 0).map(|standing| standing.name.clone()).collect();
        let mut ratings = if ranked.is_empty() {
            Vec::new()
        } else {
            ratings(&ranked, &counted, ranked.iter().position(|name| name == anchor).unwrap_or(0))
        };
        let unrated = standings.iter().filter(|standing| standing.games == 0);
        ratings.extend(unrated.map(|standing| Rating {
            name: standing.name.clone(),
            elo: f64::NAN,
            margin: f64::INFINITY,
        }));
        let figures = figures(&standings, &counted);
        Results { anchor: anchor.to_owned(), standings, crosstable, ratings, figures, records, entries: Vec::new() }
    }

    /// These results, with what the tournament's manifest says of its
    /// entrants that the games do not ([`Entry`]), for the gradebook.
    #[must_use]
    pub fn with_entries(mut self, entries: Vec<Entry>) -> Results {
        self.entries = entries;
        self
    }

    /// The gradebook: a row per player, in the standings' order.
    #[must_use]
    pub fn gradebook(&self) -> Vec<gradebook::Row> {
        gradebook::of_tournament(&self.standings, &self.figures, &self.ratings, &self.entries)
    }

    /// The standings, best first.
    #[must_use]
    pub fn standings(&self) -> &[Standing] {
        &self.standings
    }

    /// The games counted.
    #[must_use]
    pub fn records(&self) -> &[GameRecord] {
        &self.records
    }

    /// Each player's command as its games logged it (the first game's), in
    /// the standings' order.
    #[must_use]
    pub fn commands(&self) -> Vec<(&str, &str)> {
        commands(&self.standings, &self.records)
    }

    /// Writes every file of the results into `directory` (made if need be,
    /// in a folder that exists: [`maxconnect4_io::whole::make_folder`]): `standings.csv` (with each player's figures in its last
    /// columns), `.png` and `.svg`, `crosstable.csv`,
    /// `ratings.csv` and the page, `results.html`. Each is written to a temporary file beside it, and
    /// all are put in place together or, on a failure, none.
    ///
    /// # Errors
    /// When the chart cannot be drawn or a file cannot be written.
    pub fn write(&self, directory: &Path) -> Result<(), Error> {
        // A folder made here is removed again if the files cannot be
        // written (a full disk): a failure leaves nothing behind.
        let made = maxconnect4_io::whole::make_folder(directory)?;
        let written = self.write_into(directory);
        if written.is_err() && made {
            let _ = std::fs::remove_dir(directory);
        }
        written
    }

    /// [`write`](Self::write) into `directory`, which exists.
    fn write_into(&self, directory: &Path) -> Result<(), Error> {
        let (png, svg) = chart::draw(&self.standings, self.records.len())?;
        let files = [
            ("standings.csv", figures::standings_csv(&self.standings, &self.figures).into_bytes()),
            ("standings.png", png),
            ("standings.svg", svg.into_bytes()),
            ("crosstable.csv", self.crosstable.csv().into_bytes()),
            ("ratings.csv", ratings_csv(&self.ratings).into_bytes()),
            ("gradebook.csv", gradebook::csv(&self.gradebook()).into_bytes()),
            ("results.html", self.page(directory).into_bytes()),
        ];
        let staged = files
            .iter()
            .map(|(name, contents)| whole::stage(&directory.join(name), contents))
            .collect::<Result<Vec<_>, _>>()?;
        whole::put_all_in_place(staged)?;
        Ok(())
    }

    /// The results page, `results.html`, to be written in `directory`.
    #[must_use]
    pub fn page(&self, directory: &Path) -> String {
        page::render(&page::Contents {
            records: &self.records,
            standings: &self.standings,
            crosstable: &self.crosstable,
            ratings: &self.ratings,
            figures: &self.figures,
            anchor: &self.anchor,
            commands: &self.commands(),
            directory,
        })
    }

    /// Prints the results for the terminal: the standings, each player's
    /// time and forfeits, the forfeits' reasons, the crosstable and the
    /// ratings, then where [`write`](Self::write) put the files in `directory`.
    ///
    /// # Errors
    /// When `out` cannot be written.
    pub fn report(&self, out: &mut dyn Write, directory: &Path) -> Result<(), Error> {
        let counted: Vec<&GameRecord> = self.records.iter().collect();
        write!(
            out,
            "\n{}\nCommands:\n{}\n{}{}\n{}\n{}\nStandings written to {}.csv, .png and .svg, the crosstable and ratings to {} and {}.\nThe gradebook, a row per student: {}\nThe results page, to publish or open from disk: {}\n",
            standings_table(&self.standings),
            commands_table(&self.commands()),
            figures_table(&self.figures),
            forfeit_reasons(&self.standings, &counted),
            self.crosstable.table(),
            ratings_table(&self.ratings, &self.anchor),
            directory.join("standings").display(),
            directory.join("crosstable.csv").display(),
            directory.join("ratings.csv").display(),
            directory.join("gradebook.csv").display(),
            directory.join("results.html").display()
        )
        .map_err(Error::terminal)
    }
}

/// Each of `standings`' players' command, from the first of `records` it
/// played; empty for a player with no game.
fn commands<'a>(standings: &'a [Standing], records: &'a [GameRecord]) -> Vec<(&'a str, &'a str)> {
    let command = |name: &str| {
        let sides = records.iter().flat_map(|record| [&record.red, &record.green]);
        sides.into_iter().find(|side| side.name == name).map_or("", |side| side.command.as_str())
    };
    standings.iter().map(|standing| (standing.name.as_str(), command(&standing.name))).collect()
}

/// Each player's command, a line each, the names aligned: what a log says,
/// so every control character is escaped and a long command shortened.
fn commands_table(commands: &[(&str, &str)]) -> String {
    let names: Vec<String> = commands.iter().map(|(name, _)| printable(name, NAME)).collect();
    let width = names.iter().map(|name| name.chars().count()).max().unwrap_or(0);
    let mut text = String::new();
    for (name, (_, command)) in names.iter().zip(commands) {
        let line = format!("{}  {}", padded(name, width), printable(command, COMMAND));
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// How many characters of a command the terminal shows.
const COMMAND: usize = 200;

#[cfg(test)]
mod tests {
    use super::*;

    /// Games between `a` and `b` from the empty board: `a` wins as red,
    /// `b` wins as red, and `a` as green by `b`'s forfeit.
    fn records() -> Vec<GameRecord> {
        let game = |id: &str, red: &str, green: &str, result: &str, forfeit: serde_json::Value| {
            serde_json::from_value(serde_json::json!({
                "id": id, "red": {"name": red, "command": "self"}, "green": {"name": green, "command": "self"},
                "depth": 1, "timeout": 2.0, "start": "0000000/0000000/0000000/0000000/0000000/0000000 1",
                "opening": "", "moves": "1212121", "score": {"red": 1, "green": 0}, "result": result,
                "forfeit": forfeit,
                "turns": [{"player": "red", "column": 1, "wall": 0.5, "cpu": 0.25}],
            }))
            .unwrap()
        };
        let forfeit = serde_json::json!({"player": "red", "verdict": "timeout", "reason": "timeout: 2 s"});
        vec![
            game("1", "a", "b", "red", serde_json::Value::Null),
            game("2", "b", "a", "red", serde_json::Value::Null),
            game("3", "b", "a", "green", forfeit),
        ]
    }

    fn names() -> Vec<String> {
        vec!["b".to_owned(), "a".to_owned()]
    }

    #[test]
    fn every_file_is_written_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("results");
        Results::new(names(), "a", records()).write(&out).unwrap();
        let mut written: Vec<String> =
            std::fs::read_dir(&out).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
        written.sort();
        let expected = [
            "crosstable.csv",
            "gradebook.csv",
            "ratings.csv",
            "results.html",
            "standings.csv",
            "standings.png",
            "standings.svg",
        ];
        assert_eq!(written, expected, "no temporary file is left behind");
        let standings = std::fs::read_to_string(out.join("standings.csv")).unwrap();
        assert!(standings.lines().nth(1).unwrap().starts_with("1,a,3,2,0,1,0,4,+0,"), "{standings}");
        assert!(std::fs::read_to_string(out.join("results.html")).unwrap().contains(r#""forfeits":[["timeout",1]]"#));
    }

    #[test]
    fn a_file_that_cannot_be_written_leaves_the_others_unwritten() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("results.html")).unwrap();
        let error = Results::new(names(), "a", records()).write(dir.path()).unwrap_err();
        assert!(error.to_string().ends_with("results.html: it is a directory; give the name of a file"), "{error}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|entry| entry.unwrap().file_name()).collect();
        assert_eq!(left, ["results.html"], "all the files or none");
    }

    #[test]
    fn the_report_has_every_table_and_names_the_files() {
        // An anchor that is not a player: the first player is rated 0.
        let results = Results::new(names(), "nobody", records());
        assert_eq!(results.standings().iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        let mut out = Vec::new();
        results.report(&mut out, Path::new("t")).unwrap();
        let text = String::from_utf8(out).unwrap();
        let order = [
            "\nrank  player  games",
            "\nTime and forfeits (",
            "\nb           2        0.500       0.500  0.500           0  timeout 1\n",
            "\nForfeits (the whole reasons are in the log):\nb forfeited 1 game:\n",
            "\nCrosstable (",
            "\nRatings (Elo scale, b at 0, with 95% intervals):\n",
            "\nStandings written to t/standings.csv, .png and .svg, the crosstable and ratings to t/crosstable.csv and \
             t/ratings.csv.\nThe gradebook, a row per student: t/gradebook.csv\nThe results page, to publish or open from disk: \
             t/results.html\n",
        ];
        let mut from = 0;
        for part in order {
            let at = text[from..].find(part).unwrap_or_else(|| panic!("{part:?} after byte {from} of:\n{text}"));
            from += at + part.len();
        }
        assert_eq!(from, text.len(), "{text}");
    }

    #[test]
    fn no_players_make_empty_results() {
        // A command reading logs may find no game between the players it names.
        let results = Results::new(Vec::new(), "", records());
        assert!(results.standings().is_empty() && results.records().is_empty());
        let mut out = Vec::new();
        results.report(&mut out, Path::new("t")).unwrap();
        assert!(results.page(Path::new("t")).contains(r#""games":[]"#));
    }

    #[test]
    fn a_command_is_one_line_however_it_was_written() {
        let long = "x".repeat(300);
        let table = commands_table(&[("me", "self"), ("mallory", "evil\r\nme  self\u{1b}[2J"), ("long", &long)]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 3, "{table}");
        assert_eq!(lines[0], "me       self");
        assert_eq!(lines[1], "mallory  evil\\r\\nme  self\\u{1b}[2J");
        assert_eq!(lines[2].chars().count(), "long     ".len() + 200 + 1);
        assert!(lines[2].ends_with('…'));
    }

    /// The games of [`records`] between players named `a` and `b`, the
    /// forfeit's reason being `reason`.
    fn records_of(a: &str, b: &str, reason: &str) -> Vec<GameRecord> {
        records()
            .into_iter()
            .map(|mut record| {
                for side in [&mut record.red, &mut record.green] {
                    side.name = if side.name == "a" { a.to_owned() } else { b.to_owned() };
                    side.command = side.name.clone();
                }
                if let Some(forfeit) = record.forfeit.as_mut() {
                    forfeit.reason = reason.to_owned();
                    forfeit.verdict = reason.to_owned();
                }
                record
            })
            .collect()
    }

    /// Every text output of the results of `a` against `b`: each row one
    /// line, no control character but the line ends, each CSV file as many
    /// records as players (or pairs) with its header's fields, and the page's
    /// data holding the names as they are.
    fn every_output_stays_well_formed(a: &str, b: &str, reason: &str) {
        let results = Results::new(vec![a.to_owned(), b.to_owned()], a, records_of(a, b, reason));
        let mut report = Vec::new();
        results.report(&mut report, Path::new("out")).unwrap();
        let report = String::from_utf8(report).unwrap();
        assert!(!report.chars().any(|c| c.is_control() && c != '\n'), "{report:?}");
        let standings = report.split("\n\n").nth(1).unwrap();
        assert_eq!(standings.lines().count(), 3, "a header and a row per player: {standings:?}");
        for line in report.lines() {
            assert!(line.chars().count() < 2000, "a line shortened: {}", line.chars().count());
        }
        let counted: Vec<&GameRecord> = results.records.iter().collect();
        for (csv, rows) in [
            (figures::standings_csv(&results.standings, &results.figures), 2),
            (results.crosstable.csv(), 2),
            (ratings_csv(&results.ratings), 2),
        ] {
            assert_eq!(csv.lines().count(), rows + 1, "one line per row: {csv:?}");
            let mut reader = csv::ReaderBuilder::new().from_reader(csv.as_bytes());
            let fields = reader.headers().unwrap().len();
            let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
            assert_eq!(records.len(), rows);
            assert!(records.iter().all(|record| record.len() == fields), "{csv:?}");
        }
        let page = results.page(Path::new("out"));
        let start = page.find("id=\"results-data\">").unwrap();
        let json = &page[start + "id=\"results-data\">".len()..];
        let data: serde_json::Value = serde_json::from_str(&json[..json.find("</script>").unwrap()]).unwrap();
        let shown: Vec<&str> =
            data["standings"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
        assert!(shown.contains(&a) && shown.contains(&b));
        drop(counted);
    }

    #[test]
    fn a_name_of_seventy_thousand_characters_and_one_with_a_carriage_return() {
        every_output_stays_well_formed(&"x".repeat(70_000), "line\rover\nwritten,\"quoted\"", &"why".repeat(30_000));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn any_names_and_reasons_stay_one_row(a in "\\PC{1,80}|[\\x00-\\x1f,\"\\\\]{1,20}", b in ".{1,80}", reason in "(?s).{0,200}") {
            proptest::prop_assume!(a != b);
            every_output_stays_well_formed(&a, &b, &reason);
        }
    }
}
