#!/usr/bin/env bash
# `verify` against problemtools' `verifyproblem -p submissions` on the
# problem packages of examples/problems, side by side on this machine:
# runs alternated (so drift in the load falls on both alike), both tools
# given the same compile and run lines (problemtools' languages.yaml is
# overridden with this harness's default table), wall time of each and
# the ratio. problemtools is installed with pip into a venv under /tmp
# the first time (it needs no compiler to install).
#
#   harness/benches/problem-packages.sh [HARNESS_EXE] [ROUNDS]
#
# HARNESS_EXE defaults to target/release/boxes-harness (else
# target/debug/boxes-harness); ROUNDS to 1. docs/benchmarks.md has the
# figures.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
exe=${1:-$here/target/release/boxes-harness}
[ -x "$exe" ] || exe=$here/target/debug/boxes-harness
rounds=${2:-1}
venv=${PROBLEMTOOLS_VENV:-/tmp/problemtools-venv}
if [ ! -x "$venv/bin/verifyproblem" ]; then
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install -q problemtools
fi
work=$(mktemp -d /tmp/problem-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/config/problemtools"
# This harness's default lines (harness/engine/src/packs/problem/languages.rs).
cat >"$work/config/problemtools/languages.yaml" <<'EOF'
c:
    compile: 'gcc -g -O2 -std=gnu11 -o {binary} {files} -lm'
    run: '{binary}'
cpp:
    compile: 'g++ -g -O2 -std=gnu++17 -o {binary} {files}'
    run: '{binary}'
java:
    compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'
    run: 'java -Dfile.encoding=UTF-8 -XX:+UseSerialGC -XX:ActiveProcessorCount=1 -XX:ReservedCodeCacheSize=64m -XX:CompressedClassSpaceSize=128m -Xss64m -Xmx{memlim}m -cp {path} {mainclass}'
python3:
    name: 'Python 3'
    compile: 'python3 -m py_compile {files}'
    run: 'python3 "{mainfile}"'
javascript:
    compile: 'node --check {files}'
    run: 'node "{mainfile}"'
kotlin:
    compile: 'kotlinc -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -d {path} {files}'
    run: 'kotlin -J-Dfile.encoding=UTF-8 -J-XX:+UseSerialGC -J-XX:ActiveProcessorCount=1 -J-XX:ReservedCodeCacheSize=64m -J-XX:CompressedClassSpaceSize=128m -J-Xss64m -J-Xmx{memlim}m -cp {path} {Mainclass}Kt'
EOF
cp -r "$here/examples/problems/." "$work/"
ms() { # prints the wall milliseconds of a command and its exit status
  local t0 t1 status=0
  t0=$(date +%s%N)
  "$@" >"$work/last.log" 2>&1 || status=$?
  t1=$(date +%s%N)
  echo "$(((t1 - t0) / 1000000)) $status"
}
vrun() { ms "$exe" verify --spec "$dir"; }
prun() { (cd "$work" && XDG_CONFIG_HOME="$work/config" ms "$venv/bin/verifyproblem" "$p" -p submissions); }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $exe"
printf '%-10s %12s %12s %7s\n' package verify_ms problemtools_ms ratio
total_v=0 total_p=0
for dir in "$work"/*/; do
  p=$(basename "$dir")
  [ -f "$dir/problem.yaml" ] || continue
  v=0 t=0
  for ((i = 0; i < rounds; i++)); do
    if ((i % 2 == 0)); then
      read -r a vs < <(vrun); read -r b ps < <(prun)
    else
      read -r b ps < <(prun); read -r a vs < <(vrun)
    fi
    v=$((v + a)) t=$((t + b))
  done
  total_v=$((total_v + v)) total_p=$((total_p + t))
  printf '%-10s %12d %12d %7s   (exit: verify %s, verifyproblem %s)\n' "$p" $((v / rounds)) $((t / rounds)) \
    "$(awk -v a=$v -v b=$t 'BEGIN { printf "%.2f", a / b }')" "$vs" "$ps"
done
printf '%-10s %12d %12d %7s\n' total $((total_v / rounds)) $((total_p / rounds)) \
  "$(awk -v a=$total_v -v b=$total_p 'BEGIN { printf "%.2f", a / b }')"
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
