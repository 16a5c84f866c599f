//! Hostile and careless players against the referee: escapes from the
//! process tree, traps in their own folder, sabotage of the opponent and of
//! the log, `kill -9` of the referee, and clashes between referees. A player
//! may lose its game; the referee, the log and the other player come out
//! whole, and no process is left.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use maxconnect4::player::Player;
use maxconnect4::referee::log::GameRecord;

use super::util::{assert_gone, bot, maxconnect4, python, read, records, running, shipped, wait_for_bot, write};

/// The empty board, player 1 to move: a whole game, 21 turns each.
const EMPTY: &str = "0000000\n0000000\n0000000\n0000000\n0000000\n0000000\n1\n";

/// A match of `red` against `green` from `start` in `dir`, with the
/// players' folders in `dir/tmp`, as a command not yet run.
fn referee(dir: &Path, red: &str, green: &str, start: &str) -> Command {
    referee_timed(dir, red, green, start, "60")
}

/// [`referee`], with `timeout` seconds a move.
fn referee_timed(dir: &Path, red: &str, green: &str, start: &str, timeout: &str) -> Command {
    write(dir, "start.txt", start);
    std::fs::create_dir_all(dir.join("tmp")).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_maxconnect4"));
    command
        .args(["match", red, green, "--start", "start.txt", "--depth", "1", "--timeout", timeout, "--quiet"])
        .current_dir(dir)
        .env("TMPDIR", dir.join("tmp"))
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE");
    command
}

/// Plays a match to its end, expecting the referee to succeed without a
/// warning; the game's record, and what red's program printed.
fn play(dir: &Path, red: &str, green: &str, start: &str) -> (GameRecord, String) {
    let output = referee(dir, red, green, start).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && stderr.is_empty(), "{stderr}");
    let mut logged = records(&dir.join("games.jsonl"));
    assert_eq!(logged.len(), 1);
    (logged.remove(0), read(&dir.join("games.output/1/red.txt")))
}

/// What is left in the referee's temporary directory.
fn left_in(temp: &Path) -> Vec<String> {
    std::fs::read_dir(temp).unwrap().map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

/// The threads of process `pid` now.
fn threads(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task")).map_or(0, Iterator::count)
}

#[test]
fn an_escape_by_setsid_dies_with_its_turn_and_costs_the_referee_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let tag = dir.path().join("tag");
    let started = Instant::now();
    let mut child =
        referee(dir.path(), &bot("escape", Some(&tag)), "self", EMPTY).stdout(Stdio::null()).spawn().unwrap();
    // The referee's threads, counted as often as we can while it plays: a
    // thread left behind by a turn would pile up over the game.
    let mut most = 0;
    while child.try_wait().unwrap().is_none() {
        most = most.max(threads(child.id()));
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let elapsed = started.elapsed().as_secs_f64();
    assert!(child.wait().unwrap().success());
    assert_gone(&tag);

    let logged = records(&dir.path().join("games.jsonl"));
    let record = &logged[0];
    assert_eq!((record.forfeit.as_ref(), record.moves.len()), (None, 42), "escaping is allowed; its moves count");
    let kept = read(&dir.path().join("games.output/1/red.txt"));
    assert_eq!(kept.matches("escape: a descendant is running").count(), 21, "every turn escaped");
    assert!(most <= 4, "the referee ran {most} threads at once");
    // Waiting for pipes an escaped process holds would add time to every
    // turn; the referee's own time between turns stays small.
    let turns: f64 = record.turns.iter().map(|turn| turn.wall).sum();
    assert!(elapsed - turns < 21.0, "{elapsed} s for {turns} s of turns");
    assert!(left_in(&dir.path().join("tmp")).is_empty());
}

#[test]
fn without_the_sandbox_escapes_still_die_with_their_turn() {
    let dir = tempfile::tempdir().unwrap();
    let tag = dir.path().join("tag");
    let nearly_full = read(&shipped("nearly_full.txt"));
    let mut command = referee(dir.path(), &bot("escape", Some(&tag)), "self", &nearly_full);
    let output = command.arg("--no-sandbox").output().unwrap();
    assert!(output.status.success() && output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_gone(&tag);
    let record = &records(&dir.path().join("games.jsonl"))[0];
    assert_eq!((record.forfeit.as_ref(), record.moves.len()), (None, 4));
}

/// `--no-sandbox` runs the runner every Unix has (a process group, `poll`,
/// `waitid`, a kill of the group, `wait4`), with Linux's sweep of escapes
/// on top: each way a turn ends is judged as in the sandbox, and nothing
/// the player started is left.
#[test]
fn without_the_sandbox_every_ending_is_judged_and_nothing_is_left() {
    for (behaviour, verdict, moves) in [
        // A child in the player's group keeps the pipes open after the
        // answer: the turn ends with the program, the child is killed.
        ("fork", None, 4),
        // Out of time (a second a move), with a descendant in a session
        // of its own.
        ("escape-hang", Some("timeout"), 0),
        ("crash", Some("no-output"), 0),
        ("exit1", None, 4),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let tag = dir.path().join("tag");
        let nearly_full = read(&shipped("nearly_full.txt"));
        let timeout = if behaviour == "escape-hang" { "1" } else { "60" };
        let mut command = referee_timed(dir.path(), &bot(behaviour, Some(&tag)), "self", &nearly_full, timeout);
        let output = command.arg("--no-sandbox").output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success() && stderr.is_empty(), "{behaviour}: {stderr}");
        assert_gone(&tag);
        let record = &records(&dir.path().join("games.jsonl"))[0];
        let forfeit = record.forfeit.as_ref().map(|forfeit| (forfeit.player, forfeit.verdict.as_str()));
        assert_eq!(
            (forfeit, record.moves.len()),
            (verdict.map(|verdict| (Player::One, verdict)), moves),
            "{behaviour}"
        );
        assert!(left_in(&dir.path().join("tmp")).is_empty(), "{behaviour}");
    }
}

#[test]
fn traps_in_a_players_own_folder_stop_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (record, _) = play(dir.path(), &bot("trap", None), "self", EMPTY);
    assert_eq!((record.forfeit, record.moves.len()), (None, 42));
}

