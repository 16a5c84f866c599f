//! One-move mode as rival programs use it: read a board file, write one back.

use maxconnect4::format;
use maxconnect4::player::Player;
use predicates::prelude::*;

use super::util::{assert_text, dir_with_input2, make_fifo, maxconnect4, names_in, read, shipped, write, INPUT2};

/// Parses a file the program wrote.
fn parse(text: &str) -> maxconnect4::board::Board {
    format::parse(text.as_bytes()).unwrap_or_else(|error| panic!("output does not parse: {error}\n{text}")).board
}

/// The column (1-7) of the one cell where `after` has a piece and `before` has none.
fn added_column(before: &str, after: &str) -> usize {
    let rows = |text: &str| text.lines().take(6).map(str::to_owned).collect::<Vec<_>>();
    let (before, after) = (rows(before), rows(after));
    let changes: Vec<(usize, usize)> = (0..6)
        .flat_map(|row| (0..7).map(move |column| (row, column)))
        .filter(|&(row, column)| before[row].as_bytes()[column] != after[row].as_bytes()[column])
        .collect();
    assert_eq!(changes.len(), 1, "expected exactly one new piece");
    changes[0].1 + 1
}

#[test]
fn makes_one_move_and_writes_the_same_format() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "red_next.txt", INPUT2);
    let assert = maxconnect4(dir.path()).args(["one-move", "red_next.txt", "green_next.txt", "5"]).assert().success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let written = read(&dir.path().join("green_next.txt"));
    let board = parse(&written);
    assert_eq!(board.pieces_played(), 13);
    assert_eq!(board.to_move(), Player::Two);
    assert!(written.ends_with("\n2\n") && !written.contains('\r'));
    let column = added_column(INPUT2, &written);
    assert!(stdout.contains(&format!("Player 1 plays column {column}.")), "{stdout}");
    assert!(stdout.contains("Score: Player 1 = 0, Player 2 = 0"), "{stdout}");
    assert!(stdout.contains("  1 2 3 4 5 6 7\n"), "{stdout}");
    assert!(stdout.contains("Searched ") && stdout.contains(" nodes to depth 5 in "), "{stdout}");
}

#[test]
fn the_program_may_be_player_two() {
    let dir = tempfile::tempdir().unwrap();
    let input = read(&shipped("player2_next.txt"));
    write(dir.path(), "in.txt", &input);
    maxconnect4(dir.path()).args(["one-move", "in.txt", "out.txt", "4"]).assert().success();
    let written = read(&dir.path().join("out.txt"));
    let column = added_column(&input, &written);
    let board = parse(&written);
    assert_eq!(board.to_move(), Player::One);
    let height = board.height(maxconnect4::board::Column::from_number(column).unwrap());
    assert_eq!(board.at(column - 1, height - 1), Some(Player::Two));
}

#[test]
fn crlf_in_crlf_out() {
    let dir = tempfile::tempdir().unwrap();
    let crlf = INPUT2.replace('\n', "\r\n");
    write(dir.path(), "in.txt", crlf.trim_end());
    maxconnect4(dir.path()).args(["one-move", "in.txt", "out.txt", "3"]).assert().success();
    let written = read(&dir.path().join("out.txt"));
    assert_eq!(written.matches("\r\n").count(), 7, "{written:?}");
    assert_eq!(written.matches('\n').count(), 7, "{written:?}");
    assert_eq!(parse(&written).pieces_played(), 13);
}

#[test]
fn a_full_board_ends_the_game_without_writing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    maxconnect4(dir.path())
        .arg("one-move")
        .arg(shipped("full.txt"))
        .arg(&out)
        .arg("4")
        .assert()
        .success()
        .stdout(predicate::str::contains("The game is over: Player 2 wins, 3 to 1."));
    assert!(!out.exists());
}

#[test]
fn a_depth_beyond_the_end_searches_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    maxconnect4(dir.path())
        .arg("one-move")
        .arg(shipped("nearly_full.txt"))
        .arg("out.txt")
        .arg("40")
        .assert()
        .success()
        .stdout(predicate::str::contains("to depth 4 in"));
    assert_eq!(parse(&read(&dir.path().join("out.txt"))).empty_cells(), 3);
}

