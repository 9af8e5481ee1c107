"""celsius: the model solution of examples/celsius (assignment.md, with
celsius-rulings.md). It marks its output with the span protocol
(conformance_span.py, a copy of span/'s), so a student's difference is
named by rule; untraced, the marks cost nothing.

CELSIUS_READING=lenient reads IO-6's other reading (exponent form is a
number); anything else is the strict reading.
"""

import os
import re
import sys

import conformance_span as span

STRICT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)")
LENIENT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
ABSOLUTE_ZERO = -273.15


def main():
    span.install()
    lenient = os.environ.get("CELSIUS_READING") == "lenient"
    number = LENIENT if lenient else STRICT
    while True:
        span.enter("IO-1", "the prompt")
        sys.stdout.write("Celsius: ")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            # IO-5: what follows the last prompt is free (the stop is
            # where the harness applies IO-5's `match:`).
            span.stopped("IO-5", "end-of-input",
                         "input ended before a valid temperature", "IO-5",
                         "IO-5 ends with status 1 at the end of input")
            return 1
        text = line.strip(" \t\n")
        if not number.fullmatch(text):
            rule = "IO-6" if LENIENT.fullmatch(text) else "IO-2"
            span.rejected(rule, "not-a-number", "a line that is not a number",
                          line.rstrip("\n"), f"{rule} rejects it (not a number)")
            span.enter(rule, "the error message")
            print("That is not a temperature.", flush=True)
            continue
        celsius = float(text)
        if celsius < ABSOLUTE_ZERO:
            span.rejected("IO-3", "below-zero", "a temperature below absolute zero",
                          line.rstrip("\n"),
                          "IO-3 rejects it (below -273.15)")
            span.enter("IO-3", "the error message")
            print("That is below absolute zero.", flush=True)
            continue
        span.enter("IO-4", "the temperature in Fahrenheit")
        print(f"Fahrenheit: {celsius * 9 / 5 + 32:.1f}", flush=True)
        return 0


if __name__ == "__main__":
    sys.exit(main())
