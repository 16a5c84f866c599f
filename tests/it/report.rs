//! The timing report as a student runs it: the files it writes, that their
//! figures are real and consistent, how it skips searches over the budget,
//! and that bad options fail clearly without touching an earlier report.

use std::collections::HashMap;
use std::path::Path;

use maxconnect4::board::Board;
use maxconnect4::bounded::read_board_file;
use maxconnect4::report::chart::Chart;
use maxconnect4::report::measure::Algorithm;
use maxconnect4::report::names::own_search;
use maxconnect4::report::timing_csv::COLUMNS;
use maxconnect4::search::{alpha_beta, minimax};

use super::util::{maxconnect4, names_in, read, shipped, write};

/// One row of `timing.csv`, by column name.
type Row = HashMap<String, String>;

/// Parses `timing.csv` and checks what holds for every report: the
/// documented header; plain numbers; every cell of each position, algorithm
/// and depth once; skipped depths only after measured ones; minimax and
/// alpha-beta finding the same value wherever both ran, alpha-beta never
/// exploring more nodes.
pub(super) fn check_timing_csv(path: &Path) -> Vec<Row> {
    let mut reader = csv::Reader::from_path(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    assert_eq!(header, COLUMNS);
    let rows: Vec<Row> = reader
        .records()
        .map(|record| header.iter().cloned().zip(record.unwrap().iter().map(str::to_owned)).collect())
        .collect();
    let mut cells: HashMap<(String, String), Vec<u32>> = HashMap::new();
    for row in &rows {
        let depth: u32 = row["depth"].parse().unwrap();
        cells.entry((row["position"].clone(), row["algorithm"].clone())).or_default().push(depth);
        match row["status"].as_str() {
            "measured" => {
                // A program's run may give no count, and never its value.
                let program = ["player", "maxconnect4"].contains(&row["algorithm"].as_str());
                if !(program && row["nodes"].is_empty()) {
                    // A program's count is whatever its pattern read.
                    let least = if program { 0 } else { 2 };
                    assert!(row["nodes"].parse::<u64>().unwrap() >= least, "{row:?}");
                    assert!(row["nodes_per_second"].parse::<f64>().unwrap() > 0.0, "{row:?}");
                }
                assert!(row["cpu_seconds"].parse::<f64>().unwrap() > 0.0, "{row:?}");
                assert!(row["runs"].parse::<u32>().unwrap() >= 1, "{row:?}");
                assert!((1..=7).contains(&row["column"].parse::<u32>().unwrap()), "{row:?}");
                if program {
                    assert_eq!(row["value"], "", "{row:?}");
                } else {
                    let points: f64 = row["value"].parse().unwrap();
                    assert_eq!((points * 32.0).fract(), 0.0, "values are in 32nds of a point: {row:?}");
                }
                assert_eq!(row["predicted_seconds"], "");
                assert_eq!(row["failure"], "");
            }
            "skipped" => {
                for column in ["nodes", "cpu_seconds", "runs", "nodes_per_second", "column", "value", "failure"] {
                    assert_eq!(row[column], "", "{row:?}");
                }
                assert!(row["predicted_seconds"].parse::<f64>().unwrap() > 0.0, "{row:?}");
            }
            "failed" => {
                for column in
                    ["nodes", "cpu_seconds", "runs", "nodes_per_second", "column", "value", "predicted_seconds"]
                {
                    assert_eq!(row[column], "", "{row:?}");
                }
                assert!(!row["failure"].is_empty(), "{row:?}");
            }
            status => panic!("unknown status {status}"),
        }
    }
    for ((position, algorithm), depths) in &cells {
        let programs = [Algorithm::Player, Algorithm::Program];
        assert!(Algorithm::ALL.iter().chain(&programs).any(|a| a.name() == algorithm), "{algorithm}");
        let expected: Vec<u32> = (1..=depths.len() as u32).collect();
        assert_eq!(depths, &expected, "{position} {algorithm}: one row per depth, in order");
        let statuses: Vec<&str> = rows
            .iter()
            .filter(|row| &row["position"] == position && &row["algorithm"] == algorithm)
            .map(|row| row["status"].as_str())
            .collect();
        assert!(statuses.windows(2).all(|pair| pair != ["skipped", "measured"]), "{position} {algorithm}");
        assert!(!statuses.iter().rev().skip(1).any(|&status| status == "failed"), "nothing after a failure");
    }
    let measured = |position: &str, algorithm: &str, depth: &str| {
        rows.iter().find(|row| {
            row["position"] == position
                && row["algorithm"] == algorithm
                && row["depth"] == depth
                && row["status"] == "measured"
        })
    };
    for row in rows.iter().filter(|row| row["algorithm"] == "minimax" && row["status"] == "measured") {
        if let Some(pruned) = measured(&row["position"], "alpha-beta", &row["depth"]) {
            assert_eq!(pruned["value"], row["value"], "minimax and alpha-beta agree: {row:?} {pruned:?}");
            let (all, fewer): (u64, u64) = (row["nodes"].parse().unwrap(), pruned["nodes"].parse().unwrap());
            assert!(fewer <= all, "alpha-beta explores no more nodes than minimax: {row:?} {pruned:?}");
        }
    }
    rows
}

/// Checks a chart's PNG and SVG files: valid, of a sensible size, not blank.
fn check_chart(dir: &Path, chart: Chart) {
    let png_path = dir.join(format!("{}.png", chart.file_stem()));
    let bytes = std::fs::read(&png_path).unwrap();
    assert!((10_000..3_000_000).contains(&bytes.len()), "{}: {} bytes", png_path.display(), bytes.len());
    let mut reader = png::Decoder::new(std::io::Cursor::new(&bytes)).read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(info.width, 1200);
    assert!((400..=3000).contains(&info.height), "{}: height {}", png_path.display(), info.height);
    let drawn = pixels.chunks(3).filter(|pixel| pixel != &[255, 255, 255]).count();
    assert!(drawn * 50 > pixels.len() / 3, "{} is nearly blank", png_path.display());

    let svg_path = dir.join(format!("{}.svg", chart.file_stem()));
    let svg = read(&svg_path);
    assert!((5_000..3_000_000).contains(&svg.len()), "{}: {} bytes", svg_path.display(), svg.len());
    assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"), "{}", svg_path.display());
    assert!(svg.contains(r#"width="1200""#));
    assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    assert!(svg.contains(chart.title()), "{} has its title", svg_path.display());
}

#[test]
fn a_small_report_is_written_within_seconds_with_real_figures() {
    let dir = tempfile::tempdir().unwrap();
    let assert = maxconnect4(dir.path())
        .args(["report", "--max-depth", "4", "--out", "out", "--positions"])
        .arg(shipped("input2.txt"))
        .arg(shipped("player2_next.txt"))
        .assert()
        .success();
    let output = assert.get_output();
    assert_eq!(String::from_utf8_lossy(&output.stderr), "", "no progress bar when stderr is not a terminal");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("Measured 24 searches (0 skipped over the budget) in "), "{stdout}");
    let listed: Vec<&str> = stdout.lines().skip(1).map(str::trim).collect();
    let mut expected = vec!["timing.csv".to_owned()];
    for chart in Chart::ALL {
        expected.extend([format!("{}.png", chart.file_stem()), format!("{}.svg", chart.file_stem())]);
    }
    expected.push("REPORT.md".to_owned());
    assert_eq!(listed, expected, "every file written is named");

    let out = dir.path().join("out");
    let rows = check_timing_csv(&out.join("timing.csv"));
    assert_eq!(rows.len(), 2 * Algorithm::ALL.len() * 4, "one row per position, algorithm and depth");
    // The figures are those of the library's own searches.
    for name in ["input2.txt", "player2_next.txt"] {
        let board = read_board_file(&shipped(name)).unwrap().board;
        for depth in 1..=4 {
            for (algorithm, result) in [("minimax", minimax(&board, depth)), ("alpha-beta", alpha_beta(&board, depth))]
            {
                let result = result.unwrap();
                let row = rows
                    .iter()
                    .find(|row| {
                        row["position"] == name && row["algorithm"] == algorithm && row["depth"] == depth.to_string()
                    })
                    .unwrap();
                assert_eq!(row["status"], "measured");
                assert_eq!(row["nodes"], result.nodes.to_string(), "{row:?}");
                assert_eq!(row["column"], result.column.to_string(), "{row:?}");
                assert_eq!(row["value"], (f64::from(result.value) / 32.0).to_string(), "{row:?}");
            }
        }
    }
    for chart in Chart::ALL {
        check_chart(&out, chart);
    }

    let report = read(&out.join("REPORT.md"));
    let command = format!(
        "`maxconnect4 report --max-depth 4 --out out --positions {} {}`",
        shipped("input2.txt").display(),
        shipped("player2_next.txt").display()
    );
    assert!(report.starts_with(&format!("# Timing report: CPU time against nodes explored\n\nGenerated by {command}.")));
    check_report(
        &report,
        &[
            "## Findings\n\n- At depth 4, the deepest both reached on every position, alpha-beta explored ",
            "## Algorithms",
            "| CPU | ",
            "| cores | ",
            "| compiler that built maxconnect4 | rustc ",
            "| maxconnect4 version | ",
            "### input2.txt\n\n```text\n",
            "### player2_next.txt\n\n```text\n",
            "| depth | algorithm | nodes | CPU time | runs | nodes per second | move | value (points) |",
            "## What a value is\n\nEvery search returns a **value** for the player to move, in points",
            "| to move | window of | one piece | two, empty cells on odd rows |",
            "| fitted ns per node |",
            "How to read it: one panel per position, nodes explored",
        ],
    );
    for chart in Chart::ALL {
        assert!(report.contains(&format!("]({}.png)", chart.file_stem())), "REPORT.md shows {chart:?}");
    }
    check_named(&report);
    let files = std::fs::read_dir(&out).unwrap().count();
    assert_eq!(files, 2 + 2 * Chart::ALL.len(), "the report's files and nothing else, no temporary file");
}

#[test]
fn a_search_predicted_over_the_budget_is_skipped_with_every_deeper_one() {
    let dir = tempfile::tempdir().unwrap();
    maxconnect4(dir.path())
        .args(["report", "--max-depth", "5", "--budget", "0.000000001", "--out", "."])
        .arg("--positions")
        .arg(shipped("input2.txt"))
        .assert()
        .success();
    let rows = check_timing_csv(&dir.path().join("timing.csv"));
    assert_eq!(rows.len(), Algorithm::ALL.len() * 5);
    for row in rows {
        // Depths 1 and 2 give the growth that predicts depth 3.
        let expected = if row["depth"].parse::<u32>().unwrap() <= 2 { "measured" } else { "skipped" };
        assert_eq!(row["status"], expected, "{row:?}");
    }
    let report = read(&dir.path().join("REPORT.md"));
    for algorithm in ["Minimax", "Alpha-beta", "The engine"] {
        let sentence = format!("- {algorithm} skipped depths 3 to 5: depth 3 was predicted to take ");
        assert_eq!(report.matches(&sentence).count(), 1, "one sentence for {algorithm}:\n{report}");
    }
    assert!(!report.contains("skipped: predicted"), "no table row per skipped search:\n{report}");
}

#[test]
fn a_directory_of_positions_reads_every_board_file_in_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("mine")).unwrap();
    std::fs::copy(shipped("nearly_full.txt"), dir.path().join("mine/b.txt")).unwrap();
    std::fs::copy(shipped("nearly_full.txt"), dir.path().join("mine/a.txt")).unwrap();
    maxconnect4(dir.path())
        .args(["report", "--max-depth", "2", "--positions", "mine", "--out", "out"])
        .assert()
        .success();
    let rows = check_timing_csv(&dir.path().join("out/timing.csv"));
    let positions: Vec<&str> = rows.iter().map(|row| row["position"].as_str()).collect();
    assert_eq!(positions, [["a.txt"; 6], ["b.txt"; 6]].concat(), "every file, in name order");
}

