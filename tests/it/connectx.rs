//! Kaggle ConnectX agents as players (`connectx:PATH.py`): agents written
//! for these tests in the patterns of public ones (`tests/bots/connectx/`)
//! play whole games under both rules against each other and this program,
//! are loaded as Kaggle's loader loads them (the last callable, one
//! parameter or two, state kept from move to move), print freely, forfeit
//! for what forfeits in Kaggle, and are found in a class's folder beside a
//! one-move program.

use std::path::{Path, PathBuf};

use maxconnect4::board::{Board, Column};
use maxconnect4::player::Player;

use super::hosting::{check_forfeit, check_game};
use super::students::{put, python_student, ran, PYTHON_COMMAND};
use super::util::{maxconnect4, records};

/// The player of the test agent `name` (a file of `tests/bots/connectx/`).
fn agent(name: &str) -> String {
    format!("connectx:{}", fixture(name).display())
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("bots").join("connectx").join(name)
}

/// The player of `misbehaving.py` behaving as `how`, in a folder of its own
/// (kept until the returned folder is dropped).
fn misbehaving(how: &str) -> (tempfile::TempDir, String) {
    let folder = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("misbehaving.py"), folder.path().join("misbehaving.py")).unwrap();
    put(folder.path(), &[("how.txt", how)]);
    let player = format!("connectx:{}", folder.path().join("misbehaving.py").display());
    (folder, player)
}

#[test]
fn agents_play_whole_games_against_each_other_and_this_program_under_both_rules() {
    for rules in ["max", "classic"] {
        let (record, [red, _]) = check_game(&agent("lookahead.py"), &agent("stateful.py"), rules, &[]);
        assert_eq!(record.red.command, agent("lookahead.py"));
        assert!(red.contains("< {\"ready\": \"agent\"}\n"), "{red}");
        check_game("self", &agent("lookahead.py"), rules, &[]);
    }
}