#[test]
fn only_a_regular_file_is_read_as_an_answer() {
    for (behaviour, reason) in [
        ("out-dir", "it is not a regular file"),
        ("out-fifo", "it is not a regular file"),
        ("out-link", "it is a symbolic link, not a regular file"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (record, _) = play(dir.path(), &bot(behaviour, None), "self", EMPTY);
        let forfeit = record.forfeit.unwrap();
        assert_eq!((forfeit.player, forfeit.verdict.as_str()), (Player::One, "no-output"), "{behaviour}");
        assert_eq!(forfeit.reason, format!("no output: the output file cannot be read: {reason}"), "{behaviour}");
    }
}

#[test]
fn links_in_a_players_folder_redirect_no_file_of_the_referee() {
    let dir = tempfile::tempdir().unwrap();
    let target = write(dir.path(), "precious.txt", "keep me\n");
    let (record, _) = play(dir.path(), &bot("link", Some(&target)), "self", EMPTY);
    assert_eq!((record.forfeit, record.moves.len()), (None, 42));
    assert_eq!(read(&target), "keep me\n");
}

#[test]
fn a_player_cannot_reach_its_opponent_or_the_referees_folder() {
    let dir = tempfile::tempdir().unwrap();
    let tag = dir.path().join("tag");
    let (record, kept) = play(dir.path(), &bot("sabotage", Some(&tag)), &bot("valid", None), EMPTY);
    assert_eq!((record.forfeit, record.moves.len()), (None, 42), "the opponent played on");
    assert!(!dir.path().join("sabotaged").exists());
    assert_eq!(kept.matches("Read-only file system").count(), 21, "{kept}");
}

#[test]
fn a_player_cannot_write_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.jsonl");
    let (record, kept) = play(dir.path(), &bot("log", Some(&log)), "self", EMPTY);
    assert_eq!(record.forfeit, None);
    assert!(kept.contains("games.jsonl: [Errno 13] Permission denied"), "{kept}");
    // Every line is a game record (`records` checks), and it replays.
    maxconnect4(dir.path()).args(["replay", "games.jsonl", "--delay", "0"]).assert().success();
}

#[test]
fn a_line_of_the_log_that_is_not_a_game_is_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let nearly_full = read(&shipped("nearly_full.txt"));
    play(dir.path(), "self", "self", &nearly_full);
    let log = dir.path().join("games.jsonl");
    std::fs::write(&log, format!("{}garbage from a player\n", read(&log))).unwrap();
    let warning = "warning: games.jsonl, line 2: not a game record (expected value at line 1 column 1); skipped\n";
    maxconnect4(dir.path())
        .args(["match", "self", "self", "--quiet", "--start", "start.txt"])
        .assert()
        .success()
        .stderr(warning)
        .stdout(predicates::str::contains("Game 3 appended to games.jsonl"));
    maxconnect4(dir.path())
        .args(["replay", "games.jsonl", "--delay", "0"])
        .assert()
        .success()
        .stderr(warning)
        .stdout(predicates::str::starts_with("Game 2 of 2 in games.jsonl (logged as game 3): "));
}

