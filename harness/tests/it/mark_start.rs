//! A runtime that fails to start is never a verdict, and a program that
//! says so itself is not believed (docs/containment.md, "A runtime that
//! fails to start"): shell scripts stand for a JVM, printing its start-up
//! message where a real one could not reserve its heap.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::Path;

use assert_cmd::Command;

use crate::write_file::write;

const VM: &str = "echo 'Error occurred during initialization of VM' >&2; echo 'Could not \
                  reserve enough space for 6172672KB object heap' >&2; exit 1";

fn harness(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env_remove("CONFORMANCE_REFERENCE")
        .env("NO_COLOR", "1")
        // A counter file outside the case folder: writable at this level.
        .env("CONFORMANCE_CONTAINMENT", "group")
        .current_dir(dir);
    cmd
}

fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = harness(dir).args(args).output().expect("harness");
    (
        out.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// A two-case pack whose model (`model.sh`) is `model`: case `one` reads
/// `1`, case `two` reads `2` with the argument `x`.
fn pack(dir: &Path, model: &str) {
    let pack = dir.join("pack");
    write(
        &pack.join("pack.yaml"),
        "name: starts\nmodel:\n  command: sh model.sh\nsubmissions:\n  program: prog.sh\n  \
         run: \"sh {program}\"\ntimeout: 10s\n",
    );
    write(&pack.join("model.sh"), model);
    write(
        &pack.join("suite.yaml"),
        "name: starts\ncategories:\n  - {name: c, marks: 2}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - id: T-1\n    summary: echoes\n    ambiguous: no\n",
    );
    write(
        &pack.join("c/one.yaml"),
        "summary: one\ncategory: c\nrules: [T-1]\nargs: []\nstdin: \"1\\n\"\n",
    );
    write(
        &pack.join("c/two.yaml"),
        "summary: two\ncategory: c\nrules: [T-1]\nargs: [x]\nstdin: \"2\\n\"\n",
    );
}

const ECHO: &str = "read v; echo \"got $v\"\n";

/// The class: alice never starts, bob is right, mallory and eve fake a
/// start failure on case two, carol fails once then starts (counted in
/// the file returned).
fn submissions(d: &Path) -> std::path::PathBuf {
    let counter = d.join("counter");
    let subs = [
        // Never starts: the environment's.
        ("alice", format!("{VM}\n")),
        ("bob", ECHO.to_owned()),
        // Reads its input, then says the JVM could not start on `2`.
        (
            "mallory",
            format!("read v\nif [ \"$v\" = 2 ]; then {VM}; fi\necho \"got $v\"\n"),
        ),
        // A silent 127 before reading, on case two alone.
        (
            "eve",
            format!("if [ \"$1\" = x ]; then exit 127; fi\n{ECHO}"),
        ),
        // Fails once (its second run), then starts.
        (
            "carol",
            format!(
                "n=$(cat '{c}' 2>/dev/null); n=${{n:-0}}; echo $((n+1)) > '{c}'\nif [ \"$n\" = 1 \
                 ]; then {VM}; fi\n{ECHO}",
                c = counter.display()
            ),
        ),
    ];
    for (who, script) in &subs {
        write(&d.join("subs").join(who).join("prog.sh"), script);
    }
    counter
}

#[test]
fn a_runtime_that_never_starts_is_struck_and_one_that_fakes_it_is_charged() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    pack(d, ECHO);
    let (code, text) = run(d, &["bless", "--spec", "./pack"]);
    assert_eq!(code, Some(0), "{text}");
    let counter = submissions(d);
    let (code, text) = run(
        d,
        &[
            "mark",
            "--spec",
            "./pack",
            "subs",
            "--out",
            "marks",
            "--allow-weaker-containment",
        ],
    );
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains(
            "alice: build ok, no mark of 2 (2 case(s) not judged) — ENVIRONMENT FAILURE, not the \
             program's: the program's runtime could not start where the marks run (3 runs): \
             `Error occurred during initialization of VM`"
        ),
        "{text}"
    );
    assert!(
        text.contains("ENVIRONMENT FAILURE: 1 submission(s) failed for what this machine lacks"),
        "{text}"
    );
    let table = std::fs::read_to_string(d.join("marks/marks.csv")).expect("marks.csv");
    // Nothing charged to alice: no mark rather than 0.
    assert!(
        table.contains(
            "\nalice,,,,ok,0,,,0,0,2,environment: the program's runtime could not start where \
             the marks run (3 runs)"
        ),
        "{table}"
    );
    for row in [
        "\nbob,,,,ok,0,2,2,2,0,0,",
        // The fakers lose the case they faked.
        "\nmallory,,,,ok,0,1,1,1,1,0,",
        "\neve,,,,ok,0,1,1,1,1,0,",
        // One failed start, run again: judged as any run.
        "\ncarol,,,,ok,0,2,2,2,0,0,",
    ] {
        assert!(table.contains(row), "{row}: {table}");
    }
    let runs: u32 = std::fs::read_to_string(&counter)
        .expect("carol's counter")
        .trim()
        .parse()
        .expect("a count");
    assert!(runs >= 4, "carol ran {runs} times");
    let report =
        std::fs::read_to_string(d.join("marks/submissions/eve/report.txt")).expect("eve's report");
    assert!(
        report.contains("a start failure that follows the case is the program's"),
        "{report}"
    );
    let index = std::fs::read_to_string(d.join("marks/index.html")).expect("index");
    let banner = crate::mark_env::banner(&index);
    assert!(
        banner.contains("the program&#39;s runtime could not start where the marks run"),
        "{banner}"
    );
    assert!(
        banner.contains("1 submission(s), 2 case(s): alice"),
        "{banner}"
    );
}

#[test]
fn a_model_that_cannot_start_is_not_blessed() {
    let dir = tempfile::tempdir().expect("temp dir");
    pack(dir.path(), &format!("{VM}\n"));
    let (code, text) = run(dir.path(), &["bless", "--spec", "./pack"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("the model's runtime could not start (3 runs)"),
        "{text}"
    );
}