#[test]
fn the_default_positions_are_the_files_in_input_files_and_a_finished_game_has_no_rows() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("input_files")).unwrap();
    std::fs::create_dir(dir.path().join("input_files/not_a_board")).unwrap();
    std::fs::copy(shipped("nearly_full.txt"), dir.path().join("input_files/b_nearly_full.txt")).unwrap();
    std::fs::copy(shipped("full.txt"), dir.path().join("input_files/a_full.txt")).unwrap();
    maxconnect4(dir.path()).args(["report", "--max-depth", "6"]).assert().success();
    let rows = check_timing_csv(&dir.path().join("timing_report/timing.csv"));
    // Four empty cells: depths 1 to 4 only, as deeper searches are the same search.
    assert_eq!(rows.len(), Algorithm::ALL.len() * 4);
    assert!(rows.iter().all(|row| row["position"] == "b_nearly_full.txt"));
    let report = read(&dir.path().join("timing_report/REPORT.md"));
    assert!(report.contains("### a_full.txt\n\n```text\n"), "{report}");
    assert!(report.contains("The game is over: there is nothing to search."), "{report}");
    assert!(report.starts_with(
        "# Timing report: CPU time against nodes explored\n\nGenerated by `maxconnect4 report --max-depth 6`."
    ));
}

