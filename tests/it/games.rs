//! Which games a tournament plays and how they end: a gauntlet against
//! reference players, the game list (`--list-games`) and its shards
//! (`--shard I/N`), and adjudication by the classic solver (`--adjudicate`).

use std::collections::HashSet;
use std::path::Path;

use maxconnect4::board::Board;
use maxconnect4::moves::Moves;
use maxconnect4::referee::adjudication::DEFAULT_BUDGET;
use maxconnect4::referee::log::{decode_board, Adjudicated, GameRecord};
use maxconnect4::rules::{Outcome, Rules};
use maxconnect4::search::{Engine, Strength};

use super::util::{maxconnect4, read, records};

/// Our own one-move mode at `depth` under classic rules, as a rival program.
fn classic(depth: u32) -> String {
    format!("{} one-move --rules classic {{in}} {{out}} {depth}", shell_words::quote(env!("CARGO_BIN_EXE_maxconnect4")))
}

/// What `tournament ARGS --list-games` prints, line by line; it must exit 0
/// and say nothing on stderr.
fn listed(dir: &Path, args: &[&str]) -> Vec<String> {
    let assert = maxconnect4(dir).arg("tournament").args(args).arg("--list-games").assert().success().stderr("");
    String::from_utf8(assert.get_output().stdout.clone()).unwrap().lines().map(str::to_owned).collect()
}

/// The ids of the games of a log, sorted.
fn logged_ids(log: &Path) -> Vec<String> {
    let mut ids: Vec<String> = records(log).into_iter().map(|record| record.id).collect();
    ids.sort();
    ids
}

fn sorted(mut list: Vec<String>) -> Vec<String> {
    list.sort();
    list
}

/// Runs `tournament ARGS` to success and returns what it printed.
fn tournament(dir: &Path, args: &[&str]) -> String {
    let assert = maxconnect4(dir).arg("tournament").args(args).assert().success();
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

#[test]
fn a_gauntlet_plays_every_student_against_each_reference_only() {
    let dir = tempfile::tempdir().unwrap();
    let (weak, strong) = (format!("weak={}", classic(1)), format!("strong={}", classic(3)));
    let players = ["--player", "ann=self", "--player", &weak, "--player", "bob=self", "--player", &strong];
    let args = [&players[..], &["--gauntlet", "weak,strong", "--rules", "classic"]].concat();
    let args =
        [&args[..], &["--openings", "1", "--depth", "2", "--timeout", "60", "--jobs", "2", "--out", "g"]].concat();
    // Scheduling and records are the subject: players run without the
    // sandbox, through the runner every Unix has (containment.rs and
    // hostile.rs test the sandbox), at half the cost of a turn.
    let args = [&args[..], &["--no-sandbox"]].concat();

    let list = listed(dir.path(), &args);
    assert!(!dir.path().join("g").exists(), "--list-games writes nothing");
    assert_eq!(list.len(), 2 * 2 * 2, "2 students x 2 references x 2 colours x 1 opening, not 4 x 3");
    assert_eq!(list[..4], ["44+ann+weak", "44+ann+strong", "44+weak+ann", "44+weak+bob"], "in the order of play");

    let stdout = tournament(dir.path(), &args);
    assert!(
        stdout
            .starts_with("Tournament in g: 4 players (2 of them references), 1 opening, 8 games, 0 already played.\n"),
        "{stdout}"
    );
    let log = dir.path().join("g").join("games.jsonl");
    assert_eq!(logged_ids(&log), sorted(list), "the games played are the games listed");
    let references = ["weak", "strong"];
    for record in records(&log) {
        let sides = [&record.red.name, &record.green.name];
        assert_eq!(sides.iter().filter(|name| references.contains(&name.as_str())).count(), 1, "{}", record.id);
    }
    // The ratings are measured from the first reference, every year the same.
    assert!(stdout.contains("Ratings (Elo scale, weak at 0, with 95% intervals):\n"), "{stdout}");
    let ratings = read(&dir.path().join("g").join("ratings.csv"));
    assert!(ratings.lines().any(|line| line.starts_with("weak,0.0,")), "{ratings}");
    // The crosstable has no student against a student.
    let crosstable = read(&dir.path().join("g").join("crosstable.csv"));
    for line in crosstable.lines().skip(1) {
        let pair: Vec<&str> = line.split(',').take(2).collect();
        assert_eq!(pair.iter().filter(|name| references.contains(name)).count(), 1, "{line}");
    }

    // Resuming plays nothing again; --anchor still wins over the default.
    let anchored = [&args[..], &["--anchor", "bob"]].concat();
    let stdout = tournament(dir.path(), &anchored);
    assert!(stdout.contains("8 games, 8 already played."), "{stdout}");
    assert!(stdout.contains("Ratings (Elo scale, bob at 0, with 95% intervals):\n"), "{stdout}");
    assert_eq!(records(&log).len(), 8);
}

#[test]
fn a_gauntlet_whose_references_all_fail_the_pre_flight_check_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.py");
    let broken = format!("broken={} {} {{in}} {{out}}", super::util::python(), missing.display());
    maxconnect4(dir.path())
        .args(["tournament", "--player", "a=self", "--player", "b=self", "--player", &broken])
        .args(["--gauntlet", "broken", "--drop-failing", "--openings", "1", "--depth", "1", "--timeout", "60"])
        .assert()
        .code(1)
        .stderr("error: the pre-flight check left none of the gauntlet's reference players\n");
    assert!(records(&dir.path().join("tournament").join("games.jsonl")).is_empty(), "no game was played");
}

