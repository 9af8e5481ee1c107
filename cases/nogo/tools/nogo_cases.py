#!/usr/bin/env python3
"""Writes and checks the nogo conformance suite (cases/nogo/).

    python3 cases/nogo/tools/nogo_cases.py generate [--bin target/release/nogo]
    python3 cases/nogo/tools/nogo_cases.py check    [--bin PROG] [--include-ignored] [--cases DIR]

`generate` rewrites every case folder from the case list in `suite_cases.py`:
each case's inputs (arguments, stdin, files) come from that list, its
expected status, stdout, stderr and output files from running the reference
binary in a fresh sandbox (cleared environment, as the harness runs it).
Read what it wrote against the rulings before committing (see README.md).
`check` replays the committed YAML files against any binary, as the harness
will, and reports each difference: a stand-in until the engine runs nogo.
"""

import argparse
import base64
import os
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(SUITE))
sys.path.insert(0, HERE)

from suite_cases import CATEGORIES, all_cases  # noqa: E402

SIDECAR_LIMIT = 160


def q(b):
    """A YAML double-quoted scalar for ASCII bytes, or None."""
    out = []
    for c in b:
        if c == 0x5C:
            out.append("\\\\")
        elif c == 0x22:
            out.append('\\"')
        elif c == 0x0A:
            out.append("\\n")
        elif c == 0x09:
            out.append("\\t")
        elif c == 0x0D:
            out.append("\\r")
        elif c == 0x00:
            out.append("\\0")
        elif c < 0x20 or c == 0x7F:
            out.append("\\x%02x" % c)
        elif c >= 0x80:
            return None
        else:
            out.append(chr(c))
    return '"' + "".join(out) + '"'


def b64(b):
    return base64.b64encode(b).decode()


