//! The board file: six rows of seven digits, top row first, then the player to move.
//!
//! This is a contract with programs written in other languages, so the parser
//! forgives what they may add (CRLF line endings, trailing spaces, trailing
//! blank lines, a missing final newline) and rejects, with the line and column,
//! anything that does not describe a position some game reaches. Writing keeps
//! the line-ending style of the file that was read.
//!
//! ```text
//! 0000000
//! 0000000
//! 0200000
//! 0100002
//! 0200111
//! 1100222
//! 1
//! ```
//!
//! ```
//! use maxconnect4_game::format::{self, LineEnding, ParseErrorKind};
//! use maxconnect4_game::player::Player;
//!
//! let text = "0000000\r\n0000000\r\n0200000\r\n0100002\r\n0200111\r\n1100222\r\n1\r\n";
//! let file = format::parse(text.as_bytes()).unwrap();
//! assert_eq!(file.board.pieces_played(), 12);
//! assert_eq!(file.board.to_move(), Player::One);
//! assert_eq!(file.line_ending, LineEnding::CrLf);
//! assert_eq!(format::write(&file.board, file.line_ending), text);
//!
//! let error = format::parse(text.replace("0200000", "0230000").as_bytes()).unwrap_err();
//! assert_eq!(error.line, 3);
//! assert!(matches!(error.kind, ParseErrorKind::BadCell { column: 3, .. }));
//! assert_eq!(error.to_string(), "line 3: column 3: expected 0, 1 or 2, found '3'");
//! ```

use std::fmt::Write as _;

use crate::bitboard::{self, HEIGHT, WIDTH};
use crate::board::{Board, InvalidPosition};
use crate::player::Player;

/// The board file described for a person (`maxconnect4 help format`).
pub const DESCRIPTION: &str = "\
A board file has seven lines: six rows of seven digits, the top row first, 0 for an empty
cell and 1 or 2 for the players' pieces; then the player to move next, 1 or 2. The course's
input2.txt, player 1 to move:

    0000000
    0000000
    0200000
    0100002
    0200111
    1100222
    1

LF or CRLF line endings, trailing spaces, trailing blank lines, a missing final newline and
a UTF-8 byte-order mark are accepted; a board is written back with the line endings of the
file read. A file is refused, with one line naming the file, the line and the fault, when
it has the wrong number of rows or digits, a character other than 0, 1 or 2, a turn line
other than 1 or 2, a piece floating above an empty cell, piece counts no game reaches (the
player to move has as many pieces as the other player, or one fewer), a position no game
reaches (no order of moves, the players taking turns, leads to it), when it is UTF-16
or UTF-32 rather than plain text, when it is not a regular file (a named pipe, a device),
or when it holds more than 64 KiB.";

/// How lines end in a board file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n`, as Unix and macOS write lines; what a new file gets.
    #[default]
    Lf,
    /// `\r\n`, as Windows programs write lines.
    CrLf,
}

impl LineEnding {
    const fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }
}

/// A parsed board file: the position and the line-ending style to write back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardFile {
    /// The position the file holds, checked to be one a game reaches.
    pub board: Board,
    /// How the file's lines end, so that a board written back keeps it.
    pub line_ending: LineEnding,
}

/// What is wrong with a board file, and on which line (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ParseError {
    /// The line at fault, counting from 1; the turn line for a fault of
    /// the whole position, such as its piece counts.
    pub line: usize,
    /// What is wrong with it.
    pub kind: ParseErrorKind,
}

/// What is wrong with a board file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The text ends before the turn line; the lines it has are given.
    #[error("the file ends before the six board rows and the turn line (expected 7 lines, found {0})")]
    TooFewLines(usize),
    /// A board row without seven digits; its length is given.
    #[error("expected {WIDTH} digits in a board row, found {0}")]
    RowLength(usize),
    /// A character in a board row other than `0`, `1` or `2`.
    #[error("column {column}: expected 0, 1 or 2, found {found}")]
    BadCell {
        /// Where the character is in the row, from 1 at the left.
        column: usize,
        /// The character, quoted and escaped for the message.
        found: String,
    },
    /// A turn line other than `1` or `2`; the line is given, quoted.
    #[error("expected the player to move, 1 or 2, found {0}")]
    BadTurn(String),
    /// Text on a line after the turn line; the line is given, quoted.
    #[error("unexpected text after the turn line: {0}")]
    TrailingText(String),
    /// A piece above an empty cell, on the error's line.
    #[error("column {column}: the piece floats above an empty cell")]
    Floating {
        /// The piece's column, from 1 at the left.
        column: usize,
    },
    /// The cells and turn are well formed but no game reaches them.
    #[error("{0}")]
    Position(InvalidPosition),
    /// The text is UTF-16 or UTF-32, whose name is given, not plain text.
    #[error("the file is in {0}; save it as plain text (ASCII or UTF-8)")]
    Encoding(&'static str),
}

