//! The parsers fed arbitrary bytes: board files and the answers a person
//! types. Whatever they are given, they answer (a board, a column, or a
//! one-line reason) and never panic.
//!
//! `cargo test` runs a few hundred cases of each; a long run is opt-in:
//! `MAXCONNECT4_FUZZ_CASES=1000000 cargo test --test it fuzz -- --nocapture --test-threads 1`
//! (`reports/fuzzing.md` gives the figures of one).

use maxconnect4::board::{Board, Column};
use maxconnect4::format::{self, LineEnding};
use maxconnect4::moves::Moves;
use maxconnect4::prompt::ask_column;
use maxconnect4::rules::Rules;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Runs `check` on `cases` values of `strategy` ([`MAXCONNECT4_FUZZ_CASES`]
/// or 256), and prints how many passed and how long they took.
fn fuzz<S: Strategy>(name: &str, strategy: S, check: impl Fn(S::Value) -> Result<(), TestCaseError>) {
    let cases = std::env::var("MAXCONNECT4_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256);
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    let started = std::time::Instant::now();
    if let Err(error) = runner.run(&strategy, check) {
        panic!("{name}: {error}");
    }
    eprintln!("fuzz {name}: {cases} cases passed in {:.1} s", started.elapsed().as_secs_f64());
}

/// Bytes that board files and answers are made of, and some they must refuse.
const ALPHABET: &[u8] = b"0000000111222\n\n\r \t3q9-\xef\xbb\xbf\xff\xfe\x00\x1b";

fn near_board_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(proptest::sample::select(ALPHABET), 0..120)
}

/// A board file of a random position with a few bytes changed, inserted or removed.
fn mutated_board_file() -> impl Strategy<Value = Vec<u8>> {
    let position = (proptest::collection::vec(0..7usize, 0..42), any::<bool>());
    let edits =
        proptest::collection::vec((any::<prop::sample::Index>(), 0..3u8, proptest::sample::select(ALPHABET)), 1..4);
    (position, edits).prop_map(|((columns, crlf), edits)| {
        let mut board = Board::empty();
        for index in columns {
            let _ = board.try_play(Column::from_index(index).unwrap());
        }
        let mut bytes = format::write(&board, if crlf { LineEnding::CrLf } else { LineEnding::Lf }).into_bytes();
        for (at, kind, byte) in edits {
            let at = at.index(bytes.len() + 1);
            match kind {
                0 if at < bytes.len() => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                _ if at < bytes.len() => drop(bytes.remove(at)),
                _ => bytes.push(byte),
            }
        }
        bytes
    })
}

/// A board file is read, or refused with one line; one read is written back as read.
fn check_board_file(bytes: Vec<u8>) -> Result<(), TestCaseError> {
    match format::parse(&bytes) {
        Ok(file) => {
            let written = format::write(&file.board, file.line_ending);
            prop_assert_eq!(format::parse(written.as_bytes()).unwrap(), file);
            prop_assert!(format::parse_grid(&bytes).is_ok());
        }
        Err(error) => {
            let message = error.to_string();
            prop_assert!(!message.is_empty() && !message.contains('\n'), "{:?}", message);
            prop_assert!(message.len() < 300, "{:?}", message);
        }
    }
    Ok(())
}

#[test]
fn board_files_of_arbitrary_bytes() {
    fuzz("board file, any bytes", proptest::collection::vec(any::<u8>(), 0..200), check_board_file);
}

#[test]
fn board_files_of_board_like_bytes() {
    fuzz("board file, board-like bytes", near_board_bytes(), check_board_file);
}

#[test]
fn board_files_with_a_few_bytes_changed() {
    fuzz("board file, a valid one mutated", mutated_board_file(), check_board_file);
}

#[test]
fn answers_at_the_prompt() {
    let lines = proptest::collection::vec(
        prop_oneof![
            proptest::collection::vec(proptest::sample::select(ALPHABET), 0..8),
            proptest::collection::vec(any::<u8>(), 0..3000),
        ],
        0..6,
    );
    let board = (proptest::collection::vec(0..7usize, 0..41), lines);
    fuzz("answers at the prompt", board, |(columns, lines)| {
        let mut board = Board::empty();
        for index in columns {
            let _ = board.try_play(Column::from_index(index).unwrap());
        }
        let input = lines.join(&b'\n');
        let mut shown = Vec::new();
        let answer = ask_column(&board, &mut input.as_slice(), &mut shown);
        prop_assert!(answer.is_ok(), "{:?}", answer);
        if let Ok(Some(column)) = answer {
            prop_assert!(board.can_play(column));
        }
        let shown = String::from_utf8(shown).expect("what is shown is text");
        prop_assert!(shown.lines().all(|line| line.len() < 200), "an answer is echoed cut short: {:?}", shown);
        Ok(())
    });
}

#[test]
fn move_strings() {
    let text = prop_oneof![any::<String>(), "[1-8]{0,50}", "[0-9a\n ]{0,50}"];
    fuzz("move strings", (text, any::<bool>()), |(text, classic)| {
        let rules = if classic { Rules::Classic } else { Rules::Max };
        match Moves::board(rules, &text) {
            Ok(board) => prop_assert_eq!(board.pieces_played() as usize, text.chars().count()),
            Err(error) => {
                let message = error.to_string();
                prop_assert!(!message.is_empty() && !message.contains('\n'), "{:?}", message);
            }
        }
        Ok(())
    });
}
