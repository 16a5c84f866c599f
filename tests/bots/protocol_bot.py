#!/usr/bin/env python3
"""A bot for the referee's hosting tests, speaking the Connect 4 Moderator's
protocol (seed 000) or the coordinator's (seed 001), misbehaving on its first
move in a chosen way.

Usage: protocol_bot.py moderator|coordinator BEHAVIOUR [DELAY | TAG]

It always plays the leftmost column with room, except as BEHAVIOUR says:

  valid   plays well-formed moves until the game ends
  slow    sleeps DELAY seconds before each move
  hang    never answers its first move (after it has said it is ready)
  exit    exits with status 3 instead of its first move
  close   closes its standard output instead of its first move, then waits
  flood   prints without end instead of its first move: 'x' with no line
          break (coordinator) or the digit 4 (moderator)
  two     answers its first move twice, in one write
  word    answers its first move with a word
  full    always plays the first column, full or not
  spin    spins on two processes for up to 60 s before its first move

What it is sent, one line each, goes to stderr (which the referee keeps),
so a test can check the messages; it exits at the end code or `quit`. TAG,
any word, is only there for a test to find the bot's processes by. As the
real engines of the coordinator's course, it reads which AI it is from
`name AI N` and fails on a bare `name`.
"""

import os
import sys
import time

PROTOCOL, BEHAVIOUR = sys.argv[1], sys.argv[2]
DELAY = float(sys.argv[3]) if BEHAVIOUR == "slow" else 0.0
heights = [0] * 7


def say(text):
    os.write(1, text.encode())


def choose():
    """The column index 0-6 to play, or None after misbehaving."""
    global BEHAVIOUR
    if BEHAVIOUR == "slow":
        time.sleep(DELAY)
    if BEHAVIOUR == "hang":
        time.sleep(600)
    if BEHAVIOUR == "exit":
        sys.exit(3)
    if BEHAVIOUR == "close":
        os.close(1)
        time.sleep(600)
    if BEHAVIOUR == "flood":
        while True:
            say("x" * 4096 if PROTOCOL == "coordinator" else "4" * 4096)
    if BEHAVIOUR == "spin":
        child = os.fork()
        end = time.monotonic() + 60
        while time.monotonic() < end:
            pass
        if child == 0:
            os._exit(0)
    if BEHAVIOUR == "full":
        return 0
    return next(c for c in range(7) if heights[c] < 6)


def answer(column):
    """Prints the move in the protocol's form, misbehaving if asked to."""
    move = str(column + 1) if PROTOCOL == "moderator" else "bestmove %d 0" % column
    if BEHAVIOUR == "two":
        say(move + "\n" + move + "\n")
    elif BEHAVIOUR == "word":
        say("hello\n")
    else:
        say(move + "\n")
    heights[column] += 1


def moderator():
    say("p\n")
    seat = sys.stdin.readline().strip()
    sys.stderr.write("seat %s\n" % seat)
    if seat == "1":
        answer(choose())
    else:
        say("?\n")
    for line in sys.stdin:
        number = int(line)
        sys.stderr.write("got %d\n" % number)
        if number <= 0:
            return
        heights[number - 1] += 1
        answer(choose())


def coordinator():
    for line in sys.stdin:
        sys.stderr.write("got %s\n" % line.strip())
        words = line.split()
        if words[0] == "name":
            # As real engines of the course do: the coordinator says which
            # AI it asks (`name AI 0`), and a bare `name` is an IndexError.
            say("testbot-%s-c1234567\n" % words[2])
        elif words[0] == "isready":
            say("readyok\n")
        elif words[:2] == ["position", "startpos"]:
            heights[:] = [0] * 7
            for digit in "".join(words[2:]):
                heights[int(digit)] += 1
        elif words[:1] == ["go"]:
            answer(choose())
        elif words == ["quit"]:
            say("quitting\n")
            return


moderator() if PROTOCOL == "moderator" else coordinator()
