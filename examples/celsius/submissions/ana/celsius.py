# Correct by the text: another message, the example's prompt.
import sys

while True:
    print("Celsius: ", end="", flush=True)
    line = sys.stdin.readline()
    if line == "":
        sys.exit(1)
    text = line.strip()
    try:
        ok = text.lstrip("+-").replace(".", "", 1).isdigit()
        c = float(text) if ok else None
    except ValueError:
        c = None
    if c is None:
        print("Please type a number, like 21.5")
    elif c < -273.15:
        print("Nothing is colder than -273.15 C")
    else:
        print(f"Fahrenheit: {c * 9 / 5 + 32:.1f}")
        sys.exit(0)
