//! `connectx_agent`: a Kaggle ConnectX agent that plays classic Connect-4
//! perfectly on ConnectX's default board (6 rows, 7 columns, four in a
//! row) within Kaggle's time rules.
//!
//! Kaggle calls `agent(observation, configuration)` with `Struct`s (dicts
//! whose keys read as attributes too) and takes a column 0-6. A move may
//! take `configuration.actTimeout` seconds; time beyond it is taken from
//! `observation.remainingOverageTime`, and the agent that overdraws it loses.

use std::time::Duration;

use pyo3::exceptions::{PyAttributeError, PyKeyError};
use pyo3::prelude::*;

use maxconnect4_game::rules::Rules;
use maxconnect4_search::Limits;

use crate::errors::{IllegalMove, InvalidPosition, UnsupportedBoard};
use crate::position::connectx_board;
use crate::searching::with_engine;

/// The share of `actTimeout` a move plans to use: the rest covers
/// Python's call and Kaggle's own timing around it. Where the shipped
/// classic book ends a solve takes well under a second, so the default
/// two seconds leave every move perfect.
const ACT_SHARE: f64 = 0.75;

/// The share of the remaining overage a move may add: a twentieth, so a
/// run of hard positions spends it slowly and never all of it.
const OVERAGE_SHARE: f64 = 0.05;

/// `actTimeout` when a configuration gives neither it nor the older `timeout`:
/// ConnectX's default.
const DEFAULT_ACT_TIMEOUT: f64 = 2.0;

/// A field of a Kaggle `Struct`, a plain dict or any object with the
/// attribute: `None` when it has neither.
fn field<'py>(object: &Bound<'py, PyAny>, name: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    match object.getattr(name) {
        Ok(value) => return Ok(Some(value)),
        Err(error) if !error.is_instance_of::<PyAttributeError>(object.py()) => return Err(error),
        Err(_) => {}
    }
    match object.get_item(name) {
        Ok(value) => Ok(Some(value)),
        Err(error)
            if error.is_instance_of::<PyKeyError>(object.py())
                || error.is_instance_of::<pyo3::exceptions::PyTypeError>(object.py()) =>
        {
            Ok(None)
        }
        Err(error) => Err(error),
    }
}

/// A number of the configuration, if it gives it.
fn number<'py, T: FromPyObjectOwned<'py>>(object: Option<&Bound<'py, PyAny>>, name: &str) -> PyResult<Option<T>> {
    match object {
        Some(object) => field(object, name)?.map(|value| value.extract::<T>().map_err(Into::into)).transpose(),
        None => Ok(None),
    }
}

/// Refuses a ConnectX game other than 6 rows, 7 columns and four in a row.
fn check_size(configuration: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    let rows = number::<i64>(configuration, "rows")?.unwrap_or(6);
    let columns = number::<i64>(configuration, "columns")?.unwrap_or(7);
    let inarow = number::<i64>(configuration, "inarow")?.unwrap_or(4);
    if (rows, columns, inarow) != (6, 7, 4) {
        return Err(UnsupportedBoard::new_err(format!(
            "maxconnect4 plays ConnectX with 6 rows, 7 columns and 4 in a row; this game has {rows} rows, {columns} columns and {inarow} in a row"
        )));
    }
    Ok(())
}

/// The time this move plans to take: a share of the move's time and a
/// little of the overage.
fn budget(configuration: Option<&Bound<'_, PyAny>>, observation: &Bound<'_, PyAny>) -> PyResult<Duration> {
    let act = match number::<f64>(configuration, "actTimeout")? {
        Some(act) => act,
        None => number::<f64>(configuration, "timeout")?.unwrap_or(DEFAULT_ACT_TIMEOUT),
    };
    let overage = number::<f64>(Some(observation), "remainingOverageTime")?.unwrap_or(0.0);
    // NaN counts as nothing; an infinite or huge allowance as the longest
    // time limit, which no deadline overflows.
    let (act, overage) = (act.max(0.0), overage.max(0.0));
    let seconds = (act * ACT_SHARE + overage * OVERAGE_SHARE).min(Limits::LONGEST_SECONDS);
    // At least a millisecond: the search then still finds a move at depth 1.
    Ok(Duration::try_from_secs_f64(seconds).unwrap_or_default().max(Duration::from_millis(1)))
}

/// A Kaggle ConnectX agent: the column (0-6) to play, perfect under
/// classic rules on ConnectX's default board.
#[pyfunction]
#[pyo3(signature = (observation, configuration = None))]
pub fn connectx_agent(observation: &Bound<'_, PyAny>, configuration: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    check_size(configuration)?;
    let board = field(observation, "board")?.ok_or_else(|| InvalidPosition::new_err("the observation has no board"))?;
    let mark = field(observation, "mark")?.ok_or_else(|| InvalidPosition::new_err("the observation has no mark"))?;
    let board = connectx_board(&board, &mark)?;
    if Rules::Classic.is_over(&board) {
        return Err(IllegalMove::new_err("the game is over: there is no move to make"));
    }
    let limits = Limits::time(budget(configuration, observation)?);
    let played = with_engine(observation.py(), Rules::Classic, |engine| engine.play_perfectly(&board, &limits))?
        .expect("the game is not over");
    Ok(played.result.column.index())
}
