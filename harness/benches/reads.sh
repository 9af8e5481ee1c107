#!/bin/sh
# Read counts of real buffered readers, 100 runs each (issue 53: "each
# the same count on 100 runs, or declared not judged"): C `scanf`, Python
# `input()` and `sys.stdin`, Java `Scanner`, Node `readline`, each fed
# "3 4 -1 5 6" a line at a time as the harness feeds a counted run. The
# tests in `exec::run::reads_tests` run 3 times each under `cargo test`;
# this script runs them RUNS times (default 100) and prints, per reader,
# the lines read by certain runs and how many runs were uncertain (not
# judged). A runtime not installed prints SKIPPED. From the repository:
#
#   harness/benches/reads.sh [RUNS]
#
# Figures: docs/benchmarks.md ("Read counts").
set -eu
runs=${1:-100}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
CONFORMANCE_READS_RUNS=$runs cargo test -p conformance-engine --lib reads_tests -- \
    --nocapture --test-threads 1 2>&1 | grep -oE '(reads: .*|SKIPPED .*|test result.*|panicked.*|  left.*|  right.*)'
echo "took $(( $(date +%s) - start )) s; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
