"""connectx_agent as Kaggle calls it: Structs or dicts, its time rules, its board."""

import pytest

import maxconnect4 as mc


class Struct(dict):
    """Kaggle's Struct: a dict whose keys read as attributes too."""

    def __init__(self, **entries):
        super().__init__(entries)
        self.__dict__.update(entries)


CONFIGURATION = dict(rows=6, columns=7, inarow=4, actTimeout=2, timeout=2, agentTimeout=60, episodeSteps=1000)


def observation(moves, **more):
    position = mc.Position(moves, rules="classic")
    return dict(board=position.connectx_board(), mark=position.to_move, step=len(moves), remainingOverageTime=60, **more)


@pytest.mark.parametrize("wrap", [Struct, dict], ids=["Struct", "dict"])
def test_the_agent_plays_a_best_move_in_columns_zero_to_six(wrap):
    for moves in ["", "4453", "44444433", "1234567"]:
        column = mc.connectx_agent(wrap(**observation(moves)), wrap(**CONFIGURATION))
        assert column + 1 in mc.solve(mc.Position(moves, rules="classic")).best, moves


def test_the_older_timeout_and_a_missing_configuration_are_read():
    older = {key: value for key, value in CONFIGURATION.items() if key != "actTimeout"}
    assert mc.connectx_agent(Struct(**observation("")), Struct(**older)) == 3
    assert mc.connectx_agent(Struct(**observation(""))) == 3


def test_it_takes_a_winning_move():
    # Player 1 has three in the bottom row; column 4 (index 3) wins at once.
    assert mc.connectx_agent(observation("152535"), CONFIGURATION) == 3


@pytest.mark.parametrize("rows,columns,inarow", [(5, 7, 4), (6, 8, 4), (6, 7, 5)])
def test_other_boards_are_refused(rows, columns, inarow):
    configuration = dict(CONFIGURATION, rows=rows, columns=columns, inarow=inarow)
    board = dict(observation(""), board=[0] * (rows * columns))
    with pytest.raises(mc.UnsupportedBoard, match="6 rows, 7 columns and 4 in a row"):
        mc.connectx_agent(board, configuration)


def test_a_bad_observation_says_what_is_wrong():
    with pytest.raises(mc.InvalidPosition, match="no board"):
        mc.connectx_agent({"mark": 1}, CONFIGURATION)
    with pytest.raises(mc.InvalidPosition, match="mark"):
        mc.connectx_agent(dict(observation(""), mark=3), CONFIGURATION)


def test_with_no_time_to_spare_it_still_answers_a_legal_column():
    """Past the book, a move time of a hundredth of a second and no overage:
    the solve cannot finish, and the depth-limited search's move is played."""
    moves = "4444443322"
    observation_ = dict(observation(moves), remainingOverageTime=0)
    column = mc.connectx_agent(observation_, dict(CONFIGURATION, actTimeout=0.01))
    assert column + 1 in mc.Position(moves, rules="classic").legal_columns


@pytest.mark.parametrize("act", [float("nan"), float("inf"), 1e300, -5])
def test_odd_move_times_are_taken_in_stride(act):
    column = mc.connectx_agent(observation("4453"), dict(CONFIGURATION, actTimeout=act))
    assert column + 1 in mc.Position("4453", rules="classic").legal_columns


def test_a_numpy_like_board_and_mark_are_read():
    array = bytearray(mc.Position("44", rules="classic").connectx_board())  # a sequence of ints, not a list
    assert mc.connectx_agent({"board": array, "mark": 1}, CONFIGURATION) + 1 in mc.solve(mc.Position("44", rules="classic")).best
