//! The `maxconnect4` Python module: the game and the search of this
//! project for Python, in Python's idiom (exceptions rather than exit codes,
//! columns 1-7 as on the command line), and a Kaggle ConnectX agent.
//!
//! It depends on the game and the search crates only: no server, sandbox,
//! plotting or command line is linked in. The Python package around it
//! (`maxconnect4/__init__.py`) re-exports what is here under `maxconnect4`;
//! its stubs (`_native.pyi`) and `docs/python.md` describe the interface.
//!
//! Searches run with the GIL released, on one engine per rule set kept
//! between calls (its tables warm, the opening book read once), so other
//! Python threads go on while one searches; two searches under the same
//! rules take turns.

mod connectx;
mod errors;
mod position;
mod searching;

use pyo3::prelude::*;

use errors::{IllegalMove, InvalidPosition, OutOfTime, UnsupportedBoard};
use position::Position;

/// The module `maxconnect4._native`.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add_class::<Position>()?;
    module.add_class::<searching::Solution>()?;
    module.add_class::<searching::Analysis>()?;
    module.add_class::<searching::ColumnValue>()?;
    module.add_function(wrap_pyfunction!(searching::solve, module)?)?;
    module.add_function(wrap_pyfunction!(searching::best_move, module)?)?;
    module.add_function(wrap_pyfunction!(searching::analyse, module)?)?;
    module.add_function(wrap_pyfunction!(connectx::connectx_agent, module)?)?;
    module.add("InvalidPosition", py.get_type::<InvalidPosition>())?;
    module.add("IllegalMove", py.get_type::<IllegalMove>())?;
    module.add("OutOfTime", py.get_type::<OutOfTime>())?;
    module.add("UnsupportedBoard", py.get_type::<UnsupportedBoard>())?;
    Ok(())
}
