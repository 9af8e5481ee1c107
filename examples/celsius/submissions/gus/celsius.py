# No message where one is required: a bad line gets the prompt again
# without a word (IO-2).
import re
import sys

while True:
    print("Celsius: ", end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        sys.exit(1)
    text = line.strip()
    if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)", text) and float(text) >= -273.15:
        print(f"Fahrenheit: {float(text) * 9 / 5 + 32:.1f}")
        sys.exit(0)
