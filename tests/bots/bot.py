#!/usr/bin/env python3
"""A one-move player for the referee's tests, misbehaving in a chosen way.

Usage: bot.py BEHAVIOUR IN OUT [PIDFILE]

Reads the board file IN and writes its answer to OUT, like the one-move
mode of any student's program, except as BEHAVIOUR says:

  valid      plays the leftmost column with room
  exit1      plays like valid, then exits with status 1
  hang       never answers
  hang-once  hangs if PIDFILE does not exist yet, else plays like valid
  slow       sleeps 3 s, then plays like valid
  crash      raises an exception before writing anything
  garbage    writes text that is not a board
  nothing    exits without writing anything
  full       overwrites the top piece of the leftmost full column with its own
  two        adds two pieces
  change     plays like valid and also turns an opponent's piece into its own
  turn       plays like valid but leaves the turn line naming itself
  fork       starts a child that keeps running, then plays like valid

Every process it starts (itself, or its child for fork) appends its pid to
PIDFILE, so that a test can check that none outlives the turn.
"""

import os
import sys
import time


def record_pid(pidfile):
    if pidfile:
        with open(pidfile, "a") as f:
            f.write(f"{os.getpid()}\n")


def read(path):
    lines = open(path).read().split()
    return [list(row) for row in lines[:6]], lines[6]


def write(path, rows, turn):
    with open(path, "w") as f:
        f.write("".join("".join(row) + "\n" for row in rows) + turn + "\n")


def lowest_empty(rows, column):
    """The row index (0 is the top) of the lowest empty cell, or None."""
    for row in range(5, -1, -1):
        if rows[row][column] == "0":
            return row
    return None


def play(rows, me, skip=0):
    """Drops a piece of player `me` in the leftmost column with room (after
    skipping `skip` such columns)."""
    columns = [c for c in range(7) if lowest_empty(rows, c) is not None]
    column = columns[skip]
    rows[lowest_empty(rows, column)][column] = me


def main():
    behaviour, infile, outfile = sys.argv[1:4]
    pidfile = sys.argv[4] if len(sys.argv) > 4 else None
    rows, me = read(infile)
    other = "2" if me == "1" else "1"

    if behaviour == "hang-once" and pidfile and os.path.exists(pidfile):
        behaviour = "valid"
    if behaviour == "fork":
        # The parent waits until the child has recorded its pid: otherwise
        # the referee may kill the child first, and a test could not know
        # how many children there were.
        recorded, told = os.pipe()
        if os.fork() == 0:
            os.close(recorded)
            record_pid(pidfile)
            os.write(told, b".")
            os.close(told)
            time.sleep(3600)
            os._exit(0)
        os.close(told)
        os.read(recorded, 1)
        os.close(recorded)
    else:
        record_pid(pidfile)

    if behaviour in ("hang", "hang-once"):
        time.sleep(3600)
    elif behaviour == "slow":
        time.sleep(3)
    elif behaviour == "crash":
        raise RuntimeError("this bot crashes on purpose")
    elif behaviour == "garbage":
        with open(outfile, "w") as f:
            f.write("I resign, good game!\n")
        return
    elif behaviour == "nothing":
        return
    elif behaviour == "full":
        column = next(c for c in range(7) if lowest_empty(rows, c) is None)
        rows[0][column] = me
        write(outfile, rows, other)
        return
    elif behaviour == "two":
        play(rows, me)
        play(rows, me, skip=1)
        write(outfile, rows, other)
        return

    play(rows, me)
    if behaviour == "change":
        row, column = next((r, c) for r in range(6) for c in range(7) if rows[r][c] == other)
        rows[row][column] = me
    write(outfile, rows, me if behaviour == "turn" else other)
    if behaviour == "exit1":
        sys.exit(1)


main()
