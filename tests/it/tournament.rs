//! The `tournament` command: every pair from each opening with both colours,
//! standings, and resuming after an interruption.

use std::collections::HashSet;
use std::path::Path;
use std::process::Stdio;

use maxconnect4::referee::log::GameRecord;

use super::util::{assert_gone, bot, engine, maxconnect4, read, records, wait_for_bot, write};

/// The standings CSV as rows of cells, header first.
fn standings(dir: &Path) -> Vec<Vec<String>> {
    read(&dir.join("standings.csv")).lines().map(|line| line.split(',').map(str::to_owned).collect()).collect()
}

/// Each game's red, green and opening.
fn keys(records: &[GameRecord]) -> Vec<(String, String, String)> {
    records.iter().map(|r| (r.red.name.clone(), r.green.name.clone(), r.opening.clone().unwrap())).collect()
}

#[test]
fn three_players_with_a_broken_bot() {
    let dir = tempfile::tempdir().unwrap();
    let assert = maxconnect4(dir.path())
        .args(["tournament", "--player", "me=self", "--player", &format!("deep={}", engine(3))])
        .args(["--player", &format!("broken={}", bot("garbage", None))])
        .args(["--openings", "2", "--jobs", "2", "--depth", "1", "--timeout", "60", "--out", "t", "--no-check"])
        .assert()
        .success();
    // No progress bar: stderr is not a terminal (a batch job's log), and
    // each game says it ended, counted.
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 12, "{stderr}");
    for (index, line) in lines.iter().enumerate() {
        assert!(line.starts_with(&format!("Finished game {} of 12: ", index + 1)), "{stderr}");
    }
    assert_eq!(stderr.matches(": broken forfeits (unparseable)\n").count(), 8, "{stderr}");
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(stdout.starts_with("Tournament in t: 3 players, 2 openings, 12 games, 0 already played.\n"), "{stdout}");
    assert!(
        stdout.contains(
            "\nForfeits (the whole reasons are in the log):\nbroken forfeited 8 games:\n  8 × unparseable, for example: \
             unparseable output: line 1: column 1: expected 0, 1 or 2, found 'I'"
        ),
        "the reasons are under the standings:\n{stdout}"
    );

    let dir = dir.path().join("t");
    let logged = records(&dir.join("games.jsonl"));
    assert_eq!(logged.len(), 12);
    let mut expected = Vec::new();
    for opening in ["44", "34"] {
        for (red, green) in
            [("me", "deep"), ("me", "broken"), ("deep", "me"), ("deep", "broken"), ("broken", "me"), ("broken", "deep")]
        {
            expected.push((red.to_owned(), green.to_owned(), opening.to_owned()));
        }
    }
    let mut played = keys(&logged);
    played.sort();
    expected.sort();
    assert_eq!(played, expected, "every pair, both colours, each opening, once");
    for record in &logged {
        let opening = record.opening.as_deref().unwrap();
        let start = maxconnect4::referee::log::decode_board(&record.start).unwrap();
        assert_eq!(start.pieces_played(), 2, "{opening}");
        let broken_plays = record.red.name == "broken" || record.green.name == "broken";
        assert_eq!(
            record.forfeit.as_ref().map(|f| record.side(f.player).name.as_str()),
            broken_plays.then_some("broken")
        );
        assert!(dir.join("games.output").join(&record.id).join("red.txt").exists(), "{}", record.id);
    }

    let table = standings(&dir);
    assert_eq!(
        table[0],
        [
            "rank",
            "player",
            "games",
            "wins",
            "draws",
            "losses",
            "forfeits",
            "points",
            "score_difference",
            "moves",
            "mean_move_seconds",
            "max_move_seconds",
            "cpu_seconds",
            "moves_near_limit",
            "forfeits_by_verdict"
        ],
        "the per-player figures come after the standings' own columns"
    );
    let broken = table.iter().find(|row| row[1] == "broken").unwrap();
    assert_eq!(broken[..8], ["3", "broken", "8", "0", "0", "8", "8", "0"]);
    assert_eq!(broken[9], "8", "broken was asked for one move in each of its 8 games");
    assert_eq!(broken[14], "unparseable 8");
    for row in &table[1..] {
        let [mean, max, cpu] = [&row[10], &row[11], &row[12]].map(|cell| cell.parse::<f64>().unwrap());
        assert!(0.0 < mean && mean <= max && max < 60.0 && cpu >= 0.0, "{row:?}");
        assert_eq!(row[13], "0", "no move came near the 60 s limit: {row:?}");
    }
    assert!(stdout.contains("\nTime and forfeits (seconds per move; "), "{stdout}");
    let total = |column: usize| table[1..].iter().map(|row| row[column].parse::<i64>().unwrap()).sum::<i64>();
    assert_eq!(total(2), 24, "each game counts for both players");
    assert_eq!(total(3), total(5), "every win is someone's loss");
    assert_eq!(total(8), 0, "score differences cancel out");
    assert_eq!(total(7), 2 * 12, "two points are given out per game");
    for row in &table[1..] {
        assert!(stdout.contains(&row[1]), "the table is printed");
    }

    // Who beat whom: each ordered pair's 4 games, the pairs' points adding
    // up to the standings', and broken losing all of its games.
    let crosstable: Vec<Vec<String>> =
        read(&dir.join("crosstable.csv")).lines().map(|line| line.split(',').map(str::to_owned).collect()).collect();
    assert_eq!(crosstable[0], ["player", "opponent", "games", "wins", "draws", "losses", "points"]);
    assert_eq!(crosstable.len(), 1 + 6, "a line per ordered pair");
    for row in &table[1..] {
        let points: u32 =
            crosstable[1..].iter().filter(|pair| pair[0] == row[1]).map(|pair| pair[6].parse::<u32>().unwrap()).sum();
        assert_eq!(points.to_string(), row[7], "{}'s points", row[1]);
    }
    for pair in crosstable[1..].iter().filter(|pair| pair[0] == "broken") {
        assert_eq!(pair[2..], ["4", "0", "0", "4", "0"], "{pair:?}");
    }
    assert!(stdout.contains("\nCrosstable (each row's wins-draws-losses against each column):\n"), "{stdout}");

    // Ratings: me, the first player, at 0; the ranking as the standings';
    // every interval finite, broken's included.
    let ratings: Vec<Vec<String>> =
        read(&dir.join("ratings.csv")).lines().map(|line| line.split(',').map(str::to_owned).collect()).collect();
    assert_eq!(ratings[0], ["player", "elo", "low", "high"]);
    let names: Vec<&str> = ratings[1..].iter().map(|row| row[0].as_str()).collect();
    let ranked: Vec<&str> = table[1..].iter().map(|row| row[1].as_str()).collect();
    assert_eq!(names, ranked);
    let elo = |name: &str| ratings.iter().find(|row| row[0] == name).unwrap()[1].parse::<f64>().unwrap();
    assert_eq!(elo("me"), 0.0);
    assert!(elo("broken") < 0.0, "{ratings:?}");
    for row in &ratings[1..] {
        let [low, value, high] = [&row[2], &row[1], &row[3]].map(|cell| cell.parse::<f64>().unwrap());
        assert!(low <= value && value <= high, "{row:?}");
    }

    let png = png::Decoder::new(std::io::Cursor::new(std::fs::read(dir.join("standings.png")).unwrap()));
    let info = png.read_info().unwrap().info().clone();
    assert_eq!((info.width, info.height), (900, 560));
    let svg = read(&dir.join("standings.svg"));
    for label in ["Standings after 12 games", "me", "deep", "broken"] {
        assert!(svg.contains(&format!(">\n{label}\n</text>")), "{label} is in the chart");
    }
}

