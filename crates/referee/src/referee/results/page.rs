//! The results page: one self-contained HTML file an instructor can publish
//! or open from disk, with the settings, standings, ratings (their
//! intervals drawn), crosstable, per-player figures, forfeits and every
//! game, each replayable on the page.
//!
//! The page itself (`page.html`: markup, style and script, nothing fetched
//! from elsewhere) is fixed; the results go into it as one JSON blob, which
//! its script turns into tables, a chart and a board. Every text that comes
//! from a log (names, and forfeit reasons holding whatever a program printed)
//! is hostile, so the blob has no `<`, `>` or `&` that could end its script
//! element, and the script puts text in the page as text, never as HTML.
//!
//! A page is published, so it shows no more of the machine that wrote it
//! than the results need: in the commands and reasons, a path in the folder
//! that holds the tournament's folder is shown relative to it (the class
//! beside the tournament: `cd class/alice && ...`), one in the home folder
//! from `~`.

use std::borrow::Cow;
use std::path::Path;

use serde::Serialize;

use crate::referee::crosstable::Crosstable;
use crate::referee::figures::Figures;
use crate::referee::log::GameRecord;
use crate::referee::ratings::Rating;
use crate::referee::standings::{Forfeits, Standing, forfeits};
use maxconnect4_game::player::Player;
use maxconnect4_game::rules::Outcome;

/// The page, with [`PLACEHOLDER`] where the results go.
const TEMPLATE: &str = include_str!("page.html");

/// What stands for the results in [`TEMPLATE`]: a JSON string, so that the
/// template is a valid page on its own.
const PLACEHOLDER: &str = "\"RESULTS DATA\"";

/// What the page shows, made by [`Results`](crate::referee::results::Results).
pub struct Contents<'a> {
    /// The games counted.
    pub records: &'a [GameRecord],
    /// The standings, best first.
    pub standings: &'a [Standing],
    /// Every player's results against every other.
    pub crosstable: &'a Crosstable,
    /// In the standings' order.
    pub ratings: &'a [Rating],
    /// In the standings' order.
    pub figures: &'a [Figures],
    /// The player rated 0.
    pub anchor: &'a str,
    /// Each player's command, in the standings' order.
    pub commands: &'a [(&'a str, &'a str)],
    /// The folder the page is written in, the tournament's.
    pub directory: &'a Path,
}

/// The JSON blob the page's script reads.
#[derive(Serialize)]
struct Data<'a> {
    settings: SettingsSeen,
    anchor: &'a str,
    standings: Vec<StandingData<'a>>,
    ratings: Vec<RatingData<'a>>,
    crosstable: CrosstableData<'a>,
    figures: Vec<FiguresData<'a>>,
    /// Each player's forfeits by verdict, as the terminal's lines count them.
    forfeits: Vec<ForfeitsData<'a>>,
    games: Vec<GameData<'a>>,
}

/// Each setting's values among the games, in the order first met: one
/// value for a tournament, more only for logs played under several.
#[derive(Serialize, Default)]
struct SettingsSeen {
    rules: Vec<String>,
    depth: Vec<u32>,
    timeout: Vec<f64>,
    clock: Vec<Option<f64>>,
    openings: Vec<String>,
}

#[derive(Serialize)]
struct StandingData<'a> {
    name: &'a str,
    /// The player's command, as its games logged it, its paths as the page
    /// shows them.
    command: Cow<'a, str>,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    forfeits: u32,
    points: u32,
    score_difference: i64,
}

/// A rating and its 95% interval's ends; no ends when it is unbounded.
#[derive(Serialize)]
struct RatingData<'a> {
    name: &'a str,
    elo: f64,
    low: Option<f64>,
    high: Option<f64>,
}

#[derive(Serialize)]
struct CrosstableData<'a> {
    names: &'a [String],
    /// `results[row][column]`: the row player's wins, draws and losses
    /// against the column player.
    results: Vec<Vec<[u32; 3]>>,
}

#[derive(Serialize)]
struct FiguresData<'a> {
    name: &'a str,
    moves: u32,
    mean: Option<f64>,
    max: Option<f64>,
    cpu: Option<f64>,
    near_limit: u32,
    forfeits: &'a [(String, u32)],
    score_difference: i64,
}

/// A game as the replay needs it.
#[derive(Serialize)]
struct GameData<'a> {
    id: &'a str,
    red: &'a str,
    green: &'a str,
    rules: String,
    /// The opening's moves (empty for the empty board); none for a game
    /// that started from a position of its own (a match's `--start`).
    opening: Option<&'a str>,
    /// The start position, as the log has it.
    start: &'a str,
    /// The columns played from the start, a digit each.
    moves: &'a str,
    result: Outcome,
    score: crate::referee::log::Scores,
    forfeit: Option<ForfeitData<'a>>,
}