/// The cells and turn line of a board file, read but not yet held to the
/// rules of the game (pieces resting on pieces, piece counts). The referee
/// compares a rival's output with the previous board at this level, so that
/// it can say which rule a move broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Each player's cells (see [`crate::bitboard`]), indexed by [`Player::index`].
    pub pieces: [u64; 2],
    /// The player the turn line names.
    pub to_move: Player,
    /// How the file's lines end.
    pub line_ending: LineEnding,
}

impl Grid {
    /// The cells and turn of `board`.
    #[must_use]
    pub const fn of(board: &Board) -> Grid {
        Grid {
            pieces: [board.pieces(Player::One), board.pieces(Player::Two)],
            to_move: board.to_move(),
            line_ending: LineEnding::Lf,
        }
    }
}

/// Reads a board file.
///
/// # Errors
/// When the text is not six rows of seven digits `0`, `1`, `2` and a turn
/// line `1` or `2`, or describes a position no game reaches.
pub fn parse(text: &[u8]) -> Result<BoardFile, ParseError> {
    let Grid { pieces, to_move, line_ending } = parse_grid(text)?;
    let board = Board::from_pieces(pieces[0], pieces[1], to_move).map_err(|invalid| match invalid {
        InvalidPosition::Floating { column, row } => {
            ParseError { line: HEIGHT + 1 - row, kind: ParseErrorKind::Floating { column } }
        }
        other => ParseError { line: TURN_LINE, kind: ParseErrorKind::Position(other) },
    })?;
    Ok(BoardFile { board, line_ending })
}

/// The turn line follows the six rows.
const TURN_LINE: usize = HEIGHT + 1;

/// Reads the rows and the turn line of a board file without checking that
/// the position is one a game reaches.
///
/// # Errors
/// When the text is not six rows of seven digits `0`, `1`, `2` and a turn
/// line `1` or `2`.
pub fn parse_grid(text: &[u8]) -> Result<Grid, ParseError> {
    if let Some(encoding) = wide_encoding(text) {
        return Err(ParseError { line: 1, kind: ParseErrorKind::Encoding(encoding) });
    }
    // The byte-order mark Windows editors put before UTF-8 text.
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let line_ending = match text.iter().position(|&b| b == b'\n') {
        Some(end) if end > 0 && text[end - 1] == b'\r' => LineEnding::CrLf,
        _ => LineEnding::Lf,
    };
    let mut lines = lines(text).map(<[u8]>::trim_ascii_end).enumerate().map(|(index, line)| (index + 1, line));
    let error = |line, kind| ParseError { line, kind };

    let mut pieces = [0u64; 2];
    for row in (0..HEIGHT).rev() {
        let (number, line) = lines.next().ok_or(error(HEIGHT - row, ParseErrorKind::TooFewLines(HEIGHT - row - 1)))?;
        if let Some((column, &found)) = line.iter().enumerate().find(|(_, cell)| !b"012".contains(cell)) {
            return Err(error(number, ParseErrorKind::BadCell { column: column + 1, found: describe(&[found]) }));
        }
        if line.len() != WIDTH {
            return Err(error(number, ParseErrorKind::RowLength(line.len())));
        }
        for (column, &cell) in line.iter().enumerate() {
            if let Some(player) = Player::from_number(cell - b'0') {
                pieces[player.index()] |= bitboard::cell(column, row);
            }
        }
    }

    let (turn_line, turn) = lines.next().ok_or(error(TURN_LINE, ParseErrorKind::TooFewLines(HEIGHT)))?;
    let to_move = match turn {
        [digit] => Player::from_number(digit.wrapping_sub(b'0')),
        _ => None,
    }
    .ok_or_else(|| error(turn_line, ParseErrorKind::BadTurn(describe(turn))))?;
    if let Some((number, line)) = lines.find(|(_, line)| !line.is_empty()) {
        return Err(error(number, ParseErrorKind::TrailingText(describe(line))));
    }
    Ok(Grid { pieces, to_move, line_ending })
}

