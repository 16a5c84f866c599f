# A ConnectX agent in the style of Kaggle's "Intro to Game AI" course: a
# one-step lookahead over a heuristic of windows, helpers at the top level
# and the agent last. Deterministic (ties go to the centre), so that the
# tests' games are the same every time.


def drop_piece(grid, col, mark, config):
    next_grid = [row[:] for row in grid]
    for row in range(config.rows - 1, -1, -1):
        if next_grid[row][col] == 0:
            break
    next_grid[row][col] = mark
    return next_grid


def count_windows(grid, num_discs, piece, config):
    num_windows = 0
    lines = []
    for row in range(config.rows):
        for col in range(config.columns - (config.inarow - 1)):
            lines.append([grid[row][col + i] for i in range(config.inarow)])
    for row in range(config.rows - (config.inarow - 1)):
        for col in range(config.columns):
            lines.append([grid[row + i][col] for i in range(config.inarow)])
    for row in range(config.rows - (config.inarow - 1)):
        for col in range(config.columns - (config.inarow - 1)):
            lines.append([grid[row + i][col + i] for i in range(config.inarow)])
    for row in range(config.inarow - 1, config.rows):
        for col in range(config.columns - (config.inarow - 1)):
            lines.append([grid[row - i][col + i] for i in range(config.inarow)])
    for window in lines:
        if window.count(piece) == num_discs and window.count(0) == config.inarow - num_discs:
            num_windows += 1
    return num_windows


def get_heuristic(grid, mark, config):
    num_threes = count_windows(grid, 3, mark, config)
    num_fours = count_windows(grid, 4, mark, config)
    num_threes_opp = count_windows(grid, 3, mark % 2 + 1, config)
    return num_threes - 1e2 * num_threes_opp + 1e6 * num_fours


def score_move(grid, col, mark, config):
    next_grid = drop_piece(grid, col, mark, config)
    return get_heuristic(next_grid, mark, config)


def agent(obs, config):
    valid_moves = [c for c in range(config.columns) if obs.board[c] == 0]
    grid = [list(obs.board[r * config.columns:(r + 1) * config.columns]) for r in range(config.rows)]
    scores = {col: score_move(grid, col, obs.mark, config) for col in valid_moves}
    best = max(scores.values())
    centre = config.columns // 2
    return min((col for col in valid_moves if scores[col] == best), key=lambda col: abs(col - centre))
