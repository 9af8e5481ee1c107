#!/bin/sh
# The Java class bench (issue 53, docs/benchmarks.md): a MOOC exercise
# ("read integers until -1, then print the sum, the count, the average,
# the even and odd counts"; class Main in the default package, Scanner),
# a pack of 35 cases in 5 categories with a Python checker per category,
# and a class of 32 programs written for it (a correct one, correct ones
# in other wordings, real bugs). Blesses the pack, marks the class with
# `mark --jobs 2`, then times one student's check, and prints the times
# with the machine's load.
#
#   harness/benches/java-class.sh [HARNESS]   # default target/release/boxes-harness
#
# JAVA_CLASS_OLD=1 measures the way before issue 53's item 6 with the same
# harness: the pack's kept traces removed after bless (the model then runs
# at mark to name failures) and `java-start: plain` (no start-up options,
# no class-data archive). JAVA_CLASS_SUBSET=N marks only the first N
# programs (a subset under load). JAVA_CLASS_ONLY=check skips the class's
# `mark`: bless, then the single check alone. JAVA_CLASS_ONLY=junit marks
# the class the course's way instead: JUnit 4 tests of the same 35 inputs
# and checks (java-class/MoocTest.java, Main.main called in the test's
# JVM), each program compiled with its tests and run in one JVM, two
# programs at a time (needs /usr/share/java/junit4.jar and
# hamcrest-core.jar: Debian's junit4). Each step prints its wall time and
# the CPU time (user + system) it and its children used.
#
# The run line is `java -cp . Main`, as `new-pack --model "java -cp .
# Main"` writes it; JAVA_CLASS_JFLAGS="..." puts options before `-cp`
# (the figures of session 60 were taken with JAVA_CLASS_JFLAGS="-Xmx256m
# -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=32m
# -XX:+UseSerialGC -XX:TieredStopAtLevel=1").
#
# The single check runs twice, each with the cache folder of its own
# (docs/java.md): first with nothing kept (its start-check run makes the
# class-data archive), then again unchanged (it starts from the kept one).
# Every step's archives go to a cache folder under the temporary one,
# never the user's.
#
# Needs java, javac, python3 and /usr/bin/time. Everything is made under
# a temporary folder, removed at the end.
set -eu
HARNESS=${1:-target/release/boxes-harness}
HARNESS=$(cd "$(dirname "$HARNESS")" && pwd)/$(basename "$HARNESS")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export CONFORMANCE_CACHE="$W/cache"
P=$W/pack
mkdir -p "$P/model"
# Options on the run line, if any (docs/java.md: memory and speed).
JFLAGS=${JAVA_CLASS_JFLAGS:-}

# The pack.
cat > "$P/pack.yaml" <<Y
name: mooc
model:
  dir: model
  build: javac -encoding UTF-8 *.java
  command: "java $JFLAGS -cp . Main"
submissions:
  program: Main.java
  build: javac -encoding UTF-8 *.java
  run: "java $JFLAGS -cp . Main"
timeout: 10s
Y
[ "${JAVA_CLASS_OLD:-}" = 1 ] && echo "java-start: plain" >> "$P/pack.yaml"
cat > "$P/suite.yaml" <<'Y'
name: mooc
version: "1"
spec: mooc-rulings.md
categories:
  - {name: sum, marks: 1}
  - {name: count, marks: 1}
  - {name: average, marks: 1}
  - {name: parity, marks: 1}
  - {name: stop, marks: 1}
Y
echo "# mooc: read integers until -1; print sum, count, average, even, odd" > "$P/mooc-rulings.md"
cat > "$P/rules.yaml" <<'Y'
rules:
  - {id: SUM-1, summary: "the sum", ambiguous: no, match: {stdout: {checker: "python3 {pack}/check.py sum"}}}
  - {id: COUNT-1, summary: "the count", ambiguous: no, match: {stdout: {checker: "python3 {pack}/check.py count"}}}
  - {id: AVG-1, summary: "the average", ambiguous: no, match: {stdout: {checker: "python3 {pack}/check.py average"}}}
  - {id: PAR-1, summary: "even and odd counts", ambiguous: no, match: {stdout: {checker: "python3 {pack}/check.py parity"}}}
  - {id: STOP-1, summary: "nothing read after -1", ambiguous: no, match: {stdout: {checker: "python3 {pack}/check.py sum"}}}
