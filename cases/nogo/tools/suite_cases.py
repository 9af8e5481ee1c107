"""The nogo suite as data: every case's inputs, category, rules, tags and
hint. Expected outputs are not written here: `nogo_cases.py generate` runs
the reference to fill them, and the committed YAML is read by hand against
the rulings (see ../README.md)."""

CATEGORIES = [
    "args-count", "args-dims", "args-types", "args-file", "file-errors",
    "initial-display", "reject-illegal", "single-move", "load", "end-detect",
    "save", "computer-games", "full-games",
]

HINTS = {
    "args-count": "Exactly 3 or 4 arguments; otherwise the usage line "
                  "'Usage: nogo p1type p2type [height width | filename]' on stderr, exit 1, "
                  "checked before anything else.",
    "args-types": "Each type must be exactly 'c' or 'h' (one byte); otherwise "
                  "'Invalid player type', exit 2, checked before the dimensions or the file.",
    "args-dims": "Height and width are read like strtol with the whole string consumed and "
                 "must be 4 to 1000; otherwise 'Invalid board dimension', exit 3.",
    "args-file": "A save file that cannot be opened is 'Unable to open file', exit 4, with "
                 "nothing on stdout.",
    "file-errors": "Any defect in the save file is 'Incorrect file contents' on stderr, exit 5, "
                   "and nothing on stdout (no grid, no prompt).",
    "initial-display": "The grid is /, W dashes, \\; |row| per row; \\, W dashes, /; no spaces; "
                       "then the prompt 'Player O> ' without a newline, flushed.",
    "reject-illegal": "An invalid line (syntax, range, occupied cell) reprints only the same "
                      "prompt: no grid, no message.",
    "single-move": "A valid move places the stone, prints the grid and passes the turn.",
    "load": "A loaded game starts with the file's grid, next player and generator states; "
            "the player types come from the command line.",
    "end-detect": "After a stone is placed the opponent's strings next to it are checked first "
                  "(mover wins), then the mover's own (opponent wins); grid, then "
                  "'Player O wins', exit 0.",
    "save": "'w' followed directly by the path saves 'H W next rO cO mO rX cX mX' and the grid "
            "rows; a failure prints 'Unable to save game'; the same prompt follows, no grid.",
    "computer-games": "The computer takes candidates (r mod H, c mod W), stepping by "
                      "(+1,+1), (+2,+1), (+1,0), (0,+1) and jumping every 5th move to "
                      "N = (B + m/5*F) mod 1000003; occupied candidates are skipped but count.",
    "full-games": "Whole games: prompts, moves, saves, invalid lines and the end, byte for byte.",
}


class Case:
    def __init__(self, category, name, summary, rules, args, stdin=b"", files=(), tags=(),
                 hint=None, mode="pipe", timeout=None, outputs=(), absent=(), status=None,
                 comment=None):
        self.category = category
        self.name = name
        self.summary = summary
        self.rules = list(rules)
        self.args = list(args)
        self.stdin = stdin.encode() if isinstance(stdin, str) else stdin
        self.files = [(p, d.encode() if isinstance(d, str) else d) for p, d in files]
        self.tags = list(tags)
        self.hint = hint or HINTS[category]
        self.mode = mode
        self.timeout = timeout
        self.outputs = list(outputs)
        self.absent = list(absent)
        self.expect_status = status
        self.comment = comment


AMB = ["ambiguous"]


def start(player, h, w):
    """A new game's generator state (COMP-2)."""
    r, c = (1, 4) if player == "O" else (2, 10)
    return (r % h, c % w, 0)


def game_file(rows, nxt=0, o=None, x=None, h=None, w=None):
    h = h if h is not None else len(rows)
    w = w if w is not None else len(rows[0])
    o = o or start("O", h, w)
    x = x or start("X", h, w)
    head = "%d %d %d %d %d %d %d %d %d\n" % ((h, w, nxt) + tuple(o) + tuple(x))
    return head + "".join(r + "\n" for r in rows)


def empty(h, w):
    return ["." * w for _ in range(h)]


def sweep(h, w, order="rows"):
    """Every cell as a move line, row-major (or column-major, or reversed)."""
    cells = [(r, c) for r in range(h) for c in range(w)]
    if order == "cols":
        cells = [(r, c) for c in range(w) for r in range(h)]
    elif order == "back":
        cells = cells[::-1]
    return "".join("%d %d\n" % rc for rc in cells)


