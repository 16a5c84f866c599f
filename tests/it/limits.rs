//! Per-player resource limits: a player that takes too much memory, too
//! many processes or too much disk loses with a verdict naming the limit,
//! and the next game is played as if nothing had happened.

use std::path::Path;
use std::process::Command;

use super::util::{bot, maxconnect4, records};

/// Whether the kernel can keep the memory and process limits here: the
/// referee's warning says when it cannot, and those verdicts are then not
/// expected (they are where CI runs, as root).
fn limits_kept(dir: &Path) -> bool {
    let output = maxconnect4(dir).args(["check", "self", "--depth", "1"]).output().unwrap();
    !String::from_utf8_lossy(&output.stderr).contains("cannot be kept here")
}

#[test]
fn a_player_past_a_limit_loses_with_the_limit_named_and_the_next_game_is_played() {
    let dir = tempfile::tempdir().unwrap();
    let kept = limits_kept(dir.path());
    let disk = "disk limit: its folder or a file it wrote grew past 8 MB (--disk)";
    // One file too large, and files each small enough that fill the folder
    // for a while during the turn and are gone by its end.
    let mut cases = vec![("fill", "disk-limit", disk), ("spill", "disk-limit", disk)];
    if kept {
        cases.push(("hog", "memory-limit", "memory limit: it used more than 64 MB of memory (--memory)"));
        cases.push((
            "swarm",
            "process-limit",
            "process limit: it ran more than 32 processes and threads at once (--processes)",
        ));
        // Two processes spinning for a minute use a second of CPU time long
        // before a minute passes.
        cases.push((
            "spin",
            "cpu-limit",
            "CPU limit: its processes used more than 1 s of CPU time on one move (--cpu, or --timeout)",
        ));
    }
    let limits = [
        "--memory",
        "64",
        "--processes",
        "32",
        "--disk",
        "8",
        "--cpu",
        "1",
        "--timeout",
        "60",
        "--depth",
        "1",
        "--quiet",
    ];
    for (number, (behaviour, verdict, reason)) in cases.into_iter().enumerate() {
        maxconnect4(dir.path()).args(["match", &bot(behaviour, None), "self"]).args(limits).assert().success();
        // The same limits cost a well-behaved player nothing.
        maxconnect4(dir.path()).args(["match", &bot("valid", None), "self"]).args(limits).assert().success();
        let logged = records(&dir.path().join("games.jsonl"));
        let forfeit = logged[2 * number].forfeit.as_ref().unwrap_or_else(|| panic!("{behaviour}: no forfeit"));
        assert_eq!((forfeit.verdict.as_str(), forfeit.reason.as_str()), (verdict, reason), "{behaviour}");
        assert_eq!(logged[2 * number + 1].forfeit, None, "the game after {behaviour}");
        assert_eq!(logged[2 * number + 1].moves.len(), 42, "the game after {behaviour}");
    }
}

#[test]
fn a_bot_on_pipes_is_held_to_its_cpu_time_too() {
    let dir = tempfile::tempdir().unwrap();
    if !limits_kept(dir.path()) {
        return;
    }
    let spinning = super::util::protocol_bot("coordinator", &["spin"]);
    let args = ["--rules", "classic", "--cpu", "1", "--timeout", "60", "--quiet"];
    maxconnect4(dir.path()).args(["match", &spinning, "self"]).args(args).assert().success();
    let forfeit = records(&dir.path().join("games.jsonl"))[0].forfeit.clone().expect("the spinning bot forfeits");
    assert_eq!(forfeit.verdict, "cpu-limit", "{}", forfeit.reason);
    assert!(
        forfeit.reason.starts_with("CPU limit: its processes used more than 1 s of CPU time"),
        "{}",
        forfeit.reason
    );
}

/// Hostile entrants lose every game they play with the limit named, the
/// games between the others (played beside theirs, two at a time) are
/// played out, and the standings count the forfeits.
#[test]
fn a_tournament_plays_on_past_its_hostile_entrants() {
    let dir = tempfile::tempdir().unwrap();
    let mut hostile = vec![("fill", "disk-limit")];
    if limits_kept(dir.path()) {
        hostile.extend([("hog", "memory-limit"), ("swarm", "process-limit")]);
    }
    let mut command = maxconnect4(dir.path());
    command.args(["tournament", "--player", "me=self", "--player", &format!("valid={}", bot("valid", None))]);
    for (behaviour, _) in &hostile {
        command.args(["--player", &format!("{behaviour}={}", bot(behaviour, None))]);
    }
    command.args(["--memory", "64", "--processes", "32", "--disk", "8", "--timeout", "60", "--depth", "1"]);
    command.args(["--openings", "0", "--jobs", "2", "--out", "t", "--no-check"]).assert().success();

    let logged = records(&dir.path().join("t/games.jsonl"));
    let entrants = hostile.len() + 2;
    assert_eq!(logged.len(), entrants * (entrants - 1), "every pair, both colours");
    for record in &logged {
        let names = [record.red.name.as_str(), record.green.name.as_str()];
        let verdict =
            |name: &str| hostile.iter().find(|(behaviour, _)| *behaviour == name).map(|(_, verdict)| *verdict);
        match (verdict(names[0]), verdict(names[1])) {
            (None, None) => {
                assert_eq!((&record.forfeit, record.moves.len()), (&None, 42), "{names:?}");
            }
            // Red moves first: when both are hostile, red is the one to pass its limit.
            (red, green) => {
                let forfeit = record.forfeit.as_ref().unwrap_or_else(|| panic!("{names:?}: no forfeit"));
                let loser = record.side(forfeit.player).name.as_str();
                assert_eq!(loser, if red.is_some() { names[0] } else { names[1] }, "{names:?}");
                assert_eq!(forfeit.verdict, red.or(green).unwrap(), "{names:?}: {}", forfeit.reason);
            }
        }
    }
    let standings = std::fs::read_to_string(dir.path().join("t/standings.csv")).unwrap();
    for (behaviour, _) in &hostile {
        // Every game it plays but those where another hostile one is red.
        let forfeits = 2 * (entrants - 1) - (hostile.len() - 1);
        let row: Vec<&str> = standings
            .lines()
            .map(|line| line.split(',').collect())
            .find(|row: &Vec<&str>| row[1] == *behaviour)
            .unwrap();
        assert_eq!(row[6], forfeits.to_string(), "{behaviour}: {row:?}");
    }
}

