//! `solve`, `best_move` and `analyse`: the command line's `solve`,
//! `one-move` and `analyse` for Python, with the same answers, run with the
//! GIL released on an engine kept for each rule set.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Duration;

use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;

use maxconnect4_game::board::{Board, Column};
use maxconnect4_game::rules::Rules;
use maxconnect4_search::{self as search, Engine, Limits, Reach, SolveError, Strength};

use crate::errors::{IllegalMove, OutOfTime};
use crate::position::{Position, shown, whole_number};

/// One engine per rule set, made at its first use (a table of the command
/// line's default size, the shipped opening book, a thread per core as the
/// command line's default) and kept: later calls find the book read and
/// the table warm. A search holds its rules' engine, so two at once under
/// the same rules take turns.
static ENGINES: [Mutex<Option<Engine>>; 2] = [const { Mutex::new(None) }; 2];

/// How often a search asks Python whether Ctrl-C was pressed: Python's own
/// handler only notes a signal, and the note is read by whoever holds the GIL.
const SIGNAL_LOOK: Duration = Duration::from_millis(50);

/// Runs `work` on the engine of `rules` with the GIL released, on a thread
/// of its own while this one looks for Ctrl-C (or any signal whose Python
/// handler raises). Then the engine's searches and solves that have a
/// time limit stop at once, and the exception is raised once `work` has
/// returned; depth-limited searches without a time limit run to their end.
pub(crate) fn with_engine<T: Send>(
    py: Python<'_>,
    rules: Rules,
    work: impl FnOnce(&mut Engine) -> T + Send,
) -> PyResult<T> {
    py.detach(|| {
        let index = Rules::ALL.iter().position(|&each| each == rules).expect("every rule set is in ALL");
        let mut slot = ENGINES[index].lock().unwrap_or_else(|poisoned| {
            // A search that panicked may have left its engine half-way: a
            // new one is made rather than trusted.
            ENGINES[index].clear_poison();
            let mut slot = poisoned.into_inner();
            *slot = None;
            slot
        });
        if slot.is_none() {
            let mut engine = Engine::for_rules(rules, Engine::DEFAULT_HASH_BYTES)
                .map_err(|error| PyMemoryError::new_err(error.to_string()))?;
            engine.set_threads(std::thread::available_parallelism().map_or(1, usize::from));
            *slot = Some(engine);
        }
        let engine = slot.as_mut().expect("made above");
        let canceller = engine.canceller();
        let waiting = std::thread::current();
        std::thread::scope(|scope| {
            let search = scope.spawn(move || {
                let done = work(engine);
                waiting.unpark();
                done
            });
            let mut interrupted = None;
            while !search.is_finished() {
                std::thread::park_timeout(SIGNAL_LOOK);
                if interrupted.is_none() && !search.is_finished() {
                    interrupted = Python::attach(|py| py.check_signals()).err();
                    if interrupted.is_some() {
                        canceller.store(true, Ordering::Relaxed);
                    }
                }
            }
            let done = search.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            // The flag stays set once set: the next search must run.
            canceller.store(false, Ordering::Relaxed);
            interrupted.map_or(Ok(done), Err)
        })
    })
}

/// A time limit given in seconds, which must be a positive number of at
/// most [`Limits::LONGEST_SECONDS`] (about 31 years).
fn seconds(time_limit: Option<f64>) -> PyResult<Option<Duration>> {
    time_limit
        .map(|seconds| {
            Some(seconds)
                .filter(|&seconds| seconds <= Limits::LONGEST_SECONDS)
                .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
                .filter(|limit| !limit.is_zero())
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "time_limit must be a positive number of seconds, at most {:e}, not {seconds}",
                        Limits::LONGEST_SECONDS
                    ))
                })
        })
        .transpose()
}

/// The time limit of a solve that was given none: the longest, so that
/// Ctrl-C can stop it (the engine stops only solves that have a limit).
const UNTIL_SOLVED: Duration = Duration::from_secs(1_000_000_000);