#[test]
fn players_die_with_a_referee_killed_by_sigkill_and_its_folder_goes_at_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let tag = dir.path().join("tag");
    let temp = dir.path().join("tmp");
    let mut child =
        referee(dir.path(), &bot("escape-hang", Some(&tag)), "self", EMPTY).stdout(Stdio::null()).spawn().unwrap();
    wait_for_bot(&temp);
    child.kill().unwrap();
    child.wait().unwrap();
    // The kernel kills the players as the referee dies; their ends follow
    // it by a moment, so this waits, for as long as the machine needs.
    let deadline = Instant::now() + std::time::Duration::from_secs(60);
    while !running(&tag, None).is_empty() && Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_gone(&tag);
    assert_eq!(left_in(&temp).len(), 1, "the dead referee's folder");

    let nearly_full = read(&shipped("nearly_full.txt"));
    let output = referee(dir.path(), "self", "self", &nearly_full).args(["--log", "next.jsonl"]).output().unwrap();
    assert!(output.status.success());
    assert!(left_in(&temp).is_empty(), "{:?}", left_in(&temp));
}

#[test]
fn a_log_in_use_is_refused_and_a_live_referees_folder_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let go = write(dir.path(), "go", "");
    let temp = dir.path().join("tmp");
    let nearly_full = read(&shipped("nearly_full.txt"));
    let mut live = referee(dir.path(), &bot("wait", Some(&go)), "self", &nearly_full)
        .args(["--log", "live.jsonl"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_bot(&temp);
    let folders = left_in(&temp);

    let refused = referee(dir.path(), "self", "self", &nearly_full).args(["--log", "live.jsonl"]).output().unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&refused.stderr), "error: the log live.jsonl is in use by another referee\n");
    let other = referee(dir.path(), "self", "self", &nearly_full).args(["--log", "other.jsonl"]).output().unwrap();
    assert!(other.status.success());
    assert_eq!(left_in(&temp), folders, "the live referee's folder is kept");

    std::fs::write(&go, "go").unwrap();
    assert!(live.wait().unwrap().success());
    assert_eq!(records(&dir.path().join("live.jsonl")).len(), 1);
}

#[test]
fn a_log_that_would_be_its_own_output_folder_is_refused_before_playing() {
    let dir = tempfile::tempdir().unwrap();
    maxconnect4(dir.path()).args(["match", "self", "self", "--log", "x.output"]).assert().code(1).stderr(
        "error: the log x.output and the folder for the programs' output, x.output, would be the same path; \
             give the log another extension, such as .jsonl\n",
    );
    assert!(!dir.path().join("x.output").exists());
}

#[test]
fn self_keeps_playing_when_its_executable_is_replaced() {
    // Beside the build, on its file system, for the link below.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let executable = dir.path().join("maxconnect4");
    // A link, not a copy: a file this process writes may be held open for
    // writing a moment by a child another test forks, and then it cannot be
    // run ("text file busy").
    std::fs::hard_link(env!("CARGO_BIN_EXE_maxconnect4"), &executable).unwrap();
    let go = write(dir.path(), "go", "");
    let nearly_full = read(&shipped("nearly_full.txt"));
    write(dir.path(), "start.txt", &nearly_full);
    std::fs::create_dir(dir.path().join("tmp")).unwrap();
    let child = Command::new(&executable)
        .args(["match", "self", &bot("wait", Some(&go)), "--start", "start.txt", "--quiet", "--timeout", "60"])
        .current_dir(dir.path())
        .env("TMPDIR", dir.path().join("tmp"))
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_bot(&dir.path().join("tmp"));
    // As a rebuild does: the file is replaced.
    std::fs::remove_file(&executable).unwrap();
    write(dir.path(), "maxconnect4", "not a program any more\n");
    std::fs::write(&go, "go").unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
    let record = &records(&dir.path().join("games.jsonl"))[0];
    assert_eq!((record.forfeit.as_ref(), record.moves.len()), (None, 4), "self played after the rebuild");
}

#[test]
fn without_bubblewrap_the_referee_warns_and_plays() {
    let dir = tempfile::tempdir().unwrap();
    let nearly_full = read(&shipped("nearly_full.txt"));
    let output = referee(dir.path(), "self", &bot("valid", None), &nearly_full).env("PATH", "").output().unwrap();
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "warning: players run without isolation: bubblewrap (bwrap) is not installed; \
         install bubblewrap, or pass --no-sandbox to run them so knowingly\n"
    );
    assert_eq!(records(&dir.path().join("games.jsonl"))[0].forfeit, None);
}

/// What the `spy` bot of `tests/bots/bot.py` found on every turn it played:
/// each line `spy WHAT: open ...` or `spy WHAT: closed (...)`.
fn spied(kept: &str) -> Vec<&str> {
    kept.lines().filter(|line| line.starts_with("spy ")).collect()
}

