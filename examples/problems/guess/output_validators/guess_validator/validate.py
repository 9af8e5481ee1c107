import sys

# validate.py input answer feedback_dir < program's output > program's input
secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]


def reject(why):
    with open(feedback + "/judgemessage.txt", "w") as f:
        f.write(why + "\n")
    sys.exit(43)


for turn in range(1, 11):
    line = sys.stdin.readline()
    if not line:
        reject(f"the program stopped after {turn - 1} guesses")
    try:
        guess = int(line)
    except ValueError:
        reject(f"guess {turn} is not a number: {line.strip()!r}")
    if guess == secret:
        print("correct", flush=True)
        sys.exit(42)
    print("lower" if guess > secret else "higher", flush=True)
reject(f"10 guesses without finding {secret}")
