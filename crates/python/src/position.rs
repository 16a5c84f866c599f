//! `Position`: a board and the rules it is played under, read from a move
//! string, a board file's text or a ConnectX board, immutable as Python
//! values of its kind are (a move gives a new position).

use std::hash::{Hash, Hasher};

use pyo3::prelude::*;

use maxconnect4_game::bitboard::{self, HEIGHT, WIDTH};
use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::display;
use maxconnect4_game::format::{self, LineEnding};
use maxconnect4_game::moves::Moves;
use maxconnect4_game::player::Player;
use maxconnect4_game::rules::{Outcome, Rules};

use crate::errors::{IllegalMove, InvalidPosition};

/// A position: the board and the rules of its game.
#[pyclass(frozen, eq, hash, module = "maxconnect4")]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) rules: Rules,
}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.board.hash(state);
        self.rules.hash(state);
    }
}

/// `max` or `classic`, as the command line's `--rules` reads them.
pub(crate) fn rules(name: &str) -> PyResult<Rules> {
    name.parse()
        .map_err(|_| pyo3::exceptions::PyValueError::new_err(format!("rules must be 'max' or 'classic', not {name:?}")))
}

#[pymethods]
impl Position {
    /// The position after `moves`, the columns 1-7 played from the empty
    /// board (`"4453"`), under `rules` (`"max"` or `"classic"`).
    #[new]
    #[pyo3(signature = (moves = "", *, rules = "max"))]
    fn new(moves: &str, rules: &str) -> PyResult<Position> {
        let rules = self::rules(rules)?;
        let board = Moves::board(rules, moves)
            .map_err(|error| InvalidPosition::new_err(format!("bad move string {moves:?}: {error}")))?;
        Ok(Position { board, rules })
    }

    /// The position of a board file's text: six rows of seven digits
    /// (`0` empty, `1`, `2`), top row first, then the player to move.
    #[staticmethod]
    #[pyo3(signature = (text, *, rules = "max"))]
    fn from_board_file(text: &str, rules: &str) -> PyResult<Position> {
        let rules = self::rules(rules)?;
        let file = format::parse(text.as_bytes())
            .map_err(|error| InvalidPosition::new_err(format!("line {}: {}", error.line, error.kind)))?;
        Ok(Position { board: file.board, rules })
    }

    /// The position of a ConnectX observation: `board`, 42 numbers row by
    /// row from the top (`0` empty, `1` and `2` the marks), and `mark`, the
    /// player to move. Classic rules unless told otherwise.
    #[staticmethod]
    #[pyo3(signature = (board, mark, *, rules = "classic"))]
    fn from_connectx(board: &Bound<'_, PyAny>, mark: &Bound<'_, PyAny>, rules: &str) -> PyResult<Position> {
        let rules = self::rules(rules)?;
        Ok(Position { board: connectx_board(board, mark)?, rules })
    }

    /// The rules: `"max"` or `"classic"`.
    #[getter]
    fn rules(&self) -> &'static str {
        self.rules.name()
    }

    /// The player to move: 1 or 2.
    #[getter(to_move)]
    fn mover(&self) -> u8 {
        self.board.to_move().number()
    }

    /// Each player's points, player 1's first: the four-in-a-rows of their
    /// colour, overlaps counted.
    #[getter]
    fn scores(&self) -> (u32, u32) {
        (self.board.score(Player::One), self.board.score(Player::Two))
    }

    /// The columns (1-7) the player to move may play; none when the game
    /// is over.
    #[getter]
    fn legal_columns(&self) -> Vec<usize> {
        if self.rules.is_over(&self.board) {
            return Vec::new();
        }
        self.board.legal_columns().map(Column::number).collect()
    }

    /// Pieces on the board.
    #[getter]
    fn pieces_played(&self) -> u32 {
        self.board.pieces_played()
    }

    /// Whether the game is over: a full board, or under classic rules a
    /// four-in-a-row.
    #[getter]
    fn is_over(&self) -> bool {
        self.rules.is_over(&self.board)
    }

    /// The winner (1 or 2) of a finished game; `None` for a draw or a game
    /// that goes on.
    #[getter]
    fn winner(&self) -> Option<u8> {
        match self.rules.outcome(&self.board)? {
            Outcome::Win(player) => Some(player.number()),
            Outcome::Draw => None,
        }
    }

    /// The position after the player to move plays `column` (1-7).
    fn play(&self, column: &Bound<'_, PyAny>) -> PyResult<Position> {
        let column = self.playable(column)?;
        Ok(Position { board: self.board.after(column), rules: self.rules })
    }

    /// The position as a board file's text, which `from_board_file` and
    /// the command line read.
    fn board_file(&self) -> String {
        format::write(&self.board, LineEnding::Lf)
    }

    /// The board as a ConnectX observation's `board`: 42 numbers row by row
    /// from the top.
    fn connectx_board(&self) -> Vec<i64> {
        format::cells_from_the_top(&self.board).map(i64::from).to_vec()
    }

    /// The board drawn as the command line draws it, with the scores,
    /// without the colours it gives a terminal.
    fn __str__(&self) -> String {
        without_colours(&display::board_and_score(&self.board))
    }

    /// Pickling (as `multiprocessing` does to send a position to another
    /// process): the board file's text and the rules.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, &'static str))> {
        let restore = py.get_type::<Position>().getattr("_unpickle")?;
        Ok((restore, (self.board_file(), self.rules.name())))
    }

    /// The position `__reduce__` pickled.
    #[staticmethod]
    fn _unpickle(text: &str, rules: &str) -> PyResult<Position> {
        Position::from_board_file(text, rules)
    }

    fn __repr__(&self) -> String {
        let text = self.board_file();
        format!("Position.from_board_file({text:?}, rules={:?})", self.rules.name())
    }
}

