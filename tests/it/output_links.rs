//! An output folder the user named, or the one beside a log, that is a
//! symbolic link is refused, not followed, as a linked output file is: what
//! the command would write would land wherever the link points. Each command
//! says so in one line, exits 1 and writes nothing, there or beside it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::util::{maxconnect4, names_in, shipped};

/// Every path below `dir`, links not followed, with each file's size.
fn tree(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let metadata = std::fs::symlink_metadata(entry.path()).unwrap();
        paths.push((entry.path(), metadata.len()));
        if metadata.is_dir() {
            paths.extend(tree(&entry.path()));
        }
    }
    paths.sort();
    paths
}

/// What each refusal says after the folder's path.
const LINKED: &str = "it is a symbolic link; give the folder it points to (an output folder is not followed)";

/// In a new folder holding what running each of `prepare` there made (a
/// log, say), makes `link` a symbolic link to another, empty folder,
/// runs `args` there, and checks the one-line refusal naming `link`, that
/// the linked folder is still empty and that nothing was added beside the
/// link.
#[track_caller]
fn check_refused(prepare: &[&[&str]], link: &str, args: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let target = tempfile::tempdir().unwrap();
    for command in prepare {
        maxconnect4(dir.path()).args(*command).timeout(Duration::from_secs(60)).assert().success();
    }
    if let Some(parent) = Path::new(link).parent() {
        std::fs::create_dir_all(dir.path().join(parent)).unwrap();
    }
    // What an earlier run made there is replaced by the link.
    if dir.path().join(link).exists() {
        std::fs::remove_dir_all(dir.path().join(link)).unwrap();
    }
    std::os::unix::fs::symlink(target.path(), dir.path().join(link)).unwrap();
    let before = tree(dir.path());
    let output = maxconnect4(dir.path()).args(args).timeout(Duration::from_secs(60)).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
    assert_eq!(stderr, format!("error: cannot write into {link}: {LINKED}\n"), "{args:?}");
    assert!(names_in(target.path()).is_empty(), "{args:?} wrote through the link: {:?}", names_in(target.path()));
    assert_eq!(tree(dir.path()), before, "{args:?} wrote nothing beside the link");
}

/// A match between two `self` players at depth 1: the quickest game.
const MATCH: [&str; 7] = ["match", "self", "self", "--depth", "1", "--log", "games.jsonl"];

#[test]
fn a_matchs_output_folder_that_is_a_link_is_refused() {
    check_refused(&[], "games.output", &MATCH);
    // A log with games already: the next game's output is refused the same.
    check_refused(&[&MATCH], "games.output", &MATCH);
}

#[test]
fn a_tournaments_folder_or_its_output_folder_that_is_a_link_is_refused() {
    let players = ["--player", "a=self", "--player", "b=self", "--depth", "1", "--openings", "1", "--no-check"];
    let tournament = [&["tournament", "--out", "t"][..], &players].concat();
    check_refused(&[], "t", &tournament);
    // The programs' output beside the tournament's log.
    check_refused(&[], "t/games.output", &tournament);
}

#[test]
fn a_results_folder_that_is_a_link_is_refused() {
    check_refused(&[&MATCH], "results", &["results", "games.jsonl", "--out", "results"]);
}

#[test]
fn a_report_folder_that_is_a_link_is_refused_before_measuring() {
    let position = shipped("input2.txt");
    let position = position.to_str().unwrap();
    check_refused(&[], "rep", &["report", "--max-depth", "1", "--positions", position, "--out", "rep"]);
    // The default folder, in a student's folder, the same.
    check_refused(&[], "timing_report", &["report", "--max-depth", "1", "--positions", position]);
}