/// Plays `spy` (red) against a valid bot in `dir`, after a first game whose
/// log and captured output are there to find, with a Unix socket server
/// listening in `dir` and in `elsewhere`; the command runs as `user` when
/// given. Returns what the spy found.
fn spy_on(dir: &Path, elsewhere: &Path, python: &str, user: Option<u32>) -> String {
    let _here = std::os::unix::net::UnixListener::bind(dir.join("sock")).unwrap();
    let _there = std::os::unix::net::UnixListener::bind(elsewhere.join("sock")).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/bot.py");
    let player = |behaviour: &str| format!("{python} -S {} {behaviour} {{in}} {{out}}", script.display());
    let nearly_full = read(&shipped("nearly_full.txt"));
    for (red, green, start) in
        [("self".to_owned(), "self".to_owned(), nearly_full.as_str()), (player("spy"), player("valid"), EMPTY)]
    {
        let mut command = referee(dir, &red, &green, start);
        // Players get only the variables named.
        command.args(["--env", "SPY_ON"]).env("SPY_ON", format!("{}:{}", dir.display(), elsewhere.display()));
        if let Some(user) = user {
            for path in [dir, elsewhere, &dir.join("tmp"), &dir.join("start.txt")] {
                std::os::unix::fs::chown(path, Some(user), Some(user)).unwrap();
            }
            let program = command.get_program().to_owned();
            let args: Vec<_> = command.get_args().map(ToOwned::to_owned).collect();
            let mut wrapped = Command::new("setpriv");
            wrapped.args([format!("--reuid={user}"), format!("--regid={user}"), "--clear-groups".to_owned()]);
            wrapped.arg(program).args(args).current_dir(dir).env("TMPDIR", dir.join("tmp")).env("NO_COLOR", "1");
            command = wrapped;
        }
        let output = command.env("SPY_ON", format!("{}:{}", dir.display(), elsewhere.display())).output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    }
    let logged = records(&dir.join("games.jsonl"));
    assert_eq!((logged[1].forfeit.as_ref(), logged[1].moves.len()), (None, 42), "the game was played out");
    read(&dir.join("games.output/2/red.txt"))
}

/// Checks that the spy found nothing on any of its 21 turns.
#[track_caller]
fn assert_found_nothing(kept: &str, probes: usize) {
    let found = spied(kept);
    assert_eq!(found.len(), 21 * probes, "{kept}");
    for line in found {
        let closed = line.contains(": closed (") || line == "spy capabilities: CapEff 0000000000000000";
        assert!(closed, "{line}\n(everything it found:\n{kept})");
    }
}

/// Under a root referee (as in CI), and then, where the machine lets this
/// test be another user, under a normal one. One test, not two: the Unix
/// sockets of one would come and go while the other's referee starts.
#[test]
fn a_player_reaches_nothing_of_the_referee_its_opponent_or_the_host() {
    let dir = tempfile::tempdir().unwrap();
    // Not under a folder the sandbox hides anyway, so other tests' referees
    // cover its socket too: kept, so that it never goes while one does.
    let elsewhere = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap().keep();
    let kept = spy_on(dir.path(), &elsewhere, python(), None);
    // Capabilities, umount twice, opponent, shadow, and three for each folder.
    assert_found_nothing(&kept, 5 + 2 * 3);

    if !rustix::process::geteuid().is_root() {
        return;
    }
    let nobody = maxconnect4::contain::sandbox::PLAYER_ID;
    // The test's own interpreter may live in root's home, where no other
    // user may go; the system's serves.
    let python = "/usr/bin/python3";
    let reachable = Command::new("setpriv")
        .args([format!("--reuid={nobody}"), format!("--regid={nobody}"), "--clear-groups".to_owned()])
        .args(["sh", "-c", "test -x \"$0\" && test -x \"$1\" && test -r \"$2\""])
        .args([python, env!("CARGO_BIN_EXE_maxconnect4"), concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/bot.py")])
        .status()
        .is_ok_and(|status| status.success());
    if !reachable {
        eprintln!("skipped as a normal user: it cannot run {python} or this build here");
        return;
    }
    let parent = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap().keep();
    std::os::unix::fs::chown(&parent, Some(nobody), Some(nobody)).unwrap();
    let dir = parent.join("referee");
    let elsewhere = parent.join("elsewhere");
    for folder in [&dir, &elsewhere] {
        std::fs::create_dir(folder).unwrap();
    }
    let kept = spy_on(&dir, &elsewhere, python, Some(nobody));
    assert_found_nothing(&kept, 5 + 2 * 3);
}

#[test]
fn a_bot_anywhere_plays_when_its_command_names_it() {
    // Under /tmp, which players do not see, outside the referee's folder.
    let elsewhere = tempfile::tempdir().unwrap();
    let script = elsewhere.path().join("bot.py");
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/bot.py"), &script).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let player = format!("{} -S {} valid {{in}} {{out}}", python(), script.display());
    let (record, _) = play(dir.path(), &player, "self", EMPTY);
    assert_eq!((record.forfeit, record.moves.len()), (None, 42));
}
