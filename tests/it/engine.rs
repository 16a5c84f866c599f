//! The engine: same values as the plain alpha-beta, the table never changing
//! a result, and the commands built on it (perft, solve, bench, time limits).

use maxconnect4::moves::Moves;
use maxconnect4::rules::Rules;
use maxconnect4::search::{alpha_beta, Engine, Limits};
use predicates::prelude::*;

use super::util::{engines_with_threads, maxconnect4, shipped, Rng};

/// The engine's value equals plain alpha-beta's at every depth 1 to 6 on
/// random positions, whatever the table size, and so does its move: the
/// first of the best in centre-first order.
fn check_same_values(hash_bytes: usize, seed: u64, positions: usize) {
    let mut rng = Rng::new(seed);
    let mut engine = Engine::max_without_book(hash_bytes);
    for _ in 0..positions {
        let moves = rng.below(40);
        let board = rng.position(moves);
        for depth in 1..=6 {
            let expected = alpha_beta(&board, depth).unwrap();
            let found = engine.search(&board, &Limits::depth(depth)).unwrap();
            let text = maxconnect4::format::write(&board, Default::default());
            assert_eq!(found.value, expected.value, "depth {depth}, position\n{text}");
            assert_eq!(found.column, expected.column, "depth {depth}, position\n{text}");
        }
    }
}

#[test]
fn the_engine_agrees_with_alpha_beta() {
    check_same_values(Engine::DEFAULT_HASH_BYTES, 10, 60);
}

#[test]
fn the_table_never_changes_a_value() {
    check_same_values(0, 11, 30);
    // The smallest table that stores anything: 1024 slots, collisions everywhere.
    check_same_values(8 << 10, 12, 30);
}

/// Threads change no result of a search to a fixed depth: over many
/// positions, at depths deep enough for the helper threads to join in, two
/// and four threads find the value and the move one thread finds (which
/// the tests above hold to plain alpha-beta's).
#[test]
fn threads_change_no_fixed_depth_result() {
    let mut rng = Rng::new(13);
    let mut engines = engines_with_threads(&[1, 2, 4]);
    for _ in 0..16 {
        let moves = rng.below(24);
        let board = rng.position(moves);
        let text = maxconnect4::format::write(&board, Default::default());
        for depth in [11, 12] {
            let results: Vec<_> = engines
                .iter_mut()
                .map(|engine| {
                    engine.clear();
                    let found = engine.search(&board, &Limits::depth(depth)).unwrap();
                    (found.column, found.value)
                })
                .collect();
            assert!(results.iter().all(|&result| result == results[0]), "depth {depth}: {results:?}\n{text}");
        }
    }
}

#[test]
fn perft_counts_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    maxconnect4(dir.path()).args(["perft", "11"]).assert().success().stdout("perft 11 1974069174\n");
    maxconnect4(dir.path())
        .arg("perft")
        .arg("2")
        .arg(shipped("nearly_full.txt"))
        .assert()
        .success()
        .stdout("perft 2 7\n");
}

#[test]
fn solve_prints_the_value_and_best_columns() {
    let dir = tempfile::tempdir().unwrap();
    maxconnect4(dir.path())
        .arg("solve")
        .arg(shipped("nearly_full.txt"))
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"^value -?\d+ best [1-7](,[1-7])*\n$").unwrap())
        .stderr(predicate::str::contains("Solved 4 empty cells"));
    maxconnect4(dir.path()).arg("solve").arg(shipped("full.txt")).assert().success().stdout("value -2 best none\n");
}

/// `solve ARGS` in `dir`: its value and best columns, parsed from the line
/// it prints.
fn solved(dir: &std::path::Path, args: &[&str]) -> (i32, Vec<u32>) {
    let assert = maxconnect4(dir).arg("solve").args(args).assert().success();
    let line = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!((words.len(), words[0], words[2]), (4, "value", "best"), "{line}");
    let best = words[3].split(',').filter(|&best| best != "none").map(|best| best.parse().unwrap()).collect();
    (words[1].parse().unwrap(), best)
}

