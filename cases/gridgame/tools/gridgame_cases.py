#!/usr/bin/env python3
"""Writes the inputs of the gridgame suite (cases/gridgame/) from the list
below; the expected fields come from the reference through the harness:

    python3 cases/gridgame/tools/gridgame_cases.py
    cargo run -p boxes-harness -- bless --spec gridgame --cases cases/gridgame

Every case cites the rule IDs it checks (gridgame-rulings.md); a case whose
expected bytes rest on a ruling marked (ambiguous), set-up included, is
tagged `ambiguous`. Read what bless wrote against the rulings before
committing.
"""

import base64
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.dirname(HERE)
CATEGORIES = ["pre-game", "display", "human-input", "computer-first-level",
              "computer-tie-break", "extra-turn", "post-game", "full-games"]
AMB = ["ambiguous"]

HINTS = {
    "pre-game": "The size prompt 'What size grid would you like? (2..8) ' (no newline); a line "
                "that is not 2 to 8 prints 'Sorry, try again.' and the prompt again; end of "
                "input there ends the program.",
    "display": "Dot rows 'a +-+ +', box rows of '|' and H or C, every row 2N+3 bytes with its "
               "trailing spaces, then the column index '  1 2 3 ' and 'You: 0    Me: 0' and an "
               "empty line.",
    "human-input": "Keep only ASCII letters and digits; 'Q' quits; four left name two dots "
                   "(letter and digit in either order) one open edge apart; anything else is "
                   "'Sorry, try again.' and the prompt, no grid.",
    "computer-first-level": "Complete a box with three sides if any; else avoid giving any box "
                            "its third side; else any open edge.",
    "computer-tie-break": "Then the most open edges at the two dots, then the smallest x-sum "
                          "(columns), then the smallest y-sum (rows, counted from the top).",
    "extra-turn": "A move that completes a box (or two) gives the same player one more turn.",
    "post-game": "The grid, an empty line, 'Final Score:', '  You:H', '  Me :C', then "
                 "'Congratulations!', 'Better luck next time.' or 'I think we need a rematch.'.",
    "full-games": "The game ends right after the last edge: an empty line, the grid, the "
                  "final score and the farewell.",
}

CASES = []


def case(cat, name, summary, rules, stdin, tags=(), args=(), mode=None):
    CASES.append(dict(cat=cat, name=name, summary=summary, rules=list(rules),
                      stdin=stdin.encode("latin-1") if isinstance(stdin, str) else stdin,
                      tags=list(tags), args=list(args), mode=mode))


def edges(n):
    """Every edge of an n x n grid as a move line, rows top down."""
    out = []
    for r in range(n + 1):
        for c in range(n):
            out.append(f"{chr(97 + r)}{c + 1} {chr(97 + r)}{c + 2}")
    for r in range(n):
        for c in range(n + 1):
            out.append(f"{chr(97 + r)}{c + 1} {chr(98 + r)}{c + 1}")
    return out


def whole_game(n, order):
    """A game the human plays by trying every edge in `order` (taken ones
    are bad lines), three rounds: always enough to reach the last edge."""
    return f"{n}\n" + "".join(line + "\n" for line in order * 3)


# ------------------------------------------------------------------ pre-game
P = "pre-game"
D = "display"
case(P, "size-2", "a size of 2, then a quit", ["PRE-1", "PRE-2", "PROG-3", "MOVE-3"], "2\nQ\n")
case(P, "size-8-then-end-of-input", "a size of 8, then end of input at the move prompt",
     ["PRE-2", "MOVE-2"], "8\n")
case(P, "nine-one-then-three", "9 and 1 are rejected, then 3", ["PRE-2", "PRE-3"],
     "9\n1\n3\nQ\n")
case(P, "worked-example-sizes", "the rulings' example: x, 9, then ' 3 ', then end of input",
     ["PRE-2", "PRE-3", "MOVE-2"], "x\n9\n 3 \n", AMB)
