//! Interactive mode fed through stdin, as a person at the terminal would play.

use maxconnect4::format;
use maxconnect4::player::Player;
use predicates::prelude::*;

use super::util::{maxconnect4, read, shipped, write, INPUT2};

#[test]
fn human_then_computer_saving_both_boards() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", INPUT2);
    let assert = maxconnect4(dir.path())
        .args(["interactive", "in.txt", "human-next", "4"])
        .write_stdin("4\n")
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.starts_with(
            "You are player 1 (red); the computer is player 2 (green).\n\
             After each move the board is saved: the computer's to computer.txt, yours to human.txt.\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("The game is left unfinished."), "{stdout}");

    let human = format::parse(read(&dir.path().join("human.txt")).as_bytes()).unwrap().board;
    assert_eq!(human.pieces_played(), 13);
    assert_eq!(human.at(3, 0), Some(Player::One), "the person's piece fell to the bottom of column 4");
    assert_eq!(human.to_move(), Player::Two);

    let computer = format::parse(read(&dir.path().join("computer.txt")).as_bytes()).unwrap().board;
    assert_eq!(computer.pieces_played(), 14);
    assert_eq!(computer.to_move(), Player::One);
    assert_eq!(computer.pieces(Player::One), human.pieces(Player::One));
    let played = maxconnect4::board::Column::ALL.into_iter().find(|&c| computer.height(c) != human.height(c)).unwrap();
    assert!(stdout.contains(&format!("\nMove 14: the computer (player 2) plays column {played}.\n")), "{stdout}");
    let marker = format!("  1 2 3 4 5 6 7\n{:>width$}\nScore: ", "^", width = 2 * played.number() + 1);
    assert!(stdout.contains(&marker), "a caret under the computer's column:\n{stdout}");
    // The board is printed before the person's move, after it, and after the computer's.
    assert_eq!(stdout.matches("Score: Player 1 = ").count(), 3, "{stdout}");
}

#[test]
fn bad_answers_are_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    let input = "0000000\n0100000\n0200000\n0100002\n0200111\n1100222\n2\n";
    write(dir.path(), "full_column.txt", input);
    let assert = maxconnect4(dir.path())
        .args(["interactive", "full_column.txt", "human-next", "2"])
        .write_stdin("banana\n9\n\n0\n2\n5\nquit\n")
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    for reason in [
        "'banana' is not a column number; type 1 to 7.",
        "There is no column 9; type 1 to 7.",
        "Please type a column number from 1 to 7.",
        "There is no column 0; type 1 to 7.",
    ] {
        assert!(stdout.contains(reason), "missing {reason:?} in\n{stdout}");
    }
    assert_eq!(stdout.matches("Your move, player 2").count(), 7, "{stdout}");
    let human = format::parse(read(&dir.path().join("human.txt")).as_bytes()).unwrap().board;
    assert_eq!(human.at(1, 5), Some(Player::Two), "column 2 was filled to the top by the person");
}

#[test]
fn a_full_column_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", "2000000\n1000000\n2000000\n1000000\n2000000\n1000000\n1\n");
    maxconnect4(dir.path())
        .args(["interactive", "in.txt", "human-next", "2"])
        .write_stdin("1\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("Column 1 is full; choose another."));
    assert!(!dir.path().join("human.txt").exists());
}

#[test]
fn plays_to_the_end_and_announces_the_winner() {
    let dir = tempfile::tempdir().unwrap();
    let assert = maxconnect4(dir.path())
        .arg("interactive")
        .arg(shipped("nearly_full.txt"))
        .args(["computer-next", "6"])
        .write_stdin("1\n2\n3\n4\n5\n6\n7\n")
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let last = format::parse(read(&dir.path().join("computer.txt")).as_bytes()).unwrap().board;
    let human = format::parse(read(&dir.path().join("human.txt")).as_bytes()).unwrap().board;
    assert!(last.is_full() || human.is_full());
    let full = if last.is_full() { last } else { human };
    // The computer is player 1 here.
    let (you, computer) = (full.score(Player::Two), full.score(Player::One));
    let expected = match you.cmp(&computer) {
        std::cmp::Ordering::Greater => format!("you win, {you} to {computer}."),
        std::cmp::Ordering::Less => format!("the computer wins, {computer} to {you}."),
        std::cmp::Ordering::Equal => format!("a draw, {you} all."),
    };
    assert!(stdout.ends_with(&format!("The game is over: {expected}\n")), "{stdout}");
}