#[test]
fn a_resumed_tournament_plays_only_what_is_missing() {
    // Scheduling and records are the subject: players run without the
    // sandbox, through the runner every Unix has (containment.rs and
    // hostile.rs test the sandbox), at half the cost of a turn.
    let dir = tempfile::tempdir().unwrap();
    let run = || {
        let assert = maxconnect4(dir.path())
            .args(["tournament", "--player", "a=self", "--player", &format!("b={}", engine(2))])
            .args(["--player", &format!("c={}", engine(1)), "--openings", "1", "--depth", "1", "--no-sandbox"])
            .assert()
            .success();
        String::from_utf8(assert.get_output().stdout.clone()).unwrap()
    };
    run();
    let log = dir.path().join("tournament").join("games.jsonl");
    let full = read(&log);
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 6);
    // As if the referee was stopped while writing the third record.
    std::fs::write(&log, format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..40])).unwrap();

    let stdout = run();
    assert!(stdout.contains("6 games, 2 already played."), "{stdout}");
    let resumed = read(&log);
    assert!(resumed.starts_with(&format!("{}\n{}\n{{", lines[0], lines[1])), "kept records are untouched");
    let logged = records(&log);
    assert_eq!(logged.len(), 6);
    assert_eq!(keys(&logged).into_iter().collect::<HashSet<_>>().len(), 6, "nothing played twice");
    assert_eq!(standings(&dir.path().join("tournament")).len(), 4);

    let stdout = run();
    assert!(stdout.contains("6 games, 6 already played."), "{stdout}");
    assert_eq!(read(&log), resumed, "a finished tournament plays nothing more");

    // A line that is not a game record is reported and skipped, and its
    // game played again.
    let lines: Vec<&str> = resumed.lines().collect();
    let lost = records(&log)[1].clone();
    std::fs::write(&log, format!("{}\nnot a record\n{}\n", lines[0], lines[2..].join("\n"))).unwrap();
    let assert = maxconnect4(dir.path())
        .args(["tournament", "--player", "a=self", "--player", &format!("b={}", engine(2))])
        .args(["--player", &format!("c={}", engine(1)), "--openings", "1", "--depth", "1", "--no-sandbox"])
        .assert()
        .success();
    let output = assert.get_output();
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert!(
        stderr.starts_with(&format!(
            "warning: {}, line 2: not a game record (",
            Path::new("tournament/games.jsonl").display()
        )),
        "{stderr}"
    );
    assert!(String::from_utf8(output.stdout.clone()).unwrap().contains("6 games, 5 already played."));
    let replayed = maxconnect4::referee::log::read(&log).unwrap();
    assert_eq!(replayed.games.len(), 6);
    assert_eq!(keys(&replayed.games[5..]), keys(std::slice::from_ref(&lost)), "the lost game is played again");
}

