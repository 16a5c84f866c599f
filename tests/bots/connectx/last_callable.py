# Kaggle plays the LAST callable a file defines, not one named agent: here
# an alias at the end names the rightmost player.


def agent(observation, configuration):
    return [c for c in range(configuration.columns) if observation.board[c] == 0][0]


def rightmost(observation, configuration):
    return [c for c in range(configuration.columns) if observation.board[c] == 0][-1]


my_agent = rightmost