case(P, "end-of-input-at-size-prompt", "end of input at the size prompt: just the prompt",
     ["PRE-1", "PRE-4"], "")
case(P, "end-of-input-after-a-rejected-size", "0 rejected, then end of input",
     ["PRE-3", "PRE-4"], "0\n")
case(P, "negative-size", "-3 is rejected, then 2", ["PRE-2", "PRE-3"], "-3\n2\nQ\n")
case(P, "huge-size-never-wraps", "a 20-digit size is rejected, never wrapped",
     ["PRE-2", "PRE-3"], "99999999999999999994\n2\nQ\n")
case(P, "size-line-high-bytes", "a size line of bytes above 127 (0xFF first) is rejected, then 2",
     ["PRE-2", "PRE-3", "IN-1"], "\xff\x80\n2\nQ\n")
case(P, "sign-and-leading-zero", "+05 is 5", ["PRE-2"], "+05\nQ\n", AMB)
case(P, "carriage-return-after-size", "5 followed by a CR is 5", ["PRE-2", "IN-1"],
     "5\r\nQ\n", AMB)
case(P, "blank-line-rejected", "a blank line is rejected", ["PRE-2", "PRE-3"],
     "\n4\nQ\n", AMB)
case(P, "trailing-bytes-rejected", "5x, 2.5 and '3 a1 a2' are rejected",
     ["PRE-2", "PRE-3"], "5x\n2.5\n3 a1 a2\n2\nQ\n", AMB)
case(P, "unterminated-size-line", "a last line '4' without newline is a size; then the end",
     ["IN-2", "PRE-2", "MOVE-2"], "4", AMB)
case(P, "prompt-at-a-terminal", "at a terminal each prompt shows before the program reads",
     ["PROG-3", "PRE-1", "MOVE-1"], "2\na1 a2\nQ\n", mode="interactive")
case(D, "worked-session-at-a-terminal", "the worked session typed at a terminal",
     ["PROG-3", "DISP-1", "COMP-8"], "2\na1 a2\n2a,b2\nQ\n", mode="interactive")
case(P, "arguments-ignored", "arguments are ignored", ["PROG-1", "PRE-1"], "2\nQ\n", AMB,
     args=["5", "-x"])
case(P, "exit-status-zero", "a quit ends with status 0", ["PROG-2", "POST-3"], "2\nQ\n", AMB)
case(P, "stdout-full", "a stdout that cannot be written: status 1, nothing on stderr",
     ["SYS-1"], "2\nQ\n", AMB, mode="stdout-full")

# ------------------------------------------------------------------ display
D = "display"
for n in range(2, 9):
    case(D, f"empty-{n}x{n}", f"the empty {n} x {n} grid, its index and the score line",
         ["DISP-1", "DISP-2", "DISP-3", "DISP-4", "SCORE-1", "TURN-2"], f"{n}\nQ\n")
case(D, "owners-and-scores", "boxes drawn with their owner, scores counted (the worked session)",
     ["DISP-1", "APPLY-1", "SCORE-1", "DISP-5"], "2\na1 a2\n2a,b2\nQ\n")
case(D, "no-grid-after-a-bad-line", "a rejected move line reprints only the prompt",
     ["DISP-5", "MOVE-6"], "2\nzz\nQ\n")
case(D, "grid-after-every-move", "each turn prints the grid and the score again",
     ["TURN-2", "DISP-5", "APPLY-3"], "3\nb2 b3\nQ\n")

# ------------------------------------------------------------------ human-input
H = "human-input"
for name, line in [("space", "a1 a2"), ("reversed", "a2 a1"), ("no-space", "a1a2"),
                   ("digit-first-comma", "2a,b2"), ("parentheses", "(a1, a2)"),
                   ("digit-first-hyphen", "1a-1b"), ("tab", "a1\ta2"),
                   ("carriage-return", "a1 a2\r"), ("nul", "a1\0a2"),
                   ("byte-above-127", "a1\xffa2")]:
    case(H, f"accepted-{name}", f"the move {line!r} is accepted",
         ["MOVE-3", "MOVE-4", "MOVE-5", "APPLY-3"], f"2\n{line}\nQ\n")
