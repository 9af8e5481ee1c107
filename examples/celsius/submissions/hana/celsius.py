# Accepts a line the model refuses: the number at the start of the line,
# whatever follows it ("12abc" is 12), so it prompts once where the model
# prompts twice (IO-2).
import re
import sys

while True:
    print("Celsius: ", end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        sys.exit(1)
    found = re.match(r"\s*([+-]?(\d+\.?\d*|\.\d+))", line)
    if not found:
        print("That is not a temperature.")
        continue
    c = float(found.group(1))
    if c < -273.15:
        print("That is below absolute zero.")
        continue
    print(f"Fahrenheit: {c * 9 / 5 + 32:.1f}")
    sys.exit(0)
