"""Max-Connect4 and classic Connect-4: positions, exact solving, search and a
Kaggle ConnectX agent, from the Rust engine of the ``maxconnect4`` program.

>>> import maxconnect4
>>> position = maxconnect4.Position("4453", rules="classic")
>>> position.to_move
1
>>> maxconnect4.solve(maxconnect4.Position(rules="classic")).best
[4]

Columns are numbered 1-7, as on the command line and in move strings; only
the ConnectX functions speak ConnectX's 0-6. See ``docs/python.md``.
"""

from ._native import (
    Analysis,
    ColumnValue,
    IllegalMove,
    InvalidPosition,
    OutOfTime,
    Position,
    Solution,
    UnsupportedBoard,
    analyse,
    best_move,
    connectx_agent,
    solve,
)

# American spelling, as the command line's `analyze` alias.
analyze = analyse

__all__ = [
    "Analysis",
    "ColumnValue",
    "IllegalMove",
    "InvalidPosition",
    "OutOfTime",
    "Position",
    "Solution",
    "UnsupportedBoard",
    "analyse",
    "analyze",
    "best_move",
    "connectx_agent",
    "solve",
]