/// A depth given in plies, 1 to the board's 42 cells.
fn plies(depth: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u32>> {
    let Some(depth) = depth else { return Ok(None) };
    whole_number(depth)
        .and_then(|plies| u32::try_from(plies).ok())
        .filter(|plies| (1..=Limits::TO_THE_END).contains(plies))
        .map(Some)
        .ok_or_else(|| PyValueError::new_err(format!("depth must be 1 to 42 plies, not {}", shown(depth))))
}

/// Why a solve of `board` stopped without an answer, as the command line says it.
fn gave_up(board: &Board, error: &SolveError) -> PyErr {
    OutOfTime::new_err(format!(
        "gave up solving the position ({} empty cells): {error}; positions with fewer empty cells solve much faster",
        board.empty_cells()
    ))
}

/// The exact result of a position with perfect play.
#[pyclass(frozen, get_all, module = "maxconnect4")]
pub struct Solution {
    /// The position's value for the player to move: under Max-Connect4
    /// rules the final score difference (the mover's points minus the
    /// opponent's), under classic rules the score of `maxconnect4 solve`
    /// (positive a win, larger sooner; 0 a draw; negative a loss); with
    /// `weak=True` only its sign.
    value: i32,
    /// Every column (1-7) that achieves it; none when the game is over.
    best: Vec<usize>,
    /// The value of each legal column for the player who plays it.
    columns: BTreeMap<usize, i32>,
}

#[pymethods]
impl Solution {
    fn __repr__(&self) -> String {
        format!("Solution(value={}, best={:?}, columns={:?})", self.value, self.best, self.columns)
    }
}

/// The exact value of `position` and of each of its columns, as
/// `maxconnect4 solve` finds it.
#[pyfunction]
#[pyo3(signature = (position, *, weak = false, time_limit = None))]
pub fn solve(py: Python<'_>, position: &Position, weak: bool, time_limit: Option<f64>) -> PyResult<Solution> {
    let (board, rules) = (position.board, position.rules);
    let limit = Some(seconds(time_limit)?.unwrap_or(UNTIL_SOLVED));
    let strength = if weak { Strength::Weak } else { Strength::Strong };
    if rules.is_over(&board) {
        let solved = with_engine(py, rules, |engine| engine.solve(&board, strength, limit))?;
        let solved = solved.map_err(|error| gave_up(&board, &error))?;
        return Ok(Solution { value: solved.value, best: Vec::new(), columns: BTreeMap::new() });
    }
    let values = with_engine(py, rules, |engine| engine.move_values(&board, strength, limit))?
        .map_err(|error| gave_up(&board, &error))?;
    let columns: BTreeMap<usize, i32> =
        Column::ALL.into_iter().filter_map(|column| Some((column.number(), values.values[column.index()]?))).collect();
    let value = *columns.values().max().expect("a game that goes on has a legal column");
    let best = columns.iter().filter(|&(_, &each)| each == value).map(|(&column, _)| column).collect();
    Ok(Solution { value, best, columns })
}

/// The move (1-7) the engine plays on `position`: as `maxconnect4 one-move`
/// with a depth and perhaps a time limit, or perfectly.
#[pyfunction]
#[pyo3(signature = (position, *, depth = None, time_limit = None, perfect = false))]
pub fn best_move(
    py: Python<'_>,
    position: &Position,
    depth: Option<&Bound<'_, PyAny>>,
    time_limit: Option<f64>,
    perfect: bool,
) -> PyResult<usize> {
    let (board, rules) = (position.board, position.rules);
    let (depth, limit) = (plies(depth)?, seconds(time_limit)?);
    if rules.is_over(&board) {
        return Err(IllegalMove::new_err("the game is over: there is no move to make"));
    }
    let limits = Limits { depth: depth.unwrap_or(Limits::TO_THE_END), time_limit: limit };
    let column = match (perfect, limit) {
        (true, None) if depth.is_some() => {
            return Err(PyValueError::new_err(
                "perfect=True without a time_limit solves the position: a depth is for the search after a solve that runs out of time",
            ));
        }
        // Without a time limit, perfect play is a solve to the end.
        (true, None) => {
            let solved = with_engine(py, rules, |engine| engine.best_move(&board, Some(UNTIL_SOLVED)))?
                .map_err(|error| gave_up(&board, &error))?;
            Column::CENTRE_FIRST
                .into_iter()
                .find(|column| solved.best.contains(column))
                .expect("a game that goes on has a best move")
        }
        (true, Some(_)) => {
            with_engine(py, rules, |engine| engine.play_perfectly(&board, &limits))?
                .expect("the game is not over")
                .result
                .column
        }
        (false, _) if depth.is_none() && limit.is_none() => {
            return Err(PyValueError::new_err("give a depth, a time_limit, or perfect=True"));
        }
        (false, _) => {
            with_engine(py, rules, |engine| engine.search(&board, &limits))?.expect("the game is not over").column
        }
    };
    Ok(column.number())
}

/// The value of one column for the player who plays it.
#[pyclass(frozen, get_all, module = "maxconnect4")]
pub struct ColumnValue {
    /// In points (Max-Connect4) or score (classic): an `int` when exact, a
    /// `float` rounded to two decimals when depth-limited, as the command
    /// line prints them.
    value: Py<PyAny>,
    /// Whether the value is the one with perfect play.
    exact: bool,
    /// How deep a depth-limited value looked; `None` when exact.
    depth: Option<u32>,
}

#[pymethods]
impl ColumnValue {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let value = self.value.bind(py).repr()?;
        Ok(match self.depth {
            Some(depth) => format!("ColumnValue(value={value}, exact=False, depth={depth})"),
            None => format!("ColumnValue(value={value}, exact=True)"),
        })
    }
}