#[test]
fn same_input_same_move() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", INPUT2);
    maxconnect4(dir.path()).args(["one-move", "in.txt", "a.txt", "6"]).assert().success();
    maxconnect4(dir.path()).args(["one-move", "in.txt", "b.txt", "6"]).assert().success();
    assert_text(&read(&dir.path().join("b.txt")), &read(&dir.path().join("a.txt")));
}

#[test]
fn a_failure_leaves_the_old_output_untouched() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "bad.txt", "0000000\n");
    let out = write(dir.path(), "out.txt", "the previous board\n");
    maxconnect4(dir.path()).args(["one-move", "bad.txt", "out.txt", "3"]).assert().code(1);
    assert_eq!(read(&out), "the previous board\n");
    // An unwritable destination: the output path is a directory.
    write(dir.path(), "in.txt", INPUT2);
    std::fs::create_dir(dir.path().join("taken")).unwrap();
    maxconnect4(dir.path())
        .args(["one-move", "in.txt", "taken", "3"])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with("error: cannot write taken"));
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left behind: {leftovers:?}");
}

#[test]
fn a_missing_input_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    maxconnect4(dir.path())
        .args(["one-move", "nowhere.txt", "out.txt", "3"])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with("error: cannot read nowhere.txt: "));
    assert!(!dir.path().join("out.txt").exists());
}

#[test]
fn bad_arguments_get_usage_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", INPUT2);
    for args in [
        &["one-move", "in.txt", "out.txt", "0"][..],
        &["one-move", "in.txt", "out.txt", "deep"],
        &["one-move", "in.txt", "out.txt"],
        &["interactive", "in.txt", "computer-first", "3"],
        &["two-moves", "in.txt", "out.txt", "3"],
    ] {
        maxconnect4(dir.path()).args(args).assert().code(2).stderr(predicate::str::contains("Usage:"));
    }
    assert!(!dir.path().join("out.txt").exists());
}

/// Runs one-move from `in.txt` (the course's `input2.txt`) in `dir` to `output`.
fn one_move_to(dir: &std::path::Path, output: &str) -> assert_cmd::assert::Assert {
    maxconnect4(dir).args(["one-move", "in.txt", output, "3"]).assert()
}

#[test]
fn output_errors_name_the_path_given_before_any_search() {
    let dir = dir_with_input2();
    std::fs::create_dir(dir.path().join("adir")).unwrap();
    write(dir.path(), "afile", "");
    for (output, expected) in [
        ("missing/out.txt", "error: cannot write missing/out.txt: the directory missing does not exist\n"),
        (".", "error: cannot write .: it is a directory; give the name of a file\n"),
        ("adir/", "error: cannot write adir/: it is a directory; give the name of a file\n"),
        ("adir", "error: cannot write adir: it is a directory; give the name of a file\n"),
        ("afile/out.txt", "error: cannot write afile/out.txt: afile is not a directory\n"),
    ] {
        // Nothing on stdout: the board is printed only once the output is known to be writable.
        one_move_to(dir.path(), output).code(1).stdout("").stderr(expected);
    }
}

#[cfg(unix)]
#[test]
fn only_a_regular_file_is_replaced() {
    let dir = dir_with_input2();
    let target = write(dir.path(), "target.txt", "the file the link points to\n");
    std::os::unix::fs::symlink(&target, dir.path().join("link.txt")).unwrap();
    one_move_to(dir.path(), "link.txt").code(1).stderr(
        "error: cannot write link.txt: it is a symbolic link; give the file it points to (only a regular file is replaced)\n",
    );
    assert!(std::fs::symlink_metadata(dir.path().join("link.txt")).unwrap().file_type().is_symlink());
    assert_eq!(read(&target), "the file the link points to\n");
    make_fifo(&dir.path().join("fifo"));
    one_move_to(dir.path(), "fifo")
        .code(1)
        .stderr("error: cannot write fifo: it is a named pipe, not a regular file\n");
    one_move_to(dir.path(), "/dev/null")
        .code(1)
        .stderr("error: cannot write /dev/null: it is a device, not a regular file\n");
    assert_eq!(names_in(dir.path()), ["fifo", "in.txt", "link.txt", "target.txt"]);
}