/// Runs `maxconnect4 report ARGS` in a directory holding an earlier report
/// and checks the exit code, that stderr has `message`, and that the earlier
/// report is exactly as it was, with no temporary file left beside it.
fn check_error(args: &[&str], code: i32, message: &str) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "bad.txt", "0000000\n0000000\n0000000\n0000000\n0000000\n0000003\n1\n");
    write(dir.path(), "full.txt", &read(&shipped("full.txt")));
    write(dir.path(), "a_file", "not a directory");
    std::fs::create_dir(dir.path().join("timing_report")).unwrap();
    let earlier = ["timing.csv", "REPORT.md", "time_by_depth.png"];
    for name in earlier {
        write(&dir.path().join("timing_report"), name, &format!("earlier {name}"));
    }
    let assert = maxconnect4(dir.path()).arg("report").args(args).assert().code(code);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains(message), "expected {message:?} in:\n{stderr}");
    for name in earlier {
        assert_eq!(read(&dir.path().join("timing_report").join(name)), format!("earlier {name}"));
    }
    assert_eq!(std::fs::read_dir(dir.path().join("timing_report")).unwrap().count(), earlier.len());
}

#[test]
fn bad_options_fail_clearly_and_leave_the_earlier_report_untouched() {
    check_error(&["--max-depth", "0"], 2, "'--max-depth <N>': too small: at least 1");
    check_error(&["--max-depth", "deep"], 2, "'--max-depth <N>': expected a whole number of plies");
    check_error(&["--budget", "0"], 2, "expected a number of seconds greater than 0");
    check_error(&["--budget=-1"], 2, "expected a number of seconds greater than 0");
    check_error(&["--positions"], 2, "a value is required for '--positions <FILE>...'");
    check_error(
        &["--positions", "bad.txt"],
        1,
        "error: bad.txt is not a valid board file: line 6: column 7: expected 0, 1 or 2, found",
    );
    check_error(&["--positions", "missing.txt"], 1, "error: cannot read missing.txt: ");
    check_error(
        &["--positions", "full.txt"],
        1,
        "error: every position is a finished game: there is nothing to search",
    );
    check_error(&["--positions", "full.txt", "--out", "a_file/report"], 1, "error: every position is a finished game");
    check_error(
        &["--positions", &shipped("nearly_full.txt").display().to_string(), "--out", "a_file/report"],
        1,
        "error: cannot write a_file/report: a_file is not a directory\n",
    );
}