#[test]
fn a_round_robin_is_listed_in_order_and_its_shards_split_it() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--player", "a=self", "--player", "b=self", "--player", "c=self", "--openings", "2"];
    let list = listed(dir.path(), &args);
    assert_eq!(
        list,
        [
            "44+a+b", "44+a+c", "44+b+a", "44+b+c", "44+c+a", "44+c+b", "34+a+b", "34+a+c", "34+b+a", "34+b+c",
            "34+c+a", "34+c+b"
        ]
    );
    let shards: Vec<Vec<String>> =
        (0..5).map(|index| listed(dir.path(), &[&args[..], &["--shard", &format!("{index}/5")]].concat())).collect();
    assert_eq!(shards[2], ["44+b+a", "34+a+c"], "places 2 and 7 of the list, counted from 0");
    let all: Vec<String> = shards.concat();
    assert_eq!(all.iter().collect::<HashSet<_>>().len(), all.len(), "no game in two shards");
    assert_eq!(sorted(all), sorted(list.clone()), "every game in a shard");
    // More shards than games: some have none, and that is no error.
    assert_eq!(listed(dir.path(), &[&args[..], &["--shard", "12/13"]].concat()), Vec::<String>::new());
    assert!(!dir.path().join("tournament").exists(), "--list-games writes nothing");
}

#[test]
fn each_shard_plays_its_own_games_into_its_own_log() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--player", "a=self", "--player", "b=self", "--rules", "classic"];
    let args = [&args[..], &["--openings", "1", "--depth", "1", "--timeout", "60"]].concat();
    // Scheduling and records are the subject: players run without the
    // sandbox, through the runner every Unix has (containment.rs and
    // hostile.rs test the sandbox), at half the cost of a turn.
    let args = [&args[..], &["--no-sandbox"]].concat();
    let mut played = Vec::new();
    for index in 0..2 {
        let shard = format!("{index}/2");
        let out = format!("shard{index}");
        let shard_args = [&args[..], &["--shard", &shard, "--out", &out]].concat();
        let stdout = tournament(dir.path(), &shard_args);
        assert!(
            stdout.starts_with(&format!(
                "Tournament in {out}: 2 players, 1 opening, shard {shard} of 2 games: 1 game, 0 already played.\n"
            )),
            "{stdout}"
        );
        let log = dir.path().join(&out).join("games.jsonl");
        assert_eq!(logged_ids(&log), sorted(listed(dir.path(), &shard_args)), "shard {shard} plays its list");
        let standings = read(&dir.path().join(&out).join("standings.csv"));
        let games: u32 =
            standings.lines().skip(1).map(|line| line.split(',').nth(2).unwrap().parse::<u32>().unwrap()).sum();
        assert_eq!(games, 2, "the standings count the shard's game, once for each player");
        played.extend(logged_ids(&log));
    }
    assert_eq!(sorted(played), sorted(listed(dir.path(), &args)), "the shards together play the tournament");
}

#[test]
fn bad_gauntlets_shards_and_adjudication_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let check = |extra: &[&str], message: &str| {
        let assert = maxconnect4(dir.path())
            .args(["tournament", "--player", "a=self", "--player", "b=self"])
            .args(extra)
            .assert()
            .code(2);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(stderr.starts_with(&format!("error: {message}\n")), "{stderr}");
    };
    check(
        &["--gauntlet", "a,z"],
        "invalid value 'a,z' for '--gauntlet <NAME[,NAME...]>': the gauntlet names 'z', but no player is named so",
    );
    check(
        &["--gauntlet", "b,a"],
        "invalid value 'b,a' for '--gauntlet <NAME[,NAME...]>': the gauntlet names every player, which leaves no one \
         to play its reference players",
    );
    for (shard, why) in [
        ("2/2", "shards count from 0, so I is at most N - 1 (1)"),
        ("0/0", "there must be at least one shard (N is 1 or more)"),
        ("1", "expected I/N, such as 3/100"),
        ("x/4", "expected I/N, such as 3/100: 'x' is not a whole number"),
    ] {
        check(&["--shard", shard], &format!("invalid value '{shard}' for '--shard <I/N>': {why}"));
        check(&["--shard", shard, "--list-games"], &format!("invalid value '{shard}' for '--shard <I/N>': {why}"));
    }
    check(
        &["--adjudicate=0", "--rules", "classic"],
        "invalid value '0' for '--adjudicate[=<POSITIONS>]': too small: at least 1",
    );
    check(
        &["--adjudicate"],
        "--adjudicate is for classic rules (--rules classic): only the classic solver proves a game's result early",
    );
    assert!(!dir.path().join("tournament").exists(), "nothing was written");
}

