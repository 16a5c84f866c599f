//! Per-player resource limits: a player that takes too much memory, too
//! many processes or too much disk loses with a verdict naming the limit,
//! and the next game is played as if nothing had happened.

use std::path::Path;

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
    let mut cases = vec![("fill", "disk-limit", "disk limit: its folder or a file it wrote grew past 8 MB (--disk)")];
    if kept {
        cases.push(("hog", "memory-limit", "memory limit: it used more than 64 MB of memory (--memory)"));
        cases.push((
            "swarm",
            "process-limit",
            "process limit: it ran more than 32 processes and threads at once (--processes)",
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
