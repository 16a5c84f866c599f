//! Properties that hold for every position, checked on random ones.

use maxconnect4::bitboard::count_windows;
use maxconnect4::board::{Board, Column};
use maxconnect4::format::{self, LineEnding};
use maxconnect4::player::Player;
use maxconnect4::search::{alpha_beta, minimax, Engine, Limits};
use proptest::prelude::*;

/// The board after playing `columns` (0-based indices) from the empty board,
/// skipping moves into full columns.
fn board_from(columns: &[usize]) -> Board {
    let mut board = Board::empty();
    for &index in columns {
        let _ = board.try_play(Column::from_index(index).unwrap());
    }
    board
}

fn moves(max: usize) -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(0..7usize, 0..=max)
}

proptest! {
    #[test]
    fn written_files_parse_to_the_same_position(columns in moves(50), crlf in any::<bool>()) {
        let board = board_from(&columns);
        let line_ending = if crlf { LineEnding::CrLf } else { LineEnding::Lf };
        let text = format::write(&board, line_ending);
        let parsed = format::parse(text.as_bytes()).unwrap();
        prop_assert_eq!(parsed.board, board);
        prop_assert_eq!(parsed.line_ending, line_ending);
    }

    #[test]
    fn incremental_scores_and_evaluation_equal_a_recount(columns in moves(60)) {
        let board = board_from(&columns);
        for player in Player::BOTH {
            prop_assert_eq!(board.score(player), count_windows(board.pieces(player)));
        }
        prop_assert_eq!(maxconnect4::score::evaluate(&board), maxconnect4::score::evaluate_from_scratch(&board));
        // A position read from its pieces keeps the same totals as one played move by move.
        let read = Board::from_pieces(board.pieces(Player::One), board.pieces(Player::Two), board.to_move()).unwrap();
        prop_assert_eq!(read, board);
    }

    #[test]
    fn alpha_beta_agrees_with_minimax(columns in moves(40), depth in 1..=4u32) {
        let board = board_from(&columns);
        prop_assume!(!board.is_full());
        let plain = minimax(&board, depth).unwrap();
        let pruned = alpha_beta(&board, depth).unwrap();
        prop_assert_eq!(pruned.value, plain.value);
        prop_assert_eq!(pruned.column, plain.column);
        prop_assert!(pruned.nodes <= plain.nodes);
    }

    #[test]
    fn the_engine_finds_the_alpha_beta_value(
        columns in moves(40),
        depth in 1..=6u32,
        hash_bytes in prop_oneof![Just(0usize), Just(8 << 10), Just(1 << 20)],
    ) {
        let board = board_from(&columns);
        prop_assume!(!board.is_full());
        let expected = alpha_beta(&board, depth).unwrap();
        let found = Engine::max_without_book(hash_bytes).search(&board, &Limits::depth(depth)).unwrap();
        prop_assert_eq!(found.value, expected.value);
        // The move chosen is worth that value.
        let after = board.after(found.column);
        let worth = if depth == 1 || after.is_full() {
            -maxconnect4::score::evaluate(&after)
        } else {
            -alpha_beta(&after, depth - 1).unwrap().value
        };
        prop_assert_eq!(worth, expected.value);
    }

    #[test]
    fn random_bytes_never_panic_the_parser(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
        let _ = format::parse(&bytes);
    }

    #[test]
    fn damaged_files_are_rejected_or_read_consistently(columns in moves(42), damage in proptest::collection::vec((0..60usize, any::<u8>()), 1..4)) {
        let mut bytes = format::write(&board_from(&columns), LineEnding::Lf).into_bytes();
        for (at, byte) in damage {
            let at = at % bytes.len();
            bytes[at] = byte;
        }
        if let Ok(parsed) = format::parse(&bytes) {
            let again = format::parse(format::write(&parsed.board, parsed.line_ending).as_bytes()).unwrap();
            prop_assert_eq!(again.board, parsed.board);
        }
    }
}