/// `solve --weak` says whether the player to move wins (1), draws (0) or
/// loses (-1), the sign of the exact solve's value, and its best columns
/// are every column whose move keeps that result: each move's exact value
/// is solved on its own here, as the position after it.
#[test]
fn a_weak_solve_says_win_draw_or_loss_as_the_exact_one_does() {
    let dir = tempfile::tempdir().unwrap();
    for (moves, weak, exact) in [
        // A win by 2 points; columns 1, 2 and 3 win by less.
        ("2663426115541265373464", "value 1 best 1,2,3,4\n", (2, vec![4])),
        // A loss by 2 points; columns 1 and 2 lose by 3, column 3 is full.
        ("4223133755156631337462", "value -1 best 1,2,4,5,6,7\n", (-2, vec![4, 5, 6, 7])),
        // A draw.
        ("33333355555444442222266117", "value 0 best 2,4,6\n", (0, vec![2, 4, 6])),
    ] {
        let args = ["--rules", "max", "--weak", "--moves", moves];
        maxconnect4(dir.path()).arg("solve").args(args).assert().success().stdout(weak);
        assert_eq!(solved(dir.path(), &["--moves", moves]), exact, "{moves}");
        let (value, best) = solved(dir.path(), &args);
        assert_eq!(value, exact.0.signum(), "{moves}");
        let board = Moves::board(Rules::Max, moves).unwrap();
        let keeps_the_result: Vec<u32> = board
            .legal_columns()
            .map(|column| column.to_string().parse().unwrap())
            .filter(|column| -solved(dir.path(), &["--moves", &format!("{moves}{column}")]).0.signum() == value)
            .collect();
        assert_eq!(best, keeps_the_result, "{moves}");
    }
    // A batch prints each position's result.
    maxconnect4(dir.path())
        .args(["solve", "--weak", "--batch", "-"])
        .write_stdin("2663426115541265373464\n4223133755156631337462\n33333355555444442222266117\n")
        .assert()
        .success()
        .stdout("2663426115541265373464 1\n4223133755156631337462 -1\n33333355555444442222266117 0\n");
}

/// `solve --bound V` says whether the value is at least V, with the bound
/// its one search proved, under either rules; it is no weak solve and no
/// batch.
#[test]
fn a_bound_says_whether_the_value_reaches_it() {
    let dir = tempfile::tempdir().unwrap();
    let bound = |args: &[&str]| {
        let assert = maxconnect4(dir.path()).arg("solve").args(args).assert().success();
        String::from_utf8(assert.get_output().stdout.clone()).unwrap()
    };
    // Worth -2 to the player to move: at least -2, not at least -1. The
    // search's bound is the value itself on both sides here (an upper bound
    // below -1 that is at least the value).
    let max = ["--rules", "max", "--moves", "4223133755156631337462", "--bound"];
    assert_eq!(solved(dir.path(), &max[..4]).0, -2);
    assert_eq!(bound(&[&max[..], &["-2"]].concat()), "value >= -2\n");
    assert_eq!(bound(&[&max[..], &["-1"]].concat()), "value <= -2\n");
    assert_eq!(bound(&[&["--threads", "2"][..], &max[..], &["-1"]].concat()), "value <= -2\n");
    // Beyond the points still possible: the score bounds answer, between
    // the bound asked and the value.
    let far = bound(&[&max[..], &["-40"]].concat());
    let lower: i32 = far.strip_prefix("value >= ").unwrap().trim_end().parse().unwrap();
    assert!((-40..=-2).contains(&lower), "{far}");
    // Classic: 4455 is worth 18, in the field's scores.
    let classic = ["--rules", "classic", "--moves", "4455", "--no-book", "--bound"];
    assert_eq!(bound(&[&classic[..], &["18"]].concat()), "value >= 18\n");
    assert_eq!(bound(&[&classic[..], &["19"]].concat()), "value <= 18\n");
    for (flags, wrong) in [(&["--weak"][..], "--weak"), (&["--batch", "-"][..], "--batch")] {
        let assert = maxconnect4(dir.path()).args(["solve", "--bound", "0"]).args(flags).assert().code(2);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains("cannot be used with") && stderr.contains(wrong), "{stderr}");
    }
}

#[test]
fn solve_gives_up_when_time_runs_out() {
    let dir = tempfile::tempdir().unwrap();
    maxconnect4(dir.path())
        .arg("solve")
        .arg(shipped("input1.txt"))
        // Searched, not read from the opening book.
        .args(["--time-limit", "0.2", "--no-book"])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with("error: gave up solving "))
        .stderr(predicate::str::contains("(42 empty cells)"));
}