#[test]
fn an_interrupted_tournament_kills_its_players_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let go = write(dir.path(), "go", "");
    let c = format!("c={}", bot("wait", Some(&go)));
    let b = format!("b={}", engine(1));
    let args = ["tournament", "--player", "a=self", "--player", &b, "--player", &c, "--openings", "1"];
    let args = [&args[..], &["--depth", "1", "--timeout", "60", "--no-check"]].concat();

    // The players' scratch directories go here, to be checked afterwards.
    let scratch = tempfile::tempdir().unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_maxconnect4"));
    command.args(&args).current_dir(dir.path()).env("TMPDIR", scratch.path());
    // Ctrl-C's default, as a terminal's foreground job has it: run in the
    // background of a script, the tests inherit SIGINT ignored, and so
    // would the referee, which then rightly keeps playing.
    // SAFETY: only `signal`, async-signal-safe, runs between fork and exec.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, || {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let referee = command.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    // The first game, a against b, is played; the second, a against c,
    // waits for c, which waits for the file `go`.
    wait_for_bot(scratch.path());
    // The referee is ours and not yet reaped, so its pid is its own.
    rustix::process::kill_process(rustix::process::Pid::from_child(&referee), rustix::process::Signal::INT).unwrap();
    let output = referee.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.ends_with("interrupted: the players' processes were killed\n"), "{stderr}");
    assert_gone(&go);
    let left: Vec<_> = std::fs::read_dir(scratch.path()).unwrap().collect();
    assert!(left.is_empty(), "scratch directories left behind: {left:?}");
    let log = dir.path().join("tournament").join("games.jsonl");
    let before = records(&log);
    assert_eq!(
        keys(&before),
        [("a".to_owned(), "b".to_owned(), "44".to_owned())],
        "the game in progress is not logged"
    );

    std::fs::write(&go, "go").unwrap();
    maxconnect4(dir.path())
        .args(&args)
        .assert()
        .success()
        .stdout(predicates::str::contains("6 games, 1 already played."));
    let after = records(&log);
    assert_eq!(after[0], before[0]);
    assert_eq!(keys(&after).into_iter().collect::<HashSet<_>>().len(), 6, "nothing played twice");
}