#[derive(Serialize)]
struct ForfeitData<'a> {
    player: Player,
    verdict: &'a str,
    reason: Cow<'a, str>,
}

/// One player's forfeits of one verdict: how many, the first reason, and
/// the games.
#[derive(Serialize)]
struct ForfeitsData<'a> {
    player: &'a str,
    verdict: &'a str,
    count: usize,
    reason: Cow<'a, str>,
    games: Vec<&'a str>,
}

/// Where a path of the machine that wrote the page starts, and what the page
/// shows instead: the folder holding the tournament's folder as `.` (its
/// paths relative to it), the home folder as `~`; the longest first.
struct Places(Vec<(String, &'static str)>);

impl Places {
    /// The places of a page written in `directory`: its parent, as given
    /// (made absolute) and with links resolved, and the home folder. The
    /// root is no such place: every absolute path would lose its `/`.
    fn of(directory: &Path) -> Places {
        let mut places = Vec::new();
        let parents = [std::path::absolute(directory).ok(), directory.canonicalize().ok()];
        for parent in parents.iter().flatten().filter_map(|folder| folder.parent()) {
            places.push((parent.to_string_lossy().into_owned(), "."));
        }
        if let Some(home) = std::env::var_os("HOME") {
            places.push((home.to_string_lossy().into_owned(), "~"));
        }
        Places::new(places)
    }

    fn new(mut places: Vec<(String, &'static str)>) -> Places {
        places.retain(|(place, _)| place.len() > 1 && place.starts_with('/') && !place.ends_with('/'));
        places.sort_by_key(|(place, _)| std::cmp::Reverse(place.len()));
        places.dedup_by(|one, other| one.0 == other.0);
        Places(places)
    }

    /// `text` (a command, a reason) with each path that starts at a place
    /// shown from it: `/tmp/nc/class/alice` as `class/alice` when the
    /// tournament's folder is `/tmp/nc/t`. A place counts where a word, a
    /// quote, an `=` or a `:` starts it, and a `/` or the word's end ends it.
    fn shown<'a>(&self, text: &'a str) -> Cow<'a, str> {
        const BEFORE: [char; 6] = [' ', '\t', '\'', '"', '=', ':'];
        const AFTER: [char; 6] = [' ', '\t', '\'', '"', ':', ';'];
        let mut text = Cow::Borrowed(text);
        for (place, shown) in &self.0 {
            let mut result = String::new();
            let mut rest: &str = &text;
            let mut changed = false;
            while let Some(at) = rest.find(place.as_str()) {
                let starts = rest[..at].chars().next_back().is_none_or(|c| BEFORE.contains(&c));
                let after = &rest[at + place.len()..];
                result.push_str(&rest[..at]);
                if starts && after.starts_with('/') {
                    // `PLACE/x` is `x` from `.`, `~/x` from the home folder.
                    if *shown == "~" {
                        result.push('~');
                    }
                    rest = if *shown == "~" { after } else { &after[1..] };
                    changed = true;
                } else if starts && after.chars().next().is_none_or(|c| AFTER.contains(&c)) {
                    result.push_str(shown);
                    rest = after;
                    changed = true;
                } else {
                    result.push_str(place);
                    rest = after;
                }
            }
            if changed {
                result.push_str(rest);
                text = Cow::Owned(result);
            }
        }
        text
    }
}

/// The page of `contents`.
#[must_use]
pub fn render(contents: &Contents) -> String {
    let places = Places::of(contents.directory);
    let counted: Vec<&GameRecord> = contents.records.iter().collect();
    let data = Data {
        settings: settings(contents.records),
        anchor: contents.anchor,
        standings: contents
            .standings
            .iter()
            .zip(contents.commands)
            .map(|(s, (_, command))| StandingData {
                name: &s.name,
                command: places.shown(command),
                games: s.games,
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
                forfeits: s.forfeits,
                points: s.points,
                score_difference: s.score_difference,
            })
            .collect(),
        ratings: contents
            .ratings
            .iter()
            // A player with no games (dropped) has no rating to draw; the
            // standings show it, last.
            .filter(|rating| !rating.elo.is_nan())
            .map(|rating| {
                let bounded = rating.margin.is_finite();
                RatingData {
                    name: &rating.name,
                    elo: rating.elo,
                    low: bounded.then_some(rating.elo - rating.margin),
                    high: bounded.then_some(rating.elo + rating.margin),
                }
            })
            .collect(),
        crosstable: CrosstableData {
            names: &contents.crosstable.names,
            results: contents
                .crosstable
                .results
                .iter()
                .map(|row| row.iter().map(|cell| [cell.wins, cell.draws, cell.losses]).collect())
                .collect(),
        },
        figures: contents
            .figures
            .iter()
            .map(|figures| FiguresData {
                name: &figures.name,
                moves: figures.moves,
                mean: figures.mean(),
                max: (figures.moves > 0).then_some(figures.longest),
                cpu: figures.cpu,
                near_limit: figures.near_limit,
                forfeits: &figures.forfeits,
                score_difference: figures.score_difference,
            })
            .collect(),
        forfeits: forfeits(contents.standings, &counted)
            .into_iter()
            .map(|group: Forfeits| ForfeitsData {
                player: group.player,
                verdict: group.verdict,
                count: group.games.len(),
                reason: places.shown(group.reason()),
                games: group.games.iter().map(|record| record.id.as_str()).collect(),
            })
            .collect(),
        games: contents.records.iter().map(|record| game(record, &places)).collect(),
    };
    let json = serde_json::to_string(&data).expect("the results serialize: strings, numbers and lists");
    TEMPLATE.replacen(PLACEHOLDER, &script_safe(&json), 1)
}

/// The settings the `records` were played under.
fn settings(records: &[GameRecord]) -> SettingsSeen {
    fn add<T: PartialEq>(values: &mut Vec<T>, value: T) {
        if !values.contains(&value) {
            values.push(value);
        }
    }
    let mut settings = SettingsSeen::default();
    for record in records {
        add(&mut settings.rules, record.settings.rules.to_string());
        add(&mut settings.depth, record.settings.depth);
        add(&mut settings.timeout, record.settings.timeout.as_secs_f64());
        add(&mut settings.clock, record.settings.clock.map(|clock| clock.as_secs_f64()));
        if let Some(opening) = &record.opening {
            add(&mut settings.openings, opening.clone());
        }
    }
    settings
}

fn game<'a>(record: &'a GameRecord, places: &Places) -> GameData<'a> {
    GameData {
        id: &record.id,
        red: &record.red.name,
        green: &record.green.name,
        rules: record.settings.rules.to_string(),
        opening: record.opening.as_deref(),
        start: &record.start,
        moves: &record.moves,
        result: record.result,
        score: record.score,
        forfeit: record.forfeit.as_ref().map(|forfeit| ForfeitData {
            player: forfeit.player,
            verdict: &forfeit.verdict,
            reason: places.shown(&forfeit.reason),
        }),
    }
}

