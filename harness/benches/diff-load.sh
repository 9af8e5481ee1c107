#!/bin/sh
# Findings that do not move under load (issue 53, docs/benchmarks.md):
# `diff` on a Python program identical to the boxes reference (a Python
# script that `exec`s the release `boxes`, so every session pays a
# Python start against the reference's derived time limit), SESSIONS
# sessions with the same seed three ways: alone, beside the Java class
# bench's `mark` (java-class.sh, where java, javac and python3 are
# installed), and with LOAD busy loops (default 10: a load of 10 on 2
# cores). Prints each run's time, the load and its mismatches (target:
# 0 in each; exit 1 otherwise).
#
#   harness/benches/diff-load.sh [HARNESS] [BOXES] [SESSIONS] [LOAD]
#   # defaults: target/release/boxes-harness target/release/boxes 300 10
#
# Run from the repository's root (`cargo build --release -p
# boxes-harness -p boxes-reference` first). Everything is made under a
# temporary folder, removed at the end, with the loads it started.
set -eu
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
HARNESS=$(abs "${1:-target/release/boxes-harness}")
BOXES=$(abs "${2:-target/release/boxes}")
SESSIONS=${3:-300}
LOAD=${4:-10}
ROOT=$(pwd)
for f in "$HARNESS" "$BOXES"; do
  [ -x "$f" ] || { echo "$0: not an executable: $f" >&2; exit 2; }
done
W=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$W"' EXIT
mkdir "$W/prog"
cat > "$W/prog/boxes.py" <<PY
#!/usr/bin/env python3
import os, sys
os.execv("$BOXES", ["$BOXES"] + sys.argv[1:])
PY
chmod +x "$W/prog/boxes.py"

load() { cut -d' ' -f1-3 /proc/loadavg; }
bad=0
explore() { # NAME: one diff run, its mismatches counted
  t0=$(date +%s.%N)
  code=0
  "$HARNESS" diff --bin "$W/prog/boxes.py" --sessions "$SESSIONS" --seed 11 \
    --allow-read "$BOXES" --out "$W/$1" > "$W/$1.log" 2>&1 || code=$?
  t1=$(date +%s.%N)
  summary=$(grep -i "mismatch" "$W/$1.log" | tail -n 1)
  echo "$1: $(echo "$t1 - $t0" | bc) s, exit $code: $summary; load $(load)"
  [ "$code" -eq 0 ] || { bad=1; tail -n 20 "$W/$1.log"; }
}

echo "diff-load: $SESSIONS sessions, seed 11; load $(load)"
explore alone
if command -v java >/dev/null && command -v javac >/dev/null && command -v python3 >/dev/null; then
  "$ROOT/harness/benches/java-class.sh" "$HARNESS" > "$W/java.log" 2>&1 &
  pids="$pids $!"
  sleep 15
  explore beside-java
  wait
  echo "the Java class beside it: $(grep '^mark --jobs' "$W/java.log" || echo 'did not finish')"
  pids=""
else
  echo "beside-java: skipped (no java, javac or python3)"
fi
i=0
while [ "$i" -lt "$LOAD" ]; do
  sh -c 'while :; do :; done' &
  pids="$pids $!"
  i=$((i + 1))
done
# The load average lags: wait (at most 2 minutes) until it shows the load.
waited=0
while [ "$waited" -lt 120 ] && \
  [ "$(cut -d' ' -f1 /proc/loadavg | cut -d. -f1)" -lt $((LOAD - 1)) ]; do
  sleep 5
  waited=$((waited + 5))
done
explore "load-$LOAD"
exit $bad
