#!/usr/bin/env python3
"""A student's one-move program, as the assignment asks for one: plain
depth-limited minimax for Max-Connect4, standard library only.

Usage: minimax_bot.py IN OUT DEPTH [quiet | crash-at N]

Reads the board file IN (six rows of seven cells, top row first, 0 empty,
1 and 2 the players' pieces, then the player to move), searches DEPTH plies
(its own move first), writes the board after its move to OUT, and prints
`Searched N nodes` on its standard output, N counting every position it
visited, the root included. A leaf is valued by the score so far: the
four-in-a-rows of the player to move at the root less the opponent's.

  quiet        prints no node count
  crash-at N   raises an exception, before writing anything, when DEPTH is N
"""

import sys

ROWS, COLUMNS = 6, 7


def read(path):
    lines = open(path).read().split()
    return [list(row) for row in lines[:ROWS]], lines[ROWS]


def write(path, rows, turn):
    with open(path, "w") as f:
        f.write("".join("".join(row) + "\n" for row in rows) + turn + "\n")


def windows():
    """Every group of four cells in a line, as (row, column) pairs."""
    found = []
    for row in range(ROWS):
        for column in range(COLUMNS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + i * dr, column + i * dc) for i in range(4)]
                if all(0 <= r < ROWS and 0 <= c < COLUMNS for r, c in cells):
                    found.append(cells)
    return found


WINDOWS = windows()


def score(rows, player):
    return sum(all(rows[r][c] == player for r, c in window) for window in WINDOWS)


def moves(rows):
    """The columns with room, left to right, and the row each piece lands in."""
    for column in range(COLUMNS):
        for row in range(ROWS - 1, -1, -1):
            if rows[row][column] == "0":
                yield column, row
                break


class Search:
    def __init__(self, me, other):
        self.me, self.other = me, other
        self.nodes = 0

    def value(self, rows, depth, mover):
        """The minimax value for `me` of `rows` with `mover` to move."""
        self.nodes += 1
        legal = list(moves(rows))
        if depth == 0 or not legal:
            return score(rows, self.me) - score(rows, self.other)
        following = self.other if mover == self.me else self.me
        values = []
        for column, row in legal:
            rows[row][column] = mover
            values.append(self.value(rows, depth - 1, following))
            rows[row][column] = "0"
        return max(values) if mover == self.me else min(values)

    def best(self, rows, depth):
        self.nodes += 1
        best = None
        for column, row in moves(rows):
            rows[row][column] = self.me
            value = self.value(rows, depth - 1, self.other)
            rows[row][column] = "0"
            if best is None or value > best[0]:
                best = (value, column, row)
        return best


def main():
    infile, outfile, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
    behaviour = sys.argv[4:]
    if behaviour[:1] == ["crash-at"] and depth == int(behaviour[1]):
        raise RuntimeError(f"this bot crashes at depth {depth} on purpose")
    rows, me = read(infile)
    other = "2" if me == "1" else "1"
    search = Search(me, other)
    found = search.best(rows, depth)
    if found is None:
        print("The board is full.")
        return
    _, column, row = found
    rows[row][column] = me
    write(outfile, rows, other)
    print(f"Player {me} plays column {column + 1}.")
    if behaviour[:1] != ["quiet"]:
        print(f"Searched {search.nodes} nodes to depth {depth}.")


if __name__ == "__main__":
    main()
