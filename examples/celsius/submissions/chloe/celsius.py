# Correct by the text: two spaces after the prompt's colon, a message of
# her own, and a goodbye at the end of input (the text leaves it free).
import re
import sys

while True:
    sys.stdout.write("Celsius:  ")
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        print()
        print("Bye.")
        sys.exit(1)
    line = line.strip(" \t\n")
    if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)", line) and float(line) >= -273.15:
        c = float(line)
        print("Fahrenheit: " + format(c * 9 / 5 + 32, ".1f"))
        sys.exit(0)
    print("Invalid temperature!")
