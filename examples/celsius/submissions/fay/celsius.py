# A real missing check: no absolute zero (IO-3).
import re
import sys

while True:
    print("Celsius: ", end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        sys.exit(1)
    text = line.strip()
    if not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)", text):
        print("Not a number.")
        continue
    print(f"Fahrenheit: {float(text) * 9 / 5 + 32:.1f}")
    sys.exit(0)
