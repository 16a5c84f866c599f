#!/bin/bash
# `analyse` at its default depth, one thread, two binaries side by side on
# the same random Max-Connect4 positions (reports/solving.md, "Exact columns
# in an analysis"). Usage: reports/analyse_exact.sh OLD_BINARY NEW_BINARY
set -euo pipefail
positions() { # MOVES SEED COUNT: seeded random move strings of MOVES moves
  python3 - "$@" <<'PY'
import random, sys
moves, seed, count = map(int, sys.argv[1:])
random.seed(seed)
for _ in range(count):
    heights, line = [0] * 7, ""
    while len(line) < moves:
        column = random.randrange(7)
        if heights[column] < 6:
            heights[column] += 1
            line += str(column + 1)
    print(line)
PY
}
err=$(mktemp)
for n in 6 10 12 14 16 18 20; do
  for binary in "$1" "$2"; do
    exact=0; playable=0; nodes=0; cpu=0
    for moves in $(positions "$n" "$n" 8); do
      read -r e p < <("$binary" analyse --moves "$moves" --json --threads 1 2>"$err" |
        python3 -c 'import json, sys; d = json.load(sys.stdin); print(sum(x is True for x in d["exact"]), sum(x is not None for x in d["exact"]))')
      read -r nn cc < <(sed -nE 's/.* ([0-9]+) nodes in ([0-9.]+) s.*/\1 \2/p' "$err")
      exact=$((exact + e)); playable=$((playable + p)); nodes=$((nodes + nn)); cpu=$(echo "$cpu + $cc" | bc -l)
    done
    echo "$n moves $binary: exact $exact/$playable nodes $nodes cpu $cpu"
  done
done
rm -f "$err"
