"""connectx_agent in Kaggle's own environment (kaggle-environments'
`evaluate('connectx', ...)`), against its negamax and random agents from
both sides, and as a submission file.

kaggle-environments is installed by .ci/run (without its 1.6 GB of
dependencies: ConnectX needs only jsonschema and requests). Where it is
missing the tests are skipped, unless MAXCONNECT4_REQUIRE_KAGGLE is set, as
.ci/run sets it.
"""

import json
import os
import random
import subprocess
import sys

import pytest

import maxconnect4 as mc

if os.environ.get("MAXCONNECT4_REQUIRE_KAGGLE"):
    import kaggle_environments
else:
    kaggle_environments = pytest.importorskip("kaggle_environments")

# One episode's rewards, first agent first: a win for the first agent.
FIRST_WINS, SECOND_WINS = [1, -1], [-1, 1]


def evaluate(agents, episodes, seed):
    """Kaggle's evaluation, its agents' random choices seeded: the same games
    each run. Ten seconds a move, so that a slow machine under load still
    solves every move rather than playing a search's move."""
    random.seed(seed)
    configuration = {"actTimeout": 10}
    return kaggle_environments.evaluate("connectx", agents, configuration=configuration, num_episodes=episodes)


@pytest.mark.parametrize("opponent", ["negamax", "random"])
def test_the_agent_wins_every_game_from_both_sides(opponent):
    assert evaluate([mc.connectx_agent, opponent], 3, seed=1) == [FIRST_WINS] * 3
    assert evaluate([opponent, mc.connectx_agent], 3, seed=2) == [SECOND_WINS] * 3


def test_a_game_against_itself_is_the_first_players_win():
    # Classic Connect-4 is a first player's win with perfect play.
    assert evaluate([mc.connectx_agent, mc.connectx_agent], 1, seed=3) == [FIRST_WINS]


def test_a_submission_file_is_loaded_as_kaggle_loads_it(tmp_path):
    """A submission's main.py imports the agent; Kaggle takes its last callable."""
    submission = tmp_path / "main.py"
    submission.write_text("from maxconnect4 import connectx_agent as agent\n")
    assert evaluate([str(submission), "negamax"], 1, seed=4) == [FIRST_WINS]


def write_kaggle_agent(path, name):
    """ConnectX's own agent `name` written out as a file: what it uses of its
    module (the imports and helpers), then the agent, the last callable, which
    Kaggle's loader and the referee's take."""
    import inspect

    from kaggle_environments.envs.connectx import connectx

    parts = ["from random import choice", "EMPTY = 0"]
    parts += [inspect.getsource(helper) for helper in (connectx.play, connectx.is_win)]
    parts.append(inspect.getsource(getattr(connectx, f"{name}_agent")))
    path.write_text("\n\n".join(parts))


@pytest.mark.parametrize("rules", ["classic", "max"])
def test_kaggles_own_agents_play_whole_games_in_the_referee(command, tmp_path, rules):
    negamax, chance = tmp_path / "negamax.py", tmp_path / "random_agent.py"
    write_kaggle_agent(negamax, "negamax")
    write_kaggle_agent(chance, "random")
    log = tmp_path / "games.jsonl"
    for red, green in [(negamax, chance), (chance, negamax), (negamax, negamax)]:
        words = [command, "match", f"connectx:{red}", f"connectx:{green}", "--rules", rules, "--quiet", "--log", str(log)]
        done = subprocess.run(words, capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(games) == 3
    for game in games:
        assert game["forfeit"] is None, game["forfeit"]
        if rules == "max":
            assert len(game["moves"]) == 42, "a Max-Connect4 game goes on to a full board"
        else:
            assert game["result"] != "draw" or len(game["moves"]) == 42


NUMPY_AGENT = '''
import numpy as np

def agent(observation, configuration):
    """As many public agents do: the board as a numpy array, the column an np.int64 made int."""
    grid = np.asarray(observation.board).reshape(configuration.rows, configuration.columns)
    open_columns = np.flatnonzero(grid[0] == 0)
    return int(open_columns[np.argmin(np.abs(open_columns - configuration.columns // 2))])
'''


def test_an_agent_plays_with_the_packages_of_the_users_environment(command, tmp_path):
    """numpy installed in a virtualenv in the home folder, which is active:
    the agent runs with that environment's python3 and imports it."""
    home = tmp_path / "home"
    venv = home / "venvs" / "kaggle"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "numpy"], check=True)
    # The agents' folder apart from the home folder, which players never see.
    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "numpy_agent.py").write_text(NUMPY_AGENT)
    write_kaggle_agent(agents / "random_agent.py", "random")
    log = tmp_path / "games.jsonl"
    environment = dict(os.environ, HOME=str(home), PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}")
    words = [command, "match", "connectx:numpy_agent.py", "connectx:random_agent.py", "--rules", "classic"]
    done = subprocess.run([*words, "--quiet", "--log", str(log)], capture_output=True, text=True, cwd=agents, env=environment)
    assert done.returncode == 0, done.stderr
    game = json.loads(log.read_text())
    assert game["forfeit"] is None, game["forfeit"]
    assert game["moves"].startswith("4"), "the numpy agent plays the centre first"


COMPILING_AGENT = r'''
import ctypes, os, subprocess, tempfile

# As public agents that build their search in C or C++ at import: the
# source written out, compiled to a shared library, loaded with ctypes.
SOURCE = """
int choose(const int *board, int columns) {
    for (int offset = 0; offset < columns; offset++) {
        int column = columns / 2 + (offset % 2 ? -(offset + 1) / 2 : offset / 2);
        if (board[column] == 0) return column;
    }
    return 0;
}
"""
folder = tempfile.mkdtemp()
with open(os.path.join(folder, "choose.c"), "w") as file:
    file.write(SOURCE)
subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", os.path.join(folder, "choose.so"), os.path.join(folder, "choose.c")], check=True)
library = ctypes.CDLL(os.path.join(folder, "choose.so"))

def agent(observation, configuration):
    board = (ctypes.c_int * len(observation.board))(*observation.board)
    return library.choose(board, configuration.columns)
'''


def test_an_agent_that_compiles_its_search_at_import_plays(command, tmp_path):
    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "compiled.py").write_text(COMPILING_AGENT)
    write_kaggle_agent(agents / "random_agent.py", "random")
    log = tmp_path / "games.jsonl"
    words = [command, "match", "connectx:compiled.py", "connectx:random_agent.py", "--rules", "max"]
    done = subprocess.run([*words, "--quiet", "--log", str(log)], capture_output=True, text=True, cwd=agents)
    assert done.returncode == 0, done.stderr
    game = json.loads(log.read_text())
    assert game["forfeit"] is None, game["forfeit"]
    assert len(game["moves"]) == 42 and game["moves"].startswith("4")
