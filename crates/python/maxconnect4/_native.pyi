"""Types of the Rust module ``maxconnect4._native``, re-exported by ``maxconnect4``."""

from typing import Any, Literal, Optional, Sequence, Union

Rules = Literal["max", "classic"]

class InvalidPosition(ValueError):
    """A position no game reaches, or text that is not one."""

class IllegalMove(ValueError):
    """A column outside 1-7, a full column, or a finished game."""

class OutOfTime(TimeoutError):
    """A solve that did not finish within its time limit."""

class UnsupportedBoard(ValueError):
    """A ConnectX configuration other than 6 rows, 7 columns and four in a row."""

class Position:
    """A board and the rules of its game. Immutable and hashable."""

    def __init__(self, moves: str = "", *, rules: Rules = "max") -> None:
        """The position after ``moves``, columns 1-7 from the empty board (``"4453"``)."""
    @staticmethod
    def from_board_file(text: str, *, rules: Rules = "max") -> "Position":
        """A board file's text: six rows of seven digits, top row first, then the player to move."""
    @staticmethod
    def from_connectx(board: Sequence[int], mark: int, *, rules: Rules = "classic") -> "Position":
        """A ConnectX observation's 42 cells (top row first) and the mark of the player to move."""
    @property
    def rules(self) -> Rules: ...
    @property
    def to_move(self) -> Literal[1, 2]: ...
    @property
    def scores(self) -> tuple[int, int]:
        """Each player's four-in-a-rows, player 1's first."""
    @property
    def legal_columns(self) -> list[int]:
        """The columns 1-7 the player to move may play; none when the game is over."""
    @property
    def pieces_played(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def winner(self) -> Optional[Literal[1, 2]]:
        """The winner of a finished game; ``None`` for a draw or a game that goes on."""
    def play(self, column: int) -> "Position":
        """The position after the player to move plays ``column`` (1-7); raises IllegalMove."""
    def __reduce__(self) -> Any: ...
    def board_file(self) -> str: ...
    def connectx_board(self) -> list[int]: ...

class Solution:
    value: int
    """The value for the player to move: the final score difference (max), or the solver's score (classic)."""
    best: list[int]
    """Every column that achieves it."""
    columns: dict[int, int]
    """The value of each legal column for the player who plays it."""

class ColumnValue:
    value: Union[int, float]
    """Points (max) or score (classic): an int when exact, else rounded to two decimals."""
    exact: bool
    depth: Optional[int]
    """How deep a depth-limited value looked; None when exact."""

class Analysis:
    columns: dict[int, ColumnValue]
    best: list[int]
    best_is_proven: bool
    nodes: int

def solve(position: Position, *, weak: bool = False, time_limit: Optional[float] = None) -> Solution:
    """The exact value of the position and of each column; raises OutOfTime, or KeyboardInterrupt on Ctrl-C."""

def best_move(
    position: Position,
    *,
    depth: Optional[int] = None,
    time_limit: Optional[float] = None,
    perfect: bool = False,
) -> int:
    """The column (1-7) the engine plays: to a depth, within a time, or perfectly."""

def analyse(position: Position, *, depth: Optional[int] = None, time_limit: Optional[float] = None) -> Analysis:
    """The value of every column: exact where it can be had, else to a depth (16 by default)."""

def connectx_agent(observation: Any, configuration: Optional[Any] = None) -> int:
    """A Kaggle ConnectX agent: the column 0-6, perfect under classic rules on 6x7, four in a row."""
