//! An opening book built in shards, under either rules: `book --list` names
//! the positions, GNU parallel runs `book --shard I/N` as on a cluster, and
//! `book --merge` writes a book equal, byte for byte, to the one-process
//! build; and the progress files `--merge` refuses.
//!
//! GNU parallel is Debian's `parallel`. In CI (`MAXCONNECT4_REQUIRE_PARALLEL=1`,
//! set by `.ci/run`) a missing `parallel` fails the sharded build's test;
//! elsewhere it is skipped with the reason printed.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use maxconnect4::moves::Moves;
use maxconnect4::rules::Rules;

use super::bots::tool_available;
use super::util::{maxconnect4, merge_refused, read, run_shards_under_parallel, write};

/// A classic Middle-Easy benchmark position (23 stones): a book two moves
/// deep from it builds in a moment.
const CLASSIC_ROOT: &str = "52753311433677442422121";

/// A Max-Connect4 position with 14 empty cells (worth -1 to its mover).
const MAX_ROOT: &str = "4453526671234455667711223344";

/// `book`'s words for a build of `rules` two moves deep from `root`.
fn book_words(rules: &str, root: &str) -> Vec<String> {
    ["book", "--rules", rules, "--moves", root, "--depth", "2"].map(str::to_owned).to_vec()
}

