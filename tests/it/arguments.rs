//! Argument errors: every one exits 2 with a message naming the option, the
//! usage line and then the pointer to `--help`, in clap's order; none panics.

use crate::util::{maxconnect4, write, INPUT2};

/// Runs `args` in a directory holding `in.txt` (the course's `input2.txt`)
/// and checks that it is a usage error whose message contains `expected`.
#[track_caller]
fn check(args: &[&str], expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", INPUT2);
    let output = maxconnect4(dir.path()).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?} should be a usage error; stderr:\n{stderr}");
    assert!(stderr.contains(expected), "{args:?}: expected {expected:?} in:\n{stderr}");
    let usage = stderr.find("Usage: maxconnect4").unwrap_or_else(|| panic!("{args:?}: no usage line in:\n{stderr}"));
    let help = stderr.find("For more information, try '--help'").expect("the pointer to --help");
    assert!(usage < help, "{args:?}: the usage line comes before the pointer to --help:\n{stderr}");
    assert!(!dir.path().join("out.txt").exists(), "{args:?} wrote its output");
}

#[test]
fn times_too_large_for_the_clock_are_usage_errors() {
    for option in ["--time-limit"] {
        for mode in [&["one-move", "in.txt", "out.txt", "3"][..], &["interactive", "in.txt", "human-next", "3"]] {
            let args = [mode, &[option, "1e19"]].concat();
            check(&args, "too large: at most 1000000000 seconds");
        }
        check(&["solve", "in.txt", option, "1e19"], "too large: at most 1000000000 seconds");
    }
    check(&["match", "self", "self", "--timeout", "1e19"], "'--timeout <SECONDS>': too large");
    check(
        &["match", "self", "self", "--clock", "0"],
        "'--clock <SECONDS>': expected a number of seconds greater than 0",
    );
    check(&["tournament", "--player", "a=self", "--player", "b=self", "--timeout", "inf"], "too large");
    check(&["report", "--budget", "1e300"], "'--budget <SECONDS>': too large");
    check(&["replay", "games.jsonl", "--delay", "1e19"], "'--delay <SECONDS>': too large");
    check(&["replay", "games.jsonl", "--delay=-1"], "0 or more");
    check(&["one-move", "in.txt", "out.txt", "3", "--time-limit", "NaN"], "expected a number of seconds");
    check(&["one-move", "in.txt", "out.txt", "3", "--time-limit", "0"], "greater than 0");
}

#[test]
fn whole_numbers_are_bounded_and_named() {
    check(&["one-move", "in.txt", "out.txt", "0"], "invalid value '0' for '<DEPTH>': too small: at least 1");
    check(&["one-move", "in.txt", "out.txt", "99999999999"], "too large: at most 4294967295");
    check(&["one-move", "in.txt", "out.txt", "deep"], "expected a whole number of plies");
    check(&["report", "--max-depth", "0"], "'--max-depth <N>': too small: at least 1");
    check(&["replay", "games.jsonl", "--game", "0"], "games count from 1");
    check(&["replay", "games.jsonl", "--game", "4294967296"], "too large");
    check(&["perft", "99999999999"], "too large");
    check(&["one-move", "in.txt", "out.txt", "3", "--hash", "99999999999999999999"], "'--hash <MB>': too large");
    check(&["bench", "--hash", "-5"], "unexpected argument '-5'");
    check(&["bench", "--rules", "classic", "--deep"], "--deep needs --rules max");
    for mode in [
        &["one-move", "in.txt", "out.txt", "3"][..],
        &["interactive", "in.txt", "human-next", "3"],
        &["solve", "in.txt"],
        &["bench"],
    ] {
        check(&[mode, &["--threads", "0"]].concat(), "invalid value '0' for '--threads <N>': too small: at least 1");
        check(&[mode, &["--threads", "257"]].concat(), "'--threads <N>': too large: at most 256");
        check(&[mode, &["--threads", "many"]].concat(), "expected a whole number of threads");
    }
    check(&["match", "self", "self", "--depth", "0"], "'--depth <DEPTH>': too small");
    check(&["tournament", "--player", "a=self", "--player", "b=self", "--openings", "50"], "at most 49");
    check(&["tournament", "--player", "a=self", "--player", "b=self", "--jobs", "0"], "at least 1");
}

