//! The `match` command: a refereed game between programs, or with a person,
//! and the verdict each kind of misbehaviour gets.

use std::path::Path;

use maxconnect4::player::Player;
use maxconnect4::referee::log::GameRecord;
use maxconnect4::referee::replay;
use maxconnect4::rules::Outcome;

use super::util::{assert_gone, bot, engine, maxconnect4, python, read, records, shipped, write};

/// Column 1 is full with player 2's piece on top; player 1 is to move.
const COLUMN_ONE_FULL: &str = "2000000\n1000000\n2000000\n1000000\n2000000\n1000000\n1\n";

/// A finished match: its record, what the referee printed, and what each
/// program printed (`games.output/1/red.txt` and `green.txt`).
struct Played {
    record: GameRecord,
    stdout: String,
    kept: [String; 2],
}

/// A time limit no program of these tests comes near, even on a loaded
/// machine: only the tests of the time limit itself use a short one.
const GENEROUS: &str = "60";

/// Plays `red` against `green` from the board `start` with a time limit of
/// `timeout` seconds, in a fresh directory, expecting the referee itself to
/// succeed.
fn play_with(dir: &Path, red: &str, green: &str, start: &str, timeout: &str) -> Played {
    write(dir, "start.txt", start);
    let assert = maxconnect4(dir)
        .args(["match", red, green, "--start", "start.txt", "--timeout", timeout, "--depth", "2"])
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let mut logged = records(&dir.join("games.jsonl"));
    assert_eq!(logged.len(), 1, "one record per game");
    let kept = ["red", "green"].map(|colour| {
        std::fs::read_to_string(dir.join("games.output").join("1").join(format!("{colour}.txt"))).unwrap_or_default()
    });
    Played { record: logged.remove(0), stdout, kept }
}

fn play(dir: &Path, red: &str, green: &str, start: &str) -> Played {
    play_with(dir, red, green, start, GENEROUS)
}

/// Plays the test bot `behaviour` as red, to move first, against `self`,
/// with a time limit of `timeout` seconds, and checks that red forfeits with
/// `verdict` and a reason containing `reason`, that green wins, and that no
/// process of the bot is left.
fn check_forfeit_within(behaviour: &str, timeout: &str, verdict: &str, reason: &str) -> Played {
    let dir = tempfile::tempdir().unwrap();
    let tag = dir.path().join("tag");
    let played = play_with(dir.path(), &bot(behaviour, Some(&tag)), "self", COLUMN_ONE_FULL, timeout);
    let forfeit = played.record.forfeit.as_ref().unwrap_or_else(|| panic!("no forfeit:\n{}", played.stdout));
    assert_eq!((forfeit.player, forfeit.verdict.as_str()), (Player::One, verdict), "{}", forfeit.reason);
    assert!(forfeit.reason.contains(reason), "expected '{reason}' in\n{}", forfeit.reason);
    assert_eq!(played.record.result, Outcome::Win(Player::Two));
    assert_eq!(played.record.moves, "");
    assert!(played.stdout.contains(&format!("forfeits: {}", forfeit.reason)), "{}", played.stdout);
    assert!(played.stdout.contains("Winner: green (player 2, self)."), "{}", played.stdout);
    assert_gone(&tag);
    played
}

fn check_forfeit(behaviour: &str, verdict: &str, reason: &str) -> Played {
    check_forfeit_within(behaviour, GENEROUS, verdict, reason)
}

#[test]
fn a_bot_that_hangs_is_killed_at_the_time_limit() {
    let played =
        check_forfeit_within("hang", "0.5", "timeout", "timeout: no move within 0.5 s; the player was stopped");
    let wall = played.record.turns[0].wall;
    assert!((0.5..2.0).contains(&wall), "killed after {wall} s");
}

#[test]
fn a_move_written_after_the_time_limit_does_not_count() {
    check_forfeit_within("slow", "0.5", "timeout", "no move within 0.5 s");
}

#[test]
fn a_crash_is_no_output_and_its_stderr_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let played = play(dir.path(), &bot("crash", None), "self", COLUMN_ONE_FULL);
    let forfeit = played.record.forfeit.unwrap();
    assert_eq!(forfeit.verdict, "no-output");
    assert!(
        forfeit.reason.starts_with(
            "no output: the program wrote no output file (exit status 1); \
             its last line on stderr: 'RuntimeError: this bot crashes on purpose'; its output is in "
        ),
        "{}",
        forfeit.reason
    );
    let kept = read(&dir.path().join("games.output").join("1").join("red.txt"));
    assert!(
        kept.contains("=== exit status 1,") && kept.contains("RuntimeError: this bot crashes on purpose"),
        "{kept}"
    );
}

#[test]
fn garbage_is_unparseable_and_the_bad_line_is_quoted() {
    check_forfeit(
        "garbage",
        "unparseable",
        r#"unparseable output: line 1: column 1: expected 0, 1 or 2, found 'I' (the line reads "I resign, good game!")"#,
    );
}