/// Runs `args` in `dir`, which must succeed; returns stdout.
fn run(dir: &Path, args: &[String]) -> String {
    let assert = maxconnect4(dir).args(args).assert().success();
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

/// `book --list`'s lines as (key, moves), checked: keys distinct, each move
/// string a position two moves after `root` under `rules` whose key (or its
/// mirror image's) is the key given.
fn listed(dir: &Path, rules: &str, root: &str) -> Vec<(u64, String)> {
    let mut words = book_words(rules, root);
    words.push("--list".to_owned());
    let list: Vec<(u64, String)> = run(dir, &words)
        .lines()
        .map(|line| {
            let (key, moves) = line.split_once(' ').unwrap();
            (key.parse().unwrap(), moves.to_owned())
        })
        .collect();
    let parsed: Rules = rules.parse().unwrap();
    for (key, moves) in &list {
        assert!(moves.starts_with(root) && moves.len() == root.len() + 2, "{moves}");
        let board = Moves::board(parsed, moves).unwrap();
        assert!([board.key(), maxconnect4::search::classic::mirror(board.key())].contains(key), "{key} {moves}");
    }
    assert_eq!(list.iter().map(|(key, _)| key).collect::<HashSet<_>>().len(), list.len(), "each position once");
    assert_eq!(run(dir, &words), run(dir, &words), "the same list every time");
    list
}

/// The family of each position of `list`, numbered from 0 in its order:
/// neighbours whose move strings differ in the last move alone share one.
fn families(list: &[(u64, String)]) -> Vec<usize> {
    let mut family = 0;
    list.iter()
        .enumerate()
        .map(|(place, (_, moves))| {
            let parent = |moves: &str| moves[..moves.len() - 1].to_owned();
            if place > 0 && parent(moves) != parent(&list[place - 1].1) {
                family += 1;
            }
            family
        })
        .collect()
}

#[test]
fn shards_built_by_gnu_parallel_merge_into_the_one_process_book() {
    if !tool_available("parallel", "MAXCONNECT4_REQUIRE_PARALLEL") {
        return;
    }
    for (rules, root) in [("classic", CLASSIC_ROOT), ("max", MAX_ROOT)] {
        let dir = tempfile::tempdir().unwrap();
        let words = book_words(rules, root);
        let mut one = words.clone();
        one.extend(["--threads", "2", "--out", "one.book"].map(str::to_owned));
        run(dir.path(), &one);
        let list = listed(dir.path(), rules, root);

        // The README's way: a script builds shard $1, and GNU parallel runs
        // the shards, keeping a job log so that a second run resumes.
        run_shards_under_parallel(dir.path(), &words, "--threads 1 --shard \"$1/3\" --out sharded.book", 3);
        assert!(!dir.path().join("sharded.book").exists(), "a shard writes no book");

        // Each shard solved every third family of the list (siblings: move
        // strings that differ in the last move alone), from its own place.
        let families = families(&list);
        let mut files = Vec::new();
        for index in 0..3 {
            let name = format!("sharded.book.shard-{index}-of-3.progress");
            let text = read(&dir.path().join(&name));
            let mut lines = text.lines();
            assert_eq!(
                lines.next().unwrap(),
                format!("maxconnect4 book progress: rules {rules}, root '{root}', depth 2, shard {index}/3")
            );
            let keys: HashSet<u64> = lines.map(|line| line.split(' ').next().unwrap().parse().unwrap()).collect();
            let expected: HashSet<u64> = list
                .iter()
                .zip(&families)
                .filter(|&(_, family)| family % 3 == index)
                .map(|((key, _), _)| *key)
                .collect();
            assert_eq!(keys, expected, "{name}");
            files.push(name);
        }
        let mut merge = vec!["book".to_owned(), "--merge".to_owned()];
        merge.extend(files.iter().rev().cloned());
        merge.extend(["--out", "sharded.book"].map(str::to_owned));
        let stdout = run(dir.path(), &merge);
        assert!(stdout.starts_with("Wrote sharded.book: "), "{stdout}");
        let (one, sharded) = (dir.path().join("one.book"), dir.path().join("sharded.book"));
        assert_eq!(std::fs::read(&sharded).unwrap(), std::fs::read(&one).unwrap(), "{rules}: byte for byte");
        assert!(dir.path().join(&files[0]).exists(), "the shards' files are left as they were");
    }
}

/// `book --merge FILES --out merged.book` in `dir` fails with exit 1 and one
/// line, which it returns, writing no book.
fn refusal(dir: &Path, files: &[&str]) -> String {
    merge_refused(dir, &["book", "--merge"], files, "merged.book")
}

#[test]
fn merge_refuses_other_builds_disagreements_and_holes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let mut words = book_words("classic", CLASSIC_ROOT);
    words.extend(["--threads", "1", "--out", "c.book"].map(str::to_owned));
    // The 48 positions are 7 families, of 7 but the second (6): shards
    // 0 and 2 take two families of 7, shard 1 one of 6 and one of 7,
    // shard 3 one of 7.
    for (index, positions) in [14, 13, 14, 7].into_iter().enumerate() {
        let mut shard = words.clone();
        shard.extend(["--shard".to_owned(), format!("{index}/4")]);
        let stdout = run(path, &shard);
        assert!(
            stdout.starts_with(&format!("Solved shard {index}/4: {positions} of the 48 positions 2 moves from")),
            "{stdout}"
        );
    }
    let shard = |index: usize| format!("c.book.shard-{index}-of-4.progress");
    let (s0, s1, s2, s3) = (shard(0), shard(1), shard(2), shard(3));

    // Shards missing, and one cut short.
    let text = read(&path.join(&s2));
    let cut: Vec<&str> = text.lines().take(5).collect();
    write(path, "short.progress", &format!("{}\n", cut.join("\n")));
    let error = refusal(path, &[&s0, "short.progress"]);
    assert!(
        error.contains(
            "cannot write merged.book: 30 of the 48 positions 2 moves from the root are in none of the files; \
             no file of shards 1/4, 3/4; shard 2/4's file lacks 10 (run it again: it resumes)"
        ),
        "{error}"
    );

    // A value changed: two files disagree.
    let text = read(&path.join(&s1));
    let line = text.lines().nth(1).unwrap();
    // `KEY VALUE`, or `KEY VALUE MOVE` under Max-Connect4 rules.
    let mut words: Vec<String> = line.split(' ').map(str::to_owned).collect();
    let key = words[0].clone();
    words[1] = (words[1].parse::<i32>().unwrap() - 1).to_string();
    let changed = words.join(" ");
    write(path, "changed.progress", &text.replacen(line, &changed, 1));
    let error = refusal(path, &[&s0, &s1, &s2, &s3, "changed.progress"]);
    assert!(error.contains(&format!("{s1} and changed.progress give the position {key} different values")), "{error}");

    // A key that is no position of the book.
    write(path, "foreign.progress", &format!("{}\n12345 0\n", text.lines().next().unwrap()));
    let error = refusal(path, &[&s0, &s1, &s2, &s3, "foreign.progress"]);
    assert!(error.contains("foreign.progress names the position 12345, which is not 2 moves from"), "{error}");

    // Another build: other rules.
    let mut max = book_words("max", MAX_ROOT);
    max.extend(["--shard", "0/4", "--out", "m.book"].map(str::to_owned));
    run(path, &max);
    let error = refusal(path, &[&s0, "m.book.shard-0-of-4.progress"]);
    assert!(
        error.contains(&format!(
            "m.book.shard-0-of-4.progress is the progress of another build (rules max, root '{MAX_ROOT}', depth 2) \
             than {s0} (rules classic, root '{CLASSIC_ROOT}', depth 2)"
        )),
        "{error}"
    );

    // Not a progress file at all, and no file.
    write(path, "notes.txt", "shopping list\n");
    let error = refusal(path, &[&s0, "notes.txt"]);
    assert!(error.contains("notes.txt is not a book's progress file: its first line is 'shopping list'"), "{error}");
    let error = refusal(path, &[&s0, "nowhere.progress"]);
    assert!(error.contains("cannot read nowhere.progress: no such file"), "{error}");

    // All four: the book.
    let stdout = run(path, &["book", "--merge", &s0, &s1, &s2, &s3, "--out", "merged.book"].map(str::to_owned));
    assert!(stdout.starts_with("Wrote merged.book: 56 positions up to 2 moves from"), "{stdout}");

    // A classic book is no book for Max-Connect4's solve.
    let assert = maxconnect4(path).args(["solve", "--moves", CLASSIC_ROOT, "--book", "merged.book"]).assert().code(1);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr, "error: merged.book is a classic book; --rules max needs a Max-Connect4 one\n");
}