impl Position {
    /// `column` (1-7) if the player to move may play it.
    fn playable(&self, column: &Bound<'_, PyAny>) -> PyResult<Column> {
        if self.rules.is_over(&self.board) {
            return Err(IllegalMove::new_err("the game is over"));
        }
        let column = whole_number(column)
            .and_then(|number| usize::try_from(number).ok())
            .and_then(Column::from_number)
            .ok_or_else(|| IllegalMove::new_err(format!("there is no column {}: columns are 1-7", shown(column))))?;
        if !self.board.can_play(column) {
            return Err(IllegalMove::new_err(format!("column {column} is full")));
        }
        Ok(column)
    }
}

/// `value` as a whole number, if it is an `int` (or another integer type,
/// numpy's among them) that fits 64 bits; `None` for anything else, `bool`
/// among them, so that each caller raises its own exception.
pub(crate) fn whole_number(value: &Bound<'_, PyAny>) -> Option<i64> {
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return None;
    }
    value.extract::<i64>().ok()
}

/// `value` as Python shows it (its `repr`), for a message.
pub(crate) fn shown(value: &Bound<'_, PyAny>) -> String {
    value.repr().map_or_else(|_| "(a value without a repr)".to_owned(), |repr| repr.to_string())
}

/// `text` without its ANSI styles (`ESC [ ... m`): a Python string is
/// printed anywhere, logs and notebooks among them.
fn without_colours(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('\x1b') {
        plain.push_str(&rest[..start]);
        rest = &rest[start..];
        rest = rest.find('m').map_or("", |end| &rest[end + 1..]);
    }
    plain.push_str(rest);
    plain
}

/// The board of a ConnectX observation (see [`Position::from_connectx`]):
/// `cells` any sequence of 42 integers, `mark` 1 or 2.
pub(crate) fn connectx_board(cells: &Bound<'_, PyAny>, mark: &Bound<'_, PyAny>) -> PyResult<Board> {
    let count = cells.len().map_err(|_| {
        InvalidPosition::new_err(format!("a ConnectX board is a list of 42 cells, not {}", shown(cells)))
    })?;
    if count != WIDTH * HEIGHT {
        return Err(InvalidPosition::new_err(format!(
            "a ConnectX board of 6 rows and 7 columns has 42 cells, not {count}"
        )));
    }
    let to_move = whole_number(mark)
        .and_then(|number| u8::try_from(number).ok())
        .and_then(Player::from_number)
        .ok_or_else(|| InvalidPosition::new_err(format!("the mark must be 1 or 2, not {}", shown(mark))))?;
    let mut pieces = [0u64; 2];
    for index in 0..WIDTH * HEIGHT {
        let cell = cells.get_item(index)?;
        let (row, column) = (HEIGHT - 1 - index / WIDTH, index % WIDTH);
        match whole_number(&cell) {
            Some(0) => {}
            Some(number) if let Some(player) = u8::try_from(number).ok().and_then(Player::from_number) => {
                pieces[player.index()] |= bitboard::cell(column, row);
            }
            _ => {
                return Err(InvalidPosition::new_err(format!(
                    "cell {index} of the board holds {}: cells are 0 (empty), 1 or 2",
                    shown(&cell)
                )));
            }
        }
    }
    Board::from_pieces(pieces[0], pieces[1], to_move).map_err(|error| InvalidPosition::new_err(error.to_string()))
}
