#!/usr/bin/env bash
# Measures the engine's figures (speed, perft, solve times, memory) and writes
# them, with the command, the git revision and the tool versions, to
# reports/FIGURES.md. Run from the repository root: bash reports/figures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
cargo build --release --quiet --example classic_bench
bin=target/release/maxconnect4
out=reports/FIGURES.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Seconds elapsed of each position of `bench --deep` with one and with two
# threads: ROUNDS runs of each, interleaved, the best of each kept; a table
# row per position and one for the total, with the speed-up.
ROUNDS=${ROUNDS:-3}
thread_speedups() {
  for _ in $(seq "$ROUNDS"); do
    for threads in 1 2; do
      "$bin" bench --deep --threads "$threads" | sed "s/^/$threads /" >>"$tmp/deep"
    done
  done
  awk '
    { threads = $1; elapsed = $(NF - 2) }
    / s elapsed$/ { name = $2; for (i = 3; i <= NF && $i !~ /^(depth|solved)/; i++) name = name " " $i }
    /^[12] bench:/ { name = "total"; elapsed = $(NF - 4) }
    { key = name SUBSEP threads
      if (!(key in best) || elapsed < best[key]) best[key] = elapsed
      if (!(name in seen)) { seen[name] = 1; order[++n] = name } }
    END {
      for (i = 1; i <= n; i++) {
        one = best[order[i], 1]; two = best[order[i], 2]
        printf "| %s | %.3f | %.3f | %.2f |\n", order[i], one, two, one / two
      }
    }' "$tmp/deep"
}

# CPU seconds (user + system) and peak resident memory of one command.
measure() {
  /usr/bin/time -f '%U %S %M' -o "$tmp/time" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  read -r user sys peak <"$tmp/time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
}

{
  echo "# Engine figures"
  echo
  echo "Written by \`bash reports/figures.sh\` at git revision $(git rev-parse --short HEAD)"
  echo "with $(rustc --version), on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "($(nproc) cores). CPU times are whole-process user + system seconds from"
  echo "\`/usr/bin/time\`, start-up included; \`bench\` reports its own search time."
  echo "Every command runs on one thread (\`--threads 1\`) except in the threads section."
  echo "Load average when it started: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the"
  echo "machine slows every figure and, above all, the speed-up from a second thread)."
  echo
  echo "## bench"
  echo
  echo '```text'
  "$bin" bench --threads 1
  echo '```'
  echo
  echo "## Single commands"
  echo
  echo "| command | CPU s | peak memory MB | output |"
  echo "| --- | ---: | ---: | --- |"
  for command in "perft 11" \
    "one-move input_files/input2.txt $tmp/out.txt 10 --threads 1" \
    "one-move input_files/input1.txt $tmp/out.txt 14 --threads 1"; do
    # shellcheck disable=SC2086
    measure "$bin" $command
    shown=${command//$tmp\//}
    echo "| \`maxconnect4 $shown\` | $cpu | $((peak / 1024)) | $(grep -E '^(perft|Searched)' "$tmp/stdout" | head -1) |"
  done
  echo
  echo "## solve"
  echo
  echo "| position | empty cells | result | CPU s | peak memory MB |"
  echo "| --- | ---: | --- | ---: | ---: |"
  for file in input_files/solve/*.txt; do
    measure "$bin" solve "$file" --threads 1
    empty=$(head -6 "$file" | tr -cd 0 | wc -c)
    echo "| \`$file\` | $empty | $(cat "$tmp/stdout") | $cpu | $((peak / 1024)) |"
  done
  echo
  echo "## Threads"
  echo
  echo "\`maxconnect4 bench --deep --threads N\` (one-move to depths 20 and 22, solves from 30"
  echo "and 28 empty cells): seconds elapsed with one and with two threads, best of $ROUNDS runs each,"
  echo "interleaved; load average before: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "| position | 1 thread s | 2 threads s | speed-up |"
  echo "| --- | ---: | ---: | ---: |"
  thread_speedups
  echo
  echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "## Classic solver: the public benchmark sets"
  echo
  echo "\`cargo run --release --example classic_bench -- SET [N]\`: every position of a set"
  echo "(the first N) solved and checked against its published score; the table is cleared"
  echo "before each position, outside the timed part; single thread, no opening book; wall"
  echo "time of the solve alone. Begin-Hard is sampled (its first ${CLASSIC_HARD_SAMPLE:=20}"
  echo "positions): all 1000 would take hours."
  echo
  echo '```text'
  for set in End-Easy Middle-Easy Middle-Medium Begin-Easy Begin-Medium; do
    target/release/examples/classic_bench "$set"
  done
  target/release/examples/classic_bench Begin-Hard "$CLASSIC_HARD_SAMPLE"
  echo '```'
  echo
  echo "Pascal Pons' solver (C++, no book) on a 2-core machine of this kind, from"
  echo "\`../shared/data/connect4-benchmarks/README.md\`: mean 4.4 us (End-Easy), 42 us"
  echo "(Middle-Easy), 4.9 ms (Middle-Medium), 0.31 ms (Begin-Easy), 135 ms (Begin-Medium),"
  echo "about 7 s (Begin-Hard)."
  # The evaluation match takes many minutes: measured apart, kept with its command.
  echo
  cat reports/eval_match.md
} >"$tmp/figures.md"
mv "$tmp/figures.md" "$out"
echo "wrote $out"
