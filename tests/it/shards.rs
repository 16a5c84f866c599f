//! A tournament in shards: run with GNU parallel as on a cluster, merged by
//! `results`, equal game for game to the same tournament on one machine;
//! and the logs `results` refuses to merge.
//!
//! GNU parallel is Debian's `parallel`. In CI (`MAXCONNECT4_REQUIRE_PARALLEL=1`,
//! set by `.ci/run`) a missing `parallel` fails the test; elsewhere it is
//! skipped with the reason printed.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use maxconnect4::referee::log::GameRecord;

use super::bots::tool_available;
use super::util::{engine, maxconnect4, merge_refused, read, records, run_shards_under_parallel};

/// The tournament's players and settings, as its command line's words:
/// deterministic players (fixed depths, one thread), so two runs play the
/// same games.
fn tournament_words() -> Vec<String> {
    let mut words = vec!["tournament".to_owned()];
    for player in ["a=self".to_owned(), format!("b={}", engine(1)), format!("c={}", engine(3))] {
        words.extend(["--player".to_owned(), player]);
    }
    words.extend(["--openings", "2", "--depth", "2", "--timeout", "60"].map(str::to_owned));
    // Scheduling and records are the subject: players run without the
    // sandbox, through the runner every Unix has (containment.rs and
    // hostile.rs test the sandbox), at half the cost of a turn.
    words.push("--no-sandbox".to_owned());
    words
}

/// Each game's moves and result by its id.
fn games(records: &[GameRecord]) -> BTreeMap<String, (String, u32, u32)> {
    records.iter().map(|r| (r.id.clone(), (r.moves.clone(), r.score.red, r.score.green))).collect()
}

/// The standings' rows without the time figures (which differ from run to
/// run): rank, player, games, wins, draws, losses, forfeits, points and
/// score difference.
fn standings(dir: &Path) -> Vec<String> {
    read(&dir.join("standings.csv")).lines().map(|line| line.split(',').take(9).collect::<Vec<_>>().join(",")).collect()
}

#[test]
fn shards_run_by_gnu_parallel_merge_into_the_one_machine_tournament() {
    if !tool_available("parallel", "MAXCONNECT4_REQUIRE_PARALLEL") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let words = tournament_words();
    maxconnect4(dir.path()).args(&words).args(["--jobs", "2", "--out", "one"]).assert().success();

    let listed = maxconnect4(dir.path()).args(&words).arg("--list-games").assert().success();
    let listed = String::from_utf8(listed.get_output().stdout.clone()).unwrap();
    assert_eq!(listed.lines().count(), 12, "3 players, 2 openings, both colours:\n{listed}");

    // The README's way: a script plays shard $1, and GNU parallel runs the
    // shards, keeping a job log so that a second run resumes.
    std::fs::create_dir(dir.path().join("shards")).unwrap();
    run_shards_under_parallel(dir.path(), &words, "--shard \"$1/3\" --out \"shards/$1\"", 3);

    let logs: Vec<String> = (0..3).map(|shard| format!("shards/{shard}/games.jsonl")).collect();
    let merged = maxconnect4(dir.path()).arg("results").args(&logs).args(["--out", "merged"]).assert().success();
    let stdout = String::from_utf8(merged.get_output().stdout.clone()).unwrap();

    let one = records(&dir.path().join("one/games.jsonl"));
    let shards: Vec<GameRecord> = logs.iter().flat_map(|log| records(&dir.path().join(log))).collect();
    assert_eq!(shards.len(), 12, "the shards together play each game once");
    assert_eq!(games(&shards), games(&one), "the same games, move for move");
    let (one, merged) = (dir.path().join("one"), dir.path().join("merged"));
    assert_eq!(standings(&merged), standings(&one));
    assert_eq!(read(&merged.join("crosstable.csv")), read(&one.join("crosstable.csv")));
    assert_eq!(read(&merged.join("ratings.csv")), read(&one.join("ratings.csv")));
    assert!(merged.join("results.html").is_file(), "the merged results have their page");
    assert!(stdout.starts_with("Results of 3 logs: 3 players, 12 games.\n"), "{stdout}");

    // A shard's log missing: the results say so.
    let partial = maxconnect4(dir.path()).arg("results").args(&logs[..2]).args(["--out", "partial"]).assert().success();
    let stdout = String::from_utf8(partial.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.starts_with(
            "Results of 2 logs: 3 players, 8 games of the tournament's 12; the rest are in no log given.\n"
        ),
        "{stdout}"
    );
}