#[test]
fn the_committed_report_is_complete_and_consistent() {
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let rows = check_timing_csv(&reports.join("timing.csv"));
    let positions: Vec<&str> = rows.iter().map(|row| row["position"].as_str()).collect();
    for name in ["input1.txt", "input2.txt", "nearly_full.txt", "player2_next.txt"] {
        assert!(positions.contains(&name), "the committed report measures {name}");
    }
    for chart in Chart::ALL {
        check_chart(&reports, chart);
    }
    let report = read(&reports.join("REPORT.md"));
    assert!(
        report.starts_with(
            "# Timing report: CPU time against nodes explored\n\nGenerated by `maxconnect4 report --out reports`."
        ),
        "the header names the default command that regenerates it"
    );
    assert!(report.contains("| build | release |"), "the committed report was measured on a release build");
}

#[test]
fn a_report_file_that_cannot_be_replaced_stops_it_before_anything_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir_all(out.join("REPORT.md")).unwrap();
    write(&out, "timing.csv", "earlier timing.csv");
    let position = shipped("input2.txt").display().to_string();
    let assert = maxconnect4(dir.path())
        .args(["report", "--positions", &position, "--max-depth", "3", "--out", "out"])
        .assert()
        .code(1)
        .stdout("");
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert_eq!(stderr, "error: cannot write out/REPORT.md: it is a directory; give the name of a file\n");
    assert_eq!(read(&out.join("timing.csv")), "earlier timing.csv");
    assert_eq!(names_in(&out), ["REPORT.md", "timing.csv"], "nothing written, no temporary file left");
}

/// Asserts that `report`, the text of REPORT.md, has each of `needed`.
#[track_caller]
pub(super) fn check_report(report: &str, needed: &[&str]) {
    for needed in needed {
        assert!(report.contains(needed), "REPORT.md lacks {needed:?}:\n{report}");
    }
}

/// Asserts that `report`, the text of REPORT.md, names every program by
/// what it is: "this program" and "your program" mean nothing in a
/// paragraph pasted into a write-up.
#[track_caller]
pub(super) fn check_named(report: &str) {
    let lower = report.to_lowercase();
    for vague in ["this program", "your program"] {
        assert!(!lower.contains(vague), "REPORT.md says {vague:?}:\n{report}");
    }
}

/// What the report calls the program of [`student_bot`]: its command
/// before the placeholders, without the script's folders.
const BOT: &str = "python3 -S minimax_bot.py";

/// A command template running the student's bot `tests/bots/minimax_bot.py`
/// with `behaviour` (`quiet`, `crash-at N`) after its arguments, by the
/// `python3` of the user's PATH, as a student types it.
fn student_bot(behaviour: &[&str]) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/minimax_bot.py");
    let mut words = vec!["python3".to_owned(), "-S".to_owned(), script.display().to_string()];
    words.extend(["{in}", "{out}", "{depth}"].iter().chain(behaviour).map(|word| (*word).to_owned()));
    shell_words::join(words)
}

/// The nodes plain minimax visits from `board` to `depth`, the root
/// included, as the student's bot counts them.
fn minimax_nodes(board: &Board, depth: u32) -> u64 {
    minimax(board, depth).unwrap().nodes
}

/// Runs `maxconnect4 report --player BOT ARGS` in a new directory on the
/// course's input2.txt and player2_next.txt to `depth`, and returns the
/// directory, what it printed on stdout and stderr and the rows of its CSV.
fn student_report_err(bot: &[&str], depth: u32, args: &[&str]) -> (tempfile::TempDir, String, String, Vec<Row>) {
    let dir = tempfile::tempdir().unwrap();
    let assert = maxconnect4(dir.path())
        .args(["report", "--player", &student_bot(bot), "--max-depth", &depth.to_string(), "--out", "out"])
        .args(args)
        .arg("--positions")
        .arg(shipped("input2.txt"))
        .arg(shipped("player2_next.txt"))
        .assert()
        .success();
    let output = assert.get_output();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let rows = check_timing_csv(&dir.path().join("out/timing.csv"));
    (dir, stdout, stderr, rows)
}