def sandbox_run(binary, case, workdir, mode):
    for path, data in case.files:
        full = os.path.join(workdir, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if data is None:
            os.makedirs(full, exist_ok=True)
        else:
            with open(full, "wb") as f:
                f.write(data)
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": workdir}
    args = [binary] + [os.fsdecode(a) if isinstance(a, bytes) else a for a in case.args]
    if mode == "stdout-full":
        with open("/dev/full", "wb") as full:
            p = subprocess.run(args, input=case.stdin, stdout=full, stderr=subprocess.PIPE,
                               cwd=workdir, env=env, timeout=20)
        return p.returncode, b"", p.stderr
    p = subprocess.run(args, input=case.stdin, capture_output=True, cwd=workdir, env=env,
                       timeout=20)
    return p.returncode, p.stdout, p.stderr


def yaml_list(items):
    return "[" + ", ".join(items) + "]"


def write_case(case, status, out, err, outputs):
    folder = os.path.join(SUITE, case.category)
    os.makedirs(folder, exist_ok=True)
    lines = []
    if case.comment:
        for c in case.comment.splitlines():
            lines.append("# " + c)
    lines.append("summary: " + q(case.summary.encode()))
    lines.append("category: " + case.category)
    lines.append("rules: " + yaml_list(case.rules))
    if case.tags:
        lines.append("tags: " + yaml_list(case.tags))
    lines.append("hint: " + q(case.hint.encode()))
    if case.mode != "pipe":
        lines.append("mode: " + case.mode)
    if case.timeout:
        lines.append("timeout: %s" % case.timeout)
    lines.append("args: " + yaml_list(q(a if isinstance(a, bytes) else a.encode()) for a in case.args))
    if case.stdin:
        if len(case.stdin) > 2000:
            name = case.name + ".stdin"
            with open(os.path.join(folder, name), "wb") as f:
                f.write(case.stdin)
            lines.append("stdin-file: " + name)
        elif q(case.stdin) is not None:
            lines.append("stdin: " + q(case.stdin))
        else:
            lines.append("stdin-base64: " + b64(case.stdin))
    if case.files:
        lines.append("files:")
        for i, (path, data) in enumerate(case.files):
            if data is None:
                continue
            if len(data) > SIDECAR_LIMIT or q(data) is None:
                name = "%s.%s" % (case.name, "game" if i == 0 else "game%d" % i)
                with open(os.path.join(folder, name), "wb") as f:
                    f.write(data)
                lines.append("  - {path: %s, file: %s}" % (q(path.encode()), name))
            else:
                lines.append("  - {path: %s, text: %s}" % (q(path.encode()), q(data)))
        if lines[-1] == "files:":
            lines.pop()
    lines.append("status: %d" % status)
    if out:
        if out.count(b"\n") <= 1 and len(out) < 200 and q(out) is not None:
            lines.append("stdout: " + q(out))
        else:
            name = case.name + ".stdout"
            with open(os.path.join(folder, name), "wb") as f:
                f.write(out)
            lines.append("stdout-file: " + name)
    if err:
        e = q(err)
        lines.append("stderr: " + e if e is not None else "stderr-base64: " + b64(err))
    if case.outputs:
        lines.append("output-files:")
        for i, path in enumerate(case.outputs):
            data = outputs[path]
            if len(data) > SIDECAR_LIMIT or q(data) is None:
                name = "%s.%s" % (case.name, "saved" if i == 0 else "saved%d" % i)
                with open(os.path.join(folder, name), "wb") as f:
                    f.write(data)
                lines.append("  - {path: %s, file: %s}" % (q(path.encode()), name))
            else:
                lines.append("  - {path: %s, text: %s}" % (q(path.encode()), q(data)))
    if case.absent:
        lines.append("absent-files: " + yaml_list(q(p.encode()) for p in case.absent))
    with open(os.path.join(folder, case.name + ".yaml"), "w") as f:
        f.write("\n".join(lines) + "\n")


def dead_strings(data):
    """Whether a loadable save file's grid holds a string without liberty."""
    try:
        lines = data.decode().split("\n")
        h, w = int(lines[0].split(" ")[0]), int(lines[0].split(" ")[1])
        rows = lines[1:1 + h]
        if len(rows) != h or any(len(r) != w for r in rows):
            return False
    except (UnicodeDecodeError, ValueError, IndexError):
        return False
    for r in range(h):
        for c in range(w):
            if rows[r][c] in "OX":
                free = any(0 <= r + dr < h and 0 <= c + dc < w and rows[r + dr][c + dc] == "."
                           for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))
                if free:
                    continue
                # Walk the string.
                seen, todo, alive = {(r, c)}, [(r, c)], False
                while todo and not alive:
                    a, b = todo.pop()
                    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                        x, y = a + dr, b + dc
                        if 0 <= x < h and 0 <= y < w:
                            if rows[x][y] == ".":
                                alive = True
                            elif rows[x][y] == rows[r][c] and (x, y) not in seen:
                                seen.add((x, y))
                                todo.append((x, y))
                if not alive:
                    return True
    return False


def generate(binary):
    cases = all_cases()
    for case in cases:
        loads = case.expect_status not in (4, 5) and any(p == "game" for p, _ in case.files)
        if loads and any(dead_strings(d) for p, d in case.files if p == "game"):
            if "ambiguous" not in case.tags or "CAPTURE-4" not in case.rules:
                sys.exit("%s/%s: a loaded dead string needs CAPTURE-4 and the ambiguous tag"
                         % (case.category, case.name))
    names = set()
    for case in cases:
        key = (case.category, case.name)
        if key in names:
            sys.exit("duplicate case %s/%s" % key)
        names.add(key)
        if case.category not in CATEGORIES:
            sys.exit("unknown category " + case.category)
    for cat in CATEGORIES:
        shutil.rmtree(os.path.join(SUITE, cat), ignore_errors=True)
    for case in cases:
        with tempfile.TemporaryDirectory() as work:
            status, out, err = sandbox_run(binary, case, work, case.mode)
            outputs = {}
            for path in case.outputs:
                full = os.path.join(work, path)
                if not os.path.isfile(full):
                    sys.exit("%s/%s: output file %s not written" % (case.category, case.name, path))
                with open(full, "rb") as f:
                    outputs[path] = f.read()
            for path in case.absent:
                if os.path.lexists(os.path.join(work, path)):
                    sys.exit("%s/%s: %s exists" % (case.category, case.name, path))
            if case.expect_status is not None and status != case.expect_status:
                sys.exit("%s/%s: status %d, the case list expects %d\nstdout %r\nstderr %r" % (
                    case.category, case.name, status, case.expect_status, out[-300:], err))
        write_case(case, status, out, err, outputs)
    write_ambiguities(cases)
    print("wrote %d cases" % len(cases))


