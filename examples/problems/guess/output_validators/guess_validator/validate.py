import os
import sys

# validate.py input answer feedback_dir < program's output > program's input
secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]


def reject(why):
    with open(feedback + "/judgemessage.txt", "w") as f:
        f.write(why + "\n")
    sys.exit(43)


def say(reply):
    # A program that stopped reading is its own failure, not a crash of
    # this validator (which would be a fault of the package).
    try:
        print(reply, flush=True)
    except BrokenPipeError:
        # What is left unwritten goes nowhere at exit (else exit 120).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        reject(f"the program stopped reading after {turn} guesses")


for turn in range(1, 11):
    line = sys.stdin.readline()
    if not line:
        reject(f"the program stopped after {turn - 1} guesses")
    try:
        guess = int(line)
    except ValueError:
        reject(f"guess {turn} is not a number: {line.strip()!r}")
    if guess == secret:
        say("correct")
        sys.exit(42)
    say("lower" if guess > secret else "higher")
reject(f"10 guesses without finding {secret}")
