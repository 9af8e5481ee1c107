import sys

# validate.py input answer feedback_dir < program's output
n = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
words = sys.stdin.read().split()


def reject(why):
    with open(feedback + "/judgemessage.txt", "w") as f:
        f.write(why + "\n")
    sys.exit(43)


if len(words) != 2 or not all(w.isdigit() for w in words):
    reject(f"expected two positive integers, got {' '.join(words)[:60]!r}")
a, b = map(int, words)
if a < 1 or b < 1 or a + b != n:
    reject(f"{a} + {b} is not {n}")
sys.exit(42)