/// The lines of `text`, each ended by `\n`, `\r\n` or a bare `\r` (what a
/// program that writes old Mac line endings, or `print(..., end="\r")`,
/// leaves), or by the end of the text: Python's and Java's line readers
/// take all three, so a board they read back is read here too.
pub fn lines(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(rest.len());
        let line = &rest[..end];
        let skip = match rest.get(end..end + 2) {
            Some(b"\r\n") => 2,
            Some(_) | None if end < rest.len() => 1,
            _ => 0,
        };
        rest = &rest[end + skip..];
        Some(line)
    })
}

/// The name of the UTF-16 or UTF-32 encoding `text` is in, if it is: a
/// byte-order mark (what Windows PowerShell's redirection writes) or, without
/// one, NUL bytes beside every ASCII character (three for UTF-32, one for
/// UTF-16). UTF-32 is looked for first: its little-endian mark begins with
/// UTF-16's.
fn wide_encoding(text: &[u8]) -> Option<&'static str> {
    const LITTLE: &str = "UTF-16 (little-endian)";
    const BIG: &str = "UTF-16 (big-endian)";
    match text {
        [0xff, 0xfe, 0, 0, ..] | [_, 0, 0, 0, ..] if text[0] != 0 => return Some("UTF-32 (little-endian)"),
        [0, 0, 0xfe, 0xff, ..] | [0, 0, 0, _, ..] if text[3] != 0 => return Some("UTF-32 (big-endian)"),
        _ => {}
    }
    match text {
        [0xff, 0xfe, ..] => Some(LITTLE),
        [0xfe, 0xff, ..] => Some(BIG),
        [first, 0, ..] if *first != 0 => Some(LITTLE),
        [0, second, ..] if *second != 0 => Some(BIG),
        _ => None,
    }
}

/// Quotes raw bytes for an error message, escaping anything unprintable.
fn describe(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "an empty line".to_owned();
    }
    const LIMIT: usize = 20;
    let shown: String = bytes.iter().take(LIMIT).flat_map(|&b| std::ascii::escape_default(b)).map(char::from).collect();
    let more = if bytes.len() > LIMIT { "..." } else { "" };
    format!("'{shown}{more}'")
}

/// The cells of `board` row by row from the top, left to right: 0 for an
/// empty cell, else the player's number. The order of a board file's rows,
/// and of the board Kaggle's ConnectX gives its agents.
#[must_use]
pub fn cells_from_the_top(board: &Board) -> [u8; WIDTH * HEIGHT] {
    let mut cells = [0; WIDTH * HEIGHT];
    for (index, cell) in cells.iter_mut().enumerate() {
        let (row, column) = (HEIGHT - 1 - index / WIDTH, index % WIDTH);
        *cell = board.at(column, row).map_or(0, Player::number);
    }
    cells
}