for name, line in [("two-apart", "a1 a3"), ("diagonal", "a1 b2"), ("same-dot", "a1 a1"),
                   ("ten", "a10 a2"), ("three-dots", "a1 a2 b2"), ("quit-word", "quit"),
                   ("column-zero", "a0 a1"), ("row-off-grid", "d1 d2"),
                   ("column-off-grid", "a3 a4"), ("empty", ""), ("two-letters", "aa11")]:
    case(H, f"rejected-{name}", f"the line {line!r} is rejected", ["MOVE-4", "MOVE-5", "MOVE-6"],
         f"2\n{line}\nQ\n")
case(H, "closed-edge-rejected", "an edge already filled is rejected", ["MOVE-5", "MOVE-6"],
     "2\na1 a2\na2 a1\nQ\n")
case(H, "lower-case-q-is-a-bad-line", "a lone q is no quit", ["MOVE-3", "MOVE-6"],
     "2\nq\nQ\n", AMB)
case(H, "upper-case-row-letters", "A1 A2 is out of range", ["MOVE-4", "MOVE-6"],
     "2\nA1 A2\nQ\n", AMB)
case(H, "quit-among-junk", "' Q!' keeps only Q: a quit", ["MOVE-3", "POST-3"], "2\n Q!\n")
case(H, "long-junk-line", "a 100,000-byte line is one bad line", ["IN-1", "MOVE-6"],
     "2\n" + "x" * 100000 + "\nQ\n")
case(H, "accepted-past-4096-bytes", "a move padded with spaces to 4,097 bytes is accepted",
     ["IN-1", "MOVE-3", "MOVE-5"], "2\na1" + " " * 4093 + "a2\nQ\n")
case(H, "many-bad-lines", "every bad line prints Sorry and the prompt again",
     ["MOVE-6", "MOVE-1"], "2\n\n-\na1\nb\nQ\n")

# ------------------------------------------------------------------ computer
C = "computer-first-level"
case(C, "avoids-a-third-side", "after a1 a2 no box has two sides: the computer plays b1 b2",
     ["COMP-3", "COMP-5", "COMP-6", "COMP-8"], "2\na1 a2\nQ\n")
case(C, "completes-a-box", "a box with three sides: the computer completes it",
     ["COMP-2", "COMP-8", "APPLY-1"], "2\na1 a2\n2a,b2\nQ\n")
case(C, "completes-on-3x3", "on 3 x 3 the computer takes a box the human left at three",
     ["COMP-2", "APPLY-1"], "3\na1 a2\na1 b1\nb1 b2\nQ\n")
case(C, "every-edge-gives-a-third", "no safe edge left: any open edge (COMP-4)",
     ["COMP-4", "COMP-5"], "2\na1 a2\na2 a3\nc1 c2\nc2 c3\na1 b1\nb1 c1\na3 b3\nb3 c3\nQ\n")
T = "computer-tie-break"
case(T, "x-sum-decides", "b1 b2, b2 b3 and b2 c2 tie at 7: the smallest x-sum wins",
     ["COMP-5", "COMP-6", "COMP-1"], "2\na1 a2\nQ\n")
case(T, "y-sum-decides", "after b1 b2: a2 b2 and b2 c2 tie twice, the smaller y-sum wins",
     ["COMP-5", "COMP-6", "COMP-7", "COMP-1"], "2\nb1 b2\nQ\n", AMB)
case(T, "freedom-decides", "on 4 x 4 the edge with the most open edges at its dots",
     ["COMP-5", "COMP-8"], "4\na1 a2\nQ\n")
case(T, "x-sum-after-a-completion", "after completing, c1 c2 has the smallest x-sum of six",
     ["COMP-2", "COMP-5", "COMP-6"], "2\na1 a2\n2a,b2\nQ\n")

