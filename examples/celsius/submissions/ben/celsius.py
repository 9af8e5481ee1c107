# Correct by the text: the prompt with one space less, and its own messages.
import re
import sys

NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")


def ask():
    while True:
        sys.stdout.write("Celsius:")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            return None
        text = line.strip()
        if not NUMBER.fullmatch(text):
            print("error: not a number")
            continue
        value = float(text)
        if value < -273.15:
            print("error: below absolute zero")
            continue
        return value


c = ask()
if c is None:
    sys.exit(1)
print("Fahrenheit: %.1f" % (c * 1.8 + 32))