Y
cat > "$P/check.py" <<'Y'
import os, re, sys
want = {"sum": ["sum"], "count": ["count"], "average": ["average"],
        "parity": ["even", "odd"]}[sys.argv[1]]
def values(path):
    found = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        low = line.lower()
        for key in ["sum", "count", "average", "even", "odd"]:
            if key in low:
                nums = re.findall(r"-?\d+(?:\.\d+)?", line)
                if nums:
                    found.setdefault(key, nums[-1])
    return found
exp = values(os.environ["CONFORMANCE_EXPECTED"])
act = values(os.environ["CONFORMANCE_ACTUAL"])
for key in want:
    if key not in exp:
        continue
    e, a = exp[key], act.get(key)
    if a is None or abs(float(a) - float(e)) > 1e-6:
        print(f"{key}: expected {e}, got {a}")
        sys.exit(1)
sys.exit(0)
Y
main() { # $1: folder, $2: body of the loop's input handling, $3: the printing
  mkdir -p "$1"
  cat > "$1/Main.java" <<J
import java.util.Scanner;
public class Main {
    public static void main(String[] args) {
        Scanner sc = new Scanner(System.in);
        int sum = 0, count = 0, even = 0, odd = 0;
        System.out.println("Give numbers:");
        while (true) {
            int n = Integer.parseInt(sc.nextLine().trim());
$2
        }
$3
    }
}
J
}
LOOP='            if (n == -1) break;
            sum += n; count++;
            if (n % 2 == 0) even++; else odd++;'
PRINT='        System.out.println("Thx! Bye!");
        System.out.println("Sum: " + sum);
        System.out.println("Numbers: " + count);
        if (count > 0) System.out.println("Average: " + (1.0 * sum / count));
        System.out.println("Even: " + even);
        System.out.println("Odd: " + odd);'
main "$P/model" "$LOOP" "$PRINT"

# 35 cases: 7 a category.
n=0
for cat in sum count average parity stop; do
  rule=$(echo "$cat" | tr a-z A-Z); case $cat in average) rule=AVG;; parity) rule=PAR;; esac
  for input in "5\n2\n4\n-1\n" "-1\n" "7\n-1\n" "3\n3\n3\n-1\n" "10\n-5\n8\n-1\n" "1\n2\n3\n4\n5\n6\n-1\n" "100\n-1\n4\n5\n"; do
    n=$((n + 1))
    mkdir -p "$P/$cat"
    printf 'summary: "%s case %d"\ncategory: %s\nrules: [%s-1]\nstdin: "%s"\n' \
      "$cat" "$n" "$cat" "$rule" "$input" > "$P/$cat/c$n.yaml"
  done
done

# 32 programs: 12 correct (4 wordings), 20 with bugs.
S=$W/subs
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do main "$S/ok$i" "$LOOP" "$PRINT"; done
for i in 05 06 07 08; do sed -i 's/Thx! Bye!/Thank you!/; s/"Numbers: "/"Count: "/' "$S/ok$i/Main.java"; done
for i in 09 10 11 12; do sed -i 's/"Sum: "/"The sum is "/; s/"Average: "/"average "/' "$S/ok$i/Main.java"; done
bug() { main "$S/bug$1" "$2" "$PRINT"; }
for i in 01 02 03 04; do # counts -1 in the sum and the count
  bug "$i" '            sum += n; count++; if (n % 2 == 0) even++; else odd++;
            if (n == -1) break;'; done
for i in 05 06 07 08; do # integer average
  main "$S/bug$i" "$LOOP" "$(printf '%s' "$PRINT" | sed 's|(1.0 \* sum / count)|(sum / count)|')"; done
for i in 09 10 11 12; do # skips negative numbers
  bug "$i" '            if (n == -1) break;
            if (n < 0) continue;
            sum += n; count++; if (n % 2 == 0) even++; else odd++;'; done
for i in 13 14 15 16; do # -5 % 2 is -1: negative odd numbers are neither
  bug "$i" '            if (n == -1) break;
            sum += n; count++;
            if (n % 2 == 0) even++; else if (n % 2 == 1) odd++;'; done