/// `json` safe inside a `<script>` element: `<`, `>` and `&` (which only
/// strings can hold) as JSON's `\u` escapes, so that no `</script>` or
/// `<!--` in a name or a reason can end the element or change how it is read.
fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::crosstable::crosstable;
    use crate::referee::figures::figures;
    use crate::referee::log::ForfeitRecord;
    use crate::referee::standings::standings;

    const HOSTILE: &str = "no output; its last line on stderr: '</script><script>alert(1)</script><!--'";

    /// A game `a` won against `b`, and one `b` forfeited with a hostile reason.
    fn games() -> Vec<GameRecord> {
        let line = r#"{"id":"44+a+b","red":{"name":"a","command":"self"},"green":{"name":"b","command":"x {in} {out}"},"rules":"classic","depth":2,"timeout":5.0,"start":"0000000/0000000/0000000/0000000/0000000/0001000 2","opening":"4","moves":"3333","score":{"red":1,"green":0},"result":"red","forfeit":null,"turns":[]}"#;
        let won: GameRecord = serde_json::from_str(line).unwrap();
        let mut forfeited = won.clone();
        forfeited.id = "44+b+a".to_owned();
        std::mem::swap(&mut forfeited.red, &mut forfeited.green);
        forfeited.result = Outcome::Win(Player::Two);
        forfeited.forfeit =
            Some(ForfeitRecord { player: Player::One, verdict: "no-output".to_owned(), reason: HOSTILE.to_owned() });
        vec![won, forfeited]
    }

    fn page(records: &[GameRecord]) -> String {
        let counted: Vec<&GameRecord> = records.iter().collect();
        let table = standings(&["a".to_owned(), "b".to_owned()], &counted);
        let ratings = crate::referee::ratings::ratings(&["a".to_owned(), "b".to_owned()], &counted, 0);
        render(&Contents {
            records,
            crosstable: &crosstable(&table, &counted),
            figures: &figures(&table, &counted),
            standings: &table,
            ratings: &ratings,
            anchor: "a",
            commands: &[("a", "self"), ("b", HOSTILE)],
            directory: Path::new("/nowhere/t"),
        })
    }

    /// The JSON blob of a rendered page.
    fn data(page: &str) -> serde_json::Value {
        let start = page.find("<script type=\"application/json\" id=\"results-data\">").unwrap();
        let rest = &page[start..];
        let json = &rest[rest.find('>').unwrap() + 1..rest.find("</script>").unwrap()];
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_template_has_one_place_for_the_results_and_fetches_nothing() {
        assert_eq!(TEMPLATE.matches(PLACEHOLDER).count(), 1);
        for outside in ["src=", "href=\"http", "@import", "url(", "fetch(", "XMLHttpRequest"] {
            assert!(!TEMPLATE.contains(outside), "the page must open from disk alone: it has {outside}");
        }
    }

    #[test]
    fn the_results_are_in_the_page_as_data() {
        let page = page(&games());
        let data = data(&page);
        assert_eq!(data["settings"]["rules"], serde_json::json!(["classic"]));
        assert_eq!(data["settings"]["timeout"], serde_json::json!([5.0]));
        assert_eq!(data["standings"][0]["name"], "a");
        assert_eq!(data["standings"][0]["points"], 4);
        assert_eq!(data["crosstable"]["results"][0][1], serde_json::json!([2, 0, 0]));
        assert_eq!(data["ratings"][0]["low"], 0.0, "the anchor's interval is the point 0");
        assert_eq!(data["figures"][1]["forfeits"], serde_json::json!([["no-output", 1]]));
        assert_eq!(data["games"][1]["forfeit"]["reason"], HOSTILE, "the reason, whole, as data");
        assert_eq!(
            data["forfeits"],
            serde_json::json!([{"player": "b", "verdict": "no-output", "count": 1, "reason": HOSTILE, "games": ["44+b+a"]}])
        );
        assert_eq!(data["games"][0]["start"], "0000000/0000000/0000000/0000000/0000000/0001000 2");
        assert_eq!(data["games"][0]["moves"], "3333");
    }

    #[test]
    fn paths_in_the_tournaments_parent_are_shown_from_it_and_the_home_folder_from_tilde() {
        let places = Places::new(vec![
            ("/tmp/nc".to_owned(), "."),
            ("/home/prof".to_owned(), "~"),
            ("/".to_owned(), "."),
            ("/tmp/nc".to_owned(), "."),
        ]);
        let shown = |text: &str| places.shown(text).into_owned();
        assert_eq!(
            shown("cd /tmp/nc/class/alice && python3 maxconnect4.py one-move {in} {out} {depth}"),
            "cd class/alice && python3 maxconnect4.py one-move {in} {out} {depth}"
        );
        assert_eq!(shown("cd '/tmp/nc/my class/bob' && ./mc4 {in} {out}"), "cd 'my class/bob' && ./mc4 {in} {out}");
        assert_eq!(
            shown("java -cp /tmp/nc/lib:/tmp/nc/class/c Main {in} {out}"),
            "java -cp lib:class/c Main {in} {out}"
        );
        assert_eq!(shown("/home/prof/bin/mc4 one-move {in} {out} 1"), "~/bin/mc4 one-move {in} {out} 1");
        assert_eq!(shown("cd /tmp/nc && ./mc4 {in} {out}"), "cd . && ./mc4 {in} {out}");
        assert_eq!(shown("no output: /tmp/nc/class/dave: too large"), "no output: class/dave: too large");
        // Where a place is not a whole path's start, nothing changes; nor
        // elsewhere than the places.
        let elsewhere = "/tmp/nc2/mc4 /x/tmp/nc/y /tmp/ncx /usr/bin/python3 {in} {out}";
        assert!(matches!(places.shown(elsewhere), Cow::Borrowed(text) if text == elsewhere));
    }

    #[test]
    fn a_hostile_reason_cannot_end_the_script_element() {
        let page = page(&games());
        // The page's own script elements, and nothing from the reason.
        assert_eq!(page.matches("</script>").count(), 2, "{page}");
        assert_eq!(page.matches("<script").count(), 2);
        assert!(!page.contains("<!--"));
        assert!(page.contains(r"\u003c/script\u003e\u003cscript\u003ealert(1)"));
    }
}
