# Correct by the text: the prompt and messages as the example shows them.
import re
import sys

while True:
    print("Celsius: ", end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        sys.exit(1)
    text = line.strip(" \t\n")
    if not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)", text):
        print("That is not a temperature.")
    elif float(text) < -273.15:
        print("That is below absolute zero.")
    else:
        print(f"Fahrenheit: {float(text) * 9 / 5 + 32:.1f}")
        sys.exit(0)