/// A referee that may make no control group (a normal user's, here
/// `nobody`'s) says in one line which limits it cannot keep, plays on, and
/// still keeps the size of the players' folders.
#[test]
fn a_referee_that_cannot_keep_a_limit_says_which_and_plays_on() {
    if !rustix::process::geteuid().is_root() {
        return;
    }
    let nobody = maxconnect4::contain::sandbox::PLAYER_ID;
    let python = "/usr/bin/python3";
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bots/bot.py");
    let reachable = Command::new("setpriv")
        .args([format!("--reuid={nobody}"), format!("--regid={nobody}"), "--clear-groups".to_owned()])
        .args(["sh", "-c", "test -x \"$0\" && test -x \"$1\" && test -r \"$2\""])
        .args([python, env!("CARGO_BIN_EXE_maxconnect4"), script])
        .status()
        .is_ok_and(|status| status.success());
    if !reachable {
        eprintln!("skipped: nobody cannot run {python} or this build here");
        return;
    }
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    for path in [dir.path(), &tmp] {
        std::os::unix::fs::chown(path, Some(nobody), Some(nobody)).unwrap();
    }
    for behaviour in ["fill", "valid"] {
        let player = format!("{python} -S {script} {behaviour} {{in}} {{out}}");
        let output = Command::new("setpriv")
            .args([format!("--reuid={nobody}"), format!("--regid={nobody}"), "--clear-groups".to_owned()])
            .arg(env!("CARGO_BIN_EXE_maxconnect4"))
            .args(["match", &player, "self", "--disk", "8", "--depth", "1", "--timeout", "60", "--quiet"])
            .current_dir(dir.path())
            .env("TMPDIR", &tmp)
            .env("NO_COLOR", "1")
            .env_remove("RUST_BACKTRACE")
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            "warning: the limits of players' memory (--memory), processes (--processes), CPU time (--cpu) \
             cannot be kept here (no control group this referee may make); their /tmp and folder sizes still are\n"
        );
    }
    let logged = records(&dir.path().join("games.jsonl"));
    let forfeit = logged[0].forfeit.as_ref().expect("fill passed its folder's limit");
    assert_eq!(forfeit.verdict, "disk-limit", "{}", forfeit.reason);
    assert_eq!((&logged[1].forfeit, logged[1].moves.len()), (&None, 42), "the next game");
}

/// A player's `/tmp` and `/dev/shm` are its to write, up to `--tmp-size`:
/// a write past it fails, and the player plays on.
#[test]
fn a_players_tmp_and_shared_memory_hold_no_more_than_the_tmp_size() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--tmp-size", "8", "--depth", "1", "--timeout", "60", "--quiet"];
    maxconnect4(dir.path()).args(["match", &bot("stuff", None), "self"]).args(args).assert().success();
    let logged = records(&dir.path().join("games.jsonl"));
    assert_eq!((&logged[0].forfeit, logged[0].moves.len()), (&None, 42));
    let said = super::util::read(&dir.path().join("games.output/1/red.txt"));
    for folder in ["/tmp", "/dev/shm"] {
        let written: Vec<u32> = said
            .lines()
            .filter_map(|line| line.strip_prefix(&format!("stuff {folder}: "))?.strip_suffix(" MB")?.parse().ok())
            .collect();
        assert_eq!(written.len(), 21, "once a turn:\n{said}");
        assert!(written.iter().all(|megabytes| (1..=8).contains(megabytes)), "{folder}: {written:?}\n{said}");
    }
}

/// A JVM reserves far more memory than it uses and starts a score of
/// threads: a Java program plays whole games under the default limits.
#[test]
fn a_java_program_plays_under_the_default_limits() {
    if !super::bots::tool_available("javac", "MAXCONNECT4_REQUIRE_JDK") {
        return;
    }
    // Where a player run as another user may read it (not under /tmp).
    let classes = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/Leftmost.java");
    let status = Command::new("javac").arg("-d").arg(classes.path()).arg(&source).status().unwrap();
    assert!(status.success(), "javac failed on {}", source.display());
    std::fs::set_permissions(classes.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let classpath = classes.path().display().to_string();
    let java = format!("{} {{in}} {{out}}", shell_words::join(["java", "-classpath", &classpath, "Leftmost"]));
    let dir = tempfile::tempdir().unwrap();
    for (red, green) in [(java.as_str(), "self"), ("self", java.as_str())] {
        let limits = ["--depth", "1", "--timeout", "60", "--quiet"];
        maxconnect4(dir.path()).args(["match", red, green]).args(limits).assert().success();
    }
    for record in records(&dir.path().join("games.jsonl")) {
        assert_eq!((&record.forfeit, record.moves.len()), (&None, 42));
    }
}
