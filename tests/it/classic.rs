//! Classic rules (the first four wins) wherever a game is played, and
//! positions given as move strings.

use maxconnect4::board::{Board, Column};

use maxconnect4::player::Player;
use maxconnect4::referee::replay;
use maxconnect4::rules::{Outcome, Rules};
use maxconnect4::search::{Engine, Limits};

use super::util::{bot, check_error_in, maxconnect4, read, records, run, run_in, write, Rng};

/// Player 1 has four in column 1 (moves 1212121); player 2 to move.
const PLAYER_ONE_WON: &str = "0000000\n0000000\n1000000\n1200000\n1200000\n1200000\n2\n";

/// `args` succeed and print exactly `expected` on stdout.
fn check(args: &[&str], expected: &str) {
    let (code, stdout, stderr) = run(args);
    assert_eq!((code, stdout.as_str()), (0, expected), "{args:?}: {stderr}");
}

/// `args` fail in a fresh directory with exit `code` and `message` on stderr.
#[track_caller]
fn check_error(args: &[&str], code: i32, message: &str) {
    check_error_in(tempfile::tempdir().unwrap().path(), args, code, message);
}

#[test]
fn solve_and_perft_take_move_strings() {
    check(&["solve", "--rules", "classic", "--moves", "4455"], "value 18 best 3,6\n");
    check(&["solve", "--rules", "classic", "--moves", "4455", "--weak"], "value 1 best 3,4,5,6\n");
    // A won game: the player to move has lost to a four made with the fourth stone.
    check(&["solve", "--rules", "classic", "--moves", "1212121"], "value -18 best none\n");
    check(&["perft", "--rules", "classic", "--moves", "1212121", "3"], "perft 3 0\n");
    check(&["perft", "--moves", "1212121", "2"], "perft 2 49\n");
    check(&["perft", "--rules", "classic", "8"], "perft 8 5673234\n");
}

#[test]
fn bad_move_strings_name_the_move() {
    // A move string is an argument: a bad one is a usage error (exit 2).
    check_error(&["solve", "--rules", "classic", "--moves", "44x"], 2, "move 3 is 'x', not a column 1-7");
    check_error(&["perft", "--moves", "1111111", "1"], 2, "move 7 plays column 1, which is full");
    check_error(
        &["solve", "--rules", "classic", "--moves", "12121213"],
        2,
        "move 8 plays column 3 after the game ended: player 1 has four in a row",
    );
    check_error(&["match", "self", "self", "--start-moves", "88"], 2, "move 1 is '8', not a column 1-7");
    check_error(&["solve", "--rules", "chess", "--moves", "4"], 2, "unknown rules 'chess'");
}

#[test]
fn a_batch_goes_on_past_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "batch.txt", "4455 18\n\n44x\n274552224131661 0\n1111111 3\n");
    let (code, stdout, stderr) = run_in(dir.path(), &["solve", "--rules", "classic", "--batch", "batch.txt"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stdout, "4455 18\n274552224131661 0\n");
    assert!(stderr.contains("batch.txt, line 3: bad move string '44x': move 3 is 'x', not a column 1-7"), "{stderr}");
    assert!(stderr.contains("batch.txt, line 5: bad move string '1111111'"), "{stderr}");
    assert!(stderr.contains("Solved 2 positions: "), "{stderr}");
    let output = maxconnect4(dir.path())
        .args(["solve", "--rules", "classic", "--weak", "--batch", "-"])
        .write_stdin("4455\n274552224131661\n")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout), "4455 1\n274552224131661 0\n");
}

/// Under classic rules `--threads` changes no result: a solve finds the
/// same value and best moves on 1, 2 or 4 threads (more threads visit more
/// nodes in all), and the depth-limited player, which searches on one
/// thread, plays the same move after the same nodes.
#[test]
fn threads_change_no_classic_result() {
    for (args, whole) in [
        (&["solve", "--rules", "classic", "--moves", "32751571231557"][..], false),
        (&["solve", "--rules", "classic", "--moves", "5371555645", "--weak"], false),
        (&["analyse", "--rules", "classic", "--moves", "157564142155"], false),
        (&["one-move", "--rules", "classic", "--moves", "4453", "out.txt", "12"], true),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let outputs: Vec<(String, String)> = ["1", "2", "4"]
            .iter()
            .map(|threads| {
                let (code, stdout, stderr) = run_in(dir.path(), &[args, &["--threads", threads]].concat());
                let out = std::fs::read_to_string(dir.path().join("out.txt")).unwrap_or_default();
                assert_eq!(code, 0, "{args:?}: {stderr}");
                // The figures but the times: nodes, moves, values.
                let figures = |text: &str| -> String {
                    text.split_whitespace().filter(|word| !word.contains('.') || word.ends_with(".txt")).collect()
                };
                if whole {
                    (figures(&stdout) + &out, figures(&stderr))
                } else {
                    (stdout, String::new())
                }
            })
            .collect();
        assert!(outputs.iter().all(|output| *output == outputs[0]), "{args:?}: {outputs:#?}");
    }
}

