# An agent that misbehaves as the file `how.txt` beside it says: sleeps
# through its first move, or from its third move raises or returns
# something that is no column. (It runs in its own folder.)
import time

with open("how.txt") as how:
    HOW = how.read().strip()
moves = 0


def agent(observation, configuration):
    global moves
    moves += 1
    if HOW == "sleep":
        time.sleep(60)
    if moves < 3:
        return [c for c in range(configuration.columns) if observation.board[c] == 0][0]
    if HOW == "raise":
        raise ValueError("no move for this board")
    return {"seven": 7, "float": 3.0, "bool": True, "none": None, "full": 0}[HOW]