/// A tournament of two players named `players` from one opening (two
/// games) in `dir/NAME`.
fn small_tournament(dir: &Path, name: &str, players: [&str; 2]) {
    maxconnect4(dir)
        .args(["tournament", "--player", &format!("{}=self", players[0])])
        .args(["--player", &format!("{}={}", players[1], engine(1))])
        .args(["--openings", "1", "--depth", "1", "--timeout", "60", "--out", name])
        // Records are the subject: no sandbox, at half the cost of a turn.
        .arg("--no-sandbox")
        .assert()
        .success();
}

/// `results`' error for these logs (it must fail with exit 1).
fn refusal(dir: &Path, logs: &[&str]) -> String {
    merge_refused(dir, &["results"], logs, "merged")
}

#[test]
fn a_log_edited_into_a_game_its_moves_do_not_give_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    small_tournament(dir.path(), "x", ["a", "b"]);
    let log = dir.path().join("x/games.jsonl");
    let text = read(&log);
    let lines: Vec<&str> = text.lines().collect();
    let record: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    let id = record["id"].as_str().unwrap().to_owned();
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let edits: [(&str, Edit); 6] = [
        (
            "the result says",
            Box::new(|game| {
                let winner = if game["result"] == "red" { "green" } else { "red" };
                game["result"] = winner.into();
            }),
        ),
        ("the score says 9 to", Box::new(|game| game["score"]["red"] = 9.into())),
        ("move 1 is '8', not a column 1-7", Box::new(|game| game["moves"] = "89x0".into())),
        ("is illegal: column 4 is full", Box::new(|game| game["moves"] = "4444444".into())),
        (
            "the start position is invalid",
            Box::new(|game| game["start"] = "0000000/0000000/0000000/0000000/0000000/0000000 9".into()),
        ),
        (
            "turns are logged for",
            Box::new(|game| {
                game["turns"].as_array_mut().unwrap().pop();
            }),
        ),
    ];
    for (said, edit) in edits {
        let mut edited = record.clone();
        edit(&mut edited);
        let mut tampered: Vec<String> = lines.iter().map(|line| (*line).to_owned()).collect();
        tampered[1] = edited.to_string();
        std::fs::write(&log, tampered.join("\n") + "\n").unwrap();
        let error = merge_refused(dir.path(), &["results"], &["x/games.jsonl"], "merged");
        let prefix = format!("error: x/games.jsonl, line 2 (game {id}): ");
        assert!(error.starts_with(&prefix) && error.contains(said), "{error}");
        // Resuming the tournament refuses it too, before playing anything.
        let resumed = maxconnect4(dir.path())
            .args(["tournament", "--player", "a=self", "--player", &format!("b={}", engine(1))])
            .args(["--openings", "1", "--depth", "1", "--timeout", "60", "--out", "x"])
            .assert()
            .code(1);
        let stderr = String::from_utf8_lossy(&resumed.get_output().stderr).into_owned();
        assert!(stderr.contains(&prefix[7..]) && stderr.contains(said), "{stderr}");
    }
}

