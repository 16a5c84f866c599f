//! The module's exceptions: each a subclass of the built-in exception a
//! Python programmer would catch for it (`ValueError`, `TimeoutError`).

use pyo3::exceptions::{PyTimeoutError, PyValueError};

pyo3::create_exception!(
    maxconnect4,
    InvalidPosition,
    PyValueError,
    "A position no game reaches, or text that is not one: a bad move string, board file or ConnectX board."
);
pyo3::create_exception!(
    maxconnect4,
    IllegalMove,
    PyValueError,
    "A move that cannot be played: a column outside 1-7, a full column, or a finished game."
);
pyo3::create_exception!(maxconnect4, OutOfTime, PyTimeoutError, "A solve that did not finish within its time limit.");
pyo3::create_exception!(
    maxconnect4,
    UnsupportedBoard,
    PyValueError,
    "A ConnectX configuration other than 6 rows, 7 columns and four in a row."
);
