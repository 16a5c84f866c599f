//! Files read from outside, bounded: a device, a named pipe, a doctored file
//! or one in another encoding costs a one-line error, never a hang, the
//! machine's memory or a wrong result.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use super::util::{maxconnect4, read, records, shipped, write};

/// A named pipe at `name` in `dir`, with no writer.
fn fifo(dir: &Path, name: &str) {
    assert!(Command::new("mkfifo").arg(dir.join(name)).status().unwrap().success());
}

/// Runs the program in `dir` with `args`, bounded in time so that a hang is a
/// failure, and checks its exit code and its one-line error.
#[track_caller]
fn check_error(dir: &Path, args: &[&str], message: &str) {
    maxconnect4(dir).args(args).timeout(Duration::from_secs(60)).assert().code(1).stderr(format!("error: {message}\n"));
}

#[test]
fn a_device_or_a_named_pipe_is_no_log() {
    let dir = tempfile::tempdir().unwrap();
    fifo(dir.path(), "pipe.jsonl");
    let device = "it is a device, not a regular file";
    let pipe = "it is a named pipe, not a regular file";
    check_error(dir.path(), &["replay", "/dev/zero"], &format!("cannot read /dev/zero: {device}"));
    check_error(dir.path(), &["replay", "pipe.jsonl"], &format!("cannot read pipe.jsonl: {pipe}"));
    for (log, reason) in [("/dev/zero", device), ("pipe.jsonl", pipe)] {
        let args = ["match", "self", "self", "--depth", "1", "--log", log];
        check_error(dir.path(), &args, &format!("cannot write {log}: {reason}"));
    }
}

#[test]
fn a_batch_of_positions_from_a_device_or_a_named_pipe_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    fifo(dir.path(), "pipe.txt");
    for (batch, what) in [("/dev/zero", "a device"), ("pipe.txt", "a named pipe")] {
        let args = ["solve", "--rules", "classic", "--batch", batch];
        check_error(dir.path(), &args, &format!("cannot read {batch}: it is {what}, not a regular file"));
    }
}

/// `maxconnect4 ... | head`: a reader that stops reading is no error to report.
#[test]
fn output_to_a_reader_that_has_gone_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["book", "--list", "--rules", "classic", "--depth", "3"][..], &["perft", "2", "--moves", "4"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let run = Command::new(env!("CARGO_BIN_EXE_maxconnect4"))
            .args(args)
            .current_dir(dir.path())
            .stdout(writer)
            .output()
            .unwrap();
        assert_eq!((run.status.code(), String::from_utf8_lossy(&run.stderr).as_ref()), (Some(0), ""), "{args:?}");
    }
}

#[test]
fn the_moves_file_is_made_to_agree_with_the_log_on_resuming() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "start.txt", &read(&shipped("nearly_full.txt")));
    let play = || {
        maxconnect4(dir.path()).args(["match", "self", "self", "--start", "start.txt", "--quiet"]).assert().success();
    };
    play();
    play();
    let moves = dir.path().join("games.moves");
    let whole = read(&moves);
    // As a referee stopped between the record and its moves leaves it: the
    // last game's line missing, or half written.
    for crashed in [whole.lines().next().unwrap().to_owned() + "\n", whole[..whole.len() - 1].to_owned()] {
        std::fs::write(&moves, &crashed).unwrap();
        play();
        let logged = records(&dir.path().join("games.jsonl"));
        let expected: String = logged.iter().map(|game| format!("{}\n", game.moves_line())).collect();
        assert_eq!(read(&moves), expected);
    }
}

#[test]
fn a_board_file_in_utf32_is_named_so() {
    let dir = tempfile::tempdir().unwrap();
    let text = read(&shipped("input2.txt"));
    let wide: Vec<u8> =
        [0xff, 0xfe, 0, 0].into_iter().chain(text.chars().flat_map(|c| u32::from(c).to_le_bytes())).collect();
    std::fs::write(dir.path().join("wide.txt"), wide).unwrap();
    check_error(
        dir.path(),
        &["one-move", "wide.txt", "out.txt", "3"],
        "wide.txt is not a valid board file: line 1: the file is in UTF-32 (little-endian); save it as plain text (ASCII or UTF-8)",
    );
}

#[test]
fn a_report_onto_a_file_a_pipe_or_a_dangling_link_is_refused_before_searching() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "afile", "keep me\n");
    fifo(dir.path(), "apipe");
    std::os::unix::fs::symlink("nowhere", dir.path().join("alink")).unwrap();
    let positions = shipped("input2.txt");
    for (out, what) in [("afile", "a file"), ("apipe", "a named pipe")] {
        let args = ["report", "--out", out, "--max-depth", "2", "--positions", positions.to_str().unwrap()];
        check_error(dir.path(), &args, &format!("cannot write into {out}: it is {what}, not a directory"));
    }
    let args = ["report", "--out", "alink", "--max-depth", "2", "--positions", positions.to_str().unwrap()];
    check_error(
        dir.path(),
        &args,
        "cannot write into alink: it is a symbolic link; give the folder it points to (an output folder is not followed)",
    );
    assert!(!dir.path().join("nowhere").exists(), "a dangling link's target is not made");
    assert_eq!(read(&dir.path().join("afile")), "keep me\n");
    let mut left: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
    left.sort();
    assert_eq!(left, ["afile", "alink", "apipe"], "nothing else is left behind");
}

/// One rule for every output: the folder or file named is made, but the
/// folder it goes in must exist (a mistyped path is refused, not grown into
/// a tree of folders), and nothing is left behind.
#[test]
fn every_output_is_made_only_in_a_folder_that_exists() {
    let dir = tempfile::tempdir().unwrap();
    let players = ["--player", "a=self", "--player", "b=self", "--depth", "1", "--openings", "1", "--no-check"];
    let tournament = |out: &'static str| [&["tournament", "--out", out][..], &players[..]].concat();
    check_error(dir.path(), &tournament("deep/er/t"), "cannot write deep/er/t: the directory deep/er does not exist");
    maxconnect4(dir.path()).args(tournament("t")).assert().success();
    check_error(
        dir.path(),
        &["results", "t/games.jsonl", "--out", "no/such/results"],
        "cannot write no/such/results: the directory no/such does not exist",
    );
    check_error(
        dir.path(),
        &["match", "self", "self", "--depth", "1", "--log", "nope/games.jsonl"],
        "cannot write nope/games.jsonl: the directory nope does not exist",
    );
    check_error(
        dir.path(),
        &["report", "--max-depth", "1", "--out", "missing/x/rep"],
        "cannot write missing/x/rep: the directory missing/x does not exist",
    );
    write(dir.path(), "afile", "keep me\n");
    check_error(
        dir.path(),
        &["results", "t/games.jsonl", "--out", "afile"],
        "cannot write into afile: it is a file, not a directory",
    );
    assert_eq!(read(&dir.path().join("afile")), "keep me\n");
    let mut left: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
    left.sort();
    assert_eq!(left, ["afile", "t"], "nothing else is left behind");
    // A folder in one that exists is made.
    maxconnect4(dir.path()).args(["results", "t/games.jsonl", "--out", "t/again"]).assert().success();
    assert!(dir.path().join("t/again/results.html").is_file());
}