#[test]
fn tournament_players_are_checked_with_the_arguments() {
    check(&["tournament", "--player", "a=self"], "a tournament needs at least two players");
    check(&["tournament", "--player", "a=self", "--player", "a=self"], "two players are named 'a'");
    check(&["tournament", "--player", "a=self", "--player", "b c=self"], "'b c' cannot be a player's name");
    check(&["tournament", "--player", "a=self", "--player", ".b=self"], "'.b' cannot be a player's name");
    check(&["tournament", "--player", "a=self", "--player", "b=human"], "a tournament has no human players");
    check(&["tournament", "--player", "a=self", "--player", "b"], "expected NAME=TEMPLATE");
    check(&["tournament", "--player", "a=self", "--player", "b=echo"], "has no {in}");
    check(&["match", "self", "echo {in}"], "has no {out}");
    check(&["match", "self", "moderator:"], "the command template is empty");
    check(&["match", "self", "coordinator:engine {out}"], "of a coordinator bot has {out}");
    check(&["match", "self", "https://example.org/"], "https is not supported");
    check(&["tournament", "--player", "a=self", "--player", "b=http:"], "is not an http:// URL");
}

/// [`check`], and the message is the whole first line, after `error: `.
#[track_caller]
fn check_line(args: &[&str], message: &str) {
    check(args, message);
    let dir = tempfile::tempdir().unwrap();
    let output = maxconnect4(dir.path()).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().next(), Some(format!("error: {message}").as_str()), "{args:?}");
}

/// A template typed as the shell splits it, unquoted, as an instructor
/// first typed one: the message shows the command line quoted.
#[test]
fn a_template_typed_without_quotes_is_shown_quoted() {
    let split = "the command template 'python3' has no {in}, and the arguments after it look like the rest of the \
                 command: quote the whole command as one argument, as in: ";
    check_line(
        &["check", "python3", "prog.py", "one-move", "{in}", "{out}", "{depth}"],
        &format!("{split}maxconnect4 check 'python3 prog.py one-move {{in}} {{out}} {{depth}}'"),
    );
    check_line(
        &["check", "self", "python3", "prog.py", "one-move", "{in}", "{out}", "{depth}", "--depth", "3"],
        &format!("{split}maxconnect4 check self 'python3 prog.py one-move {{in}} {{out}} {{depth}}' --depth 3"),
    );
    // Two players, each split: each is quoted, and a word with a blank
    // (quoted at the shell) keeps its own quotes.
    check_line(
        &["match", "python3", "my bot.py", "{in}", "{out}", "./rival", "{in}", "{out}", "--depth", "3"],
        &format!("{split}maxconnect4 match 'python3 \"my bot.py\" {{in}} {{out}}' './rival {{in}} {{out}}' --depth 3"),
    );
    check_line(
        &["tournament", "--player", "a=python3", "prog.py", "{in}", "{out}", "{depth}", "--player", "b=self"],
        &format!("{split}maxconnect4 tournament --player 'a=python3 prog.py {{in}} {{out}} {{depth}}' --player b=self"),
    );
    // A program's own option that a placeholder follows is the program's.
    let report = "the command template './prog' has no {in}, and the arguments after it look like the rest of the \
                  command: quote the whole command as one argument, as in: \
                  maxconnect4 report --player './prog {in} {out} --depth {depth}'";
    check_line(&["report", "--player", "./prog", "{in}", "{out}", "--depth", "{depth}"], report);
    // Quoted, a near miss is still wrong: both are said.
    check_line(
        &["check", "python3", "prog.py", "{input}", "{output}"],
        &format!(
            "{split}maxconnect4 check 'python3 prog.py {{input}} {{output}}'; quoted, it is still refused: the command \
             template 'python3 prog.py {{input}} {{output}}' has no {{in}}, so the program could not know where to read \
             the board: did you mean {{in}} for {{input}} and {{out}} for {{output}}?"
        ),
    );
    // Nothing after it looks like a template's words: the plain message.
    check_line(
        &["check", "prog", "--depth", "3"],
        "invalid value 'prog' for '[PLAYERS]...': the command template 'prog' has no {in}, so the program could not \
         know where to read the board",
    );
}