#[test]
fn names_with_dashes_give_every_game_its_own_id() {
    let dir = tempfile::tempdir().unwrap();
    let mut command = maxconnect4(dir.path());
    command.arg("tournament");
    // Named OPENING-RED-GREEN, a-b against c and a against b-c would both be 44-a-b-c.
    for name in ["a", "a-b", "b-c", "c"] {
        command.args(["--player", &format!("{name}={}", bot("nothing", None))]);
    }
    command.args(["--openings", "1", "--jobs", "2", "--timeout", "60", "--no-check"]).assert().success();
    let dir = dir.path().join("tournament");
    let logged = records(&dir.join("games.jsonl"));
    assert_eq!(logged.len(), 12);
    let ids: HashSet<&str> = logged.iter().map(|record| record.id.as_str()).collect();
    assert_eq!(ids.len(), 12, "{ids:?}");
    assert!(ids.contains("44+a-b+c") && ids.contains("44+a+b-c"), "{ids:?}");
    for record in &logged {
        let kept = read(&dir.join("games.output").join(&record.id).join("red.txt"));
        assert_eq!(kept.matches("=== move").count(), 1, "{}: one game's output", record.id);
    }
}

#[test]
fn two_tournaments_in_one_directory_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let go = write(dir.path(), "go", "");
    let temp = tempfile::tempdir().unwrap();
    let args = ["tournament", "--player", "a=self", "--openings", "1", "--depth", "1", "--timeout", "60"];
    let waiting = format!("b={}", bot("wait", Some(&go)));
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_maxconnect4"));
    first.args(args).args(["--player", &waiting]).current_dir(dir.path()).env("TMPDIR", temp.path());
    let first = first.stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    wait_for_bot(temp.path());
    maxconnect4(dir.path()).args(args).args(["--player", &waiting]).assert().code(1).stderr(format!(
        "error: the log {} is in use by another referee\n",
        Path::new("tournament/games.jsonl").display()
    ));
    std::fs::write(&go, "go").unwrap();
    assert!(first.wait_with_output().unwrap().status.success());
    assert_eq!(records(&dir.path().join("tournament").join("games.jsonl")).len(), 2, "each game once");
}