#[test]
fn writing_nothing_is_no_output() {
    check_forfeit("nothing", "no-output", "the program wrote no output file (exit status 0)");
}

#[test]
fn playing_a_full_column_is_illegal() {
    check_forfeit("full", "illegal-move", "illegal move: column 1 is full; a move goes in a column with room");
}

#[test]
fn adding_two_pieces_is_illegal() {
    check_forfeit("two", "illegal-move", "illegal move: the board has 2 new pieces; a move adds exactly one");
}

#[test]
fn changing_an_old_piece_is_illegal() {
    check_forfeit(
        "change",
        "illegal-move",
        "illegal move: column 1, row 6 changed from player 2's piece to player 1's piece",
    );
}

#[test]
fn the_wrong_turn_line_is_illegal() {
    check_forfeit("turn", "illegal-move", "the turn line names player 1; after player 1's move it is player 2's turn");
}

#[test]
fn a_program_that_does_not_exist_fails_to_start() {
    let dir = tempfile::tempdir().unwrap();
    let played = play(dir.path(), "self", "./no-such-bot {in} {out}", COLUMN_ONE_FULL);
    let forfeit = played.record.forfeit.unwrap();
    assert_eq!((forfeit.player, forfeit.verdict.as_str()), (Player::Two, "failed-to-start"));
    assert!(forfeit.reason.contains("no-such-bot: No such file or directory"), "{}", forfeit.reason);
    assert_eq!(played.record.moves.len(), 1, "red moved before green failed");
    assert_eq!(played.record.result, Outcome::Win(Player::One));
}

#[test]
fn a_forked_child_does_not_outlive_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let tag = dir.path().join("tag");
    let nearly_full = read(&shipped("nearly_full.txt"));
    let played = play(dir.path(), &bot("fork", Some(&tag)), "self", &nearly_full);
    assert_eq!(played.record.forfeit, None, "forking is allowed; its moves count");
    assert_eq!(played.record.moves.len(), 4);
    assert_eq!(played.kept[0].matches("fork: a descendant is running").count(), 2, "one child per turn of the bot");
    assert_gone(&tag);
}

#[test]
fn the_exit_code_is_not_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let nearly_full = read(&shipped("nearly_full.txt"));
    let played = play(dir.path(), "self", &bot("exit1", None), &nearly_full);
    assert_eq!(played.record.forfeit, None);
    assert_eq!(played.record.moves.len(), 4);
    let endings: Vec<&str> = played.record.turns.iter().filter_map(|turn| turn.ending.as_deref()).collect();
    assert_eq!(endings, ["exit status 0", "exit status 1", "exit status 0", "exit status 1"]);
}

#[test]
fn self_plays_self_to_a_full_board() {
    let dir = tempfile::tempdir().unwrap();
    let played = play(dir.path(), "self", &engine(3), "0000000\n0000000\n0000000\n0000000\n0000000\n0000000\n1\n");
    let record = &played.record;
    assert_eq!(record.forfeit, None);
    assert_eq!(record.moves.len(), 42);
    assert_eq!(record.turns.len(), 42);
    assert!(record.turns.iter().all(|turn| turn.cpu.is_some() && turn.wall > 0.0));
    let last = *replay::positions(record).unwrap().last().unwrap();
    assert!(last.is_full());
    assert_eq!((record.score.red, record.score.green), (last.score(Player::One), last.score(Player::Two)));
    let expected = match record.score.red.cmp(&record.score.green) {
        std::cmp::Ordering::Greater => Outcome::Win(Player::One),
        std::cmp::Ordering::Less => Outcome::Win(Player::Two),
        std::cmp::Ordering::Equal => Outcome::Draw,
    };
    assert_eq!(record.result, expected);
    assert_eq!(played.stdout.matches("Score: Player 1 = ").count(), 43, "the start and 42 moves, once each");
    assert!(played.stdout.contains("\nMove 42: green ("), "{}", played.stdout);
    assert!(played.stdout.contains("Game 1 appended to games.jsonl"), "{}", played.stdout);
}

#[test]
fn quiet_prints_only_the_result_and_games_are_numbered_in_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let nearly_full = read(&shipped("nearly_full.txt"));
    write(dir.path(), "start.txt", &nearly_full);
    std::fs::create_dir(dir.path().join("logs")).unwrap();
    for game in 1..=2 {
        let assert = maxconnect4(dir.path())
            .args(["match", "self", "self", "--start", "start.txt", "--quiet", "--log", "logs/games.jsonl"])
            .assert()
            .success();
        let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
        assert!(stdout.starts_with("The game is a draw, ") || stdout.starts_with("Player "), "{stdout}");
        assert_eq!(stdout.lines().filter(|line| line.contains(" wins, ") || line.contains("draw")).count(), 1);
        assert!(stdout.contains(&format!("Game {game} appended to logs/games.jsonl")), "{stdout}");
        assert!(dir.path().join(format!("logs/games.output/{game}/red.txt")).exists());
    }
    let logged = records(&dir.path().join("logs/games.jsonl"));
    assert_eq!(logged.iter().map(|record| record.id.as_str()).collect::<Vec<_>>(), ["1", "2"]);
}

