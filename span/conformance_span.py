"""conformance_span: the span protocol of boxes-conformance for a Python 3
model solution (docs/span-protocol.md). One file, standard library only.

A model solution marks which rules each span of its stdout obeys, and why
it rejects an input line or stops, so that the harness can name a
student's first difference by rule. Everything is a no-op unless the
environment variable CONFORMANCE_PROVENANCE names a file (the harness sets
it only when it runs the model traced); then the record is written to that
file when the interpreter exits (sys.exit, the end of the script, an
uncaught exception; not os._exit), or at flush().

    import conformance_span as span

    span.install()                 # count what print() and sys.stdout write
    span.enter("DISP-1,DISP-2", "the board after a move")
    print(board)
    span.enter("MOVE-1", "the prompt")
    print("Move 1> ", end="", flush=True)
    ...
    span.rejected("MOVE-2", "range", "a peg outside 1..3", line,
                  "MOVE-2 rejects it (peg 4)")
    span.stopped("FILE-2", "disc", "a disc not in 1..N", "FILE-4",
                 "line 2 of the save file: ...")
    span.empty("END-1", "after the last prompt")   # an empty span here

install() replaces sys.stdout, while traced, by a writer that encodes each
write at once (with stdout's encoding and error handler), counts its bytes
and hands them to stdout's byte buffer, so every offset is the byte offset
of stdout whatever buffering follows (its fileno() is then unsupported, so
that input(prompt) writes its prompt through it, counted, at a terminal
too). Untraced, sys.stdout is left alone.
write(data) writes str or bytes to stdout, counted, with or without
install(). stderr is never counted.

What the model writes besides stdout it marks as an aside, under the rules
it obeys: wrote_file(path, rules, what) for a file it saved,
wrote_stderr(data, rules, what) for a message on stderr. A program that
leaves them undone (the file missing, the message missing) gets one cause
named by them, `what` read after "does not" ("save the game").

The record format is the one reference_kit::trace::parse_record reads:
first the rulings in order,
    ! rejected|stopped AT RULE KIND LINE-HEX EXIT-RULE\\tSAYS\\tDETAIL
then the asides,
    > file|stderr AT BYTES-HEX RULES\\tWHAT
then the spans,
    START END RULES\\tWHAT
Word fields have every byte <= 0x20 replaced by '_' and are '-' when empty
(RULES stays empty); SAYS, DETAIL and WHAT have tabs, newlines and carriage
returns replaced by spaces; LINE-HEX is the line's first 120 bytes in hex,
'-' when empty.
"""

import atexit
import io
import os
import sys

ENV = "CONFORMANCE_PROVENANCE"
LINE_KEPT = 120
ASIDE_KEPT = 4096

_path = os.environ.get(ENV) or None
_at = 0
_context = None  # (rules, what)
_spans = []  # [start, end, rules, what]
_rulings = []  # record lines, rendered when noted
_asides = []  # record lines, rendered when noted


def active():
    """Whether the record is kept."""
    return _path is not None


def _word(s):
    s = "".join("_" if ord(c) <= 0x20 else c for c in str(s))
    return s or "-"


def _text(s):
    return str(s).replace("\t", " ").replace("\n", " ").replace("\r", " ")


def enter(rules, what):
    """From now on, stdout is written obeying `rules` (comma-separated rule
    IDs) and is `what` (a few words for a person)."""
    global _context
    if _path is None:
        return
    _context = (_word(rules) if rules else "", _text(what))


def wrote(n):
    """`n` bytes of stdout were written in the current context (for a
    writer of your own; install() and write() call it)."""
    global _at
    if _path is None or n <= 0:
        return
    start = _at
    _at += n
    if _context is None:
        return
    if _spans and _spans[-1][1] == start and (_spans[-1][2], _spans[-1][3]) == _context:
        _spans[-1][1] = _at
    else:
        _spans.append([start, _at, _context[0], _context[1]])


def empty(rules, what):
    """Marks an empty span of `rules` (comma-separated rule IDs) here: the
    place where the model, under those rules, prints nothing (the end of
    input after the last prompt). A rule judged `any` frees what a
    program prints there, none included. The current context is kept."""
    if _path is None:
        return
    _spans.append([_at, _at, _word(rules) if rules else "", _text(what)])


