# A student's one-move program as many are written: it imports the module
# beside it, writes computer.txt in its folder, and ends its lines with bare
# carriage returns. A test fixture of maxconnect4 (tests/it/students.rs).
import os, sys
from MaxConnect4Game import play, spied

_, mode, board_file, output_file = sys.argv[:4]
lines = open(board_file).read().split()
rows, player = [list(row) for row in lines[:6]], lines[6]
play(rows, player)
open("computer.txt", "w").write("what the last move was\n")
problems = spied()
with open(output_file, "w", newline="") as output:
    if problems:
        output.write("GARBAGE " + "; ".join(problems) + "\r")
    for row in rows:
        output.write("".join(row) + "\r")
    output.write(("2" if player == "1" else "1") + "\r")
