# An agent that keeps state between moves, as public agents keep their
# search trees: a module global and an attribute of the function itself.
# It plays column (calls + its own count of calls) % 7, the next one to the
# right that has room when that one is full: 0, 2, 4, 6, 1, 3, 5, 0, ...
# only if both survive from one move to the next.

calls = 0


def my_agent(observation, configuration):
    global calls
    calls += 1
    my_agent.count = getattr(my_agent, "count", 0) + 1
    target = (calls + my_agent.count) % configuration.columns
    for step in range(configuration.columns):
        column = (target + step) % configuration.columns
        if observation.board[column] == 0:
            return column
