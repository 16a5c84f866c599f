//! A tournament's records are the games its schedule names: `results`, a
//! merge of shards and a resumed tournament refuse a record whose red and
//! green were swapped (which gives the loser the win and is otherwise a
//! game that holds up) or whose opening is another's, in one line naming
//! the log's line, and write nothing. And `results` takes a tournament's
//! folder for its log, and a folder of its shards' folders for theirs.

use std::collections::BTreeMap;
use std::path::Path;

use super::util::{maxconnect4, merge_refused, paths_under, read};

/// The tournament's command line: two players, `self` at depth 1, two
/// openings (four games), into `out`.
fn tournament_words(out: &str) -> Vec<String> {
    ["tournament", "--player", "me=self", "--player", "you=self", "--depth", "1", "--openings", "2", "--no-check"]
        .iter()
        // Records are the subject: players run without the sandbox, through
        // the runner every Unix has, at half the cost of a turn.
        .chain(&["--timeout", "60", "--no-sandbox", "--out", out])
        .map(|word| (*word).to_owned())
        .collect()
}

/// Every file under `folder`, by its path there, with its contents.
fn files(folder: &Path) -> BTreeMap<String, Vec<u8>> {
    let files = paths_under(folder).into_iter().filter(|path| !path.is_dir());
    files
        .map(|path| (path.strip_prefix(folder).unwrap().display().to_string(), std::fs::read(&path).unwrap()))
        .collect()
}

/// A command that must fail with exit code 1 and one line on stderr,
/// which it returns.
fn refused(dir: &Path, words: &[String]) -> String {
    let assert = maxconnect4(dir).args(words).assert().code(1);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    stderr
}

fn words(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_owned()).collect()
}

#[test]
fn a_record_with_its_players_or_opening_not_its_schedules_is_refused_and_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    maxconnect4(dir.path()).args(tournament_words("t")).assert().success();
    let log = dir.path().join("t/games.jsonl");
    let text = read(&log);
    let lines: Vec<serde_json::Value> = text.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(lines.len(), 4);
    // A game someone won: swapped, the loser would have the win.
    let won = lines.iter().position(|game| game["result"] != "draw").expect("a game is won");
    let id = lines[won]["id"].as_str().unwrap().to_owned();
    let other_opening = lines.iter().find(|game| game["opening"] != lines[won]["opening"]).unwrap().clone();
    let (red, green) = (lines[won]["red"]["name"].as_str().unwrap(), lines[won]["green"]["name"].as_str().unwrap());
    let (opening, other) = (lines[won]["opening"].as_str().unwrap(), other_opening["opening"].as_str().unwrap());
    // A second shard's folder: the same tournament, its log untouched.
    std::fs::create_dir(dir.path().join("u")).unwrap();
    for file in ["games.jsonl", "tournament.json"] {
        std::fs::copy(dir.path().join("t").join(file), dir.path().join("u").join(file)).unwrap();
    }

    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let edits: [(String, Edit); 3] = [
        (
            format!("the schedule has {red} as red and {green} as green in this game, but the record has {green} as red and {red} as green"),
            Box::new(|game| {
                let red = game["red"].take();
                game["red"] = game["green"].take();
                game["green"] = red;
            }),
        ),
        (
            format!("the schedule plays this game from opening {opening}, but the record has opening {other}"),
            Box::new({
                let other = other_opening.clone();
                move |game| game["opening"] = other["opening"].clone()
            }),
        ),
        (
            format!("the schedule plays this game from opening {opening}, but the record has opening {other}"),
            Box::new({
                let other = other_opening.clone();
                move |game| {
                    game["opening"] = other["opening"].clone();
                    game["start"] = other["start"].clone();
                }
            }),
        ),
    ];
    let before = files(&dir.path().join("t"));
    for (reason, edit) in edits {
        let mut tampered = lines.clone();
        edit(&mut tampered[won]);
        let tampered: String = tampered.iter().map(|game| format!("{game}\n")).collect();
        std::fs::write(&log, &tampered).unwrap();
        let mut before = before.clone();
        before.insert("games.jsonl".to_owned(), tampered.clone().into_bytes());
        let expected = format!(
            "error: t/games.jsonl, line {} (game {id}): {reason}; the record was edited or damaged: restore the log, or remove the line\n",
            won + 1
        );

        // The results beside the log, from the log or from its folder.
        for given in ["t/games.jsonl", "t"] {
            assert_eq!(refused(dir.path(), &words(&["results", given])), expected, "results {given}");
        }
        // A merge of shards, the tampered one among them.
        let merged = merge_refused(dir.path(), &["results"], &["t/games.jsonl", "u/games.jsonl"], "merged");
        assert_eq!(merged, expected);
        // A resumed tournament, before it plays anything.
        assert_eq!(refused(dir.path(), &tournament_words("t")), expected, "resumed");
        assert_eq!(files(&dir.path().join("t")), before, "nothing written in t");
    }

    // Without its manifest the log still names its games: the swap is
    // refused all the same.
    std::fs::remove_file(dir.path().join("t/tournament.json")).unwrap();
    let mut swapped = lines.clone();
    let taken = swapped[won]["red"].take();
    swapped[won]["red"] = swapped[won]["green"].take();
    swapped[won]["green"] = taken;
    std::fs::write(&log, swapped.iter().map(|game| format!("{game}\n")).collect::<String>()).unwrap();
    let error = refused(dir.path(), &words(&["results", "t/games.jsonl", "--out", "plain"]));
    assert!(error.contains(&format!("line {} (game {id}): the schedule has {red}", won + 1)), "{error}");
    assert!(!dir.path().join("plain").exists());

    // The log as played is read again, every game counted.
    std::fs::write(&log, &text).unwrap();
    maxconnect4(dir.path()).args(["results", "t"]).assert().success();
}

