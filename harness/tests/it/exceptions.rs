//! Uncaught exceptions are crashes, in every language (docs/first-pass.md):
//! a folder pack whose model reports a missing input file with a message
//! of its choice (`stderr: nonempty`), and three students who never catch
//! the error: in Python, Java (`java Main.java`) and Node.js. Each report
//! names the exception's type and the student's own line, as a crash, not
//! as a stderr or status difference; `nonempty` refuses a traceback as
//! the message, `nonempty-or-traceback` accepts it. A runtime that is not
//! installed skips its student, saying so (`.ci/run` installs them).

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

use crate::files::{bless, text, write};

/// The model: a message of its choice and status 1 on a missing file.
const MODEL: &str = r#"import sys

try:
    with open(sys.argv[1]) as f:
        print(len(f.read().splitlines()))
except FileNotFoundError:
    sys.exit("Could not read " + sys.argv[1])
"#;

const PYTHON: &str = r"import sys


def main():
    with open(sys.argv[1]) as f:
        print(len(f.read().splitlines()))


main()
";

const JAVA: &str = r"import java.nio.file.*;

public class Main {
    public static void main(String[] args) throws Exception {
        System.out.println(Files.readAllLines(Path.of(args[0])).size());
    }
}
";

const NODE: &str = r"const fs = require('fs');
const text = fs.readFileSync(process.argv[2], 'utf8');
console.log(text.split('\n').length - 1);
";

fn harness() -> Command {
    crate::files::harness("read")
}

/// The pack in `dir/read`, its stderr judged by `tolerance`, blessed.
fn pack(dir: &Path, tolerance: &str) -> PathBuf {
    let pack = dir.join("read");
    write(
        &pack.join("pack.yaml"),
        "name: read\nmodel:\n  dir: model\n  command: python3 read.py\nsubmissions:\n  program: \
         read.py\n  run: \"python3 {program}\"\ntimeout: 20s\n",
    );
    write(&pack.join("model/read.py"), MODEL);
    write(
        &pack.join("suite.yaml"),
        "name: read\nversion: \"1\"\nspec: read-rulings.md\ncategories:\n  - {name: read, \
         marks: 1}\n",
    );
    write(
        &pack.join("rules.yaml"),
        &format!(
            "rules:\n  - {{id: READ-1, summary: \"a missing file: a message of the program's \
             choice, status 1\", ambiguous: no, match: {{stderr: {tolerance}}}}}\n"
        ),
    );
    write(
        &pack.join("read-rulings.md"),
        "# read: rulings\n\n- **READ-1** A missing file: a message, status 1.\n",
    );
    write(
        &pack.join("read/missing.yaml"),
        "summary: \"a missing input file\"\ncategory: read\nrules: [READ-1]\ntimeout: 30\nargs: \
         [before.csv]\n",
    );
    bless(harness(), &pack);
    pack
}

/// The report of `bin` run from a folder holding `file` with `source`.
fn run(dir: &Path, pack: &Path, file: &str, source: &str, bin: &str) -> Output {
    let folder = dir.join("submissions").join(file);
    write(&folder.join(file), source);
    harness()
        .current_dir(&folder)
        .args(["--spec"])
        .arg(pack)
        .args(["--bin", bin])
        .output()
        .expect("run")
}

fn installed(program: &str) -> bool {
    let found = std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("{program} is not installed: its student is skipped (.ci/run installs it)");
    }
    found
}

#[test]
fn a_python_traceback_is_a_crash_named_by_its_type_and_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(dir.path(), "nonempty");
    let out = run(dir.path(), &pack, "read.py", PYTHON, "python3 read.py");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(
            "raises FileNotFoundError (`./read.py:5`, saying `[Errno 2] No such file or \
             directory: 'before.csv'`)"
        ),
        "{said}"
    );
    assert!(!said.contains("cause 1 of 1: 1 case(s): stderr"), "{said}");
    // A pack whose text lets a program stop on an uncaught exception.
    let pack = self::pack(&dir.path().join("lenient"), "nonempty-or-traceback");
    let out = run(dir.path(), &pack, "read.py", PYTHON, "python3 read.py");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn a_java_exception_is_a_crash_named_by_its_type_and_line() {
    if !installed("java") {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(dir.path(), "nonempty");
    let out = run(dir.path(), &pack, "Main.java", JAVA, "java Main.java");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("raises NoSuchFileException (`Main.java:5`, saying `before.csv`)"),
        "{said}"
    );
}

#[test]
fn a_node_error_is_a_crash_named_by_its_type_and_line() {
    if !installed("node") {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(dir.path(), "nonempty");
    let out = run(dir.path(), &pack, "read.js", NODE, "node read.js");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("raises Error (`./read.js:2`, saying `ENOENT: no such file or directory"),
        "{said}"
    );
}
