//! The timing report of a program whose start-up is known: what is not to
//! be trusted is flagged on its chart as in REPORT.md, and its nodes per
//! second are of its search, the start-up taken out.

use std::path::Path;

use super::report::{check_named, check_report, check_timing_csv, report_in, startups};
use super::util::{read, shipped, write};

/// Writes, in `dir`, the student's minimax bot and `slow_start.py`, which
/// runs it after burning `base` ms of CPU time and `step` ms more per ply
/// of its depth: a program whose start-up and growth are known, whatever
/// the machine. Returns the command template that runs it.
fn slow_start_bot(dir: &Path, base: u32, step: u32) -> String {
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/minimax_bot.py"), dir.join("minimax_bot.py"))
        .unwrap();
    write(
        dir,
        "slow_start.py",
        "import sys, time\n\
         start = time.process_time()\n\
         burn = (float(sys.argv[4]) + float(sys.argv[5]) * int(sys.argv[3])) / 1000\n\
         while time.process_time() - start < burn:\n    pass\n\
         sys.argv = sys.argv[:4]\n\
         import minimax_bot\n\
         minimax_bot.main()\n",
    );
    format!("python3 -S slow_start.py {{in}} {{out}} {{depth}} {base} {step}")
}

/// Runs `maxconnect4 report --player COMMAND` in `dir` on input2.txt to
/// depth 3, and returns what it printed on stdout, REPORT.md and the SVG
/// of the time against nodes.
fn report_on_input2(dir: &Path, command: &str) -> (String, String, String) {
    let position = shipped("input2.txt").display().to_string();
    let args = ["--player", command, "--max-depth", "3", "--out", "out", "--positions", &position];
    let (code, stdout, stderr) = report_in(dir, &args);
    assert_eq!(code, 0, "{stdout}{stderr}");
    check_timing_csv(&dir.join("out/timing.csv"));
    (stdout, read(&dir.join("out/REPORT.md")), read(&dir.join("out/time_by_nodes.svg")))
}

/// The cells of `program`'s rows in the tables of REPORT.md's positions:
/// depth, then each cell after the program's name.
fn position_rows(report: &str, program: &str) -> Vec<Vec<String>> {
    let positions = report.split("## Positions").nth(1).unwrap();
    positions
        .lines()
        .filter(|line| line.split(" | ").nth(1) == Some(program))
        .map(|line| line.trim_matches('|').split(" | ").map(|cell| cell.trim().to_owned()).collect())
        .collect()
}

/// REPORT.md flags a cost per node fitted where no run searched as long as
/// the program took to start: its chart, pasted without the text, must
/// flag it too, in the legend of the fitted line.
#[test]
fn a_cost_per_node_not_to_be_trusted_is_flagged_on_its_chart_as_in_the_report() {
    let dir = tempfile::tempdir().unwrap();
    // 60 ms to start and 10 ms a ply: depth 3 is far from twice the start-up.
    let (stdout, report, svg) = report_on_input2(dir.path(), &slow_start_bot(dir.path(), 60, 10));
    let name = "python3 -S slow_start.py";
    let table = report.split("## Algorithms").nth(1).unwrap();
    let row = table.lines().find(|line| line.starts_with(&format!("| {name} |"))).unwrap();
    assert!(row.contains(" (not to be trusted) | "), "REPORT.md's table flags it: {row}");
    check_report(&report, &[&format!("Fitted CPU time per node for `{name}`, start-up taken out: ")]);
    check_report(&report, &["**not to be trusted**: none of its runs searched as long as it took to start"]);
    let legend = svg.lines().find(|line| line.starts_with(&format!("{name}: fitted "))).unwrap_or_else(|| {
        panic!("no fitted line in the legend:\n{svg}");
    });
    assert!(legend.ends_with(" start-up (not to be trusted)"), "the legend flags it as REPORT.md does: {legend}");
    let line = stdout.lines().find(|line| line.starts_with(name)).unwrap();
    assert!(line.ends_with("not to be trusted"), "and the terminal: {line}");
    // No run searched as long as it started: none has a rate of its search.
    let rows = position_rows(&report, name);
    assert_eq!(rows.len(), 3, "{report}");
    for row in rows {
        assert_eq!(row[5], "mostly start-up", "{row:?}");
    }
}

/// A program's every run pays its start-up, which is no search: REPORT.md's
/// nodes per second are of the search, the start-up taken out, as its cost
/// per node is, and the column says so.
#[test]
fn a_programs_nodes_per_second_are_of_its_search_with_its_start_up_taken_out() {
    let dir = tempfile::tempdir().unwrap();
    // 120 ms a ply: the start-up, at depth 1, is about 120 ms; depth 3 takes
    // about 360 ms, far over twice as long.
    let (stdout, report, svg) = report_on_input2(dir.path(), &slow_start_bot(dir.path(), 0, 120));
    let name = "python3 -S slow_start.py";
    check_report(
        &report,
        &["| depth | algorithm | nodes | CPU time, start-up included | runs | nodes per second of search (start-up \
           taken out) | move | value (points) |"],
    );
    let startup = startups(&stdout)[name];
    let rows = position_rows(&report, name);
    let csv = check_timing_csv(&dir.path().join("out/timing.csv"));
    assert_eq!((rows.len(), csv.len()), (3, 3), "{report}");
    assert_eq!(rows[0][5], "mostly start-up", "depth 1 is the start-up: {:?}", rows[0]);
    let (nodes, cpu): (f64, f64) = (csv[2]["nodes"].parse().unwrap(), csv[2]["cpu_seconds"].parse().unwrap());
    let rate: f64 = rows[2][5].replace(',', "").parse().unwrap_or_else(|_| panic!("depth 3: {:?}", rows[2]));
    let expected = nodes / (cpu - startup);
    assert!((rate / expected - 1.0).abs() < 0.01, "{rate} nodes per second, not {expected}: {:?}", rows[2]);
    assert!(rate > 1.2 * nodes / cpu, "the start-up is out of it: {rate} against {} with it", nodes / cpu);
    // The fit rests on a run that searched longer than it started: nothing to flag.
    assert!(!report.contains("not to be trusted**") && !svg.contains("not to be trusted"), "{report}");
    check_named(&report);
}