#[cfg(unix)]
#[test]
fn the_move_is_saved_when_standard_output_fails() {
    let dir = dir_with_input2();
    let expected =
        "error: standard output failed (No space left on device (os error 28)); the move was saved to full.txt\n";
    let run = |output: &str, stdout: std::process::Stdio| {
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_maxconnect4"))
            .args(["one-move", "in.txt", output, "3"])
            .current_dir(dir.path())
            .stdout(stdout)
            .output()
            .unwrap();
        (run.status.code(), String::from_utf8_lossy(&run.stderr).into_owned())
    };
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    assert_eq!(run("full.txt", full.into()), (Some(1), expected.to_owned()));
    // A reader that has gone: every write fails at once.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let (code, stderr) = run("gone.txt", writer.into());
    assert_eq!(code, Some(1));
    assert!(stderr.starts_with("error: standard output failed (Broken pipe"), "{stderr}");
    assert!(stderr.ends_with("the move was saved to gone.txt\n"), "{stderr}");
    assert_eq!(read(&dir.path().join("full.txt")), read(&dir.path().join("gone.txt")));
    added_column(INPUT2, &read(&dir.path().join("full.txt")));
}

/// Starts `args` in `dir` `runs` times, stopping each run with `signal` a
/// little later than the one before (from at once to about 20 ms, past the
/// whole run), and returns the temporary files left in `dir`. The points
/// where the signal lands vary with the machine's load; what is asserted
/// holds wherever it lands.
#[cfg(unix)]
fn temporary_files_after_stopping(dir: &std::path::Path, args: &[&str], signal: i32, runs: u64) -> Vec<String> {
    for run in 0..runs {
        let args: Vec<String> = args.iter().map(|arg| arg.replace("RUN", &run.to_string())).collect();
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_maxconnect4"))
            .args(&args)
            .current_dir(dir)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_micros(run * 20_000 / runs));
        // The child is ours and not yet reaped, so its pid is its own.
        let stop = rustix::process::Signal::from_named_raw(signal).unwrap();
        rustix::process::kill_process(rustix::process::Pid::from_child(&child), stop).unwrap();
        drop(child.stdin.take());
        child.wait().unwrap();
    }
    names_in(dir).into_iter().filter(|name| name.starts_with(".maxconnect4-")).collect()
}

#[cfg(unix)]
#[test]
fn stopping_one_move_at_any_point_leaves_no_temporary_file() {
    let dir = dir_with_input2();
    // A new output file is linked into place straight from a file with no name.
    let left =
        temporary_files_after_stopping(dir.path(), &["one-move", "in.txt", "out-RUN.txt", "5"], libc::SIGKILL, 60);
    assert!(left.is_empty(), "kill -9 left {left:?}");
    // Replacing needs a name for a moment, which SIGINT and SIGTERM remove.
    write(dir.path(), "out.txt", INPUT2);
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let left = temporary_files_after_stopping(dir.path(), &["one-move", "in.txt", "out.txt", "5"], signal, 60);
        assert!(left.is_empty(), "signal {signal} left {left:?}");
    }
    let written = read(&dir.path().join("out.txt"));
    assert!(written == INPUT2 || added_column(INPUT2, &written) > 0, "out.txt is the old board or a whole new one");
}

#[cfg(unix)]
#[test]
fn stopping_interactive_mode_at_any_point_leaves_no_temporary_file() {
    let dir = dir_with_input2();
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let args = ["interactive", "in.txt", "computer-next", "5"];
        let left = temporary_files_after_stopping(dir.path(), &args, signal, 60);
        assert!(left.is_empty(), "signal {signal} left {left:?}");
    }
}

#[test]
fn a_move_string_with_control_characters_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    maxconnect4(dir.path()).args(["one-move", "--moves", "4\n\u{1b}[2J", "out.txt", "3"]).assert().code(2).stderr(
        predicates::str::starts_with(
            "error: invalid value '4\\n\\u{1b}[2J' for '--moves <MOVES>': move 2 is '\\n', not a column 1-7\n\nUsage: ",
        ),
    );
}