def _note(verdict, rule, kind, says, line, exit_rule, detail):
    if _path is None:
        return
    if isinstance(line, str):
        line = line.encode("utf-8", "surrogateescape")
    hexed = bytes(line[:LINE_KEPT]).hex() or "-"
    _rulings.append(
        "! %s %d %s %s %s %s\t%s\t%s\n"
        % (verdict, _at, _word(rule), _word(kind), hexed, _word(exit_rule),
           _text(says), _text(detail))
    )


def rejected(rule, kind, says, line, detail):
    """The model rejected input `line` (str or bytes, without its newline)
    for the reason rule/kind/says; `detail` names the case's values."""
    _note("rejected", rule, kind, says, line, "", detail)


def stopped(rule, kind, says, exit_rule, detail):
    """The model stops for the reason rule/kind/says with the message and
    status of `exit_rule`; `detail` names the case's values."""
    _note("stopped", rule, kind, says, b"", exit_rule, detail)


def _aside(channel, data, rules, what):
    if _path is None:
        return
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if len(data) > ASIDE_KEPT:
        return
    _asides.append(
        "> %s %d %s %s\t%s\n"
        % (channel, _at, bytes(data).hex() or "-", _word(rules) if rules else "",
           _text(what))
    )


def wrote_file(path, rules, what):
    """The model wrote the file `path` (str or bytes, as it opened it)
    obeying `rules`, doing `what` (a verb phrase: "save the game")."""
    _aside("file", path, rules, what)


def wrote_stderr(data, rules, what):
    """The model wrote `data` (str or bytes, with its newline) on stderr
    obeying `rules`, doing `what`."""
    _aside("stderr", data, rules, what)


def flush():
    """Writes the record now (also done at exit)."""
    if _path is None:
        return
    lines = list(_rulings) + list(_asides)
    lines += ["%d %d %s\t%s\n" % (s, e, r, w) for s, e, r, w in _spans]
    try:
        with open(_path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.writelines(lines)
    except OSError:
        # The record is advice: the harness then finds none.
        pass


class _Counted:
    """sys.stdout while traced: each write encoded and counted at once."""

    def __init__(self, inner):
        self._inner = inner
        self.buffer = _CountedBuffer(inner.buffer)

    # Read from the real stream each time: reconfigure() may change them.
    @property
    def encoding(self):
        return self._inner.encoding or "utf-8"

    @property
    def errors(self):
        return self._inner.errors or "strict"

    def __getattr__(self, name):
        # Anything else a model asks of sys.stdout (reconfigure,
        # line_buffering, name, closed...) is the real stream's, so tracing
        # never makes a model fail where it runs untraced.
        return getattr(self._inner, name)

    def write(self, s):
        data = s.encode(self.encoding, self.errors)
        self.buffer.write(data)
        return len(s)

    def writelines(self, lines):
        for s in lines:
            self.write(s)

    def flush(self):
        self.buffer.flush()

    def isatty(self):
        return self._inner.isatty()

    def fileno(self):
        # input(prompt) writes its prompt past sys.stdout, uncounted, when
        # sys.stdout has the terminal's descriptor: without one it writes
        # through sys.stdout.
        raise io.UnsupportedOperation("fileno: stdout is counted")

    def writable(self):
        return True


class _CountedBuffer:
    """stdout's byte buffer, counted."""

    def __init__(self, inner):
        self._inner = inner

    def write(self, data):
        n = self._inner.write(data)
        wrote(len(data) if n is None else n)
        return n

    def flush(self):
        self._inner.flush()

    def __getattr__(self, name):
        return getattr(self._inner, name)


def install():
    """While traced, sys.stdout counts every byte written through it."""
    if _path is None or isinstance(sys.stdout, _Counted):
        return
    sys.stdout.flush()
    sys.stdout = _Counted(sys.stdout)


def write(data):
    """Writes `data` (str or bytes) to stdout, counted."""
    if isinstance(data, str):
        sys.stdout.write(data)
        if not isinstance(sys.stdout, _Counted):
            wrote(len(data.encode(sys.stdout.encoding or "utf-8",
                                  sys.stdout.errors or "strict")))
        return
    if isinstance(sys.stdout, _Counted):
        sys.stdout.buffer.write(data)
        return
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    wrote(len(data))


if _path is not None:
    atexit.register(flush)