def write_ambiguities(cases):
    """AMBIGUITIES.md: the ambiguous cases grouped by the ambiguous rules they cite."""
    with open(os.path.join(SUITE, "rules.yaml"), "rb") as f:
        rules = yaml.safe_load(f)["rules"]
    # PyYAML reads the bare word `no` as false (YAML 1.1).
    amb = [(r["id"], r["summary"], r["ambiguous"]) for r in rules
           if r["ambiguous"] not in ("no", False)]
    out = ["# The ambiguous cases of the nogo suite",
           "",
           "Written by `tools/nogo_cases.py generate`. Each rule marked (ambiguous), in",
           "whole or in part (`rules.yaml`), with the cases tagged `ambiguous` that cite",
           "it. These cases run only with `--include-ignored`; a program that fails",
           "only them follows another reading of the text that careful readers share.",
           ""]
    for rid, summary, kind in amb:
        names = sorted("%s/%s" % (c.category, c.name) for c in cases
                       if "ambiguous" in c.tags and rid in c.rules)
        out.append("## %s (%s)" % (rid, kind))
        out.append("")
        out.append(summary)
        out.append("")
        out.extend("- `%s`" % n for n in names) if names else out.append("- (no case)")
        out.append("")
    with open(os.path.join(SUITE, "AMBIGUITIES.md"), "w") as f:
        f.write("\n".join(out))


def load_bytes(case, folder, key):
    if key in case:
        return case[key].encode()
    if key + "-file" in case:
        with open(os.path.join(folder, case[key + "-file"]), "rb") as f:
            return f.read()
    if key + "-base64" in case:
        return base64.b64decode(case[key + "-base64"])
    return b""


def spec_bytes(spec, folder):
    if "text" in spec:
        return spec["text"].encode()
    if "file" in spec:
        with open(os.path.join(folder, spec["file"]), "rb") as f:
            return f.read()
    return base64.b64decode(spec["base64"])


class Replay:
    def __init__(self, case, folder):
        self.args = case.get("args", [])
        self.stdin = load_bytes(case, folder, "stdin")
        self.files = [(f["path"], spec_bytes(f, folder)) for f in case.get("files", [])]


def check(binary, include_ignored, root):
    failures = 0
    total = 0
    for cat in CATEGORIES:
        folder = os.path.join(root, cat)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".yaml"):
                continue
            with open(os.path.join(folder, name), "rb") as f:
                case = yaml.safe_load(f)
            if "ambiguous" in case.get("tags", []) and not include_ignored:
                continue
            total += 1
            mode = case.get("mode", "pipe")
            with tempfile.TemporaryDirectory() as work:
                status, out, err = sandbox_run(binary, Replay(case, folder), work, mode)
                problems = []
                if status != case["status"]:
                    problems.append("status %d, expected %d" % (status, case["status"]))
                if out != load_bytes(case, folder, "stdout"):
                    problems.append("stdout differs")
                if err != load_bytes(case, folder, "stderr"):
                    problems.append("stderr differs: %r" % err)
                for spec in case.get("output-files", []):
                    full = os.path.join(work, spec["path"])
                    got = open(full, "rb").read() if os.path.isfile(full) else None
                    if got != spec_bytes(spec, folder):
                        problems.append("output file %s differs" % spec["path"])
                for path in case.get("absent-files", []):
                    if os.path.lexists(os.path.join(work, path)):
                        problems.append("%s exists" % path)
            if problems:
                failures += 1
                print("FAIL %s/%s: %s" % (cat, name[:-5], "; ".join(problems)))
    print("%d cases, %d failed" % (total, failures))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["generate", "check"])
    parser.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "nogo"))
    parser.add_argument("--include-ignored", action="store_true")
    parser.add_argument("--cases", default=SUITE, help="check: another folder of cases "
                        "(e.g. a nogo-corpus output)")
    a = parser.parse_args()
    binary = os.path.abspath(a.bin)
    if a.command == "generate":
        generate(binary)
    else:
        sys.exit(check(binary, a.include_ignored, os.path.abspath(a.cases)))


if __name__ == "__main__":
    main()