/// Writes `board` in the board-file format, with a final line ending.
#[must_use]
pub fn write(board: &Board, line_ending: LineEnding) -> String {
    let mut text = String::with_capacity((WIDTH + 2) * (HEIGHT + 1));
    for row in (0..HEIGHT).rev() {
        for column in 0..WIDTH {
            text.push(match board.at(column, row) {
                Some(player) => char::from(b'0' + player.number()),
                None => '0',
            });
        }
        text.push_str(line_ending.as_str());
    }
    let _ = write!(text, "{}{}", board.to_move().number(), line_ending.as_str());
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT2: &str = "0000000\n0000000\n0200000\n0100002\n0200111\n1100222\n1\n";

    fn check_error(text: &str, expected: &str) {
        let error = parse(text.as_bytes()).expect_err("should be rejected");
        assert_eq!(error.to_string(), expected, "for input {text:?}");
    }

    #[test]
    fn reads_and_writes_the_course_example() {
        let file = parse(INPUT2.as_bytes()).unwrap();
        assert_eq!(file.board.pieces_played(), 12);
        assert_eq!(file.board.to_move(), Player::One);
        assert_eq!(file.line_ending, LineEnding::Lf);
        assert_eq!(write(&file.board, file.line_ending), INPUT2);
    }

    #[test]
    fn keeps_crlf_and_forgives_trailing_space() {
        let crlf = INPUT2.replace('\n', "\r\n");
        let file = parse(crlf.as_bytes()).unwrap();
        assert_eq!(file.line_ending, LineEnding::CrLf);
        assert_eq!(write(&file.board, file.line_ending), crlf);
        let sloppy = "0000000  \n0000000\n0200000\n0100002\n0200111\n1100222\n1 \n\n  \n";
        assert_eq!(parse(sloppy.as_bytes()).unwrap().board, file.board);
        let no_final_newline = INPUT2.trim_end();
        assert_eq!(parse(no_final_newline.as_bytes()).unwrap().board, file.board);
        // Old Mac line endings, or `print(row, end="\r")`: read as lines.
        let bare_cr = INPUT2.replace('\n', "\r");
        assert_eq!(parse(bare_cr.as_bytes()).unwrap().board, file.board);
        let mixed = "0000000\r\n0000000\r0200000\n0100002 \r0200111\r\n1100222\r1";
        assert_eq!(parse(mixed.as_bytes()).unwrap().board, file.board);
        // A CR inside a row ends it, and the row is short.
        check_error(&INPUT2.replacen("0000000", "000\r0000", 1), "line 1: expected 7 digits in a board row, found 3");
    }

    #[test]
    fn names_utf32() {
        let little: Vec<u8> = INPUT2.chars().flat_map(|c| u32::from(c).to_le_bytes()).collect();
        let big: Vec<u8> = INPUT2.chars().flat_map(|c| u32::from(c).to_be_bytes()).collect();
        for (text, encoding) in [
            ([&[0xff, 0xfe, 0, 0][..], &little].concat(), "little"),
            ([&[0, 0, 0xfe, 0xff][..], &big].concat(), "big"),
            (little, "little"),
            (big, "big"),
        ] {
            let expected =
                format!("line 1: the file is in UTF-32 ({encoding}-endian); save it as plain text (ASCII or UTF-8)");
            assert_eq!(parse(&text).unwrap_err().to_string(), expected);
        }
    }

    #[test]
    fn accepts_a_utf8_byte_order_mark_and_names_utf16() {
        let with_bom = format!("\u{feff}{INPUT2}");
        assert_eq!(parse(with_bom.as_bytes()).unwrap(), parse(INPUT2.as_bytes()).unwrap());
        let little: Vec<u8> = INPUT2.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let big: Vec<u8> = INPUT2.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for (bytes, expected) in [
            (
                [&[0xff, 0xfe][..], &little].concat(),
                "line 1: the file is in UTF-16 (little-endian); save it as plain text (ASCII or UTF-8)",
            ),
            (
                [&[0xfe, 0xff][..], &big].concat(),
                "line 1: the file is in UTF-16 (big-endian); save it as plain text (ASCII or UTF-8)",
            ),
            (little, "line 1: the file is in UTF-16 (little-endian); save it as plain text (ASCII or UTF-8)"),
            (big, "line 1: the file is in UTF-16 (big-endian); save it as plain text (ASCII or UTF-8)"),
        ] {
            assert_eq!(parse(&bytes).unwrap_err().to_string(), expected);
        }
    }

    #[test]
    fn rejections_name_the_line() {
        check_error(
            "0000000\n",
            "line 2: the file ends before the six board rows and the turn line (expected 7 lines, found 1)",
        );
        check_error(&INPUT2.replace("0200000", "020000"), "line 3: expected 7 digits in a board row, found 6");
        check_error(&INPUT2.replace("0200000", "02000000"), "line 3: expected 7 digits in a board row, found 8");
        check_error(&INPUT2.replace("0200000", "02x0000"), "line 3: column 3: expected 0, 1 or 2, found 'x'");
        check_error(&INPUT2.replace("0200000", "0230000"), "line 3: column 3: expected 0, 1 or 2, found '3'");
        check_error(&INPUT2.replace("\n1\n", "\n3\n"), "line 7: expected the player to move, 1 or 2, found '3'");
        check_error(
            &INPUT2.replace("\n1\n", "\n\n"),
            "line 7: expected the player to move, 1 or 2, found an empty line",
        );
        check_error(&format!("{INPUT2}1\n"), "line 8: unexpected text after the turn line: '1'");
        check_error(
            &INPUT2.replace("0000000\n0000000\n", "0000000\n1000000\n"),
            "line 2: column 1: the piece floats above an empty cell",
        );
        check_error(
            &INPUT2.replace("1100222", "1100221"),
            "line 7: player 1 is to move with 7 pieces against 5; the player to move must have as many pieces as the other player, or one fewer",
        );
    }
}