#[test]
fn one_move_under_classic_rules() {
    let dir = tempfile::tempdir().unwrap();
    // A finished game: who won, and OUT left alone.
    write(dir.path(), "won.txt", PLAYER_ONE_WON);
    let (code, stdout, _) = run_in(dir.path(), &["one-move", "--rules", "classic", "won.txt", "out.txt", "5"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("The game is over: Player 1 wins with four in a row."), "{stdout}");
    assert!(!dir.path().join("out.txt").exists());
    // Under Max rules the same board plays on.
    let (code, _, _) = run_in(dir.path(), &["one-move", "won.txt", "out.txt", "3"]);
    assert_eq!(code, 0);
    assert!(dir.path().join("out.txt").exists());
    // A move string replaces INPUT; the win in one is taken.
    let (code, stdout, stderr) =
        run_in(dir.path(), &["one-move", "--rules", "classic", "--moves", "121212", "next.txt", "6"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Player 1 plays column 1."), "{stdout}");
    assert_eq!(read(&dir.path().join("next.txt")), "0000000\n0000000\n1000000\n1200000\n1200000\n1200000\n2\n");
    check_error(
        &["one-move", "--moves", "44", "in.txt", "out.txt", "5"],
        2,
        "with --moves, give only OUTPUT and DEPTH",
    );
    check_error(&["one-move", "out.txt", "5"], 2, "expected INPUT OUTPUT DEPTH");
    check_error(
        &["one-move", "--moves", "44", "out.txt", "0"],
        2,
        "invalid value '0' for '<DEPTH>': too small: at least 1",
    );
}

#[test]
fn interactive_ends_at_the_first_four() {
    let dir = tempfile::tempdir().unwrap();
    // The person (player 1) has three in column 1 and completes the four.
    write(dir.path(), "start.txt", "0000000\n0000000\n0000000\n1200000\n1200000\n1200000\n1\n");
    let output = maxconnect4(dir.path())
        .args(["interactive", "--rules", "classic", "start.txt", "human-next", "4"])
        .write_stdin("1\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(stdout.ends_with("The game is over: you win with four in a row.\n"), "{stdout}");
}

/// On random positions the classic engine takes a win in one when there is
/// one, and otherwise never lets the opponent win at once if a move avoids it.
#[test]
fn the_computer_takes_a_win_and_blocks_a_loss() {
    let mut rng = Rng::new(11);
    let mut engine = Engine::for_rules(Rules::Classic, 1 << 20).unwrap();
    let mut checked = 0;
    while checked < 300 {
        let moves = rng.below(30);
        let mut board = Board::empty();
        for _ in 0..moves {
            if Rules::Classic.is_over(&board) {
                break;
            }
            let legal: Vec<Column> = board.legal_columns().collect();
            board.play(legal[rng.below(legal.len())]);
        }
        if Rules::Classic.is_over(&board) {
            continue;
        }
        checked += 1;
        let depth = 1 + rng.below(5) as u32;
        let column = engine.search(&board, &Limits::depth(depth)).unwrap().column;
        let after = board.after(column);
        let wins_now = |board: &Board| {
            board.legal_columns().any(|c| Rules::Classic.outcome(&board.after(c)).is_some_and(|o| o != Outcome::Draw))
        };
        if wins_now(&board) {
            assert!(Rules::Classic.is_over(&after), "missed a win in one at depth {depth}");
        } else if board.legal_columns().any(|c| !wins_now(&board.after(c))) {
            assert!(!wins_now(&after), "allowed a win in one at depth {depth} by playing {column}");
        }
    }
}

#[cfg(unix)]
#[test]
fn the_referee_ends_a_classic_game_at_the_first_four() {
    let dir = tempfile::tempdir().unwrap();
    let leftmost = bot("valid", None);
    let (code, stdout, stderr) = run_in(
        dir.path(),
        &["match", "self", &leftmost, "--rules", "classic", "--start-moves", "44", "--depth", "4", "--timeout", "5"],
    );
    assert_eq!(code, 0, "{stderr}");
    let record = records(&dir.path().join("games.jsonl")).remove(0);
    assert_eq!(record.settings.rules, Rules::Classic);
    assert_eq!(record.result, Outcome::Win(Player::One), "{stdout}");
    assert!(stdout.contains("Player 1 wins with four in a row."), "{stdout}");
    // The last move made the four, and no move came after it.
    let positions = replay::positions(&record).unwrap();
    let last = positions.last().unwrap();
    assert_eq!(Rules::Classic.outcome(last), Some(Outcome::Win(Player::One)));
    assert!(!Rules::Classic.is_over(&positions[positions.len() - 2]));
    assert!(record.moves.len() < 36, "{}", record.moves);
}

/// `solve --batch` on a benchmark set prints exactly its `MOVES SCORE` lines.
fn check_benchmark_set(file: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/connect4-benchmarks").join(file);
    let dir = tempfile::tempdir().unwrap();
    let output = maxconnect4(dir.path()).args(["solve", "--rules", "classic", "--batch"]).arg(&path).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let expected = read(&path);
    let found = String::from_utf8(output.stdout).unwrap();
    for (line, (found, expected)) in (1..).zip(found.lines().zip(expected.lines())) {
        assert_eq!(found, expected, "{file}, line {line}");
    }
    assert_eq!(found.lines().count(), 1000, "{file}");
}

#[test]
fn the_end_easy_set_gets_its_published_scores() {
    check_benchmark_set("Test_L3_R1");
}

#[test]
fn the_middle_easy_set_gets_its_published_scores() {
    check_benchmark_set("Test_L2_R1");
}

#[test]
fn the_middle_medium_set_gets_its_published_scores() {
    check_benchmark_set("Test_L2_R2");
}

#[test]
fn the_begin_easy_set_gets_its_published_scores() {
    check_benchmark_set("Test_L1_R1");
}
