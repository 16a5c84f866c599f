# The agent defined inside an if, after its helpers, as agents that pick
# an implementation when they are loaded do; one parameter: Kaggle then
# passes the observation only.
import sys


def leftmost(observation, configuration):
    return [c for c in range(7) if observation.board[c] == 0][0]


if sys.version_info >= (3, 0):

    def act(obs):
        return [c for c in range(7) if obs["board"][c] == 0][-1]

else:
    act = leftmost