/// The result of `board` for red or green with perfect play, from the
/// full solver.
fn solved(board: &Board) -> Outcome {
    let mut engine = Engine::for_rules(Rules::Classic, 16 << 20).unwrap();
    let value = engine.solve(board, Strength::Weak, None).unwrap().value;
    let mover = board.to_move();
    match value {
        1 => Outcome::Win(mover),
        -1 => Outcome::Win(mover.other()),
        _ => Outcome::Draw,
    }
}

/// The position at the end of a logged game.
fn last_position(record: &GameRecord) -> Board {
    let moves: Moves = record.moves.parse().unwrap();
    moves.columns().iter().fold(decode_board(&record.start).unwrap(), |board, &column| board.after(column))
}

#[test]
fn adjudicated_games_end_with_the_solvers_result() {
    let dir = tempfile::tempdir().unwrap();
    let players = ["--player", "a=self", "--player", &format!("b={}", classic(2)), "--rules", "classic"];
    let args = [&players[..], &["--depth", "1", "--timeout", "60", "--jobs", "2"]].concat();
    let args = [&args[..], &["--openings", "2"]].concat();
    // Scheduling and records are the subject: players run without the
    // sandbox, through the runner every Unix has (containment.rs and
    // hostile.rs test the sandbox), at half the cost of a turn.
    let args = [&args[..], &["--no-sandbox"]].concat();
    let adjudicated = [&args[..], &["--adjudicate", "--out", "adjudicated"]].concat();
    tournament(dir.path(), &adjudicated);
    let log = dir.path().join("adjudicated").join("games.jsonl");
    let games = records(&log);
    assert_eq!(games.len(), 2 * 2);
    for record in &games {
        let board = last_position(record);
        let Some(Adjudicated { after, result }) = record.adjudicated else {
            panic!("{}: every game ends proven before its end: {record:?}", record.id)
        };
        assert_eq!(after, record.moves.len(), "{}", record.id);
        assert!(!board.is_full() && Rules::Classic.outcome(&board).is_none(), "{}: ended early", record.id);
        assert_eq!((result, record.result), (solved(&board), result), "{}: the full solver agrees", record.id);
        assert_eq!(record.settings.adjudication, Some(DEFAULT_BUDGET));
    }
    // Replayed, the game says how it ended.
    let assert = maxconnect4(dir.path())
        .args(["replay", "adjudicated/games.jsonl", "--game", "1", "--delay", "0"])
        .assert()
        .success();
    let replay = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let first = games[0].adjudicated.unwrap();
    assert!(
        replay.contains(&format!("\nAdjudicated after {} moves: the solver proves that with best play ", first.after)),
        "{replay}"
    );

    // The same tournament again adjudicates the same games at the same moves.
    tournament(dir.path(), &[&args[..], &["--adjudicate", "--out", "again"]].concat());
    let again = records(&dir.path().join("again").join("games.jsonl"));
    let outcome = |games: &[GameRecord]| {
        let mut outcome: Vec<_> =
            games.iter().map(|game| (game.id.clone(), game.moves.clone(), game.adjudicated)).collect();
        outcome.sort_by(|x, y| x.0.cmp(&y.0));
        outcome
    };
    assert_eq!(outcome(&again), outcome(&games));

    // Resuming without adjudication, or adding it to games played without,
    // would mix two contests: refused.
    maxconnect4(dir.path())
        .arg("tournament")
        .args(&args)
        .args(["--out", "adjudicated"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("games were played with --adjudicate;"));
    maxconnect4(dir.path())
        .arg("tournament")
        .args(&args)
        .args(["--out", "adjudicated", "--adjudicate=100"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(format!(
            "games were adjudicated with a budget of {DEFAULT_BUDGET} positions;"
        )));
    let plain = [&players[..], &["--depth", "1", "--timeout", "60", "--openings", "1", "--out", "plain"]].concat();
    tournament(dir.path(), &plain);
    let plain_games = records(&dir.path().join("plain").join("games.jsonl"));
    assert!(plain_games.iter().all(|game| game.adjudicated.is_none() && game.settings.adjudication.is_none()));
    assert!(!read(&dir.path().join("plain").join("games.jsonl")).contains("adjudicat"), "logged as before");
    maxconnect4(dir.path())
        .arg("tournament")
        .args(&plain)
        .arg("--adjudicate")
        .assert()
        .code(1)
        .stderr(predicates::str::contains("games were played without --adjudicate;"));
}
