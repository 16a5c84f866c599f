"""solve, best_move and analyse give the command line's answers."""

import _thread
import json
import pickle
import random
import sys
import threading
import time

import pytest

import maxconnect4 as mc


def random_moves(rng, rules, plies):
    """A random game's first `plies` moves that does not end under `rules`."""
    while True:
        position, moves = mc.Position(rules=rules), ""
        for _ in range(plies):
            if position.is_over:
                break
            column = rng.choice(position.legal_columns)
            position, moves = position.play(column), moves + str(column)
        if not position.is_over and len(moves) == plies:
            return moves


# Past the shipped books, so that both the book and the solver are checked,
# yet quick to solve: Max-Connect4 solves from 20 pieces in well under a
# second, classic from 10 (the classic book ends about there).
CASES = [("max", 20), ("max", 28), ("classic", 10), ("classic", 16), ("max", 2), ("classic", 4)]


@pytest.mark.parametrize("rules,plies", CASES)
def test_solve_matches_the_command_line_on_random_positions(run, rules, plies):
    rng = random.Random(f"{rules}{plies}")
    for _ in range(4):
        moves = random_moves(rng, rules, plies)
        solution = mc.solve(mc.Position(moves, rules=rules))
        words = run("solve", "--moves", moves, "--rules", rules).split()
        assert words[:2] == ["value", str(solution.value)], moves
        assert words[3] == ",".join(map(str, solution.best)), moves
        assert max(solution.columns.values()) == solution.value
        assert sorted(solution.columns) == mc.Position(moves, rules=rules).legal_columns


def test_weak_solve_is_the_sign(run):
    position = mc.Position("4453", rules="classic")
    assert mc.solve(position, weak=True).value == -1
    assert mc.solve(position).value < 0


@pytest.mark.parametrize("rules,moves,depth", [("max", "444444", 8), ("classic", "4444443", 6), ("max", "3344", None)])
def test_analyse_matches_the_command_line(run, rules, moves, depth):
    words = ["analyse", "--moves", moves, "--rules", rules, "--json"]
    if depth is not None:
        words += ["--depth", str(depth)]
    expected = json.loads(run(*words))
    kwargs = {} if depth is None else {"depth": depth}
    analysis = mc.analyse(mc.Position(moves, rules=rules), **kwargs)
    values = [analysis.columns[c].value if c in analysis.columns else None for c in range(1, 8)]
    assert values == expected["values"]
    assert [analysis.columns[c].exact if c in analysis.columns else None for c in range(1, 8)] == expected["exact"]
    assert analysis.best == expected["best"]
    assert analysis.best_is_proven == expected["best_proven"]


@pytest.mark.parametrize("rules,moves,depth", [("max", "4453", 7), ("classic", "4453", 9), ("max", "", 5)])
def test_best_move_at_a_depth_matches_one_move(run, tmp_path, rules, moves, depth):
    position = mc.Position(moves, rules=rules)
    board, out = tmp_path / "in.txt", tmp_path / "out.txt"
    board.write_text(position.board_file())
    run("one-move", str(board), str(out), str(depth), "--rules", rules)
    after = mc.Position.from_board_file(out.read_text(), rules=rules)
    played = mc.best_move(position, depth=depth)
    assert position.play(played) == after


def test_perfect_play_plays_a_best_move():
    position = mc.Position("4453", rules="classic")
    assert mc.best_move(position, perfect=True) in mc.solve(position).best
    assert mc.best_move(position, perfect=True, time_limit=5) in mc.solve(position).best


def test_bad_requests_raise():
    with pytest.raises(ValueError, match="depth, a time_limit, or perfect"):
        mc.best_move(mc.Position())
    with pytest.raises(ValueError, match="depth must be 1 to 42"):
        mc.best_move(mc.Position(), depth=0)
    with pytest.raises(ValueError, match="positive number of seconds"):
        mc.solve(mc.Position(), time_limit=0)
    with pytest.raises(mc.IllegalMove, match="game is over"):
        mc.best_move(mc.Position("1122334", rules="classic"), depth=3)


def test_a_solve_that_runs_out_of_time_raises_out_of_time():
    # Twelve pieces in, past the Max-Connect4 book: seconds to solve, not a millisecond.
    with pytest.raises(mc.OutOfTime, match="gave up solving") as raised:
        mc.solve(mc.Position("445566332211"), time_limit=0.001)
    assert isinstance(raised.value, TimeoutError)


def test_other_threads_run_while_one_searches():
    """The GIL is released during a search: another Python thread runs meanwhile.

    With the switch interval made huge, Python never takes the GIL from a
    thread by time: the counting thread then runs only when the main
    thread gives the GIL up, as a search that releases it does. Held
    through the search (a third of a second, by its time limit), the count
    would stay where it was.
    """
    counted = 0
    ready, done = threading.Event(), threading.Event()

    def count():
        nonlocal counted
        ready.set()
        while not done.is_set():
            counted += 1
            time.sleep(0)  # gives the GIL back, so the main thread can take it after the search

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000)
    counter = threading.Thread(target=count)
    try:
        counter.start()
        ready.wait()
        before = counted
        with pytest.raises(mc.OutOfTime):
            mc.solve(mc.Position("112233"), time_limit=0.3)
        during = counted - before
    finally:
        done.set()
        counter.join()
        sys.setswitchinterval(interval)
    assert during > 0, "no other thread ran while the engine searched"


def test_ctrl_c_stops_a_long_solve():
    """Ctrl-C (here Python's own simulation of it) stops a solve that has no
    time limit and raises KeyboardInterrupt; the engine plays on after."""
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            mc.solve(mc.Position("112233"))  # some ten seconds of work
    finally:
        timer.cancel()
    assert mc.solve(mc.Position("4453", rules="classic")).value == -2


@pytest.mark.parametrize("limit", [float("nan"), float("inf"), 1e19, -1.0, 0.0])
def test_time_limits_out_of_range_are_refused(limit):
    with pytest.raises(ValueError, match="time_limit must be a positive number of seconds"):
        mc.best_move(mc.Position(rules="classic"), time_limit=limit)


@pytest.mark.parametrize("column", [2**70, -(2**70), True, 3.0, "3"])
def test_a_column_must_be_a_whole_number(column):
    with pytest.raises(mc.IllegalMove, match="columns are 1-7"):
        mc.Position().play(column)


def test_depth_must_be_a_whole_number_of_plies():
    for depth in [2**70, True, 2.5, 43]:
        with pytest.raises(ValueError, match="depth must be 1 to 42"):
            mc.best_move(mc.Position(), depth=depth)
    with pytest.raises(ValueError, match="a depth is for the search after a solve"):
        mc.best_move(mc.Position(), depth=5, perfect=True)


def test_a_depth_limited_move_does_not_depend_on_earlier_searches(run, tmp_path):
    """The classic search trusts its table: an empty one each time, as one-move has."""
    position = mc.Position("4453", rules="classic")
    fresh = mc.best_move(position, depth=9)
    mc.solve(mc.Position("44533", rules="classic"))
    mc.best_move(mc.Position("445", rules="classic"), depth=12)
    assert mc.best_move(position, depth=9) == fresh


def test_perfect_play_past_the_book_is_a_solved_best_move():
    # Ten moves in: past the classic book (eight moves), solved in well under a second.
    position = mc.Position("4444443322", rules="classic")
    assert mc.best_move(position, perfect=True) in mc.solve(position).best


def test_positions_pickle_for_other_processes():
    for position in [mc.Position("4453"), mc.Position("4453", rules="classic"), mc.Position("1122334", rules="classic")]:
        assert pickle.loads(pickle.dumps(position)) == position
