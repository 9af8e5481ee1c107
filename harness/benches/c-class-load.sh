#!/bin/sh
# Marks that do not move under load (issue 53, docs/benchmarks.md): a
# class of C submissions (the hanoi example's five and a sixth that
# spins for ever at exit once its input has ended: erin's program with
# an `atexit` handler, so half the suite's cases time out) marked three
# ways: alone with `--jobs 2`, beside the Java class bench's `mark`
# (java-class.sh, where java, javac and python3 are installed), and
# with two busy loops and `--jobs 6`. Prints each mark's wall time and
# the load, and whether the three `marks.csv` are byte for byte the
# same (exit 1 if not).
#
#   harness/benches/c-class-load.sh [HARNESS]   # default target/release/boxes-harness
#
# Run from the repository's root. Everything is made under a temporary
# folder, removed at the end; the busy loops and the Java bench end with
# it.
set -eu
HARNESS=${1:-target/release/boxes-harness}
HARNESS=$(cd "$(dirname "$HARNESS")" && pwd)/$(basename "$HARNESS")
ROOT=$(pwd)
[ -d "$ROOT/examples/hanoi/submissions" ] || {
  echo "$0: run from the repository's root" >&2
  exit 2
}
W=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$W"' EXIT
mkdir -p "$W/class"
for s in alice bob carol dave erin; do
  cp -r "$ROOT/examples/hanoi/submissions/$s" "$W/class/$s"
done
mkdir "$W/class/spin"
cp "$ROOT/examples/hanoi/submissions/erin/hanoi.c" "$W/class/spin/"
cat > "$W/class/spin/spin.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
static void spin(void) { if (feof(stdin)) for (;;) {} }
__attribute__((constructor)) static void enrol(void) { atexit(spin); }
C

load() { cut -d' ' -f1-3 /proc/loadavg; }
mark() { # NAME JOBS: marks the class into $W/NAME, prints its time
  t0=$(date +%s.%N)
  "$HARNESS" mark --spec "$ROOT/examples/hanoi" "$W/class" --out "$W/$1" --jobs "$2" \
    > "$W/$1.log" 2>&1 || true
  t1=$(date +%s.%N)
  echo "$1 (--jobs $2): $(echo "$t1 - $t0" | bc) s; $(tail -n 1 "$W/$1.log"); load $(load)"
}

echo "c-class-load: 6 submissions, the hanoi suite; load $(load)"
mark alone 2
if command -v java >/dev/null && command -v javac >/dev/null && command -v python3 >/dev/null; then
  "$ROOT/harness/benches/java-class.sh" "$HARNESS" > "$W/java.log" 2>&1 &
  pids="$pids $!"
  # Its bless first: the C class is marked while the Java class is.
  sleep 15
  mark beside-java 2
  wait
  echo "the Java class beside it: $(grep '^mark --jobs' "$W/java.log" || echo 'did not finish')"
else
  echo "beside-java: skipped (no java, javac or python3)"
fi
for _ in 1 2; do
  sh -c 'while :; do :; done' &
  pids="$pids $!"
done
sleep 2
mark busy 6
for p in $pids; do kill "$p" 2>/dev/null || true; done
pids=""

same=0
for run in beside-java busy; do
  [ -f "$W/$run/marks.csv" ] || continue
  if cmp -s "$W/alone/marks.csv" "$W/$run/marks.csv"; then
    echo "$run: marks.csv the same as alone"
  else
    echo "$run: marks.csv DIFFERS from alone:"
    diff "$W/alone/marks.csv" "$W/$run/marks.csv" || true
    same=1
  fi
done
cut -d, -f1,14 "$W/alone/marks.csv"
exit $same
