#!/usr/bin/env bash
# Measures the engine's figures (speed, perft, solve times, memory) and writes
# them, with the command, the git revision and the tool versions, to
# reports/FIGURES.md. Run from the repository root: bash reports/figures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/maxconnect4
out=reports/FIGURES.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# CPU seconds (user + system), peak resident memory and wall-clock seconds
# of one command.
measure() {
  /usr/bin/time -f '%U %S %M %e' -o "$tmp/time" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  read -r user sys peak wall <"$tmp/time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
}

# The smaller of two numbers.
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 < b + 0) ? a : b }'; }

# Wall-clock speed-up from 1 to 2 threads of one command (its arguments
# after the binary): the two runs interleaved, ROUNDS times, best of each.
ROUNDS=${ROUNDS:-3}
speedup() {
  local one="" two=""
  for _ in $(seq "$ROUNDS"); do
    measure "$bin" "$@" --threads 1
    one=$(min "$wall" "$one")
    measure "$bin" "$@" --threads 2
    two=$(min "$wall" "$two")
  done
  echo "| \`maxconnect4 ${*//$tmp\//} --threads N\` | $one | $two | $(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2f", a / b }') |"
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
  for file in input_files/solve/*.txt input_files/input2.txt; do
    measure "$bin" solve "$file" --threads 1
    empty=$(head -6 "$file" | tr -cd 0 | wc -c)
    echo "| \`$file\` | $empty | $(cat "$tmp/stdout") | $cpu | $((peak / 1024)) |"
  done
  echo
  echo "## Threads"
  echo
  echo "Seconds elapsed with one and with two threads, best of $ROUNDS runs each,"
  echo "interleaved; load average before: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "| command | 1 thread s | 2 threads s | speed-up |"
  echo "| --- | ---: | ---: | ---: |"
  speedup bench
  speedup one-move input_files/input1.txt "$tmp/out.txt" 18
  speedup one-move input_files/input2.txt "$tmp/out.txt" 18
  for file in input_files/solve/empty28_*.txt; do
    speedup solve "$file"
  done
  echo
  echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
} >"$tmp/figures.md"
mv "$tmp/figures.md" "$out"
echo "wrote $out"