/// The start-up table that ends what a program's report prints: each
/// program's start-up in seconds, by name (a name is a command, with
/// spaces: the columns are read where the header puts them).
pub(super) fn startups(stdout: &str) -> HashMap<String, f64> {
    let mut lines = stdout.lines().skip_while(|line| !line.starts_with("program "));
    let header = lines.next().unwrap_or_else(|| panic!("no start-up table:\n{stdout}"));
    let words: Vec<&str> = header.split_whitespace().collect();
    assert_eq!(words[..3], ["program", "start-up", "per"], "{stdout}");
    // The name, then a space, then the start-up right-aligned in 10.
    let width = header.find("start-up").unwrap() + "start-up".len() - 11;
    lines
        .map(|line| {
            let chars: Vec<char> = line.chars().collect();
            let name: String = chars[..width].iter().collect();
            let startup: String = chars[width + 1..width + 11].iter().collect();
            let (number, unit) = startup.trim().split_once(' ').unwrap_or_else(|| panic!("{line}"));
            let scale = match unit {
                "s" => 1.0,
                "ms" => 1e-3,
                "µs" => 1e-6,
                "ns" => 1e-9,
                unit => panic!("{unit} is no unit of time: {line}"),
            };
            (name.trim().to_owned(), number.parse::<f64>().unwrap() * scale)
        })
        .collect()
}

#[test]
fn a_students_program_is_timed_with_the_nodes_it_prints() {
    let (dir, stdout, stderr, rows) = student_report_err(&[], 3, &[]);
    assert!(stdout.starts_with("Measured 6 searches (0 skipped over the budget) in "), "{stdout}");
    assert!(stdout.contains("  REPORT.md\n  player_output.txt\nprogram "), "{stdout}");
    assert_eq!(stderr, "", "nothing to warn of");
    let startup = startups(&stdout);
    assert!(startup[BOT] > 0.0, "its start-up is measured, the program named as in REPORT.md: {stdout}");
    assert_eq!(startup.len(), 1, "{stdout}");
    assert_eq!(rows.len(), 6, "one row per position and depth");
    for name in ["input2.txt", "player2_next.txt"] {
        let board = read_board_file(&shipped(name)).unwrap().board;
        for depth in 1..=3 {
            let row = rows.iter().find(|row| row["position"] == name && row["depth"] == depth.to_string()).unwrap();
            assert_eq!(row["algorithm"], "player");
            assert_eq!(row["status"], "measured");
            assert_eq!(row["nodes"], minimax_nodes(&board, depth).to_string(), "the count it printed: {row:?}");
            assert_eq!(row["runs"], "1");
            assert_eq!(row["value"], "", "a program does not say its value");
        }
    }
    let out = dir.path().join("out");
    for chart in Chart::ALL {
        check_chart(&out, chart);
    }
    let report = read(&out.join("REPORT.md"));
    check_report(
        &report,
        &[
            "# Timing report: CPU time against nodes explored\n\nGenerated by `maxconnect4 report --player ",
            &format!("| {BOT} | `"),
            "the user plus system time of the program and every process it waited for",
            "the last match of `(\\d[\\d,]*) nodes` (case ignored)",
            "| algorithm | what it is | searches | skipped | start-up | fitted ns per node |",
            "- **Start-up**: before the positions, each program was run 5 times at depth 1 on nearly_full.txt",
            &format!("| {BOT} version | files of "),
            "| depth | algorithm | nodes | CPU time, start-up included | runs | nodes per second of search (start-up \
             taken out) | move | value (points) |",
            &format!("- `{BOT}` explored "),
        ],
    );
    check_named(&report);
    assert!(!report.contains("## Comparison"), "no comparison unless asked:\n{report}");
    assert!(!report.contains("## What a value is"), "the value is maxconnect4's, not the player's");
    assert!(read(&out.join("player_output.txt")).contains("Searched 8 nodes to depth 1."));
}

/// A student on macOS times their program without the sandbox, through
/// the runner every Unix has; `--no-sandbox` runs that runner here.
#[test]
fn without_the_sandbox_a_students_program_is_timed_alike() {
    let (dir, _, stderr, rows) = student_report_err(&[], 2, &["--no-sandbox"]);
    assert_eq!(stderr, "", "nothing to warn of");
    assert_eq!(rows.len(), 4, "one row per position and depth");
    for row in &rows {
        let board = read_board_file(&shipped(&row["position"])).unwrap().board;
        let depth = row["depth"].parse().unwrap();
        assert_eq!(
            (row["status"].as_str(), row["nodes"].clone()),
            ("measured", minimax_nodes(&board, depth).to_string())
        );
        assert!(row["cpu_seconds"].parse::<f64>().unwrap() > 0.0, "{row:?}");
    }
    let report = read(&dir.path().join("out/REPORT.md"));
    assert!(report.contains("in a folder of its own, without a sandbox (`--no-sandbox`"), "{report}");
}

