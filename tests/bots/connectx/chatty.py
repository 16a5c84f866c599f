# An agent that prints on every move, as agents being debugged do: to
# stdout, to stderr, straight to descriptor 1, and once far more than a log
# keeps. None of it may reach the referee's protocol.
import os
import sys

moves = 0


def agent(observation, configuration):
    global moves
    moves += 1
    print("thinking about move", moves, "with", observation.remainingOverageTime, "s of overage")
    print("the board:", observation.board, file=sys.stderr)
    os.write(1, b"3\n")
    if moves == 1:
        sys.stdout.write("x" * 20000 + "\n")
    return [c for c in range(configuration.columns) if observation.board[c] == 0][0]
