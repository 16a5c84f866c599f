//! Board files that must be rejected, each with one line naming the file,
//! the line and the fault, and exit code 1.

use super::util::{maxconnect4, write, INPUT2};

/// Runs one-move on `text` and checks the error line and that no output appeared.
#[track_caller]
fn check_rejected(text: &str, expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "in.txt", text);
    let output = maxconnect4(dir.path()).args(["one-move", "in.txt", "out.txt", "3"]).output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
    assert_eq!(stderr, format!("error: in.txt is not a valid board file: {expected}\n"));
    assert!(!dir.path().join("out.txt").exists());
}

#[test]
fn wrong_number_of_rows() {
    check_rejected("0000000\n0000000\n1\n", "line 3: expected 7 digits in a board row, found 1");
}

#[test]
fn every_fault_is_named() {
    let cases = [
        ("", "line 1: the file ends before the six board rows and the turn line (expected 7 lines, found 0)"),
        ("0000000\n0000000\n", "line 3: the file ends before the six board rows and the turn line (expected 7 lines, found 2)"),
        ("0000000\n0000000\n0000000\n0000000\n0000000\n0000000\n", "line 7: the file ends before the six board rows and the turn line (expected 7 lines, found 6)"),
        (&INPUT2.replace("0200000", "020000"), "line 3: expected 7 digits in a board row, found 6"),
        (&INPUT2.replace("0100002", "01000020"), "line 4: expected 7 digits in a board row, found 8"),
        (&INPUT2.replace("0200111", "02001x1"), "line 5: column 6: expected 0, 1 or 2, found 'x'"),
        (&INPUT2.replace("0200111", "0200 111"), "line 5: column 5: expected 0, 1 or 2, found ' '"),
        (&INPUT2.replace("\n1\n", "\n0\n"), "line 7: expected the player to move, 1 or 2, found '0'"),
        (&INPUT2.replace("\n1\n", "\n12\n"), "line 7: expected the player to move, 1 or 2, found '12'"),
        (&format!("{INPUT2}0000000\n"), "line 8: unexpected text after the turn line: '0000000'"),
        (&INPUT2.replace("0000000\n0000000\n0200000", "0000000\n0000000\n0200020"), "line 3: column 6: the piece floats above an empty cell"),
        (
            &INPUT2.replace("\n1\n", "\n2\n").replace("1100222", "1100221"),
            "line 7: player 2 is to move with 5 pieces against 7; the player to move must have as many pieces as the other player, or one fewer",
        ),
    ];
    for (text, expected) in cases {
        check_rejected(text, expected);
    }
}

#[test]
fn binary_garbage_is_rejected_not_a_panic() {
    check_rejected("\u{1}\u{ff}garbage", "line 1: column 1: expected 0, 1 or 2, found '\\x01'");
}
