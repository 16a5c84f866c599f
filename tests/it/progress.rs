//! What a long search shows while it runs: the progress line and the
//! warning before a search that will take long, on a terminal only.
//!
//! A terminal is a pseudo-terminal made by python3's `pty` module (which
//! the tests need anyway). The program is left to search until what is
//! awaited appears, then killed: nothing here depends on how fast the
//! machine is.

use std::process::{Command, Stdio};

use super::util::maxconnect4;

/// Runs the program with `args` on a pseudo-terminal (stdout and stderr
/// both) until it prints `awaited`, then kills it; returns all it printed.
/// Fails if the program ends without printing `awaited`.
const ON_A_TERMINAL: &str = r#"
import os, pty, signal, sys
awaited = os.environ["AWAITED"].encode()
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
seen = b""
while awaited not in seen:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
if awaited in seen:
    os.kill(pid, signal.SIGKILL)
os.waitpid(pid, 0)
sys.stdout.buffer.write(seen)
sys.exit(0 if awaited in seen else 1)
"#;

#[track_caller]
fn check_on_a_terminal(args: &[&str], awaited: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new("python3")
        .args(["-c", ON_A_TERMINAL, env!("CARGO_BIN_EXE_maxconnect4")])
        .args(args)
        .current_dir(dir.path())
        .env("AWAITED", awaited)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("python3 runs");
    let seen = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{args:?}: never printed {awaited:?}; printed:\n{seen}");
    assert!(!dir.path().join("out.txt").exists(), "{args:?}: a killed search wrote its move");
    seen
}

/// The progress line is redrawn in place: carriage return, erase the line.
const REDRAW: &str = "\r\x1b[2K";

#[test]
fn a_long_search_shows_its_progress_on_a_terminal() {
    // A second into the search the line appears, with the nodes so far;
    // the time limit keeps the long-search warning out of the way.
    let seen = check_on_a_terminal(&["one-move", "--moves", "", "out.txt", "42", "--time-limit", "1000"], " nodes  ");
    assert!(seen.contains(REDRAW), "{seen:?}");
    // Solving the empty board takes minutes on any machine.
    let seen = check_on_a_terminal(&["solve", "--moves", "", "--no-book"], " nodes  ");
    assert!(seen.contains(REDRAW), "{seen:?}");
}

#[test]
fn a_search_that_will_take_long_says_so_first() {
    let seen = check_on_a_terminal(&["one-move", "--moves", "", "out.txt", "42"], "--time-limit caps it.");
    assert!(seen.contains("A search to depth 42 from here may take "), "{seen:?}");
    assert!(seen.contains(" (a rough estimate); --time-limit caps it."), "{seen:?}");
}

/// With stdout and stderr piped, a search that lasts well past the second
/// after which a terminal would show the line prints nothing on stderr.
#[test]
fn no_progress_and_no_warning_when_output_is_piped() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["one-move", "--moves", "", "out.txt", "42", "--time-limit", "2.5"][..],
        &["solve", "--moves", "", "--time-limit", "2.5"],
    ] {
        let output = maxconnect4(dir.path()).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains(REDRAW) && !stderr.contains(" nodes  "), "{args:?}: {stderr:?}");
        assert!(!stderr.contains("may take"), "{args:?}: {stderr:?}");
    }
}

#[test]
fn a_book_build_shows_its_rate_and_the_time_left_on_a_terminal() {
    // Positions of 30 empty cells: each takes a moment, so the line shows
    // a rate and an estimate before the build ends.
    let args = ["book", "--rules", "max", "--moves", "4444333355", "--depth", "2", "--threads", "1", "--out", "b.book"];
    let seen = check_on_a_terminal(&args, " left");
    // The line drawn with the estimate, whatever was drawn after it.
    let line = seen.split(REDRAW).find(|line| line.contains(" left")).unwrap();
    assert!(line.starts_with("solved "), "{seen:?}");
    assert!(line.contains(" positions at depth 2  "), "{seen:?}");
    assert!(line.contains(" per "), "{seen:?}");
}
