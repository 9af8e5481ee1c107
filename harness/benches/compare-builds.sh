#!/usr/bin/env bash
# Two builds of the harness on the same command, runs alternated (so drift
# in the machine's load falls on both alike): min and median wall time of
# each, and the second's median as a multiple of the first's.
#
#   harness/benches/compare-builds.sh OLD_EXE NEW_EXE ROUNDS -- ARGS...
#
# e.g. a release build of an older commit against this one on the boxes
# suite (docs/benchmarks.md, "Exact cases, tolerance built in"):
#   harness/benches/compare-builds.sh /tmp/bh-old target/release/boxes-harness 25 -- --spec boxes
set -euo pipefail
if [ $# -lt 4 ] || [ "$4" != "--" ]; then
  echo "usage: $0 OLD_EXE NEW_EXE ROUNDS -- ARGS..." >&2
  exit 2
fi
old=$1 new=$2 rounds=$3
shift 4
for exe in "$old" "$new"; do
  [ -x "$exe" ] || { echo "$0: not an executable: $exe" >&2; exit 2; }
done
run() { # prints the wall time of one run in milliseconds
  local t0 t1
  t0=$(date +%s%N)
  "$1" "${@:2}" >/dev/null 2>&1 || { echo "$0: $1 exited $?" >&2; exit 2; }
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
a=() b=()
for ((i = 0; i < rounds; i++)); do
  if ((i % 2 == 0)); then
    a+=("$(run "$old" "$@")"); b+=("$(run "$new" "$@")")
  else
    b+=("$(run "$new" "$@")"); a+=("$(run "$old" "$@")")
  fi
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
stats() { # min and median of the arguments
  sort -n <<<"$(printf '%s\n' "$@")" | awk '{v[NR]=$1} END {m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "%d %s", v[1], m}'
}
read -r amin amed <<<"$(stats "${a[@]}")"
read -r bmin bmed <<<"$(stats "${b[@]}")"
echo "old: min ${amin} ms, median ${amed} ms over ${rounds} runs"
echo "new: min ${bmin} ms, median ${bmed} ms over ${rounds} runs"
awk -v a="$amed" -v b="$bmed" 'BEGIN {printf "new/old median: %.3f\n", b / a}'
