"""Positions: from moves, board files and ConnectX boards; scores, moves, errors."""

import pytest

import maxconnect4 as mc


def test_moves_make_the_position_and_its_board_file():
    position = mc.Position("4453")
    assert position.to_move == 1
    assert position.pieces_played == 4
    assert position.rules == "max"
    rows = position.board_file().splitlines()
    assert rows[4:] == ["0002000", "0021100", "1"]
    assert mc.Position.from_board_file(position.board_file()) == position


def test_a_position_is_a_value():
    assert mc.Position("44") == mc.Position("").play(4).play(4)
    assert len({mc.Position("4453"), mc.Position("4453"), mc.Position("4453", rules="classic")}) == 2
    assert "Score: Player 1 = 0, Player 2 = 0" in str(mc.Position("4453"))
    assert "\x1b" not in str(mc.Position("4453")), "no terminal colours in a Python string"
    assert eval(repr(mc.Position("4453")), {"Position": mc.Position}) == mc.Position("4453")


def test_scores_count_every_four_and_max_goes_on_to_a_full_board():
    # Player 1 fills the bottom row's first four cells: one four.
    position = mc.Position("1122334")
    assert position.scores == (1, 0)
    assert not position.is_over, "Max-Connect4 goes on to a full board"
    classic = mc.Position("1122334", rules="classic")
    assert classic.is_over and classic.winner == 1 and classic.legal_columns == []


def test_legal_columns_leave_out_full_ones():
    position = mc.Position("444444")
    assert position.legal_columns == [1, 2, 3, 5, 6, 7]
    with pytest.raises(mc.IllegalMove, match="column 4 is full"):
        position.play(4)


@pytest.mark.parametrize("column", [0, 8, -1])
def test_columns_are_one_to_seven(column):
    with pytest.raises(mc.IllegalMove, match="columns are 1-7"):
        mc.Position().play(column)


def test_bad_text_says_what_is_wrong():
    with pytest.raises(mc.InvalidPosition, match="'8', not a column 1-7"):
        mc.Position("48")
    with pytest.raises(mc.InvalidPosition, match="line 1"):
        mc.Position.from_board_file("000000x\n" * 6 + "1\n")
    with pytest.raises(ValueError, match="'max' or 'classic'"):
        mc.Position(rules="chess")


def test_connectx_boards_read_top_row_first():
    board = [0] * 42
    board[38] = 1  # bottom row, column index 3: the centre
    position = mc.Position.from_connectx(board, 2)
    assert position == mc.Position("4", rules="classic")
    assert position.connectx_board() == board
    with pytest.raises(mc.InvalidPosition, match="42 cells"):
        mc.Position.from_connectx([0] * 30, 1)
    with pytest.raises(mc.InvalidPosition, match="floats"):
        mc.Position.from_connectx([1] + [0] * 41, 2)
    with pytest.raises(mc.InvalidPosition, match="mark"):
        mc.Position.from_connectx([0] * 42, 3)
