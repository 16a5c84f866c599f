//! The `replay` command: a logged game shown again move by move.

use super::util::{bot, maxconnect4, read, shipped, write};

/// The board and score printed last in `text`.
fn last_board(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let border = lines.iter().rposition(|line| line.starts_with("+---")).unwrap();
    lines[border - 6..border + 3].to_vec()
}

#[test]
fn a_replay_shows_the_game_as_it_was_played() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "start.txt", &read(&shipped("input2.txt")));
    let played = maxconnect4(dir.path())
        .args(["match", "self", "self", "--depth", "1", "--start", "start.txt"])
        .assert()
        .success();
    let played = String::from_utf8(played.get_output().stdout.clone()).unwrap();
    maxconnect4(dir.path()).args(["match", "self", &bot("garbage", None), "--quiet"]).assert().success();

    let replayed =
        maxconnect4(dir.path()).args(["replay", "games.jsonl", "--game", "1", "--delay", "0"]).assert().success();
    let replayed = String::from_utf8(replayed.get_output().stdout.clone()).unwrap();
    assert!(
        replayed.starts_with("Game 1 of 2 in games.jsonl (logged as game 1): red self against green self.\n"),
        "{replayed}"
    );
    for number in 1..=30 {
        let line = format!("\nMove {number}: ");
        assert_eq!(played.contains(&line), replayed.contains(&line), "move {number}");
    }
    assert_eq!(last_board(&replayed), last_board(&played));
    let result = |text: &str| text[text.find("Winner: ").unwrap()..].lines().next().unwrap().to_owned();
    assert_eq!(result(&replayed), result(&played));

    // The last game by default: green forfeited on its first move.
    let last = maxconnect4(dir.path()).args(["replay", "games.jsonl", "--delay", "0"]).assert().success();
    let last = String::from_utf8(last.get_output().stdout.clone()).unwrap();
    assert!(last.starts_with("Game 2 of 2 in games.jsonl (logged as game 2): red self against green "), "{last}");
    assert!(last.contains("\nMove 1: red (self) plays column ") && !last.contains("Move 2:"), "{last}");
    assert!(last.contains("forfeits: unparseable output: line 1"), "{last}");
}

#[test]
fn missing_games_and_doctored_records_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    maxconnect4(dir.path())
        .args(["match", "self", "self", "--quiet", "--start"])
        .arg(shipped("nearly_full.txt"))
        .assert()
        .success();
    maxconnect4(dir.path())
        .args(["replay", "games.jsonl", "--game", "2"])
        .assert()
        .code(1)
        .stderr("error: games.jsonl holds 1 game; there is no game 2\n");
    maxconnect4(dir.path())
        .args(["replay", "nothing.jsonl"])
        .assert()
        .code(1)
        .stderr("error: cannot read nothing.jsonl: No such file or directory (os error 2)\n");
    write(dir.path(), "empty.jsonl", "");
    maxconnect4(dir.path())
        .args(["replay", "empty.jsonl"])
        .assert()
        .code(1)
        .stderr("error: empty.jsonl holds no games\n");

    let log = read(&dir.path().join("games.jsonl"));
    let moves = log.split("\"moves\":\"").nth(1).unwrap().split('"').next().unwrap();
    write(dir.path(), "doctored.jsonl", &log.replace(&format!("\"moves\":\"{moves}\""), "\"moves\":\"1\""));
    maxconnect4(dir.path())
        .args(["replay", "doctored.jsonl"])
        .assert()
        .code(1)
        .stderr("error: game 1 of doctored.jsonl: move 1 is illegal: column 1 is full\n");
}

#[test]
fn a_name_of_any_length_or_with_a_carriage_return_is_printed_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    // A match's players are named by their commands, which may be anything.
    let long = format!("{} {}", bot("valid", None), "x".repeat(70_000));
    let returned = format!("{} 'over\rwritten'", bot("valid", None));
    maxconnect4(dir.path()).args(["match", "--quiet", "--depth", "1", &long, &returned]).assert().success();
    let printed = |args: &[&str]| {
        let output = maxconnect4(dir.path()).args(args).assert().success().get_output().clone();
        String::from_utf8(output.stdout).unwrap()
    };
    for text in
        [printed(&["results", "games.jsonl", "--out", "results"]), printed(&["replay", "games.jsonl", "--delay", "0"])]
    {
        assert!(!text.contains('\r'), "a carriage return reaches the terminal raw");
        assert!(text.contains("over\\rwritten"), "{text}");
        assert!(text.lines().all(|line| line.chars().count() < 1000), "a long name is shortened");
        assert!(text.contains("xxx…"), "with an ellipsis");
    }
    let csv = read(&dir.path().join("results/standings.csv"));
    assert_eq!(csv.lines().count(), 3, "{csv}");
}
