//! `analyse`: the value of every column of a position, as a person and a
//! program read it, checked against the published benchmark scores and
//! against `solve`.

use serde_json::Value;

use super::util::{run, shipped, write};

/// What `args` print on stdout, which must succeed.
fn stdout(args: &[&str]) -> String {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

/// The JSON object `analyse --json` prints for `args`.
fn json(args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.push("--json");
    serde_json::from_str(&stdout(&args)).unwrap()
}

/// `solve`'s `value V best C1,C2` for the same position.
fn solved(args: &[&str]) -> (i64, Vec<i64>) {
    let mut solve = vec!["solve"];
    solve.extend_from_slice(args);
    let line = stdout(&solve);
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!((words[0], words[2]), ("value", "best"), "{line}");
    (words[1].parse().unwrap(), words[3].split(',').map(|c| c.parse().unwrap()).collect())
}

/// The first `count` positions of a benchmark set with their published scores.
fn benchmark(set: &str, count: usize) -> Vec<(String, i64)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/connect4-benchmarks").join(set);
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .take(count)
        .map(|line| {
            let (moves, score) = line.split_once(' ').unwrap();
            (moves.to_owned(), score.parse().unwrap())
        })
        .collect()
}

/// The highest value of an analysis is the position's published score, it
/// is exact, and its columns are `solve`'s best.
#[test]
fn classic_values_agree_with_the_published_scores() {
    let mut positions = benchmark("Test_L3_R1", 6);
    positions.extend(benchmark("Test_L2_R1", 3));
    for (moves, score) in positions {
        let args = ["--rules", "classic", "--moves", moves.as_str()];
        let analysis = json(&["analyse", "--rules", "classic", "--moves", &moves, "--depth", "42"]);
        let values: Vec<Option<i64>> = analysis["values"].as_array().unwrap().iter().map(Value::as_i64).collect();
        assert_eq!(values.iter().flatten().max(), Some(&score), "{moves}: {analysis}");
        let (value, best) = solved(&args);
        assert_eq!(value, score, "{moves}");
        assert_eq!(analysis["best"], serde_json::json!(best), "{moves}");
        // A full column has neither a value nor an exactness; the rest are exact.
        for (value, exact) in values.iter().zip(analysis["exact"].as_array().unwrap()) {
            assert_eq!(exact.as_bool(), value.map(|_| true), "{moves}: {analysis}");
        }
    }
}

/// One line per column, the best marked: the position of `Test_L2_R1`'s
/// second line, whose score is 8 (column 5).
#[test]
fn the_text_has_a_line_per_column() {
    let text = stdout(&["analyse", "--rules", "classic", "--moves", "52753311433677442422121"]);
    let expected = "\
1       2  exact
2       3  exact
3       7  exact
4       7  exact
5       8  exact  best
6       7  exact
7       2  exact
";
    assert_eq!(text, expected);
    // `analyze` is the same command.
    assert_eq!(stdout(&["analyze", "--rules", "classic", "--moves", "52753311433677442422121"]), expected);
}

/// Under Max rules, with a depth that reaches the end, each column's value
/// is the final score difference: the best is `solve`'s value and columns.
#[test]
fn max_values_to_the_end_agree_with_solve() {
    for args in [vec!["--moves", "44444433333322222211111"], vec!["--moves", "4444443333332222221"]] {
        let mut analyse = vec!["analyse", "--depth", "42"];
        analyse.extend_from_slice(&args);
        let analysis = json(&analyse);
        let (value, best) = solved(&args);
        let values = analysis["values"].as_array().unwrap();
        assert_eq!(values.iter().filter_map(Value::as_i64).max(), Some(value), "{args:?}: {analysis}");
        assert_eq!(analysis["best"], serde_json::json!(best));
        assert_eq!(analysis["rules"], "max");
        assert_eq!(analysis["moves"], args[1]);
    }
    // A board file, whose JSON has no moves.
    let analysis = json(&["analyse", "--depth", "42", shipped("solve/empty24_a.txt").to_str().unwrap()]);
    let (value, best) = solved(&[shipped("solve/empty24_a.txt").to_str().unwrap()]);
    assert_eq!(analysis.get("moves"), None);
    assert_eq!(analysis["values"].as_array().unwrap().iter().filter_map(Value::as_i64).max(), Some(value));
    assert_eq!(analysis["best"], serde_json::json!(best));
}