#[test]
fn results_takes_a_tournaments_folder_for_its_log_and_a_folder_of_shards_for_theirs() {
    let dir = tempfile::tempdir().unwrap();
    maxconnect4(dir.path()).args(tournament_words("tournament")).assert().success();
    let output = |words: &[&str]| {
        let assert = maxconnect4(dir.path()).args(words).assert().success();
        let files = files(&dir.path().join("tournament"));
        (String::from_utf8(assert.get_output().stdout.clone()).unwrap(), files)
    };
    let from_log = output(&["results", "tournament/games.jsonl"]);
    let from_folder = output(&["results", "tournament/"]);
    assert_eq!(from_folder, from_log, "the folder's results are its log's, written in the same place");
    assert!(from_folder.0.starts_with("Results of tournament/games.jsonl: 2 players, 4 games.\n"), "{}", from_folder.0);
    assert!(from_folder.0.ends_with("publish or open from disk: tournament/results.html\n"), "{}", from_folder.0);

    // A folder of shards' folders, as a cluster leaves them: their logs.
    for shard in 0..2 {
        let out = format!("class/shard-{shard}");
        std::fs::create_dir_all(dir.path().join(&out)).unwrap();
        let mut words = tournament_words(&out);
        words.extend(["--shard".to_owned(), format!("{shard}/2")]);
        maxconnect4(dir.path()).args(words).assert().success();
    }
    let assert = maxconnect4(dir.path()).args(["results", "class"]).assert().success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(stdout.starts_with("Results of 2 logs: 2 players, 4 games.\n"), "{stdout}");
    assert!(stdout.ends_with("publish or open from disk: class/results.html\n"), "{stdout}");
    maxconnect4(dir.path())
        .args(["results", "class/shard-0/games.jsonl", "class/shard-1/games.jsonl", "--out", "merged"])
        .assert()
        .success();
    for file in ["standings.csv", "crosstable.csv", "ratings.csv"] {
        assert_eq!(read(&dir.path().join("class").join(file)), read(&dir.path().join("merged").join(file)), "{file}");
    }

    // A folder with no log, nor a folder holding one.
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let error = refused(dir.path(), &words(&["results", "empty"]));
    assert_eq!(
        error,
        "error: empty: no games.jsonl in it, nor in a folder in it; give a tournament's folder, its log, or a folder of its shards' folders\n"
    );
    assert_eq!(files(&dir.path().join("empty")), BTreeMap::new(), "nothing written");
}