#[test]
fn a_time_limit_still_plays_a_move() {
    let dir = tempfile::tempdir().unwrap();
    let assert = maxconnect4(dir.path())
        .arg("one-move")
        .arg(shipped("input1.txt"))
        .args(["out.txt", "42", "--time-limit", "0.2"])
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let depth: u32 = stdout.split(" nodes to depth ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!((1..42).contains(&depth), "{stdout}");
    assert!(dir.path().join("out.txt").exists());
}

#[test]
fn a_table_too_large_for_memory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    // Refused before anything is allocated, where the system tells how much
    // memory there is (see `arguments`); elsewhere the allocation fails.
    let assert = maxconnect4(dir.path())
        .arg("one-move")
        .arg(shipped("input2.txt"))
        .args(["out.txt", "3", "--hash", "100000000"])
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.contains("100000000 MB is more than the memory at hand")
            || stderr == "error: cannot allocate 100000000 MB for the transposition table\n",
        "{stderr}"
    );
    assert!(!dir.path().join("out.txt").exists());
}

#[test]
fn bad_engine_options_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["one-move", "in.txt", "out.txt", "3", "--time-limit", "0"][..],
        &["one-move", "in.txt", "out.txt", "3", "--time-limit", "soon"],
        &["one-move", "in.txt", "out.txt", "3", "--hash", "-1"],
        &["solve"],
    ] {
        maxconnect4(dir.path()).args(args).assert().code(2);
    }
}

/// The bench's node total on one thread is deterministic: it changes only
/// when the search does, and then this number must be updated on purpose.
#[test]
fn the_bench_node_total_is_pinned() {
    let dir = tempfile::tempdir().unwrap();
    let assert = maxconnect4(dir.path()).args(["bench", "--threads", "1"]).assert().success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let total = stdout.lines().last().unwrap();
    assert!(total.starts_with("bench: 3172576 nodes in "), "{stdout}");
}

/// Max-Connect4 is a draw, proved from scratch: without the book, the first
/// player gets at least 0 in a search of a few million positions on one
/// thread (the count is the same every run; 5.6 M since the first player
/// answers on top in a solve; 658 M on two threads before), and at most 0
/// in one node (the follow-up strategy's bound).
#[test]
fn the_empty_board_is_a_draw_without_the_book() {
    let dir = tempfile::tempdir().unwrap();
    let solve_bound = |bound: &str| {
        let args = ["solve", "--no-book", "--moves", "", "--bound", bound, "--threads", "1"];
        let output = maxconnect4(dir.path()).args(args).output().unwrap();
        assert!(output.status.success(), "{output:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        let nodes: u64 =
            stderr.split("empty cells: ").nth(1).and_then(|rest| rest.split(' ').next()).unwrap().parse().unwrap();
        (String::from_utf8(output.stdout).unwrap(), nodes)
    };
    let (at_least, nodes) = solve_bound("0");
    assert_eq!(at_least, "value >= 0\n");
    assert!(nodes < 20_000_000, "{nodes} nodes");
    assert_eq!(solve_bound("1"), ("value <= 0\n".to_owned(), 1));
}

/// `bench --deep` searches the shipped positions it names.
#[test]
fn the_deep_bench_positions_are_the_shipped_files() {
    let files = ["input1.txt", "input2.txt", "input2.txt", "solve/empty28_a.txt", "solve/empty28_d.txt"];
    for ((name, text, _), file) in maxconnect4::modes::DEEP_BENCH_POSITIONS.iter().zip(files) {
        let shipped_board = maxconnect4::bounded::read_board_file(&shipped(file)).unwrap().board;
        let board = maxconnect4::format::parse(text.as_bytes()).unwrap().board;
        assert_eq!(board, shipped_board, "{name} is not {file}");
    }
    assert_eq!(maxconnect4::modes::DEEP_BENCH_POSITIONS.len(), files.len());
}

/// `solve` prints the same value and best columns whatever `--threads`.
#[test]
fn solve_prints_the_same_solution_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["solve/empty24_b.txt", "solve/empty24_e.txt", "solve/empty26_a.txt"] {
        let file = shipped(name);
        let outputs: Vec<String> = ["1", "2", "4"]
            .iter()
            .map(|threads| {
                let args = ["solve", file.to_str().unwrap(), "--threads", threads];
                let assert = maxconnect4(dir.path()).args(args).assert().success();
                String::from_utf8(assert.get_output().stdout.clone()).unwrap()
            })
            .collect();
        assert!(outputs.iter().all(|output| *output == outputs[0]), "{name}: {outputs:?}");
    }
}
