//! Names as users give them and logs hold them: a player's name of any
//! length plays (the folders named after it stay short file names), and a
//! name holding control characters, markup or a spreadsheet's formula makes
//! a chart that parses as XML and CSV cells that are text, never formulas,
//! while the numbers stay numbers.

use std::path::Path;

use maxconnect4::printable::printable;

use super::util::{maxconnect4, paths_under, read, records};

/// A tournament of `players` (`self` at depth 1, one opening) in `dir/t`.
fn tournament(dir: &Path, players: &[&str]) -> assert_cmd::assert::Assert {
    let mut command = maxconnect4(dir);
    command.arg("tournament");
    for name in players {
        command.args(["--player", &format!("{name}=self")]);
    }
    command.args(["--depth", "1", "--openings", "1", "--jobs", "2", "--out", "t"]).assert()
}

/// What a command printed on its standard output and its standard error.
fn outputs(assert: &assert_cmd::assert::Assert) -> (String, String) {
    let output = assert.get_output();
    (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn a_name_of_any_length_plays_and_a_resumed_tournament_knows_its_games() {
    let dir = tempfile::tempdir().unwrap();
    // Longer than a file's name may be, and one that begins as it does.
    let (long, kin) = ("L".repeat(300), "L".repeat(200));
    let players = [long.as_str(), kin.as_str(), "me"];
    let assert = tournament(dir.path(), &players).success();
    let (stdout, stderr) = outputs(&assert);
    assert!(stdout.starts_with("Tournament in t: 3 players, 1 opening, 6 games, 0 already played.\n"), "{stdout}");
    let finished = stderr.lines().filter(|line| line.starts_with("Finished game ")).count();
    assert_eq!((finished, stderr.lines().count()), (6, 6), "a line for each game, and nothing else:\n{stderr}");

    let out = dir.path().join("t");
    let logged = records(&out.join("games.jsonl"));
    assert_eq!(logged.len(), 6, "every pair, both colours");
    for record in &logged {
        let opening = record.opening.as_deref().unwrap();
        assert_eq!(record.id, format!("{opening}+{}+{}", record.red.name, record.green.name), "the id names the game");
    }
    for path in paths_under(&out) {
        let name = path.file_name().unwrap();
        assert!(name.len() < 255, "{} bytes: {}", name.len(), path.display());
    }
    let games: Vec<_> =
        std::fs::read_dir(out.join("games.output")).unwrap().map(|entry| entry.unwrap().path()).collect();
    assert_eq!(games.len(), 6, "a folder per game, the two long names apart: {games:?}");
    assert!(games.iter().all(|game| game.join("red.txt").is_file() && game.join("green.txt").is_file()));

    let again = tournament(dir.path(), &players).success().stderr("");
    let (stdout, _) = outputs(&again);
    assert!(stdout.starts_with("Tournament in t: 3 players, 1 opening, 6 games, 6 already played.\n"), "{stdout}");
    assert_eq!(records(&out.join("games.jsonl")).len(), 6, "nothing played twice");
}

/// A name a log may hold: a formula, terminal controls, markup, a quote
/// and a comma.
const HOSTILE: &str = "=1+2\r\n\u{1b}[2J\u{7}<b>&\"x\",y";

#[test]
fn names_that_hold_anything_make_a_chart_that_parses_and_csv_cells_that_are_no_formulas() {
    let dir = tempfile::tempdir().unwrap();
    maxconnect4(dir.path())
        .args(["match", "self", "self", "--depth", "2", "--start-moves", "44", "--quiet", "--log", "g.jsonl"])
        .assert()
        .success();
    // The game's players renamed, as in a log from elsewhere: the loser
    // holds everything, the winner starts as a formula too.
    let log = dir.path().join("g.jsonl");
    let mut game: serde_json::Value = serde_json::from_str(read(&log).trim()).unwrap();
    let score = |colour: &str| game["score"][colour].as_i64().unwrap();
    let (red, green) = (score("red"), score("green"));
    assert_ne!(red, green, "a game with a winner");
    let (loser, winner) = if red < green { ("red", "green") } else { ("green", "red") };
    game[loser]["name"] = HOSTILE.into();
    game[winner]["name"] = "@winner".into();
    std::fs::write(&log, format!("{game}\n")).unwrap();
    maxconnect4(dir.path()).args(["results", "g.jsonl", "--out", "r", "--anchor", "@winner"]).assert().success();
    let out = dir.path().join("r");

    let svg = read(&out.join("standings.svg"));
    if let Err(error) = well_formed(&svg) {
        panic!("standings.svg is no XML: {error}\n{svg}");
    }
    assert!(svg.contains("=1+2\\r\\n\\u{1b}[2J\\u{7}&lt;b&gt;&amp;"), "the name shown escaped:\n{svg}");

    // Text cells: the name as a table shows it, after a quote.
    let (hostile, at) = (format!("'{}", printable(HOSTILE, usize::MAX)), "'@winner".to_owned());
    let difference = (red - green).abs();
    let standings = cells(&out.join("standings.csv"));
    let row =
        |name: &str| standings.iter().find(|row| row[1] == name).unwrap_or_else(|| panic!("{name}: {standings:?}"));
    assert_eq!(row(&hostile)[8], format!("-{difference}"), "a score difference stays a number");
    assert_eq!(row(&at)[8], format!("+{difference}"), "a score difference stays a number");
    assert_eq!((row(&hostile)[7].as_str(), row(&at)[7].as_str()), ("0", "2"), "points");

    let crosstable = cells(&out.join("crosstable.csv"));
    let pairs: Vec<(&str, &str, &str)> =
        crosstable[1..].iter().map(|row| (row[0].as_str(), row[1].as_str(), row[6].as_str())).collect();
    assert_eq!(pairs, [(at.as_str(), hostile.as_str(), "2"), (hostile.as_str(), at.as_str(), "0")]);

    let ratings = cells(&out.join("ratings.csv"));
    let elo = |name: &str| -> f64 {
        let row = ratings.iter().find(|row| row[0] == name).unwrap_or_else(|| panic!("{name}: {ratings:?}"));
        row[1].parse().unwrap_or_else(|_| panic!("{} is no number", row[1]))
    };
    assert_eq!(elo(&at), 0.0, "the anchor");
    assert!(elo(&hostile) < 0.0, "a negative rating stays a number: {ratings:?}");

    for file in ["standings.csv", "crosstable.csv", "ratings.csv"] {
        let text = read(&out.join(file));
        assert!(!text.contains(['\r', '\u{1b}', '\u{7}']), "{file} holds a raw control character:\n{text}");
    }
}

/// The cells of a CSV file's lines, its header first.
fn cells(path: &Path) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .unwrap()
        .records()
        .map(|record| record.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

/// Whether `xml` is well-formed XML 1.0, as far as an SVG needs: only
/// characters XML allows, elements that nest and close, quoted attributes,
/// and `&` only in an entity.
fn well_formed(xml: &str) -> Result<(), String> {
    let allowed = |c: char| matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && !matches!(c, '\u{FFFE}' | '\u{FFFF}'));
    if let Some(c) = xml.chars().find(|&c| !allowed(c)) {
        return Err(format!("{c:?} is no XML character"));
    }
    let entities = |text: &str| -> Result<(), String> {
        for (at, _) in text.match_indices('&') {
            let entity = text[at + 1..].split(';').next().unwrap_or_default();
            let numeric = entity.strip_prefix("#x").map_or_else(
                || {
                    entity
                        .strip_prefix('#')
                        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                },
                |hex| !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()),
            );
            if !(["lt", "gt", "amp", "quot", "apos"].contains(&entity) || numeric) || !text[at..].contains(';') {
                return Err(format!("a bare & at {}", &text[at..text.len().min(at + 20)]));
            }
        }
        Ok(())
    };
    let (mut open, mut roots, mut rest) = (Vec::new(), 0, xml);
    while !rest.is_empty() {
        let Some(start) = rest.find('<') else {
            if !open.is_empty() || !rest.trim().is_empty() {
                return Err(format!("text outside the root or unclosed <{}>", open.join("><")));
            }
            break;
        };
        let text = &rest[..start];
        if open.is_empty() && !text.trim().is_empty() {
            return Err(format!("text outside the root: {text}"));
        }
        entities(text)?;
        rest = &rest[start..];
        let skip = |rest: &str, end: &str| rest.find(end).map(|at| at + end.len()).ok_or(format!("no {end}"));
        if rest.starts_with("<?") {
            rest = &rest[skip(rest, "?>")?..];
        } else if rest.starts_with("<!--") {
            rest = &rest[skip(rest, "-->")?..];
        } else if rest.starts_with("<!") {
            rest = &rest[skip(rest, ">")?..];
        } else if let Some(closing) = rest.strip_prefix("</") {
            let end = closing.find('>').ok_or("an unfinished closing tag")?;
            let name = closing[..end].trim();
            if open.pop() != Some(name) {
                return Err(format!("</{name}> closes nothing open"));
            }
            rest = &closing[end + 1..];
        } else {
            let tag = &rest[1..];
            let name_end = tag.find(|c: char| c.is_whitespace() || c == '/' || c == '>').ok_or("an unfinished tag")?;
            let name = &tag[..name_end];
            if name.is_empty() {
                return Err("a < that starts no tag".to_owned());
            }
            let mut inside = tag[name_end..].trim_start();
            loop {
                if let Some(after) = inside.strip_prefix("/>") {
                    roots += usize::from(open.is_empty());
                    rest = after;
                    break;
                }
                if let Some(after) = inside.strip_prefix('>') {
                    roots += usize::from(open.is_empty());
                    open.push(name);
                    rest = after;
                    break;
                }
                let equals = inside.find('=').ok_or(format!("an attribute without a value in <{name}>"))?;
                let value = inside[equals + 1..].trim_start();
                let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'').ok_or("an unquoted attribute")?;
                let end = value[1..].find(quote).ok_or("an unclosed attribute")?;
                if value[1..=end].contains('<') {
                    return Err(format!("a < in an attribute of <{name}>"));
                }
                entities(&value[1..=end])?;
                inside = value[end + 2..].trim_start();
            }
        }
    }
    if roots == 1 && open.is_empty() {
        Ok(())
    } else {
        Err(format!("{roots} root elements, <{}> left open", open.join("><")))
    }
}

#[test]
fn the_check_of_well_formed_xml_refuses_what_it_should() {
    assert_eq!(well_formed("<?xml version=\"1.0\"?>\n<svg a=\"1 &amp; 2\"><text>x &lt; y</text><g/></svg>\n"), Ok(()));
    for broken in [
        "<svg><text>a\u{1b}</text></svg>",
        "<svg><text>a & b</text></svg>",
        "<svg><text>a</svg>",
        "<svg>",
        "<a/><b/>",
        "<svg a=1/>",
        "<svg><</svg>",
    ] {
        assert!(well_formed(broken).is_err(), "{broken:?}");
    }
}