/// A placeholder mistyped is named, with the one meant.
#[test]
fn a_near_miss_of_a_placeholder_gets_a_did_you_mean() {
    check_line(
        &["check", "python3 prog.py one-move {input} {output} {depth}"],
        "invalid value 'python3 prog.py one-move {input} {output} {depth}' for '[PLAYERS]...': the command template \
         'python3 prog.py one-move {input} {output} {depth}' has no {in}, so the program could not know where to read \
         the board: did you mean {in} for {input} and {out} for {output}?",
    );
    check(&["match", "self", "./prog {IN} {out}"], "did you mean {in} for {IN}?");
    check(&["tournament", "--player", "a=self", "--player", "b=./prog {in} {outfile} {DEPTH}"], "has no {out}, so the program could not know where to write its move: did you mean {out} for {outfile} and {depth} for {DEPTH}?");
    check(
        &["tournament", "--player", "a=self", "--player", "b=./prog --board={infile} {out}"],
        "did you mean {in} for {infile}?",
    );
}

#[test]
fn a_table_larger_than_the_memory_at_hand_is_refused() {
    for args in [
        &["one-move", "in.txt", "out.txt", "3", "--hash", "99999999999"][..],
        &["interactive", "in.txt", "human-next", "3", "--hash", "99999999999"],
        &["solve", "in.txt", "--hash", "99999999999"],
        &["bench", "--hash", "99999999999"],
    ] {
        check(args, "'--hash <MB>': 99999999999 MB is more than the memory at hand: ");
    }
}

#[test]
fn the_board_file_is_described_in_the_help() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["help", "format"][..], &["format"], &["format", "--help"]] {
        let assert = maxconnect4(dir.path()).args(args).assert().success();
        let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
        assert!(stdout.contains("six rows of seven digits, the top row first"), "{args:?}:\n{stdout}");
        assert!(stdout.contains("a UTF-8 byte-order mark are accepted"), "{args:?}:\n{stdout}");
    }
}

#[test]
fn options_come_in_the_same_order_in_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    // What to play from, which game, how deep, how long, how much memory, how many, where to, how to show.
    let order = [
        "--positions",
        "--player",
        "--start",
        "--start-moves",
        "--moves",
        "--batch",
        "--rules",
        "--weak",
        "--depth",
        "--max-depth",
        "--time-limit",
        "--timeout",
        "--budget",
        "--hash",
        "--threads",
        "--no-sandbox",
        "--network",
        "--openings",
        "--jobs",
        "--out",
        "--log",
        "--quiet",
        "--game",
        "--delay",
        "--annotate",
        "--json",
        "--help",
    ];
    for subcommand in
        ["one-move", "interactive", "solve", "bench", "report", "match", "tournament", "replay", "annotate", "analyse"]
    {
        let assert = maxconnect4(dir.path()).args([subcommand, "--help"]).assert().success();
        let help = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
        let options: Vec<usize> = help
            .lines()
            .filter_map(|line| line.trim_start().trim_start_matches("-h, ").split([' ', '=']).next())
            .filter_map(|word| order.iter().position(|option| *option == word))
            .collect();
        assert!(options.is_sorted(), "{subcommand}'s options are out of order:\n{help}");
    }
    let assert = maxconnect4(dir.path()).args(["solve", "--help"]).assert().success();
    let help = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(help.contains("Transposition table size in MB (0 for none)"), "{help}");
}

/// The referee's time per move answers to the engine's name for it too,
/// `--time-limit`, beside `--timeout`, which the help shows.
#[test]
fn the_time_per_move_is_also_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "start.txt", "1212120\n2121210\n1212120\n1212120\n2121210\n2121210\n1\n");
    maxconnect4(dir.path())
        .args(["match", "self", "self", "--start", "start.txt", "--depth", "1", "--quiet", "--time-limit", "2.5"])
        .assert()
        .success();
    let log = std::fs::read_to_string(dir.path().join("games.jsonl")).unwrap();
    assert!(log.contains(r#""timeout":2.5,"#), "{log}");
    let help = maxconnect4(dir.path()).args(["match", "--help"]).assert().success();
    let help = String::from_utf8_lossy(&help.get_output().stdout).into_owned();
    assert!(help.contains("--timeout <SECONDS>") && !help.contains("time-limit"), "{help}");
}
