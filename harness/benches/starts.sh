#!/usr/bin/env bash
# Runtime starts under `mark` (issue 53): a JVM, Node.js, Python and C
# program, each a correct "sum until -1" read from stdin, marked with
# `mark --jobs JOBS` at each containment level. Every start is a case run:
# CASES cases a submission, STARTS / CASES submissions (copies of the
# model). Prints, per runtime and level, the wall time, the load average,
# the submissions below full marks (a start failure charged: must be 0)
# and the environment failures (a runtime that never started in three
# runs: not charged, but `mark` exits 3). docs/benchmarks.md, "Runtime
# starts", holds the figures.
#
#   harness/benches/starts.sh HARNESS [STARTS] [JOBS] [LEVELS] [RUNTIMES]
#
# e.g. harness/benches/starts.sh target/release/boxes-harness 1000 2 \
#        "pid full landlock group" "java node python c"
set -euo pipefail
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 HARNESS [STARTS] [JOBS] [LEVELS] [RUNTIMES]" >&2
  exit 2
fi
harness=$(realpath "$1")
starts=${2:-1000}
jobs=${3:-2}
levels=${4:-"pid full landlock group"}
runtimes=${5:-"java node python c"}
cases=50
subs=$(((starts + cases - 1) / cases))
work=$(mktemp -d)
# STARTS_KEEP=1 keeps the packs, logs and reports (a failure's report).
if [ "${STARTS_KEEP:-}" = 1 ]; then
  echo "kept: $work"
else
  trap 'rm -rf "$work"' EXIT
fi

program() { # RUNTIME DIR: writes the program into DIR
  case $1 in
  java) cat >"$2/Main.java" <<'EOF'
import java.util.Scanner;
public class Main {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        long sum = 0;
        while (in.hasNextLong()) { long x = in.nextLong(); if (x == -1) break; sum += x; }
        System.out.println("Sum: " + sum);
    }
}
EOF
    ;;
  node) cat >"$2/main.js" <<'EOF'
let sum = 0;
for (const w of require("fs").readFileSync(0, "utf8").split(/\s+/).filter(Boolean)) {
  const x = Number(w); if (x === -1) break; sum += x;
}
console.log("Sum: " + sum);
EOF
    ;;
  python) cat >"$2/main.py" <<'EOF'
import sys
total = 0
for word in sys.stdin.read().split():
    if int(word) == -1:
        break
    total += int(word)
print(f"Sum: {total}")
EOF
    ;;
  c) cat >"$2/main.c" <<'EOF'
#include <stdio.h>
int main(void) {
    long x, sum = 0;
    while (scanf("%ld", &x) == 1 && x != -1) sum += x;
    printf("Sum: %ld\n", sum);
    return 0;
}
EOF
    ;;
  esac
}

pack_yaml() { # RUNTIME
  case $1 in
  java) printf 'model:\n  dir: model\n  build: javac Main.java\n  command: java -cp . Main\nsubmissions:\n  program: Main.java\n  build: javac Main.java\n  run: "java -cp . Main"\n' ;;
  node) printf 'model:\n  dir: model\n  command: node main.js\nsubmissions:\n  program: main.js\n  run: "node {program}"\n' ;;
  python) printf 'model:\n  dir: model\n  command: python3 main.py\nsubmissions:\n  program: main.py\n  run: "python3 {program}"\n' ;;
  c) printf 'model:\n  dir: model\n  build: cc -O2 -o main main.c\n  command: ./main\nsubmissions:\n  program: main\n  build: cc -O2 -o main main.c\n  run: "./{program}"\n' ;;
  esac
}

for rt in $runtimes; do
  pack=$work/$rt/pack subs_dir=$work/$rt/subs
  mkdir -p "$pack/model" "$pack/sum" "$subs_dir"
  program "$rt" "$pack/model"
  { echo "name: starts_$rt"; pack_yaml "$rt"; echo "timeout: 10"; } >"$pack/pack.yaml"
  printf 'name: starts_%s\nversion: "1"\nspec: sum until -1\ncategories:\n  - {name: sum, marks: 1, title: the sum}\n' "$rt" >"$pack/suite.yaml"
  printf 'rules:\n  - id: IO-1\n    summary: "the sum of the numbers before -1"\n    ambiguous: no\n' >"$pack/rules.yaml"
  for ((i = 1; i <= cases; i++)); do
    printf 'summary: "sum %d"\ncategory: sum\nrules: [IO-1]\nstdin: "%d 2 3 -1\\n"\n' "$i" "$i" >"$pack/sum/s$i.yaml"
  done
  "$harness" bless --spec "$pack" >/dev/null 2>&1 || { echo "$rt: bless failed" >&2; "$harness" bless --spec "$pack" >&2 || true; exit 2; }
  for ((s = 1; s <= subs; s++)); do
    mkdir -p "$subs_dir/s$s"
    program "$rt" "$subs_dir/s$s"
  done
  rm -f "$pack"/model/*.class "$pack"/model/main
  for level in $levels; do
    out=$work/$rt/out-$level
    weaker=()
    [ "$level" = group ] && weaker=(--allow-weaker-containment)
    before=$(cut -d' ' -f1-3 /proc/loadavg)
    t0=$(date +%s%N)
    code=0
    CONFORMANCE_CONTAINMENT=$level "$harness" mark --spec "$pack" "$subs_dir" --out "$out" \
      --jobs "$jobs" "${weaker[@]}" >"$work/$rt/log-$level" 2>&1 || code=$?
    t1=$(date +%s%N)
    after=$(cut -d' ' -f1-3 /proc/loadavg)
    csv=$out/marks.csv
    # Per row: passed, failed and the first cause, found by the header's
    # names. A failed case not the environment's is a start failure
    # charged (the programs are correct).
    read -r passed charged env < <(awk -F, '
      NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      { p += $col["passed"]
        if ($0 ~ /environment: /) e++
        else if ($col["failed"] + $col["errors"] > 0) c++ }
      END { print p + 0, c + 0, e + 0 }' "$csv" 2>/dev/null || echo "? ? ?")
    printf '%-6s %-8s %5d case runs passed  %6.1f s  exit %d  submissions charged a failure: %s  struck by the environment: %s  load %s -> %s\n' \
      "$rt" "$level" "$passed" "$(echo "($t1 - $t0) / 1000000000" | bc -l)" "$code" "$charged" "$env" "$before" "$after"
  done
done