#[test]
fn compare_adds_maxconnect4s_own_search_at_every_depth_with_no_book() {
    let dir = tempfile::tempdir().unwrap();
    // The empty board, where the opening book would answer with no search.
    write(dir.path(), "empty.txt", &format!("{}1\n", "0000000\n".repeat(6)));
    let assert = maxconnect4(dir.path())
        .args(["report", "--player", &student_bot(&[]), "--max-depth", "3", "--compare", "--out", "out"])
        .arg("--positions")
        .arg("empty.txt")
        .arg(shipped("input2.txt"))
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(stdout.starts_with("Measured 12 searches (0 skipped over the budget) in "), "{stdout}");
    let startup = startups(&stdout);
    assert!(startup[BOT] > 0.0 && startup["maxconnect4"] > 0.0, "both start-ups measured: {stdout}");
    let rows = check_timing_csv(&dir.path().join("out/timing.csv"));
    let series: Vec<(&str, &str)> =
        rows.iter().map(|row| (row["position"].as_str(), row["algorithm"].as_str())).collect();
    let expected = [
        [("empty.txt", "player"); 3],
        [("empty.txt", "maxconnect4"); 3],
        [("input2.txt", "player"); 3],
        [("input2.txt", "maxconnect4"); 3],
    ]
    .concat();
    assert_eq!(series, expected, "by position, then the player's series and maxconnect4's");
    for row in rows.iter().filter(|row| row["algorithm"] == "maxconnect4") {
        assert_eq!(row["status"], "measured", "{row:?}");
        // A book's move is no search: every depth, the empty board's too, searched.
        assert!(row["nodes"].parse::<u64>().unwrap() >= 2, "it searched, and printed its count: {row:?}");
    }
    let output = read(&dir.path().join("out/maxconnect4_output.txt"));
    assert!(output.contains(" 3 --rules max --threads 1\n"), "the search as documented, one thread: {output}");
    let report = read(&dir.path().join("out/REPORT.md"));
    // Named by what it is and the revision built, as a write-up quotes it.
    let own = own_search();
    check_report(
        &report,
        &[
            "## Comparison\n\n",
            &format!(
                "| position | depth | {BOT} nodes | maxconnect4 nodes | nodes ratio | {BOT} CPU time | maxconnect4 CPU \
                 time |"
            ),
            &format!(
                "| maxconnect4 | {own}: `maxconnect4 one-move {{in}} {{out}} {{depth}} --rules max --threads 1` (under \
                 Max-Connect4's rules `one-move` plays from no opening book; one thread), run the same way, for \
                 comparison |"
            ),
            &format!("At depth 3, the deepest both reached on every position, {own} explored "),
            &format!(" times fewer nodes than `{BOT}` ("),
            &format!("Beside it, for comparison, {own} was run the same way"),
        ],
    );
    check_named(&report);
    let comparison = report.split("## Comparison").nth(1).unwrap().split("\n## ").next().unwrap();
    assert_eq!(comparison.lines().filter(|line| line.starts_with("| empty.txt |")).count(), 3, "{comparison}");
    // Both lines on each chart, each named in its legend as REPORT.md and
    // the terminal name it.
    for chart in Chart::ALL {
        let svg = read(&dir.path().join(format!("out/{}.svg", chart.file_stem())));
        assert!(svg.contains(&format!(">\n{BOT}")) && svg.contains(">\nmaxconnect4"), "{chart:?}'s legend");
        assert!(!svg.contains(">\nplayer"), "{chart:?}");
    }
}

#[test]
fn a_program_that_prints_no_count_is_still_timed_against_depth() {
    let (dir, _, stderr, rows) = student_report_err(&["quiet"], 3, &[]);
    let warning = format!("warning: `{BOT}` printed no node count matching `(\\d[\\d,]*) nodes`");
    assert!(stderr.contains(&warning), "{stderr}");
    assert_eq!(rows.len(), 6);
    for row in &rows {
        assert_eq!(
            (row["status"].as_str(), row["nodes"].as_str(), row["nodes_per_second"].as_str()),
            ("measured", "", "")
        );
        assert!(row["cpu_seconds"].parse::<f64>().unwrap() > 0.0, "{row:?}");
    }
    let out = dir.path().join("out");
    let report = read(&out.join("REPORT.md"));
    let sentence = format!(
        "- `{BOT}` printed no node count: nothing on its standard output or error matched `(\\d[\\d,]*) nodes`"
    );
    assert!(report.contains(&sentence), "{report}");
    check_named(&report);
    check_report(
        &report,
        &[
            "## Counting nodes\n\n",
            "- Java: `System.out.println(\"Searched \" + nodes + \" nodes to depth \" + depth);`",
            "- Python: `print(f\"Searched {nodes} nodes to depth {depth}\")`",
            "- C++: `std::cout << \"Searched \" << nodes << \" nodes to depth \" << depth << std::endl;`",
        ],
    );
    check_chart(&out, Chart::TimeByDepth);
    let svg = read(&out.join("time_by_nodes.svg"));
    assert!(svg.contains("no node counts: the program printed none"), "the chart says why it is empty");
}