/// The value of every column of a position.
#[pyclass(frozen, get_all, module = "maxconnect4")]
pub struct Analysis {
    /// By column (1-7), each legal column's value.
    columns: BTreeMap<usize, Py<ColumnValue>>,
    /// The columns of the highest value; none when the game is over.
    best: Vec<usize>,
    /// Whether every value is exact, so that `best` is proven best.
    best_is_proven: bool,
    /// Positions visited.
    nodes: u64,
}

#[pymethods]
impl Analysis {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let columns: Vec<String> = self
            .columns
            .iter()
            .map(|(column, value)| Ok(format!("{column}: {}", value.bind(py).repr()?)))
            .collect::<PyResult<_>>()?;
        Ok(format!(
            "Analysis(columns={{{}}}, best={:?}, best_is_proven={})",
            columns.join(", "),
            self.best,
            if self.best_is_proven { "True" } else { "False" }
        ))
    }
}

/// The value of every column of `position`, as `maxconnect4 analyse`
/// finds it: exact where that can be had, else to `depth` plies (16 by
/// default) or as deep as `time_limit` allows.
#[pyfunction]
#[pyo3(signature = (position, *, depth = None, time_limit = None))]
pub fn analyse(
    py: Python<'_>,
    position: &Position,
    depth: Option<&Bound<'_, PyAny>>,
    time_limit: Option<f64>,
) -> PyResult<Analysis> {
    let (board, rules) = (position.board, position.rules);
    let budget = Limits::analysis(plies(depth)?, seconds(time_limit)?);
    let analysis = with_engine(py, rules, |engine| {
        // An empty table, as the command line starts with: which values
        // the solver proves within its budget of positions depends on what
        // the table already holds.
        engine.clear();
        search::analyse(engine, &board, &budget)
    })?;
    let mut columns = BTreeMap::new();
    for column in Column::ALL {
        if let Some(value) = analysis.column(column) {
            let depth = match value.reach {
                Reach::Exact => None,
                Reach::Depth(depth) => Some(depth),
            };
            let number = if value.is_exact() {
                (value.value / value.unit).into_pyobject(py)?.into_any().unbind()
            } else {
                value.score().into_pyobject(py)?.into_any().unbind()
            };
            let value = ColumnValue { value: number, exact: value.is_exact(), depth };
            columns.insert(column.number(), Py::new(py, value)?);
        }
    }
    Ok(Analysis {
        columns,
        best: analysis.best().into_iter().map(Column::number).collect(),
        best_is_proven: analysis.best_is_proven(),
        nodes: analysis.nodes,
    })
}