#[test]
fn an_interrupted_shard_resumes_from_its_progress_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let (words, progress) = built_max_shard(path, "1/2");
    let whole = read(&progress);
    // Stopped after three positions, the fourth line cut short.
    let lines: Vec<&str> = whole.lines().collect();
    write(path, "m.book.shard-1-of-2.progress", &format!("{}\n{}", lines[..4].join("\n"), &lines[4][..3]));
    let assert = maxconnect4(path).args(&words).assert().success();
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("; 3 more were read from m.book.shard-1-of-2.progress."), "{stderr}");
    // The cut line is gone, and every position is there once.
    let resumed = read(&progress);
    let sorted = |text: &str| {
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(&resumed), sorted(&whole));
    assert!(resumed.starts_with(&format!("{}\n", lines[..4].join("\n"))), "what was solved is kept");

    // While another build holds the file (here a process of this test's, as
    // the same shard started twice would), a build refuses it and leaves it
    // as it is; once that process has ended, the build runs.
    let holder = LockHolder::start(&progress);
    let assert = maxconnect4(path).args(&words).assert().code(1);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert_eq!(
        stderr,
        "error: m.book.shard-1-of-2.progress is being written by another build of the same book: let it finish\n"
    );
    assert_eq!(read(&progress), resumed);
    holder.end();
    run(path, &words);
}

/// Where [`lock_holder`] finds the file to lock.
const HOLD_LOCK: &str = "MAXCONNECT4_TEST_HOLD_LOCK";

/// What [`lock_holder`] prints once it holds the lock.
const LOCKED: &str = "lock held";

/// Another process holding a file locked, as a build holds its progress
/// file: this test binary running [`lock_holder`]. (Not this process: a
/// lock it held would live on, until their `exec`, in the processes other
/// tests' threads fork meanwhile, and refuse the build that comes after.)
struct LockHolder {
    child: std::process::Child,
    /// Its standard output, read to the end when it ends (closed early,
    /// the harness would fail writing its last lines).
    lines: std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
}