#[test]
fn results_counts_a_game_once_and_refuses_logs_that_clash() {
    let dir = tempfile::tempdir().unwrap();
    small_tournament(dir.path(), "x", ["a", "b"]);
    let log = dir.path().join("x/games.jsonl");

    // The same log twice: each game counts once.
    maxconnect4(dir.path()).args(["results", "x/games.jsonl", "x/games.jsonl", "--out", "twice"]).assert().success();
    assert_eq!(standings(&dir.path().join("twice")), standings(&dir.path().join("x")));

    // A copy where one game went differently: the logs overlap.
    std::fs::create_dir(dir.path().join("y")).unwrap();
    std::fs::copy(dir.path().join("x/tournament.json"), dir.path().join("y/tournament.json")).unwrap();
    let text = read(&log);
    let first = text.lines().next().unwrap();
    // Another game that holds up by itself: a turn took longer.
    let changed = first.replacen("\"wall\":", "\"wall\":1", 1);
    assert_ne!(changed, first);
    std::fs::write(dir.path().join("y/games.jsonl"), format!("{changed}\n")).unwrap();
    let error = refusal(dir.path(), &["x/games.jsonl", "y/games.jsonl"]);
    assert!(error.contains("y/games.jsonl with different moves or results: these logs overlap"), "{error}");

    // The same tournament played again: the same games, played twice.
    small_tournament(dir.path(), "again", ["a", "b"]);
    let error = refusal(dir.path(), &["x/games.jsonl", "again/games.jsonl"]);
    assert!(error.contains("game 44+a+b is in x/games.jsonl and in again/games.jsonl"), "{error}");

    // Another tournament's log: its manifest differs.
    small_tournament(dir.path(), "z", ["c", "d"]);
    let error = refusal(dir.path(), &["x/games.jsonl", "z/games.jsonl"]);
    assert!(error.contains("manifests of different tournaments (players a, b against c, d)"), "{error}");

    // Without manifests, games under other limits are refused too.
    std::fs::remove_file(dir.path().join("z/tournament.json")).unwrap();
    std::fs::remove_file(dir.path().join("x/tournament.json")).unwrap();
    let deeper = read(&dir.path().join("z/games.jsonl")).replace("\"depth\":1", "\"depth\":2");
    std::fs::write(dir.path().join("z/games.jsonl"), deeper).unwrap();
    let error = refusal(dir.path(), &["x/games.jsonl", "z/games.jsonl"]);
    assert!(error.contains("was played with --rules max --depth 2"), "{error}");

    let error = refusal(dir.path(), &["nowhere/games.jsonl"]);
    assert!(error.contains("nowhere/games.jsonl: no such log"), "{error}");
}

#[test]
fn results_piped_to_a_reader_that_has_gone_end_quietly_with_their_files_written() {
    // As `results LOG | head -1` does once head has its line: stdout is a
    // pipe with no reader, so every write fails with a broken pipe.
    let dir = tempfile::tempdir().unwrap();
    small_tournament(dir.path(), "x", ["a", "b"]);
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = Command::new(env!("CARGO_BIN_EXE_maxconnect4"))
        .current_dir(dir.path())
        .env_remove("RUST_BACKTRACE")
        .args(["results", "x/games.jsonl", "--out", "again"])
        .stdout(writer)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stderr), "", "nothing to tell");
    assert!(output.status.success(), "{:?}", output.status);
    assert!(dir.path().join("again/results.html").is_file(), "the files are written before the report is printed");
}

#[test]
fn results_that_cannot_be_written_leave_no_folder_and_say_why_once() {
    let dir = tempfile::tempdir().unwrap();
    small_tournament(dir.path(), "x", ["a", "b"]);
    // As on a full disk: every file over a block fails to be written (the
    // signal a process gets for that ignored, as `trap` leaves it).
    let script = format!(
        "trap '' XFSZ; ulimit -f 1; exec {} results x/games.jsonl --out new",
        env!("CARGO_BIN_EXE_maxconnect4")
    );
    let output =
        Command::new("sh").args(["-c", &script]).current_dir(dir.path()).env_remove("RUST_BACKTRACE").output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with("error: cannot write new/"), "{stderr}");
    assert_eq!(stderr.matches("File too large").count(), 1, "the cause is said once: {stderr}");
    assert!(!dir.path().join("new").exists(), "the folder made for the results is gone");
}