#[test]
fn a_program_that_crashes_is_reported_with_its_reason_and_no_deeper_depth() {
    let (dir, stdout, stderr, rows) = student_report_err(&["crash-at", "3"], 4, &[]);
    assert!(stdout.starts_with("Measured 4 searches (0 skipped over the budget, 2 failed) in "), "{stdout}");
    let warning = format!(
        "warning: `{BOT}` failed 2 of its runs; the first, on input2.txt at depth 3: no output: the program wrote no \
         output file (exit status 1); its last line on stderr: 'RuntimeError: this bot crashes at depth 3 on purpose'"
    );
    assert!(stderr.starts_with(&warning), "the cause on the terminal:\n{stderr}");
    for name in ["input2.txt", "player2_next.txt"] {
        let statuses: Vec<&str> =
            rows.iter().filter(|row| row["position"] == name).map(|row| row["status"].as_str()).collect();
        assert_eq!(statuses, ["measured", "measured", "failed"], "{name}: nothing runs after the failure");
    }
    let failed = rows.iter().find(|row| row["status"] == "failed").unwrap();
    assert!(failed["failure"].contains("RuntimeError: this bot crashes at depth 3 on purpose"), "{failed:?}");
    assert!(failed["failure"].contains("out/player_output.txt"), "it names the kept output: {failed:?}");
    let out = dir.path().join("out");
    let report = read(&out.join("REPORT.md"));
    let line = format!(
        "- `{BOT}` failed at depth 3: no output: the program wrote no output file (exit status 1); its last line on \
         stderr: 'RuntimeError: this bot crashes at depth 3 on purpose'; its output is in out/player_output.txt. No \
         deeper depth was run."
    );
    assert_eq!(report.matches(&line).count(), 2, "one line per position:\n{report}");
    let failures = format!("- `{BOT}` failed on input2.txt at depth 3 and player2_next.txt at depth 3");
    assert!(report.contains(&failures), "{report}");
    assert!(read(&out.join("player_output.txt")).contains("this bot crashes at depth 3 on purpose"));
}

#[test]
fn a_program_that_never_plays_gets_its_report_and_exit_code_1() {
    let dir = tempfile::tempdir().unwrap();
    let assert = maxconnect4(dir.path())
        .args(["report", "--player", &student_bot(&["crash-at", "1"]), "--max-depth", "2", "--out", "out"])
        .arg("--positions")
        .arg(shipped("input2.txt"))
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.starts_with(&format!(
            "error: `{BOT}` never played a move; the first failure, on input2.txt at depth 1: no output: the program \
             wrote no output file (exit status 1); its last line on stderr: 'RuntimeError: this bot crashes at depth \
             1 on purpose'"
        )),
        "{stderr}"
    );
    assert!(stderr.ends_with("; out/REPORT.md has every run\n"), "{stderr}");
    let report = read(&dir.path().join("out/REPORT.md"));
    assert!(report.contains("this bot crashes at depth 1 on purpose"), "{report}");
}

/// Runs `maxconnect4 report ARGS` in `dir` (a temporary folder outside the
/// repository, as a student's own) and returns its exit code, stdout and
/// stderr.
pub(super) fn report_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = maxconnect4(dir).arg("report").args(args).output().unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code().unwrap(), text(&output.stdout), text(&output.stderr))
}

#[test]
fn from_a_students_own_folder_the_course_positions_are_built_in() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/minimax_bot.py"), dir.path().join("bot.py"))
        .unwrap();
    let (code, stdout, stderr) =
        report_in(dir.path(), &["--player", "python3 bot.py {in} {out} {depth}", "--max-depth", "2"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let rows = check_timing_csv(&dir.path().join("timing_report/timing.csv"));
    let mut positions: Vec<&str> = rows.iter().map(|row| row["position"].as_str()).collect();
    positions.dedup();
    assert_eq!(positions, ["input1.txt", "input2.txt", "nearly_full.txt", "player2_next.txt"], "the course's");
    let report = read(&dir.path().join("timing_report/REPORT.md"));
    check_report(
        &report,
        &[
            "positions (the course's, built into the program, as there is no `input_files/` here)",
            "### full.txt\n\n",
            "| maxconnect4 version | ",
            "| python3 bot.py version | files of ",
            ": 1 file, SHA-256 ",
        ],
    );
    assert!(!report.contains("unknown"), "outside a checkout, versions and no unknown revision:\n{report}");
}

/// Runs `git ARGS` in `dir`, which must succeed, and returns what it printed.
fn git(dir: &Path, args: &[&str]) -> String {
    let output = std::process::Command::new("git").args(args).current_dir(dir).output().unwrap();
    assert!(output.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// Graders run the report from a student's folder. A folder that is a git
/// checkout names a program git runs as the grader (`core.fsmonitor`, run
/// by `git status`), and a `rust-toolchain.toml` the compiler `rustc`
/// runs: the report runs neither, and still names the student's revision
/// (read from `.git`'s files) and the compiler that built maxconnect4.
#[cfg(unix)]
#[test]
fn a_report_from_a_students_checkout_runs_nothing_the_folder_names() {
    use std::os::unix::fs::PermissionsExt as _;
    let outside = tempfile::tempdir().unwrap();
    let git_ran = outside.path().join("git-ran-the-fsmonitor");
    let toolchain_ran = outside.path().join("the-toolchain-ran");
    let bin = outside.path().join("toolchain/bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["rustc", "cargo"] {
        let script = write(
            &bin,
            tool,
            &format!("#!/bin/sh\ntouch '{}'\necho 'rustc 0.0.0-submission'\n", toolchain_ran.display()),
        );
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    let student = tempfile::tempdir().unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/minimax_bot.py"),
        student.path().join("bot.py"),
    )
    .unwrap();
    git(student.path(), &["init", "-q"]);
    git(student.path(), &["add", "bot.py"]);
    git(
        student.path(),
        &["-c", "user.name=Student", "-c", "user.email=student@example.com", "commit", "-q", "-m", "bot"],
    );
    let commit = git(student.path(), &["rev-parse", "HEAD"]);
    let config = student.path().join(".git/config");
    let hook = format!("[core]\n\tfsmonitor = \"touch '{}'\"\n", git_ran.display());
    std::fs::write(&config, read(&config) + &hook).unwrap();
    write(
        student.path(),
        "rust-toolchain.toml",
        &format!("[toolchain]\npath = \"{}\"\n", bin.parent().unwrap().display()),
    );

    let position = shipped("input2.txt").display().to_string();
    let args = ["--player", "python3 bot.py {in} {out} {depth}", "--max-depth", "1", "--positions", &position];
    // As a grader's shell runs it: no toolchain chosen by a rustup above.
    let output = maxconnect4(student.path()).arg("report").args(args).env_remove("RUSTUP_TOOLCHAIN").output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!git_ran.exists(), "the report ran git in the student's checkout, and git its core.fsmonitor");
    assert!(!toolchain_ran.exists(), "the report ran rustc in the student's folder, and rustc its toolchain");
    let report = read(&student.path().join("timing_report/REPORT.md"));
    check_report(
        &report,
        &["| compiler that built maxconnect4 | rustc ", &format!("; git revision {}", &commit[..12])],
    );
    assert!(!report.contains("0.0.0-submission"), "{report}");
}

#[test]
fn an_input_files_folder_that_holds_no_board_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("input_files")).unwrap();
    let (code, _, stderr) = report_in(dir.path(), &["--max-depth", "1"]);
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        "error: no --positions given, and the positions in input_files/ cannot be read (without input_files/ the \
         course's positions, built in, are used): input_files holds no board files\n"
    );
}