#[test]
fn players_must_be_usable() {
    let dir = tempfile::tempdir().unwrap();
    // Usage errors, found with the arguments (see also `arguments`).
    let check = |players: &[&str], message: &str| {
        let mut command = maxconnect4(dir.path());
        command.arg("tournament");
        for player in players {
            command.args(["--player", player]);
        }
        command.assert().code(2).stderr(predicates::str::contains(message));
    };
    check(&["a=self"], "a tournament needs at least two players");
    check(&["a=self", "a=self"], "two players are named 'a'");
    check(&["a=self", "b/c=self"], "'b/c' cannot be a player's name: use letters, digits, '-', '_' and '.'");
    check(&["a=self", "b=human"], "a tournament has no human players");
    check(
        &["a=self", "b=bot {in}"],
        "the command template 'bot {in}' has no {out}, so the program could not know where to write its move",
    );
    check(&["a"], "expected NAME=TEMPLATE");
    maxconnect4(dir.path())
        .args(["tournament", "--player", "a=self", "--player", "b=self", "--anchor", "c"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("invalid value 'c' for '--anchor <NAME>': no player is named so"));
    assert!(!dir.path().join("tournament").exists());
}

#[test]
fn the_anchor_is_rated_0() {
    let dir = tempfile::tempdir().unwrap();
    let assert = maxconnect4(dir.path())
        .args(["tournament", "--player", "a=self", "--player", &format!("b={}", engine(1)), "--anchor", "b"])
        .args(["--openings", "1", "--depth", "1", "--timeout", "60", "--no-check"])
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("Ratings (Elo scale, b at 0, with 95% intervals):\n"), "{stdout}");
    let ratings = read(&dir.path().join("tournament").join("ratings.csv"));
    assert!(ratings.lines().any(|line| line.starts_with("b,0.0,")), "{ratings}");
}

#[test]
fn changed_settings_are_refused_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let base = ["tournament", "--player", "a=self", "--openings", "1", "--depth", "1"];
    maxconnect4(dir.path()).args(base).args(["--player", &format!("b={}", engine(1))]).assert().success();
    maxconnect4(dir.path())
        .args(base)
        .args(["--player", &format!("b={}", engine(2))])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(format!("'b' was played with the command '{}'", engine(1))));
    maxconnect4(dir.path())
        .args(base)
        .args(["--player", &format!("b={}", engine(1)), "--timeout", "3"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("games were played with --timeout 10"));
}

#[test]
fn entrants_that_fail_the_pre_flight_check_are_refused_or_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.py");
    let broken = format!("broken={} {} {{in}} {{out}}", super::util::python(), missing.display());
    let args = ["tournament", "--player", "a=self", "--player", &format!("b={}", engine(1)), "--player", &broken];
    let args = [&args[..], &["--openings", "1", "--depth", "1", "--timeout", "60", "--out", "t"]].concat();
    let refused = maxconnect4(dir.path()).args(&args).assert().code(1);
    let output = refused.get_output();
    let stdout = String::from_utf8(output.stdout.clone()).unwrap();
    assert!(stdout.contains("  FAILED  broken ("), "{stdout}");
    assert!(stdout.contains("can't open file"), "{stdout}");
    assert_eq!(
        String::from_utf8(output.stderr.clone()).unwrap(),
        format!(
            "error: broken failed the pre-flight check (their output is in {}); fix them, or pass --drop-failing \
             to play without them, or --no-check to let them forfeit their games\n",
            Path::new("t").join("preflight.output").display()
        )
    );
    assert!(records(&dir.path().join("t/games.jsonl")).is_empty(), "no game was played");

    maxconnect4(dir.path()).args(&args).arg("--drop-failing").assert().success();
    let logged = records(&dir.path().join("t/games.jsonl"));
    assert_eq!(logged.len(), 2, "a and b played each other, with both colours");
    assert!(logged.iter().all(|game| game.red.name != "broken" && game.green.name != "broken"));
}

#[test]
fn on_a_terminal_a_tournament_shows_a_bar_and_each_game_uncounted() {
    // util-linux's `script` gives the referee a pseudo-terminal, as a
    // person at a terminal has.
    let dir = tempfile::tempdir().unwrap();
    let command = format!(
        "{} tournament --player a=self --player b=self --openings 1 --depth 1",
        shell_words::quote(env!("CARGO_BIN_EXE_maxconnect4"))
    );
    let output = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(dir.path())
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("2/2 games"), "the bar: {text}");
    assert!(text.contains("44 a (red) vs b (green): ") && text.contains("44 b (red) vs a (green): "), "{text}");
    assert!(!text.contains("Finished game"), "the bar counts the games: {text}");
}