#[test]
fn a_person_plays_at_the_terminal_and_may_quit() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "start.txt", &read(&shipped("nearly_full.txt")));
    // Column 1 is full: the answer is refused and asked again.
    maxconnect4(dir.path())
        .args(["match", "human", "self", "--start", "start.txt", "--depth", "1"])
        .write_stdin("1\n4\n6\n7\n")
        .assert()
        .success()
        .stdout(predicates::str::contains("Column 1 is full; choose another."));
    let record = &records(&dir.path().join("games.jsonl"))[0];
    assert_eq!(record.forfeit, None);
    assert_eq!(&record.moves[..1], "4");
    assert!(record.turns.iter().filter(|turn| turn.player == Player::One).all(|turn| turn.cpu.is_none()));

    maxconnect4(dir.path())
        .args(["match", "self", "human", "--start", "start.txt"])
        .write_stdin("quit\n")
        .assert()
        .success();
    let forfeit = records(&dir.path().join("games.jsonl"))[1].forfeit.clone().unwrap();
    assert_eq!((forfeit.player, forfeit.verdict.as_str()), (Player::Two, "quit"));
}

#[test]
fn bad_players_and_files_are_errors_not_forfeits() {
    let dir = tempfile::tempdir().unwrap();
    let check = |args: &[&str], message: &str| {
        maxconnect4(dir.path()).args(args).assert().code(1).stderr(format!("error: {message}\n"));
    };
    // A bad template is a usage error (see `arguments`).
    maxconnect4(dir.path()).args(["match", "self", "bot '{in} {out}"]).assert().code(2).stderr(
        predicates::str::contains(
            "the command template 'bot '{in} {out}' cannot be split into words: missing closing quote",
        ),
    );
    check(
        &["match", "self", "self", "--start", "missing.txt"],
        "cannot read missing.txt: No such file or directory (os error 2)",
    );
    write(dir.path(), "bad.txt", "0000000\n");
    check(
        &["match", "self", "self", "--start", "bad.txt"],
        "bad.txt is not a valid board file: line 2: the file ends before the six board rows and the turn line (expected 7 lines, found 1)",
    );
    maxconnect4(dir.path()).args(["match", "self", "self", "--timeout", "0"]).assert().code(2);
    assert!(!dir.path().join("games.jsonl").exists(), "no game was played");
}

#[test]
fn a_program_that_cannot_start_is_failed_to_start_with_its_own_words() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-bot.py");
    let cases = [
        (
            format!("{} {} {{in}} {{out}}", python(), missing.display()),
            format!(
                "the program could not start (exit status 2): {}: can't open file '{}'",
                python(),
                missing.display()
            ),
        ),
        (
            "./no-such-program {in} {out}".to_owned(),
            "cannot run ./no-such-program: No such file or directory".to_owned(),
        ),
        ("sh -c 'exec no-such-command' {in} {out}".to_owned(), ": 1: exec: no-such-command: not found".to_owned()),
    ];
    for (command, reason) in cases {
        let played = play(dir.path(), &command, "self", COLUMN_ONE_FULL);
        let forfeit = played.record.forfeit.as_ref().unwrap();
        assert_eq!(forfeit.verdict, "failed-to-start", "{command}: {}", forfeit.reason);
        assert!(forfeit.reason.contains(&reason), "{command}: expected '{reason}' in\n{}", forfeit.reason);
        std::fs::remove_file(dir.path().join("games.jsonl")).unwrap();
        std::fs::remove_dir_all(dir.path().join("games.output")).unwrap();
        let _ = std::fs::remove_file(dir.path().join("games.moves"));
    }
}

#[test]
fn check_asks_each_player_for_one_move_and_fails_when_one_cannot_play() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.py");
    let broken = format!("{} {} {{in}} {{out}}", python(), missing.display());
    let output = maxconnect4(dir.path())
        .args(["check", "self", &bot("valid", None), &broken, &bot("garbage", None), "--depth", "1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(lines[0].starts_with("ok      1 (self): started and played column "), "{stdout}");
    assert!(lines[1].starts_with("ok      2 ("), "{stdout}");
    assert!(lines[2].starts_with("FAILED  3 (") && lines[2].contains("failed to start: the program could not start"));
    assert!(lines[3].starts_with("FAILED  4 (") && lines[3].contains("unparseable output"), "{stdout}");
    assert_eq!(String::from_utf8(output.stderr).unwrap(), "error: 2 of 4 players failed the check\n");
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none(), "check leaves nothing behind");
}