#[test]
fn a_program_that_cannot_start_says_why_on_the_terminal_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let position = shipped("input2.txt").display().to_string();
    let args = ["--player", "no-such-program-37 {in} {out} {depth}", "--max-depth", "2", "--positions", &position];
    let (code, _, stderr) = report_in(dir.path(), &args);
    assert_eq!(code, 1, "{stderr}");
    let error = "error: `no-such-program-37` never played a move; the first failure, on input2.txt";
    assert!(stderr.starts_with(error), "the program named by its command: {stderr}");
    assert!(stderr.contains("no-such-program-37"), "the cause, not only in the CSV: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_count_that_does_not_grow_with_depth_is_called_out_and_not_used() {
    // `Player (\d+)` reads the player's number, the same at every depth.
    let (dir, stdout, stderr, _) = student_report_err(&[], 3, &["--nodes-pattern", r"Player (\d+)"]);
    assert!(
        stderr.contains(&format!(
            "warning: the node count of `{BOT}` does not grow with depth: `Player (\\d+)` read 1, 1, 1 at depths \
                 1 to 3 on input2.txt"
        )),
        "{stderr}"
    );
    assert!(stdout.contains("(the count does not grow with depth)"), "{stdout}");
    let report = read(&dir.path().join("out/REPORT.md"));
    check_report(&report, &[&format!("**`{BOT}`'s node count does not grow with depth**"), "## Counting nodes"]);
    let table = report.split("## Algorithms").nth(1).unwrap();
    let row = table.lines().find(|line| line.starts_with(&format!("| {BOT} |"))).unwrap();
    assert!(row.ends_with(" | – | – |"), "no cost per node nor branching factor from such a count: {row}");
    assert!(!report.contains("times as many nodes with each further ply here"), "nor growth by position");
    // The charts say it too, where the count stands for nodes.
    for chart in [Chart::TimeByNodes, Chart::NodesByDepth] {
        let svg = read(&dir.path().join(format!("out/{}.svg", chart.file_stem())));
        assert!(svg.contains("not a count of nodes"), "{chart:?} says the count is none");
    }
}

#[test]
fn a_bad_nodes_pattern_or_player_is_a_usage_error() {
    let bot = student_bot(&[]);
    check_error(
        &["--player", &bot, "--nodes-pattern", "(unclosed"],
        2,
        "invalid value '(unclosed' for '--nodes-pattern <REGEX>'",
    );
    check_error(&["--player", &bot, "--nodes-pattern", r"\d+ nodes"], 2, "the pattern has no group in parentheses");
    check_error(
        &["--nodes-pattern", "(\\d+)"],
        2,
        "the following required arguments were not provided:\n  --player <TEMPLATE>",
    );
    check_error(&["--compare"], 2, "--player <TEMPLATE>");
    check_error(&["--player", "python3 bot.py"], 2, "has no {in}");
    check_error(&["--player", "human"], 2, "the report times a one-move program");
}