#[test]
fn an_agent_keeps_its_globals_and_function_attributes_from_move_to_move() {
    let (record, [red, _]) = check_game(&agent("stateful.py"), &agent("last_callable.py"), "max", &[]);
    // Red plays (calls + count) % 7, or the next column with room; green
    // the rightmost column with room.
    let mut board = Board::empty();
    let (mut expected, mut calls) = (String::new(), 0);
    while !board.is_full() {
        let room = |index: usize| board.can_play(Column::from_index(index).unwrap());
        let index = if board.to_move() == Player::One {
            calls += 1;
            (0..7).map(|step| (2 * calls + step) % 7).find(|&index| room(index))
        } else {
            (0..7).rev().find(|&index| room(index))
        };
        let column = Column::from_index(index.unwrap()).unwrap();
        board.play(column);
        expected.push_str(&column.number().to_string());
    }
    assert_eq!(record.moves, expected);
    // Told Kaggle's configuration once, with --timeout as actTimeout, and
    // without a clock as much again of overage.
    assert!(red.contains(r#""actTimeout":60,"timeout":60,"agentTimeout":60"#), "{red}");
    assert!(red.contains(r#""mark":1,"step":0,"remainingOverageTime":60}"#), "{red}");
}

#[test]
fn the_agent_is_the_last_callable_its_file_defines_called_with_what_it_takes() {
    // An alias at the end names the rightmost player, not `agent`.
    let (record, [red, _]) = check_game(&agent("last_callable.py"), "self", "classic", &[]);
    assert!(record.moves.starts_with('7'), "{}", record.moves);
    assert!(red.contains("< {\"ready\": \"rightmost\"}\n"), "{red}");
    // Defined in an if, after a helper, with one parameter.
    let (record, [_, green]) = check_game("self", &agent("inside_if.py"), "max", &[]);
    assert_eq!(&record.moves[1..2], "7", "{}", record.moves);
    assert!(green.contains("< {\"ready\": \"act\"}\n"), "{green}");
}

#[test]
fn an_agent_prints_what_it_likes_without_touching_the_protocol() {
    let (record, [red, _]) = check_game(&agent("chatty.py"), "self", "max", &["--timeout", "5", "--clock", "300"]);
    assert_eq!(record.forfeit, None);
    assert!(red.contains("thinking about move 21 with"), "{red}");
    assert!(red.contains("more characters printed by the agent were dropped]"), "{red}");
    // With a clock, the overage is what the clock holds beyond the move.
    assert!(red.contains(r#""actTimeout":5,"#) && red.contains(r#""remainingOverageTime":295}"#), "{red}");
}

#[test]
fn agents_that_fail_forfeit_with_their_own_last_line() {
    let (_folder, raising) = misbehaving("raise");
    check_forfeit(
        &raising,
        &[],
        "no-output",
        "the agent raised an exception; its last line on stderr: 'ValueError: no move for this board'",
    );
    let broken = tempfile::tempdir().unwrap();
    put(broken.path(), &[("agent.py", "import a_module_no_one_has\n\ndef agent(obs, config):\n    return 3\n")]);
    check_forfeit(
        &format!("connectx:{}", broken.path().join("agent.py").display()),
        &[],
        "failed-to-start",
        "the agent's file could not be loaded; its last line on stderr: \
         'ModuleNotFoundError: No module named 'a_module_no_one_has''",
    );
    put(broken.path(), &[("agent.py", "MOVES = 7\n")]);
    check_forfeit(
        &format!("connectx:{}", broken.path().join("agent.py").display()),
        &[],
        "failed-to-start",
        "its last line on stderr: 'the file defines no callable: Kaggle plays the last one a file defines'",
    );
}

#[test]
fn an_agent_past_its_time_and_its_overage_forfeits_on_time() {
    let (_folder, sleeping) = misbehaving("sleep");
    // Half a second a move and as much again of overage.
    let record = check_forfeit(&sleeping, &["--timeout", "0.5"], "timeout", "no move within 1 s");
    assert_eq!(record.turns.len(), 1);
}

#[test]
fn a_column_that_is_no_move_forfeits() {
    for (how, verdict, reason) in [
        ("seven", "unparseable", "the agent returned 7, not a column 0-6"),
        ("float", "unparseable", "the agent returned 3.0 (float), not a column (an int 0-6)"),
        ("bool", "unparseable", "the agent returned True (bool), not a column (an int 0-6)"),
        ("none", "unparseable", "the agent returned None (NoneType), not a column (an int 0-6)"),
        ("full", "illegal-move", "column 1 is full"),
    ] {
        let (_folder, player) = misbehaving(how);
        check_forfeit(&player, &[], verdict, reason);
    }
}

#[test]
fn a_class_folder_holds_connectx_agents_beside_one_move_programs() {
    let parent = tempfile::tempdir().unwrap();
    let class = tempfile::tempdir().unwrap();
    python_student(&class.path().join("alice"), &[]);
    // A submission of several files: its agent imports a module beside it.
    let submission = "from heuristics import centre_first\n\n\ndef my_agent(observation, configuration):\n    \
                      return centre_first(observation.board, configuration.columns)\n";
    let heuristics = "def centre_first(board, columns):\n    \
                      return sorted((c for c in range(columns) if board[c] == 0), key=lambda c: abs(c - 3))[0]\n";
    put(&class.path().join("eve"), &[("submission.py", submission), ("heuristics.py", heuristics)]);
    let folder = class.path().display().to_string();
    let (text, code) = ran(maxconnect4(parent.path()).args(["check", "--class", &folder]));
    assert_eq!(code, 0, "{text}");
    let line = |name: &str| text.lines().find(|line| line.contains(&format!(" {name} ["))).unwrap_or_default();
    assert!(
        line("alice")
            .starts_with(&format!("ok      alice [Python 3] (cd {folder}/alice && {PYTHON_COMMAND}): started")),
        "{text}"
    );
    assert!(
        line("eve").starts_with(&format!(
            "ok      eve [ConnectX agent] (connectx:cd {folder}/eve && submission.py): started and played column 4"
        )),
        "{text}"
    );
    let (text, code) =
        ran(maxconnect4(parent.path()).args(["tournament", "--class", &folder, "--openings", "0", "--depth", "1"]));
    assert_eq!(code, 0, "{text}");
    let logged = records(&parent.path().join("tournament/games.jsonl"));
    assert_eq!(logged.len(), 2, "{text}");
    assert!(logged.iter().all(|game| game.forfeit.is_none()), "{text}");
    // Eve's first move is the centre, column 4, in either colour.
    for game in &logged {
        let first = usize::from(game.red.name != "eve");
        assert_eq!(&game.moves[first..=first], "4", "{text}");
    }
}