/// A shallow depth gives depth-limited values, said so on every line and
/// in the JSON; a full column is `full` and `null`.
#[test]
fn depth_limited_values_say_their_depth() {
    let text = stdout(&["analyse", "--moves", "444444", "--depth", "3"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7, "{text}");
    assert_eq!(lines[3], "4    full");
    for (index, line) in lines.iter().enumerate().filter(|&(index, _)| index != 3) {
        assert!(line.starts_with(&(index + 1).to_string()), "{text}");
        assert!(line.contains("  depth 3"), "{text}");
    }
    // The position is symmetric, and so are its values; 3 and 5 are best,
    // at this depth only.
    assert!(lines[2].ends_with("  best, not proven") && lines[4].ends_with("  best, not proven"), "{text}");
    let analysis = json(&["analyse", "--moves", "444444", "--depth", "3"]);
    assert_eq!(analysis["exact"], serde_json::json!([false, false, false, null, false, false, false]));
    assert_eq!(analysis["depth"], serde_json::json!([3, 3, 3, null, 3, 3, 3]));
    assert_eq!(analysis["values"][3], Value::Null);
    assert_eq!(analysis["best"], serde_json::json!([3, 5]));
    assert_eq!(analysis["best_proven"], false);
}

/// Under Max rules, at the default depth, a position the solver reaches
/// within its budget (here 30 empty cells) has every column exact, each
/// the negated value `solve` proves for the position after it, and the
/// best columns proven: a depth-16 search had given column 3 -2.59 (it is
/// -6) and called column 4 best at -1.66 (it is -3).
#[test]
fn max_values_within_the_solvers_reach_are_exact_at_the_default_depth() {
    let moves = "444434522262";
    let analysis = json(&["analyse", "--moves", moves]);
    assert_eq!(analysis["exact"], serde_json::json!([true, true, true, true, true, true, true]), "{analysis}");
    assert_eq!(analysis["best_proven"], true);
    for column in 1..=7 {
        let (child, _) = solved(&["--moves", &format!("{moves}{column}")]);
        assert_eq!(analysis["values"][column - 1].as_i64(), Some(-child), "column {column}: {analysis}");
    }
    let (value, best) = solved(&["--moves", moves]);
    assert_eq!(analysis["values"].as_array().unwrap().iter().filter_map(Value::as_i64).max(), Some(value));
    assert_eq!(analysis["best"], serde_json::json!(best));
    let text = stdout(&["analyse", "--moves", moves]);
    assert!(text.lines().all(|line| line.contains("  exact")), "{text}");
    assert_eq!(text.lines().filter(|line| line.ends_with("exact  best")).count(), best.len(), "{text}");
}

/// A time limit solves what it can: here, everything (a near-full board,
/// whatever the machine's speed, within a generous limit).
#[test]
fn a_time_limit_solves_what_it_can() {
    let analysis = json(&["analyse", "--moves", "44444433333322222211111", "--time-limit", "60"]);
    assert_eq!(analysis["exact"], serde_json::json!([true, null, null, null, true, true, true]));
}

#[test]
fn a_finished_game_has_no_columns() {
    let text = stdout(&["analyse", "--rules", "classic", "--moves", "1212121"]);
    assert_eq!(text, "The game is over: no column can be played.\n");
    let analysis = json(&["analyse", "--rules", "classic", "--moves", "1212121"]);
    assert_eq!(analysis["values"], serde_json::json!([null, null, null, null, null, null, null]));
    assert_eq!(analysis["best"], serde_json::json!([]));
    assert_eq!(stdout(&["analyse", shipped("full.txt").to_str().unwrap()]), text);
}

#[test]
fn bad_input_is_one_clear_error() {
    let check = |args: &[&str], code: i32, message: &str| {
        let (status, out, err) = run(args);
        assert_eq!(status, code, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: expected '{message}' in\n{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    };
    check(&["analyse", "--moves", "448"], 2, "move 3 is '8', not a column 1-7");
    check(&["analyse", "--rules", "classic", "--moves", "12121213"], 2, "--moves <MOVES>");
    check(&["analyse"], 2, "<FILE>");
    check(&["analyse", "--moves", "44", "--depth", "0"], 2, "--depth");
    check(&["analyse", "--moves", "44", "--rules", "chess"], 2, "--rules");
    let classic = concat!(env!("CARGO_MANIFEST_DIR"), "/data/classic.book");
    check(
        &["analyse", "--moves", "44", "--book", classic],
        1,
        "classic.book is a classic book; --rules max needs a Max-Connect4 one",
    );
    check(&["analyse", "/no/such/board.txt"], 1, "cannot read /no/such/board.txt");
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.txt", "not a board\n");
    check(&["analyse", bad.to_str().unwrap()], 1, "bad.txt");
}