#[test]
fn a_missing_file_starts_an_empty_board() {
    let dir = tempfile::tempdir().unwrap();
    let assert = maxconnect4(dir.path())
        .args(["interactive", "nothing.txt", "computer-next", "3"])
        .write_stdin("")
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(stdout.starts_with("nothing.txt does not exist; starting from an empty board."), "{stdout}");
    let computer = read(&dir.path().join("computer.txt"));
    let board = format::parse(computer.as_bytes()).unwrap().board;
    assert_eq!(board.pieces_played(), 1);
    assert_eq!(board.pieces(Player::One).count_ones(), 1);
    assert_eq!(board.to_move(), Player::Two);
    assert!(computer.starts_with("0000000\n0000000\n0000000\n0000000\n0000000\n"), "{computer}");
}

#[test]
fn crlf_boards_are_saved_with_crlf() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", &INPUT2.replace('\n', "\r\n"));
    maxconnect4(dir.path()).args(["interactive", "in.txt", "computer-next", "3"]).write_stdin("1\n").assert().success();
    for name in ["computer.txt", "human.txt"] {
        let text = read(&dir.path().join(name));
        assert_eq!(text.matches("\r\n").count(), 7, "{name}: {text:?}");
    }
}

#[test]
fn an_invalid_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", "0000000\n");
    maxconnect4(dir.path())
        .args(["interactive", "in.txt", "computer-next", "3"])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with("error: in.txt is not a valid board file: line 2: "));
}

/// Runs interactive mode from `in.txt` (the course's `input2.txt`) with
/// the person moving first, fed `stdin`; returns what it printed.
fn play_with_input(stdin: Vec<u8>) -> String {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", INPUT2);
    let assert = maxconnect4(dir.path()).args(["interactive", "in.txt", "human-next", "1"]).write_stdin(stdin).assert();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(assert.get_output().status.success(), "{stdout}");
    stdout
}

#[test]
fn answers_that_are_not_text_are_asked_again() {
    let stdout = play_with_input(b"\xff\xfe\n4\nquit\n".to_vec());
    assert!(stdout.contains("That answer is not text; type a column number from 1 to 7."), "{stdout}");
    assert!(stdout.contains("the computer (player 2) plays column "), "the game went on:\n{stdout}");
}

#[test]
fn long_answers_are_cut_short_and_endless_input_ends_the_game() {
    let stdout = play_with_input(format!("{}\n{}\nquit\n", "x".repeat(5000), "y".repeat(500)).into_bytes());
    assert!(stdout.contains("That answer is too long; type a column number from 1 to 7."), "{stdout}");
    assert!(stdout.contains(&format!("'{}...' is not a column number", "y".repeat(20))), "{stdout}");
    assert!(!stdout.contains(&"y".repeat(21)), "the answer is echoed cut short");
    let stdout = play_with_input(vec![0; 1 << 20]);
    assert!(stdout.contains("The input has no line break in 64 KiB; taking it as the end."), "{stdout}");
    assert!(stdout.contains("The game is left unfinished."), "{stdout}");
}

#[cfg(unix)]
#[test]
fn a_person_in_a_match_is_asked_again_after_an_answer_that_is_not_text() {
    let dir = tempfile::tempdir().unwrap();
    // Every column in turn, many times over: full columns are asked again too.
    let mut stdin = b"\xff\n".to_vec();
    stdin.extend("1\n2\n3\n4\n5\n6\n7\n".repeat(8).bytes());
    let assert = maxconnect4(dir.path())
        .args(["match", "self", "human", "--depth", "1", "--quiet"])
        .write_stdin(stdin)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(stdout.contains("That answer is not text"), "{stdout}");
    let record = &crate::util::records(&dir.path().join("games.jsonl"))[0];
    assert_eq!(record.forfeit, None, "the person did not lose the game over it");
    assert_eq!(record.moves.len(), 42, "the game was played to the end");
}

#[test]
fn a_save_file_that_cannot_be_written_is_found_before_the_game() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", INPUT2);
    std::fs::create_dir(dir.path().join("human.txt")).unwrap();
    maxconnect4(dir.path())
        .args(["interactive", "in.txt", "computer-next", "3"])
        .write_stdin("4\n")
        .assert()
        .code(1)
        .stdout("")
        .stderr("error: cannot write human.txt: it is a directory; give the name of a file\n");
    assert!(!dir.path().join("computer.txt").exists(), "the computer did not move");
}