# ------------------------------------------------------------------ extra turns
E = "extra-turn"
case(E, "computer-moves-again", "the computer completes a box and moves again",
     ["APPLY-2", "TURN-1", "COMP-2"], "2\na1 a2\n2a,b2\nQ\n")
case(E, "human-moves-again", "the human completes a box and is asked again",
     ["APPLY-2", "TURN-1", "APPLY-1"],
     "2\n" + "".join(l + "\n" for l in edges(2) * 3))

# ------------------------------------------------------------------ post-game
Q = "post-game"
case(Q, "quit-at-0-0", "a quit at 0-0: a rematch", ["POST-1", "POST-2", "POST-3", "MOVE-3"],
     "2\nQ\n")
case(Q, "end-of-input-at-move-prompt", "end of input at the move prompt: straight to the final grid",
     ["MOVE-2", "POST-1", "POST-3"], "3\n")
case(Q, "computer-ahead-at-quit", "a quit behind: better luck next time",
     ["POST-2", "POST-3"], "2\na1 a2\n2a,b2\nQ\n")
case(Q, "unterminated-last-move", "a last move line without newline is played, then the end",
     ["IN-2", "MOVE-2", "POST-3"], "2\na1 a2", AMB)
case(Q, "end-of-input-after-a-move", "a move on the last line, then end of input: the "
     "computer's reply, then the final grid", ["MOVE-2", "POST-1", "POST-3"], "2\na1 a2\n")
case(Q, "end-of-input-after-bad-lines", "bad lines, then end of input", ["MOVE-2", "MOVE-6"],
     "2\nzz\nyy\n")

# ------------------------------------------------------------------ full games
F = "full-games"
for n in range(2, 9):
    case(F, f"whole-game-{n}x{n}", f"a whole {n} x {n} game, the human trying every edge in order",
         ["APPLY-4", "POST-1", "POST-2", "POST-3", "TURN-1", "COMP-2", "COMP-3", "COMP-4", "PROG-4"],
         whole_game(n, edges(n)))
case(F, "whole-game-2x2-reversed", "a whole 2 x 2 game, the human trying edges in reverse",
     ["APPLY-4", "POST-2"], whole_game(2, edges(2)[::-1]))
case(F, "whole-game-3x3-reversed", "a whole 3 x 3 game, the human trying edges in reverse",
     ["APPLY-4", "POST-2"], whole_game(3, edges(3)[::-1]))


def yaml_str(s):
    out = []
    for ch in s:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif 32 <= o < 127:
            out.append(ch)
        else:
            return None
    return '"' + "".join(out) + '"'


def write():
    for cat in CATEGORIES:
        shutil.rmtree(os.path.join(SUITE, cat), ignore_errors=True)
        os.makedirs(os.path.join(SUITE, cat))
    for c in CASES:
        lines = [f"summary: {yaml_str(c['summary'])}", f"category: {c['cat']}",
                 f"rules: [{', '.join(c['rules'])}]"]
        if c["tags"]:
            lines.append(f"tags: [{', '.join(c['tags'])}]")
        lines.append(f"hint: {yaml_str(HINTS[c['cat']])}")
        if c["mode"]:
            lines.append(f"mode: {c['mode']}")
        if c["args"]:
            lines.append("args: [" + ", ".join(yaml_str(a) for a in c["args"]) + "]")
        stdin = c["stdin"]
        text = yaml_str(stdin.decode("latin-1")) if len(stdin) <= 2000 else None
        if text is not None:
            lines.append(f"stdin: {text}")
        elif len(stdin) <= 2000:
            lines.append(f"stdin-base64: {base64.b64encode(stdin).decode()}")
        else:
            side = c["name"] + ".stdin"
            with open(os.path.join(SUITE, c["cat"], side), "wb") as f:
                f.write(stdin)
            lines.append(f"stdin-file: {side}")
        with open(os.path.join(SUITE, c["cat"], c["name"] + ".yaml"), "w") as f:
            f.write("\n".join(lines) + "\n")
    print(f"wrote {len(CASES)} cases")


if __name__ == "__main__":
    write()