for i in 17 18 19 20; do # average printed for no numbers: NaN
  main "$S/bug$i" "$LOOP" "$(printf '%s' "$PRINT" | sed 's|if (count > 0) ||')"; done

# The single check's program, kept apart from the class.
cp -r "$S/bug09" "$W/one"
if [ -n "${JAVA_CLASS_SUBSET:-}" ]; then
  # Every k-th program, so the subset keeps the class's mix.
  k=$(( $(ls "$S" | wc -l) / JAVA_CLASS_SUBSET ))
  ls "$S" | awk -v k="$k" -v n="$JAVA_CLASS_SUBSET" '(NR - 1) % k != 0 || (NR - 1) / k >= n' \
    | while read -r s; do rm -rf "${S:?}/$s"; done
fi
load() { uptime | sed 's/.*load average: //'; }
cpu() { sed -n 's/^cpu \([0-9.]*\) \([0-9.]*\)$/\1 s user + \2 s system/p' "$W/time"; }
echo "java-class: $(ls "$S" | wc -l) programs, $(find "$P" -name 'c*.yaml' | wc -l) cases; load $(load)"
if [ "${JAVA_CLASS_ONLY:-}" = junit ]; then
  CP=/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar:.
  for s in "$S"/*; do cp "$(dirname "$0")/java-class/MoocTest.java" "$s/"; done
  t0=$(date +%s.%N)
  # One program: compiled with its tests, run in one JVM; its line of
  # JUnit's summary ("OK (35 tests)" or "Tests run: 35,  Failures: N").
  ls -d "$S"/* | /usr/bin/time -o "$W/time" -f 'cpu %U %S' xargs -P 2 -I{} sh -c \
    'cd {} && javac -cp "'"$CP"'" Main.java MoocTest.java \
      && java -cp "'"$CP"'" org.junit.runner.JUnitCore MoocTest \
      | grep -E "^OK|^Tests run" | sed "s|^|$(basename {}): |"' > "$W/junit.out" 2>&1 || true
  t1=$(date +%s.%N)
  echo "JUnit, one JVM a program, 2 at a time: $(echo "$t1 - $t0" | bc) s ($(cpu)); load $(load)"
  echo "$(grep -c ': OK' "$W/junit.out") of $(ls "$S" | wc -l) programs pass every test"
  sort "$W/junit.out"
  exit 0
fi
t0=$(date +%s.%N)
set +e
/usr/bin/time -o "$W/time" -f 'cpu %U %S' "$HARNESS" bless --spec "$P" >"$W/bless.out" 2>&1 \
  || { tail -20 "$W/bless.out"; exit 1; }
set -e
t1=$(date +%s.%N)
echo "bless: $(echo "$t1 - $t0" | bc) s ($(cpu)); load $(load)"
if [ "${JAVA_CLASS_OLD:-}" = 1 ]; then
  find "$P" -name 'c*.yaml' -exec sed -i '/^trace: /d' {} +
fi
if [ "${JAVA_CLASS_ONLY:-}" != check ]; then
  t0=$(date +%s.%N)
  set +e
  /usr/bin/time -o "$W/time" -f 'cpu %U %S' \
    "$HARNESS" mark --spec "$P" "$S" --out "$W/marks" --jobs 2 >/dev/null 2>"$W/mark.err"
  rc=$?
  set -e
  t1=$(date +%s.%N)
  echo "mark --jobs 2: $(echo "$t1 - $t0" | bc) s ($(cpu)), exit $rc; load $(load)"
  tail -3 "$W/mark.err"
  sed -n '1,40p' "$W/marks/marks.csv" | cut -d, -f1,5,7-12
fi
cd "$W/one" && javac Main.java
for run in "first, nothing kept" "again, its archive kept"; do
  t0=$(date +%s.%N)
  CONFORMANCE_CACHE="$W/cache-one" /usr/bin/time -o "$W/time" -f 'cpu %U %S' \
    "$HARNESS" --spec "$P" --bin "java $JFLAGS -cp . Main" >"$W/one.out" 2>&1 || true
  t1=$(date +%s.%N)
  echo "one check (bug09, built; $run): $(echo "$t1 - $t0" | bc) s ($(cpu)); load $(load)"
done
tail -1 "$W/one.out"
