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

#[test]
fn positions_no_game_reaches_are_rejected() {
    // Two pieces each, player 1 to move: player 2 moved last, yet both of
    // player 2's pieces lie under player 1's.
    let rows = "0000000\n0000000\n0000000\n0000000\n1010000\n2020000\n1\n";
    check_rejected(
        rows,
        "line 7: player 2 moved last, but no column has player 2's piece on top; no game reaches this position",
    );
    // Player 1 moved first, but both bottom cells are player 2's.
    let rows = "0000000\n0000000\n2200000\n1100000\n1100000\n2200000\n1\n";
    check_rejected(rows, "line 7: no order of moves, the players taking turns and each piece resting on the one below, reaches this position");
}

/// Runs one-move on the bytes of a board file; returns the exit code and stderr.
fn one_move_on(bytes: &[u8]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.txt"), bytes).unwrap();
    let output = maxconnect4(dir.path()).args(["one-move", "in.txt", "out.txt", "3"]).output().unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn a_utf8_byte_order_mark_is_accepted_and_utf16_is_named() {
    assert_eq!(one_move_on(format!("\u{feff}{INPUT2}").as_bytes()), (Some(0), String::new()));
    let little: Vec<u8> = INPUT2.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let powershell = [&[0xff, 0xfe][..], &little].concat();
    for (bytes, encoding) in [(powershell, "little"), (little, "little")] {
        let expected = format!(
            "error: in.txt is not a valid board file: line 1: the file is in UTF-16 ({encoding}-endian); save it as plain text (ASCII or UTF-8)\n"
        );
        assert_eq!(one_move_on(&bytes), (Some(1), expected));
    }
}

#[test]
fn a_file_far_larger_than_a_board_is_refused_unread() {
    let padded = format!("{INPUT2}{}", " ".repeat(70_000));
    let expected = "error: cannot read in.txt: it holds more than 64 KiB, far more than any board file\n";
    assert_eq!(one_move_on(padded.as_bytes()), (Some(1), expected.to_owned()));
    #[cfg(unix)]
    {
        let dir = tempfile::tempdir().unwrap();
        maxconnect4(dir.path())
            .args(["one-move", "/dev/zero", "out.txt", "3"])
            .assert()
            .code(1)
            .stderr("error: cannot read /dev/zero: it is a device, not a regular file\n");
        assert!(!dir.path().join("out.txt").exists());
        // A named pipe with no writer is refused at once, not waited on.
        let fifo = dir.path().join("board.fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        maxconnect4(dir.path())
            .args(["one-move", "board.fifo", "out.txt", "3"])
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(1)
            .stderr("error: cannot read board.fifo: it is a named pipe, not a regular file\n");
    }
}