def all_cases():
    cases = []
    add = cases.append

    # ---------------------------------------------------------------- args-count
    cat = "args-count"
    for name, args in [
        ("no-arguments", []),
        ("one-argument", ["c"]),
        ("two-arguments", ["c", "h"]),
        ("two-numbers", ["4", "4"]),
        ("five-arguments", ["c", "c", "4", "4", "game"]),
        ("six-arguments", ["h", "h", "4", "4", "4", "4"]),
        ("two-invalid-types", ["x", "y"]),
        ("five-all-invalid", ["x", "y", "0", "0", "missing"]),
        ("two-empty-strings", ["", ""]),
    ]:
        add(Case(cat, name, "%d arguments: usage line, exit 1" % len(args),
                 ["ARGS-1", "ARGS-5", "ARGS-6"], args, stdin="0 0\n", status=1))

    # ---------------------------------------------------------------- args-types
    cat = "args-types"
    for name, args in [
        ("upper-c", ["C", "h", "4", "4"]),
        ("upper-h-second", ["c", "H", "4", "4"]),
        ("doubled-cc", ["cc", "h", "4", "4"]),
        ("c-with-space", ["c ", "h", "4", "4"]),
        ("empty-type", ["", "h", "4", "4"]),
        ("letter-x", ["x", "h", "4", "4"]),
        ("digit-zero", ["0", "1", "4", "4"]),
        ("hc-joined", ["hc", "c", "4", "4"]),
        ("second-invalid-only", ["h", "human", "4", "4"]),
        ("both-invalid", ["o", "x", "4", "4"]),
        ("leading-space", [" h", "c", "4", "4"]),
        ("invalid-type-with-file", ["computer", "h", "game"]),
    ]:
        add(Case(cat, name, "player types %r, %r: Invalid player type" % (args[0], args[1]),
                 ["ARGS-2", "ARGS-6"], args, stdin="0 0\n", status=2))
    add(Case(cat, "type-before-dimensions", "nogo x h 3 5: the type is checked first",
             ["ARGS-2", "ARGS-5", "ARGS-6"], ["x", "h", "3", "5"], status=2))
    add(Case(cat, "type-before-missing-file", "an invalid type with a missing file: exit 2",
             ["ARGS-2", "ARGS-5"], ["h", "X", "no-such-file"], status=2))
    add(Case(cat, "type-before-bad-file", "an invalid type with a broken file: exit 2",
             ["ARGS-2", "ARGS-5"], ["c", "hh", "game"], files=[("game", "junk\n")], status=2))
    add(Case(cat, "valid-h-c", "types h and c are valid: a game starts", ["ARGS-2", "GRID-1",
             "TURN-1", "EOF-1"], ["h", "c", "4", "4"], status=6))

    # ---------------------------------------------------------------- args-dims
    cat = "args-dims"
    bad_dims = [
        ("height-3", "3", "4", []), ("width-3", "4", "3", []), ("height-0", "0", "5", []),
        ("height-1001", "1001", "4", []), ("width-1001", "4", "1001", []),
        ("height-negative", "-4", "4", []), ("width-negative-zero", "4", "-0", []),
        ("height-empty", "", "4", []), ("width-letters", "4", "four", []),
        ("height-decimal-point", "4.0", "4", AMB), ("width-hex", "4", "0x10", []),
        ("height-huge", "99999999999999999999", "4", []),
        ("height-2-pow-32-plus-5", "4294967301", "5", []),
        ("width-trailing-letter", "5", "5x", AMB), ("height-trailing-space", "5 ", "5", AMB),
        ("width-only-sign", "4", "+", []), ("both-invalid", "2", "2000", []),
    ]
    for name, h, w, tags in bad_dims:
        add(Case(cat, name, "dimensions %r x %r: Invalid board dimension" % (h, w),
                 ["ARGS-3", "ARGS-6"], ["h", "h", h, w], tags=tags, stdin="0 0\n", status=3))
    add(Case(cat, "dimension-before-count-ok", "c c 3 5 with valid types: exit 3",
             ["ARGS-3", "ARGS-5"], ["c", "c", "3", "5"], status=3))
    for name, h, w, tags, summary in [
        ("minimum-4-by-4", "4", "4", [], "4 x 4 is the smallest grid"),
        ("maximum-width-1000", "4", "1000", [], "width 1000 is accepted"),
        ("maximum-height-1000", "1000", "4", [], "height 1000 is accepted"),
        ("leading-zeros", "007", "0005", [], "007 is 7 and 0005 is 5"),
        ("height-leading-space", " 5", "6", AMB, "' 5' is 5 (strtol skips leading space)"),
        ("width-plus-sign", "5", "+6", AMB, "'+6' is 6 (strtol accepts a sign)"),
        ("width-leading-tab", "4", "\t5", AMB, "a leading tab is skipped like a space"),
    ]:
        add(Case(cat, name, summary + ": the empty grid and O's prompt",
                 ["ARGS-3", "GRID-1", "TURN-1", "EOF-1"], ["h", "h", h, w], tags=tags, status=6))

    # ---------------------------------------------------------------- args-file
    cat = "args-file"
    for name, path, files, summary in [
        ("missing-file", "game", [], "a file that does not exist"),
        ("missing-directory", "no/such/game", [], "a path through a missing directory"),
        ("empty-path", "", [], "the empty path"),
        ("file-as-directory", "game/inner", [("game", game_file(empty(4, 4)))],
         "a path through a regular file"),
        ("wrong-case", "Game", [("game", game_file(empty(4, 4)))],
         "the file exists as 'game', not 'Game'"),
        ("trailing-space-name", "game ", [("game", game_file(empty(4, 4)))],
         "'game ' is not 'game'"),
    ]:
        add(Case(cat, name, summary + ": Unable to open file, exit 4",
                 ["ARGS-4", "ARGS-6"], ["h", "c", path], files=files, status=4))
    add(Case(cat, "missing-file-computers", "two computers and a missing file: exit 4",
             ["ARGS-4", "ARGS-5", "ARGS-6"], ["c", "c", "4"], status=4))
    add(Case(cat, "directory-is-contents-error",
             "a directory opens but cannot be read: Incorrect file contents, exit 5",
             ["ARGS-4", "FILE-6", "ARGS-6"], ["h", "h", "."], tags=AMB, status=5,
             hint="A directory opens for reading but read() fails: this ruling calls it a "
                  "contents error (exit 5), not an open error."))
    add(Case(cat, "path-with-space", "a save file whose name holds a space loads",
             ["ARGS-4", "FILE-7", "GRID-1", "EOF-1"], ["h", "h", "my game"],
             files=[("my game", game_file(empty(4, 5)))], status=6))
    add(Case(cat, "numeric-file-name", "three arguments: '4' is a file name, not a size",
             ["ARGS-1", "ARGS-4"], ["h", "h", "4"], status=4))

    # ---------------------------------------------------------------- file-errors
    cat = "file-errors"
    E44 = empty(4, 4)
    ok_head = "4 4 0 1 0 0 2 2 0\n"
    body = "".join(r + "\n" for r in E44)

    def bad(name, data, summary, rules, tags=(), args=("h", "h", "game")):
        add(Case(cat, name, summary, list(rules) + ["FILE-6", "ARGS-6"], list(args),
                 files=[("game", data)], tags=tags, stdin="0 0\n", status=5))

    bad("empty-file", "", "an empty file", ["FILE-5"])
    bad("header-only", ok_head, "the header line and no grid", ["FILE-5"])
    bad("header-no-newline", ok_head[:-1], "the header without its newline", ["FILE-5"])
    bad("header-eight-fields", "4 4 0 1 0 0 2 2\n" + body, "eight header fields", ["FILE-1"])
    bad("header-ten-fields", "4 4 0 1 0 0 2 2 0 0\n" + body, "ten header fields", ["FILE-1"])
    bad("header-leading-space", " " + ok_head + body, "a space before the header",
        ["FILE-1", "FILE-2"], AMB)
    bad("header-trailing-space", ok_head[:-1] + " \n" + body, "a space after the header",
        ["FILE-1", "FILE-2"], AMB)
    bad("header-doubled-space", "4  4 0 1 0 0 2 2 0\n" + body, "two spaces between fields",
        ["FILE-1", "FILE-2"], AMB)
    bad("header-plus-sign", "+4 4 0 1 0 0 2 2 0\n" + body, "a + sign on the height",
        ["FILE-2"], AMB)
    bad("header-minus-sign", "4 4 0 1 0 0 2 2 -0\n" + body, "a - sign on a move number",
        ["FILE-2"], AMB)
    bad("header-tab", "4 4\t0 1 0 0 2 2 0\n" + body, "a tab between fields", ["FILE-2"], AMB)
    bad("header-crlf", ok_head[:-1] + "\r\n" + body, "the header ends in CR LF", ["FILE-2"], AMB)
    bad("header-letter", "4 4 O 1 0 0 2 2 0\n" + body, "the letter O as next player",
        ["FILE-2"])
    bad("header-empty-line", "\n" + ok_head + body, "a blank line before the header",
        ["FILE-1", "FILE-2"], AMB)
    bad("height-3", "3 4 0 1 0 0 2 2 0\n" + "".join(r + "\n" for r in empty(3, 4)),
        "height 3 (with three rows)", ["FILE-2"])
    bad("width-1001", "4 1001 0 1 4 0 2 10 0\n" + "".join("." * 1001 + "\n" for _ in range(4)),
        "width 1001 (with rows of 1001)", ["FILE-2"])
    bad("height-0", "0 4 0 0 0 0 0 0 0\n", "height 0", ["FILE-2"])
    bad("next-player-2", "4 4 2 1 0 0 2 2 0\n" + body, "next player 2", ["FILE-2"])
    bad("next-player-huge", "4 4 4294967296 1 0 0 2 2 0\n" + body,
        "next player 2^32 (0 if wrapped)", ["FILE-2"])
    bad("o-row-equals-height", "4 4 0 4 0 0 2 2 0\n" + body, "O's row 4 on 4 rows",
        ["FILE-3"], AMB)
    bad("x-column-equals-width", "4 5 0 1 4 0 2 5 0\n" + "".join(r + "\n" for r in empty(4, 5)),
        "X's column 5 on 5 columns", ["FILE-3"], AMB)
    bad("o-row-huge", "4 4 0 99999999999999999999 0 0 2 2 0\n" + body,
        "O's row far too large", ["FILE-3"], AMB)
    bad("x-move-number-huge", "4 4 0 1 0 0 2 2 18446744073709551617\n" + body,
        "X's move number 2^64+1 (1 if wrapped)", ["FILE-3"], AMB)
    bad("grid-missing-line", ok_head + "".join(r + "\n" for r in E44[:3]), "three of four rows",
        ["FILE-4", "FILE-5"])
    bad("grid-short-line", ok_head + "....\n...\n....\n....\n", "a row of 3 on width 4",
        ["FILE-4"])
    bad("grid-long-line", ok_head + "....\n....\n.....\n....\n", "a row of 5 on width 4",
        ["FILE-4"])
    # Only the last line: a loader that reads W bytes of the H-th line and
    # leaves the rest to FILE-5's "whatever follows" misses these two.
    bad("grid-long-last-line", ok_head + "....\n....\n....\n.....\n",
        "the last row 5 bytes on width 4", ["FILE-4", "FILE-5"])
    bad("grid-crlf-last-line", ok_head + "....\n....\n....\n....\r\n",
        "only the last row ends in CR LF", ["FILE-4", "FILE-5"])
    bad("grid-lowercase-o", ok_head + "....\n.o..\n....\n....\n", "a lower-case o", ["FILE-4"])
    bad("grid-digit-zero", ok_head + "....\n....\n..0.\n....\n", "the digit 0 for O", ["FILE-4"])
    bad("grid-space", ok_head + "....\n. ..\n....\n....\n", "a space in a row", ["FILE-4"])
    bad("grid-crlf", ok_head + "....\r\n....\r\n....\r\n....\r\n", "CR LF line ends",
        ["FILE-4"])
    bad("grid-nul", ok_head + "....\n..\0.\n....\n....\n", "a NUL byte in a row", ["FILE-4"])
    bad("grid-high-byte", (ok_head + "....\n....\n....\n...").encode() + b"\xd8\n",
        "a byte above 127 in a row", ["FILE-4"])
    bad("grid-no-final-newline", ok_head + body[:-1], "the last row without its newline",
        ["FILE-1", "FILE-5"])
    bad("grid-blank-line-inside", ok_head + "....\n\n....\n....\n....\n",
        "a blank line among the rows", ["FILE-4"])
    bad("grid-full", game_file(["OXOX", "XOXO", "OXOX", "XOXO"]), "a grid with no empty cell",
        ["FILE-4"], AMB)
    bad("rows-for-other-width", "4 5 0 1 4 0 2 0 0\n" + body, "header says 5 wide, rows are 4",
        ["FILE-4"])
    bad("rows-for-other-height", "5 4 0 1 0 0 2 2 0\n" + body, "header says 5 rows, 4 given",
        ["FILE-4", "FILE-5"])
    bad("binary-garbage", bytes(range(0, 256, 7)), "binary bytes", ["FILE-1"])
    bad("boxes-grid-file", "1\n000\n0100\n011\n0111\n011\n1000\n100\n0,0,0\n0,1,2\n0,0,0\n",
        "a boxes grid file", ["FILE-1"])
    bad("computers-bad-file", ok_head + "....\n....\n....\n", "two computers and a short file",
        ["FILE-4", "FILE-5"], args=("c", "c", "game"))

    # ---------------------------------------------------------------- initial-display
    cat = "initial-display"
    for name, args, summary in [
        ("new-4x4-human", ["h", "h", "4", "4"], "a new 4 x 4 game"),
        ("new-4x7", ["h", "c", "4", "7"], "a new 4 x 7 game (more columns than rows)"),
        ("new-7x4", ["h", "h", "7", "4"], "a new 7 x 4 game (more rows than columns)"),
        ("new-9x13", ["h", "c", "9", "13"], "a new 9 x 13 game"),
        ("new-19x19", ["h", "h", "19", "19"], "a new 19 x 19 game"),
        ("new-30x5", ["h", "c", "30", "5"], "a new 30 x 5 game"),
    ]:
        add(Case(cat, name, summary + ": grid, prompt, end of input",
                 ["GRID-1", "GRID-2", "TURN-1", "EOF-1"], args, status=6))
    add(Case(cat, "computer-first-then-prompt", "c h: O's move line and grid, then X's prompt",
             ["GRID-1", "GRID-2", "COMP-4", "TURN-1", "EOF-1"], ["c", "h", "5", "5"], status=6))
    add(Case(cat, "interactive-prompt", "at a terminal the prompt shows before the wait",
             ["TURN-1", "GRID-1", "EOF-1"], ["h", "h", "4", "4"], mode="interactive", timeout=5,
             status=6, hint="Here stdin and stdout are one terminal, as for a person: the prompt "
                            "must show before the program waits for input. C's stdio shows a "
                            "prompt printed without a newline in time (it flushes a "
                            "line-buffered stdout before reading a terminal), but not once "
                            "setvbuf made stdout fully buffered, nor before input read with "
                            "read(2): then fflush(stdout) after the prompt."))
    add(Case(cat, "interactive-two-moves", "at a terminal: two moves, each after its prompt",
             ["TURN-1", "GRID-2", "EOF-1"], ["h", "h", "4", "5"], stdin="0 0\n1 1\n",
             mode="interactive", timeout=5, status=6,
             hint="Flush stdout after every prompt, not only the first."))
    add(Case(cat, "stdout-full-computers", "stdout on /dev/full: the game still ends with exit 0",
             ["SYS-1", "COMP-3"], ["c", "c", "4", "4"], mode="stdout-full", tags=AMB, status=0,
             hint="A stdout that cannot be written changes no exit status and prints no "
                  "message."))
    add(Case(cat, "stdout-full-end-of-input", "stdout on /dev/full, end of input: exit 6",
             ["SYS-1", "EOF-1"], ["h", "h", "4", "4"], mode="stdout-full", tags=AMB, status=6,
             hint="A stdout that cannot be written changes no exit status."))

    # ---------------------------------------------------------------- reject-illegal
    cat = "reject-illegal"

    def rej(name, lines, summary, rules=("TURN-2",), tags=(), args=("h", "h", "4", "5"),
            stdin=None):
        add(Case(cat, name, summary + ": the prompt again, nothing else",
                 list(rules) + ["TURN-4", "EOF-1"], list(args),
                 stdin=stdin if stdin is not None else lines, tags=tags, status=6))

    rej("row-equals-height", "4 0\n", "row 4 on 4 rows", ["TURN-3"])
    rej("column-equals-width", "0 5\n", "column 5 on 5 columns", ["TURN-3"])
    rej("row-and-column-swapped-bound", "0 4\n4 4\n", "column 4 valid but row 4 not (4 x 5)",
        ["TURN-3"], args=("h", "h", "4", "5"), stdin="4 4\n")
    rej("huge-row", "99999999999999999999 0\n", "a 20-digit row", ["TURN-3"])
    rej("row-2-pow-32", "4294967296 0\n", "row 2^32 (0 if wrapped)", ["TURN-3"])
    rej("column-2-pow-64-plus-1", "0 18446744073709551617\n", "column 2^64+1 (1 if wrapped)",
        ["TURN-3"])
    rej("empty-line", "\n", "an empty line", ["TURN-2"])
    rej("single-number", "1\n", "one number")
    rej("number-and-space", "1 \n", "one number and a space")
    rej("three-numbers", "1 1 1\n", "three numbers", tags=AMB)
    rej("leading-space", " 1 1\n", "a leading space", tags=AMB)
    rej("doubled-space", "1  1\n", "two spaces", tags=AMB)
    rej("trailing-space", "1 1 \n", "a trailing space", tags=AMB)
    rej("plus-sign", "+1 1\n", "a + sign", tags=AMB)
    rej("minus-sign", "-1 1\n", "a - sign on the row", tags=AMB)
    rej("minus-zero", "0 -0\n", "-0 as column", tags=AMB)
    rej("trailing-letter", "1 2x\n", "a letter after the column", tags=AMB)
    rej("tab-separator", "1\t1\n", "a tab instead of the space", tags=AMB)
    rej("carriage-return", "1 1\r\n", "a CR before the newline", tags=AMB)
    rej("nul-byte", "1 1\0\n", "a NUL after the column", tags=AMB)
    # 0xFF is a byte like any other: `getc`'s result kept in a `char`
    # reads it as EOF (-1) and ends the game at a line that is not the end.
    add(Case(cat, "byte-ff-line",
             "a line of two 0xFF bytes is an invalid line, not the end of input: the move "
             "after it is played", ["TURN-2", "TURN-4", "TURN-5", "GRID-2", "EOF-1"],
             ["h", "h", "4", "5"], stdin=b"\xff\xff\n1 1\n", status=6,
             hint="0xFF is a byte like any other: a `char` holding getc's result reads it as "
                  "EOF (-1). Keep getc's result in an `int`."))
    rej("letters", "a b\n", "two letters")
    rej("comma", "1,1\n", "a comma")
    rej("upper-w", "W1 1\n", "an upper-case W is no save", ["TURN-4"])
    rej("words", "row 1 column 1\n", "words")
    rej("many-invalid-lines", "\n\n4 4\nx\n-1 -1\n5 5\n", "six invalid lines in a row",
        ["TURN-2", "TURN-3"])
    rej("invalid-then-valid", None, "an invalid line, then a valid move",
        ["TURN-2", "TURN-5", "GRID-2"], stdin="1 9\n1 1\n")
    rej("occupied-cell", None, "X tries O's cell", ["TURN-3"], stdin="2 2\n2 2\n")
    rej("occupied-own-cell", None, "O tries its own cell", ["TURN-3"],
        stdin="0 0\n3 3\n0 0\n")
    rej("long-junk-line", None, "a 10000-byte line is one invalid line", ["TURN-4"], tags=AMB,
        stdin="7" * 10000 + "\n")
    rej("seventy-one-bytes", None, "a 71-byte line of zeros then ' 1' is one move (0, 1)",
        ["TURN-2"], tags=AMB, stdin="0" * 69 + " 1\n")
    rej("invalid-on-computer-game", None, "h c: O's invalid lines, then end of input",
        ["TURN-2", "TURN-3"], args=("h", "c", "5", "5"), stdin="5 5\nfoo\n")

    # ---------------------------------------------------------------- single-move
    cat = "single-move"

    def one(name, args, stdin, summary, rules=(), tags=()):
        add(Case(cat, name, summary, ["TURN-2", "TURN-5", "GRID-2"] + list(rules) + ["EOF-1"],
                 list(args), stdin=stdin, tags=tags, status=6))

    one("top-left", ["h", "h", "4", "5"], "0 0\n", "O plays 0 0, then X's prompt")
    one("bottom-right", ["h", "h", "4", "5"], "3 4\n", "O plays the last cell 3 4",
        ["TURN-3"])
    one("top-right", ["h", "h", "4", "5"], "0 4\n", "O plays 0 4 (column W-1)", ["TURN-3"])
    one("bottom-left", ["h", "h", "5", "4"], "4 0\n", "O plays 4 0 (row H-1)", ["TURN-3"])
    one("two-moves", ["h", "h", "4", "4"], "1 2\n2 1\n", "O then X, then O's prompt")
    one("big-grid-move", ["h", "h", "40", "40"], "39 39\n", "a move in a 40 x 40 grid",
        ["TURN-3"])
    one("leading-zeros", ["h", "h", "4", "4"], "01 002\n", "'01 002' is row 1, column 2", (),
        AMB)
    one("no-final-newline", ["h", "h", "4", "4"], "2 3", "a last line without newline is played",
        ["EOF-2"], AMB)
    one("human-then-computer", ["h", "c", "4", "4"], "0 0\n",
        "O's move, then X's computer move, then O's prompt", ["COMP-3", "COMP-4"])
    one("computer-then-human", ["c", "h", "4", "6"], "0 0\n",
        "O's computer move, X's move, O's next computer move", ["COMP-4"])
    one("human-on-computers-first-cell", ["h", "c", "5", "5"], "2 0\n",
        "O takes X's first candidate 2 0: X skips it and plays its next", ["COMP-3"])
    one("after-invalid-line", ["h", "h", "4", "4"], "x\n3 3\n",
        "an invalid line, then the move", ["TURN-4"])

    # ---------------------------------------------------------------- load
    cat = "load"

    def ld(name, data, summary, rules, args=("h", "h", "game"), stdin="", tags=(), status=6,
           outputs=()):
        add(Case(cat, name, summary, list(rules), list(args), files=[("game", data)],
                 stdin=stdin, tags=tags, status=status, outputs=outputs))

    ld("new-game-file", game_file(empty(4, 4)), "a saved new 4 x 4 game loads like a new one",
       ["FILE-1", "FILE-7", "GRID-1", "EOF-1"])
    ld("x-to-play", game_file(["O...", "....", "....", "...."], nxt=1),
       "next 1: X is prompted first", ["FILE-2", "FILE-7", "TURN-1", "EOF-1"])
    ld("mid-game-5x6", game_file(["O.....", "..X...", "...O..", "......", "X....."], nxt=0,
                                 o=(4, 3, 7), x=(0, 5, 12)),
       "a 5 x 6 game in progress", ["FILE-1", "FILE-7", "EOF-1"])
    ld("comp-5-resumed", game_file(["..O.", "O...", "XOX.", "...X"], o=(1, 2, 3), x=(2, 1, 4)),
       "COMP-5's game saved after X's 2 0 plays on to the same end", ["FILE-3", "FILE-7",
                                                                       "COMP-5", "END-1"],
       args=("c", "c", "game"), status=0)
    ld("generator-state-used", game_file(empty(6, 6), o=(3, 2, 41), x=(5, 0, 9)),
       "two computers continue from the loaded candidates and move numbers",
       ["FILE-3", "FILE-7", "COMP-2", "COMP-3"], args=("c", "c", "game"), status=0)
    ld("move-number-max", game_file(empty(4, 4), o=(0, 0, 2147483647), x=(3, 3, 2147483647)),
       "move numbers 2147483647 load and the computers play on past them",
       ["FILE-3", "COMP-2"], args=("c", "c", "game"), status=0, tags=AMB)
    ld("move-number-2147483648", game_file(empty(4, 4), o=(1, 0, 2147483648)),
       "O's move number 2147483648 loads (the reference counts in 64 bits)",
       ["FILE-3", "FILE-7", "EOF-1"], tags=AMB)
    ld("types-from-command-line", game_file(["X...", "....", "....", "...O"], nxt=1),
       "the same file played by computers: types come from the command line",
       ["FILE-7", "COMP-4"], args=("c", "c", "game"), status=0)
    ld("leading-zeros", "004 0005 0 001 0004 00 02 000 0\n" + "".join(
        r + "\n" for r in empty(4, 5)),
       "header fields with leading zeros", ["FILE-2", "FILE-7", "EOF-1"])
    ld("next-player-01", "4 4 01 1 0 0 2 2 0\n" + "".join(r + "\n" for r in empty(4, 4)),
       "next written 01 is X (repository Decision 1)", ["FILE-2", "FILE-7", "EOF-1"],
       tags=AMB)
    ld("trailing-lines-ignored", game_file(empty(4, 4)) + "\n\nextra\n....\n",
       "bytes after the last grid line are ignored", ["FILE-5", "FILE-7", "EOF-1"], tags=AMB)
    ld("trailing-garbage-no-newline", game_file(empty(4, 4)).encode() + b"\0\xff",
       "binary bytes after the grid are ignored", ["FILE-5", "EOF-1"], tags=AMB)
    ld("tall-1000x4", game_file(["O..X"] + empty(998, 4) + ["X..O"]),
       "a 1000 x 4 file", ["FILE-1", "FILE-2", "GRID-1", "EOF-1"])
    ld("wide-4x1000", game_file(["O" + "." * 998 + "X"] + empty(3, 1000)),
       "a 4 x 1000 file", ["FILE-1", "FILE-2", "GRID-1", "EOF-1"])
    ld("dead-string-loads", game_file(["XO..", "O...", "....", "...."], nxt=1),
       "a string without liberty loads and the game goes on", ["FILE-4", "CAPTURE-4",
                                                                "EOF-1"],
       stdin="3 3\n", tags=AMB)
    ld("one-empty-cell", game_file(["OXOX", "XOXO", "OXOX", "XOX."]),
       "a grid with one empty cell loads; the computer finds it", ["FILE-4", "COMP-3",
                                                                    "CAPTURE-2", "CAPTURE-4"],
       args=("c", "c", "game"), status=0, tags=AMB)
    ld("human-state-kept", game_file(empty(5, 5), nxt=0, o=(2, 3, 17), x=(4, 4, 99)),
       "a human's loaded generator state is saved again unchanged", ["FILE-3", "SAVE-2"],
       stdin="0 0\n1 1\nwout\n", outputs=["out"])
    ld("load-then-save-round-trip", game_file(["O...X", ".....", "..X..", "O...."], nxt=1,
                                              o=(2, 3, 11), x=(0, 4, 6)),
       "loading and saving at once writes the same bytes", ["FILE-7", "SAVE-2"],
       stdin="wout\n", outputs=["out"])

    # ---------------------------------------------------------------- end-detect
    cat = "end-detect"

    def end(name, rows, moves, summary, rules, nxt=0, args=("h", "h", "game"), tags=(),
            status=0):
        add(Case(cat, name, summary, list(rules) + (["END-1"] if status == 0 else ["EOF-1"])
                 + ["GRID-2"], list(args), files=[("game", game_file(rows, nxt=nxt))],
                 stdin=moves, tags=tags, status=status))

    end("capture-3-text-example", ["OX.OX", "OOXXX", "O....", "....."], "0 2\n",
        "the text's example: O at 0 2 captures and is captured, O wins",
        ["CAPTURE-3", "CAPTURE-2"])
    end("corner-capture", ["XO..", "....", "....", "...."], "1 0\n",
        "X in the corner loses its last liberty", ["CAPTURE-1", "CAPTURE-2"])
    end("edge-capture", [".OXO", "....", "....", "...."], "1 2\n",
        "X on the top edge captured", ["CAPTURE-1", "CAPTURE-2"])
    end("centre-capture", ["....", "OXO.", ".O..", "...."], "3 3\n0 1\n",
        "O captures a lone X in the middle after X plays elsewhere", ["CAPTURE-2"], nxt=1)
    end("string-of-three", ["OXXX.", ".OOO.", ".....", "....."], "3 3\n0 4\n",
        "a string of three X on the edge", ["CAPTURE-1", "CAPTURE-2"], nxt=1)
    end("l-shaped-string", [".O...", "OXO..", "OXX..", ".OO..", "....."], "4 4\n2 3\n",
        "an L-shaped string of three X", ["CAPTURE-1", "CAPTURE-2"], nxt=1)
    end("suicide-corner", [".X..", "X...", "....", "...."], "0 0\n",
        "O plays into a surrounded corner: X wins", ["CAPTURE-2"])
    end("suicide-joining-string", ["OX..", ".X..", "XX..", "...."], "1 0\n",
        "O joins its corner stone and fills the string's last liberty: X wins", ["CAPTURE-2",
                                                                                 "CAPTURE-1"])
    end("x-wins-by-capture", ["....", "OX..", "X...", "...."], "3 3\n0 0\n",
        "X captures O on the edge", ["CAPTURE-2"], nxt=0)
    end("both-captured-mover-wins-x", ["XO.XO", "XXOOO", "X....", "....."], "0 2\n",
        "X at 0 2 captures and is captured: X wins", ["CAPTURE-3"], nxt=1)
    end("two-strings-captured", ["XO.OX", ".X.X.", ".....", "....."], "0 2\n",
        "X at 0 2 captures two O strings at once", ["CAPTURE-2"], nxt=1)
    end("input-after-end-ignored", ["XO..", "....", "....", "...."], "1 0\n3 3\nwsaved\n",
        "lines after the winning move are never read", ["CAPTURE-2"])
    end("dead-string-elsewhere", ["XO..", "O...", "....", "...."], "3 3\n2 2\n",
        "a loaded X string without liberty does not end the game: moves go on",
        ["CAPTURE-4"], nxt=1, tags=AMB, status=6)
    end("dead-string-then-real-capture", ["XO..", "O...", "....", "...."],
        "3 3\n2 3\n1 1\n3 2\n",
        "a loaded dead X string is ignored; a later capture next to the stone decides",
        ["CAPTURE-4", "CAPTURE-2"], nxt=1, tags=AMB)
    end("computer-captures", ["....", "....", "XO..", "X..."], "",
        "a computer's move captures", ["CAPTURE-2", "COMP-3"], args=("c", "c", "game"))
    # Positions reached by play, not by loading a file: a loader bug must
    # not take the whole category.
    add(Case(cat, "play-edge-capture", "by play: X on the top edge captured by O's third stone",
             ["CAPTURE-1", "CAPTURE-2", "END-1", "GRID-2"], ["h", "h", "4", "4"],
             stdin="0 1\n0 2\n0 3\n3 3\n1 2\n", status=0))
    add(Case(cat, "play-string-of-two", "by play: a string of two X on the edge captured",
             ["CAPTURE-1", "CAPTURE-2", "END-1", "GRID-2"], ["h", "h", "5", "5"],
             stdin="0 0\n0 1\n1 1\n0 2\n1 2\n4 4\n0 3\n", status=0))
    add(Case(cat, "play-x-captures", "by play: X captures O's corner stone and wins",
             ["CAPTURE-2", "END-1", "GRID-2"], ["h", "h", "4", "4"],
             stdin="0 0\n0 1\n3 3\n1 0\n", status=0))
    add(Case(cat, "play-suicide", "by play: O fills its own last liberty in the corner: X wins",
             ["CAPTURE-2", "CAPTURE-3", "END-1", "GRID-2"], ["h", "h", "4", "4"],
             stdin="3 3\n0 1\n3 2\n1 0\n0 0\n", status=0))
    add(Case(cat, "new-game-corner-win", "a new game won in the corner after four moves",
             ["CAPTURE-2", "END-1", "GRID-2"], ["h", "h", "4", "4"],
             stdin="0 1\n0 0\n1 0\n", status=0))
    # The placed stone touches no X stone: a program that checks capture
    # only beside an opponent misses this suicide.
    add(Case(cat, "self-capture-no-opponent-beside",
             "by play: O joins its two stones in the corner, no X beside the new one: X wins",
             ["CAPTURE-1", "CAPTURE-2", "END-1", "GRID-2"], ["h", "h", "4", "4"],
             stdin="0 1\n0 2\n1 0\n1 1\n3 3\n2 0\n0 0\n", status=0))
    add(Case(cat, "suicide-new-game", "a new game lost by suicide",
             ["CAPTURE-2", "END-1"], ["h", "h", "4", "4"],
             stdin="0 1\n3 3\n1 0\n0 0\n", status=0))

    # ---------------------------------------------------------------- save
    cat = "save"

    def sv(name, args, stdin, summary, rules, outputs=(), files=(), tags=(), absent=(),
           status=6):
        add(Case(cat, name, summary, list(rules), list(args), stdin=stdin, files=files,
                 outputs=outputs, tags=tags, absent=absent, status=status))

    sv("new-game", ["h", "h", "4", "4"], "wout\n", "save a new 4 x 4 game",
       ["SAVE-1", "SAVE-2", "SAVE-3", "EOF-1"], outputs=["out"])
    sv("after-moves", ["h", "h", "5", "6"], "0 0\n4 5\n2 3\nwout\n",
       "save after three moves: X typed it, next is 1", ["SAVE-2", "SAVE-3"], outputs=["out"])
    sv("by-o-with-computer-x", ["h", "c", "5", "6"], "0 0\n3 3\nwout\n",
       "X is a computer: its advanced state is saved", ["SAVE-2", "COMP-2"], outputs=["out"],
       tags=AMB)
    sv("by-x-with-computer-o", ["c", "h", "4", "7"], "3 3\nwout\n",
       "O is a computer: X saves O's state", ["SAVE-2", "COMP-2"], outputs=["out"],
       tags=AMB)
    sv("skipped-candidates-saved", ["h", "c", "4", "4"], "2 2\n3 3\nwout\n",
       "X's skipped candidates count in its saved move number", ["SAVE-2", "COMP-3"],
       outputs=["out"])
    sv("overwrite-existing", ["h", "h", "4", "4"], "1 1\n2 2\nwout\n",
       "an existing longer file is replaced", ["SAVE-2"], outputs=["out"],
       files=[("out", "x" * 500 + "\n")])
    sv("overwrite-loaded-file", ["h", "h", "game"], "1 1\nwgame\n",
       "saving over the file being played", ["SAVE-2", "FILE-7"], outputs=["game"],
       files=[("game", game_file(["O...", "....", "..X.", "...."]))])
    sv("path-in-subdirectory", ["h", "h", "4", "4"], "wdir/out\n", "a path into a directory",
       ["SAVE-1", "SAVE-2"], outputs=["dir/out"], files=[("dir/keep", "")])
    sv("leading-space-path", ["h", "h", "4", "4"], "w out\n",
       "'w out' saves to ' out' (no space skipped)", ["SAVE-1"], outputs=[" out"],
       absent=["out"], tags=AMB)
    sv("path-with-space", ["h", "h", "4", "4"], "wmy game\n", "a path holding a space",
       ["SAVE-1"], outputs=["my game"], tags=AMB)
    sv("path-nul-cut", ["h", "h", "4", "4"], "wout\0rest\n", "the path stops at a NUL",
       ["SAVE-1"], outputs=["out"], tags=AMB)
    sv("path-with-cr", ["h", "h", "4", "4"], "wout\r\n", "a CR is part of the path",
       ["SAVE-1"], outputs=["out\r"], absent=["out"], tags=AMB)
    sv("empty-path", ["h", "h", "4", "4"], "w\n", "'w' alone: Unable to save game",
       ["SAVE-1", "SAVE-4", "SAVE-3"])
    sv("missing-directory", ["h", "h", "4", "4"], "wno/such/dir/out\n",
       "a missing directory: Unable to save game", ["SAVE-4", "SAVE-3"])
    sv("directory-path", ["h", "h", "4", "4"], "w.\n", "a directory: Unable to save game",
       ["SAVE-4"])
    sv("dev-full", ["h", "h", "4", "4"], "w/dev/full\n",
       "a write that fails after the open: Unable to save game", ["SAVE-4"], tags=AMB)
    sv("failure-then-success", ["h", "h", "4", "4"], "wno/dir/x\n0 0\nwout\n",
       "a failed save, a move, a save", ["SAVE-3", "SAVE-4", "SAVE-2"], outputs=["out"])
    sv("save-twice", ["h", "h", "4", "4"], "wa\n0 0\nwb\n", "two saves at two points",
       ["SAVE-2", "SAVE-3"], outputs=["a", "b"])
    sv("upper-w-is-invalid", ["h", "h", "4", "4"], "Wout\n", "'Wout' is an invalid line",
       ["SAVE-1", "TURN-4"], absent=["out", "Wout"])
    sv("save-then-win", ["h", "h", "4", "4"], "0 1\nwmid\n0 0\n1 0\n",
       "a save mid-game, then the game is won", ["SAVE-3", "END-1"], outputs=["mid"],
       status=0)
    sv("big-grid", ["h", "c", "60", "70"], "0 0\n59 69\n30 30\nwbig\n",
       "saving a 60 x 70 game", ["SAVE-2"], outputs=["big"])
    sv("save-line-w-digits", ["h", "h", "4", "4"], "w1 1\n", "'w1 1' saves to '1 1'",
       ["TURN-4", "SAVE-1"], outputs=["1 1"], tags=AMB)

    # ---------------------------------------------------------------- computer-games
    cat = "computer-games"
    add(Case(cat, "comp-5-4x4", "COMP-5's 4 x 4 computer game, byte for byte",
             ["COMP-5", "COMP-1", "COMP-2", "COMP-3", "COMP-4", "CAPTURE-2", "END-1", "GRID-1",
              "GRID-2"], ["c", "c", "4", "4"], status=0,
             comment="Expected bytes checked by hand against the rulings' COMP-5 example."))
    for h, w in [(4, 5), (5, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 9), (4, 10), (10, 4),
                 (13, 7), (7, 13), (11, 17), (19, 19), (20, 20), (25, 9), (4, 31)]:
        add(Case(cat, "game-%dx%d" % (h, w), "two computers on %d x %d" % (h, w),
                 ["COMP-1", "COMP-2", "COMP-3", "COMP-4", "CAPTURE-2", "END-1"],
                 ["c", "c", str(h), str(w)], status=0))
    add(Case(cat, "loaded-crowded-grid", "computers on a crowded loaded grid skip many "
             "occupied candidates", ["COMP-3", "FILE-7", "END-1"], ["c", "c", "game"],
             files=[("game", game_file([".XO.OX", "X.XOX.", "OX.XOX", ".OXO.O", "XO.XO."],
                                       o=(0, 0, 0), x=(0, 0, 0)))], status=0))
    add(Case(cat, "loaded-late-move-numbers", "computers resume at move numbers 123 and 4567",
             ["COMP-2", "FILE-3", "FILE-7"], ["c", "c", "game"],
             files=[("game", game_file(empty(8, 9), nxt=1, o=(7, 8, 123), x=(3, 0, 4567)))],
             status=0))
    add(Case(cat, "o-computer-seven-moves", "O's 7 x 7 candidates (COMP-5) against a human",
             ["COMP-5", "COMP-2", "COMP-4"], ["c", "h", "7", "7"],
             stdin="6 0\n6 1\n6 2\n6 3\n6 4\n6 5\n", status=6))

    # ---------------------------------------------------------------- full-games
    cat = "full-games"
    for h, w, order in [(4, 4, "rows"), (5, 5, "cols"), (6, 8, "back"), (9, 9, "rows"),
                        (12, 7, "cols"), (20, 20, "back")]:
        add(Case(cat, "human-o-vs-computer-%dx%d" % (h, w),
                 "O sweeps the grid (%s) against computer X on %d x %d" % (order, h, w),
                 ["TURN-1", "TURN-4", "TURN-5", "COMP-4", "END-1"],
                 ["h", "c", str(h), str(w)], stdin=sweep(h, w, order), status=0))
    for h, w, order in [(4, 4, "back"), (5, 7, "rows"), (8, 6, "cols"), (10, 10, "back")]:
        add(Case(cat, "computer-o-vs-human-%dx%d" % (h, w),
                 "computer O against X sweeping (%s) on %d x %d" % (order, h, w),
                 ["TURN-1", "TURN-5", "COMP-4", "END-1"], ["c", "h", str(h), str(w)],
                 stdin=sweep(h, w, order), status=0))
    for name, args, stdin, summary in [
        ("humans-4x4-rows", ["h", "h", "4", "4"], sweep(4, 4), "two humans, row by row"),
        ("humans-5x5-cols", ["h", "h", "5", "5"], sweep(5, 5, "cols"), "column by column"),
        ("humans-with-invalid-lines", ["h", "h", "4", "5"],
         "x\n1 1\n1 1\n9 9\n0 0\n\n0 1\n3 3\n1 0\n", "with invalid lines between moves"),
        ("humans-with-saves", ["h", "h", "4", "4"], "0 1\nwa\n0 0\nwb\n1 0\n",
         "with a save on each side"),
        ("x-wins", ["h", "h", "4", "4"], "0 0\n0 1\n3 3\n1 0\n", "X wins"),
    ]:
        add(Case(cat, name, "a full game: " + summary,
                 ["TURN-1", "TURN-2", "TURN-4", "TURN-5", "END-1"], args, stdin=stdin,
                 status=0))
    add(Case(cat, "loaded-game-to-the-end", "a loaded game played to the end by a human and "
             "a computer", ["FILE-7", "COMP-3", "END-1"], ["h", "c", "game"],
             files=[("game", game_file(["O....", ".X...", ".....", "...X.", "....."], nxt=0,
                                       o=(1, 4, 0), x=(0, 3, 6)))],
             stdin=sweep(5, 5, "back"), status=0))
    add(Case(cat, "saved-then-resumed", "a game resumed from the save another case wrote "
             "(save/after-moves) plays on", ["FILE-7", "SAVE-2", "END-1"], ["h", "h", "game"],
             files=[("game", game_file(["O.....", "......", "...X..", "......", ".....X"],
                                       nxt=1, o=(1, 4, 0), x=(2, 4, 0)))],
             stdin=sweep(5, 6), status=0))
    add(Case(cat, "interactive-game", "a whole game at a terminal",
             ["TURN-1", "END-1"], ["h", "c", "4", "4"], stdin=sweep(4, 4), status=0,
             mode="interactive", timeout=5,
             hint="Flush stdout after every prompt; a person at a terminal waits for it."))
    # End of input at every kind of point.
    for name, args, stdin, summary, rules, tags in [
        ("eof-first-prompt", ["h", "h", "4", "4"], "", "at the first prompt", [], []),
        ("eof-after-move", ["h", "h", "4", "4"], "0 0\n", "after a move, at X's prompt", [],
         []),
        ("eof-after-invalid", ["h", "h", "4", "4"], "0 0\nbad\n", "after an invalid line",
         ["TURN-4"], []),
        ("eof-after-save", ["h", "h", "4", "4"], "wout\n", "after a save", ["SAVE-3"], []),
        ("eof-after-failed-save", ["h", "h", "4", "4"], "w\n", "after a failed save",
         ["SAVE-4"], []),
        ("eof-partial-line", ["h", "h", "4", "4"], "0 0\n1", "after a last line without "
         "newline (an invalid line)", ["EOF-2"], AMB),
        ("eof-partial-move", ["h", "c", "4", "4"], "3 3", "after a last move without newline",
         ["EOF-2"], AMB),
        ("eof-mid-game-vs-computer", ["h", "c", "6", "6"], "0 0\n5 5\n0 5\n",
         "mid-game against a computer", ["COMP-4"], []),
        ("eof-computer-o", ["c", "h", "6", "6"], "", "X's first prompt after O's move",
         ["COMP-4"], []),
        ("eof-loaded-x", ["h", "h", "game"], "", "in a loaded game, at X's prompt",
         ["FILE-7"], []),
        ("eof-after-many-invalid", ["h", "h", "5", "5"], "a\nb\nc\nd\ne\nf\ng\n",
         "after seven invalid lines", ["TURN-4"], []),
    ]:
        files = [("game", game_file(["O...", "....", "....", "...."], nxt=1))] \
            if "game" in args else []
        add(Case(cat, name, "end of input " + summary + ": exit 6, stdout ends with the prompt",
                 ["EOF-1"] + rules, args, stdin=stdin, files=files, tags=tags, status=6,
                 outputs=["out"] if "wout" in stdin else []))
    return cases