impl LockHolder {
    /// Starts the process and waits until it holds `file` locked.
    fn start(file: &Path) -> LockHolder {
        use std::io::BufRead;
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "book_shards::lock_holder", "--ignored", "--nocapture", "--test-threads", "1"])
            .env(HOLD_LOCK, file)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The test harness writes the test's name before what the test prints, on the same line.
        let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        assert!(lines.any(|line| line.unwrap().ends_with(LOCKED)), "the lock holder never said it held the lock");
        LockHolder { child, lines }
    }

    /// Lets the process end, and waits until it has: the lock is free.
    fn end(mut self) {
        drop(self.child.stdin.take());
        self.lines.by_ref().for_each(drop);
        assert!(self.child.wait().unwrap().success());
    }
}

/// Not a test: the process [`LockHolder`] runs. It locks the file named by
/// [`HOLD_LOCK`], says [`LOCKED`], and holds it until its standard input ends.
#[test]
#[ignore = "a helper process of an_interrupted_shard_resumes_from_its_progress_file"]
fn lock_holder() {
    use std::io::Read;
    let Some(file) = std::env::var_os(HOLD_LOCK) else { return };
    let held = std::fs::File::open(file).unwrap();
    held.lock().unwrap();
    println!("{LOCKED}");
    std::io::stdin().read_to_end(&mut Vec::new()).unwrap();
    drop(held);
}

/// A Max build resumed from a progress file whose lines have no best move
/// (`KEY VALUE`, as builds wrote before they recorded one) solves those
/// positions again for their moves, keeps the lines that have one, and
/// writes the book a whole build writes.
#[test]
fn a_max_build_solves_again_the_positions_recorded_without_a_move() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    let (words, progress) = built_max_shard(path, "0/1");
    let whole = read(&progress);
    let lines: Vec<&str> = whole.lines().collect();
    assert!(lines[1..].iter().all(|line| line.split(' ').count() == 3), "KEY VALUE MOVE:\n{whole}");
    // The first three positions without their moves, the rest as they were.
    let stripped: Vec<&str> = lines
        .iter()
        .enumerate()
        .map(|(at, &line)| if (1..=3).contains(&at) { line.rsplit_once(' ').unwrap().0 } else { line })
        .collect();
    write(path, "m.book.shard-0-of-1.progress", &format!("{}\n", stripped.join("\n")));
    let assert = maxconnect4(path).args(&words).assert().success();
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    let kept = lines.len() - 1 - 3;
    assert!(stderr.contains("Solved 3 positions 2 moves from the root"), "{stderr}");
    assert!(stderr.contains(&format!("; {kept} more were read from m.book.shard-0-of-1.progress.")), "{stderr}");
    // Each position solved again has a line with its move, the same as before.
    let resumed = read(&progress);
    for line in &lines[1..=3] {
        assert!(resumed.lines().any(|again| again == *line), "{line} again in:\n{resumed}");
    }
    let merge = ["book", "--merge", "m.book.shard-0-of-1.progress", "--out", "m.book"].map(str::to_owned);
    run(path, &merge);
    let mut whole_words = book_words("max", MAX_ROOT);
    whole_words.extend(["--threads", "1", "--out", "whole.book"].map(str::to_owned));
    run(path, &whole_words);
    assert_eq!(std::fs::read(path.join("m.book")).unwrap(), std::fs::read(path.join("whole.book")).unwrap());
}

/// Builds shard `shard` (`I/N`) of the small Max book into `m.book` on one
/// thread: the command's words, to run it again, and its progress file.
fn built_max_shard(path: &Path, shard: &str) -> (Vec<String>, PathBuf) {
    let mut words = book_words("max", MAX_ROOT);
    words.extend(["--threads", "1", "--shard", shard, "--out", "m.book"].map(str::to_owned));
    run(path, &words);
    let (index, count) = shard.split_once('/').unwrap();
    (words, path.join(format!("m.book.shard-{index}-of-{count}.progress")))
}
