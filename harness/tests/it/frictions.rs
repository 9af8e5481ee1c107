//! A lecturer's first pack, its frictions gone (issue 45, item 7): a
//! sidecar anywhere inside the pack's folder reads the same in `bless`
//! and in a run, one outside it is refused by both with the same words
//! naming the case's file and line; each case's own hint is shown with
//! its case; a deduction is charged in words, from its rule's category.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::Path;

use assert_cmd::Command;

use crate::write_file::write;

/// `boxes-harness ARGS` in `dir`: its status and stdout with stderr.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env_remove("CONFORMANCE_REFERENCE")
        .env("NO_COLOR", "1")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("harness");
    crate::write_file::said(&out)
}

/// A pack whose model prints its input file `in.csv`, with `cases`.
fn pack(dir: &Path, cases: &[(&str, &str)]) {
    let pack = toy_pack(dir, "");
    for (name, body) in cases {
        write(
            &pack.join(format!("c/{name}.yaml")),
            &format!("summary: {name}\ncategory: c\nrules: [T-1]\n{body}"),
        );
    }
}

/// The toy pack's folder (`dir/pack`) without cases: its suite in the
/// folder `suite` of the pack (`""`: the pack's own folder).
fn toy_pack(dir: &Path, suite: &str) -> std::path::PathBuf {
    let pack = dir.join("pack");
    let suite_line = if suite.is_empty() {
        String::new()
    } else {
        format!("suite: {suite}\n")
    };
    write(
        &pack.join("pack.yaml"),
        &format!("name: toy\n{suite_line}model:\n  command: sh model.sh\n"),
    );
    write(&pack.join("model.sh"), "cat in.csv\n");
    write(
        &pack.join(suite).join("suite.yaml"),
        "name: toy\ncategories:\n  - {name: c, marks: 1}\n",
    );
    write(
        &pack.join(suite).join("rules.yaml"),
        "rules:\n  - id: T-1\n    summary: prints the file\n    ambiguous: no\n",
    );
    pack
}

const REFUSED: &str = "`files: file: ../../outside/o.csv`: cannot read the sidecar: outside the \
                       pack's folder: a sidecar is read from inside the pack's folder only";

#[test]
fn a_sidecar_inside_the_pack_reads_alike_in_bless_and_run_and_one_outside_is_refused_alike() {
    let dir = tempfile::tempdir().expect("temp dir");
    pack(
        dir.path(),
        &[
            (
                "inside",
                "files:\n  - {path: in.csv, file: ../sample/before.csv}\n",
            ),
            (
                "outside",
                "files:\n  - {path: in.csv, file: ../../outside/o.csv}\n",
            ),
        ],
    );
    write(&dir.path().join("pack/sample/before.csv"), "a,b\n");
    write(&dir.path().join("outside/o.csv"), "secret\n");
    let (code, text) = run(dir.path(), &["bless", "--spec", "./pack"]);
    assert_eq!(code, Some(2), "{text}");
    // The file and line that name it.
    assert!(
        text.contains(&format!("c/outside.yaml:5: {REFUSED}")),
        "{text}"
    );
    let blessed = std::fs::read_to_string(dir.path().join("pack/c/inside.yaml")).expect("case");
    assert!(blessed.contains("stdout: \"a,b\\n\""), "{blessed}");
    let other = std::fs::read_to_string(dir.path().join("pack/c/outside.yaml")).expect("case");
    assert!(!other.contains("secret"), "{other}");

    let (code, text) = run(
        dir.path(),
        &["--spec", "./pack", "--bin", "sh pack/model.sh"],
    );
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(&format!("c/outside.yaml:5: {REFUSED}")),
        "{text}"
    );
    assert!(text.contains("1 passed"), "the inside case runs: {text}");
}

#[test]
fn a_suite_in_a_subfolder_reads_sidecars_beside_it_in_the_pack() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = toy_pack(dir.path(), "tests");
    let case = |file: &str| {
        format!(
            "summary: x\ncategory: c\nrules: [T-1]\nfiles:\n  - {{path: in.csv, file: {file}}}\n"
        )
    };
    write(
        &pack.join("tests/c/beside.yaml"),
        &case("../../sample/before.csv"),
    );
    write(
        &pack.join("tests/c/outside.yaml"),
        &case("../../../outside/o.csv"),
    );
    write(&pack.join("sample/before.csv"), "a,b\n");
    write(&dir.path().join("outside/o.csv"), "secret\n");
    let refused = "c/outside.yaml:5: `files: file: ../../../outside/o.csv`: cannot read the \
                   sidecar: outside the pack's folder";
    let (code, text) = run(dir.path(), &["bless", "--spec", "./pack"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains(refused), "{text}");
    let blessed = std::fs::read_to_string(pack.join("tests/c/beside.yaml")).expect("case");
    assert!(blessed.contains("stdout: \"a,b\\n\""), "{blessed}");
    // A run reads it from the pack as loaded, as bless read it.
    let (code, text) = run(
        dir.path(),
        &["--spec", "./pack", "--bin", "sh pack/model.sh"],
    );
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains(refused), "{text}");
    assert!(text.contains("1 passed"), "the beside case runs: {text}");
}

#[test]
fn each_cases_own_hint_is_shown_with_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let body = |hint: &str| {
        format!(
            "hint: {hint}\nfiles:\n  - {{path: in.csv, text: \"a,b\\n\"}}\nstdout: \"a,b\\n\"\nstatus: 0\n"
        )
    };
    pack(
        dir.path(),
        &[
            ("first", &body("read the first row")),
            ("second", &body("mind the header")),
        ],
    );
    write(&dir.path().join("wrong.sh"), "echo nothing\n");
    let (code, text) = run(dir.path(), &["--spec", "./pack", "--bin", "sh wrong.sh"]);
    assert_eq!(code, Some(1), "{text}");
    // One cause: the worked example's hint heads it, the other case's is
    // shown with that case.
    assert!(text.contains("cause 1 of 1: 2 case(s)"), "{text}");
    let at = |what: &str| text.find(what).unwrap_or_else(|| panic!("{what}: {text}"));
    let other = at("hint of c/second: mind the header");
    let example = at("worked example, c/first:");
    let own = at("hint: read the first row");
    assert!(other < example && example < own, "{text}");
    assert!(!text.contains("hint of c/first"), "{text}");
}

#[test]
fn a_deduction_is_a_charge_in_words_with_the_bytes_it_forgave() {
    let dir = tempfile::tempdir().expect("temp dir");
    pack(
        dir.path(),
        &[(
            "spaced",
            "files:\n  - {path: in.csv, text: \"a b\\n\"}\nstdout: \"a b\\n\"\nstatus: 0\n",
        )],
    );
    write(
        &dir.path().join("pack/rules.yaml"),
        "rules:\n  - id: T-1\n    summary: prints the file, spacing free\n    ambiguous: no\n    \
         match:\n      stdout: spacing\n      deduct: 0.25\n",
    );
    write(&dir.path().join("spaced.sh"), "echo 'a  b'\n");
    let (code, text) = run(
        dir.path(),
        &["--score", "--spec", "./pack", "--bin", "sh spaced.sh"],
    );
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains(
            "-0.25 T-1: prints `a  b` on stdout where the model prints `a b` (in c/spaced; \
             charged once)"
        ),
        "{text}"
    );
    // Every case passes, yet marks are lost: the result line says so.
    assert!(
        text.contains("; 0.25 mark(s) deducted, see the charges above"),
        "{text}"
    );
}

/// A pack whose Python model prints `hello` under T-1, then (with
/// `mark_empty`) marks an empty span of END-1, whose rule judges stdout
/// `any`: what a program prints after the greeting is free.
fn any_after(dir: &Path, mark_empty: bool) {
    let pack = dir.join("pack");
    write(
        &pack.join("pack.yaml"),
        "name: toy\nmodel:\n  command: python3 model.py\n",
    );
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("../span/conformance_span.py");
    std::fs::copy(module, pack.join("conformance_span.py")).expect("copy the module");
    write(
        &pack.join("model.py"),
        &format!(
            "import conformance_span as span\nspan.install()\nspan.enter('T-1', 'the greeting')\n\
             print('hello')\n{}",
            if mark_empty {
                "span.empty('END-1', 'after the greeting')\n"
            } else {
                ""
            }
        ),
    );
    write(
        &pack.join("suite.yaml"),
        "name: toy\ncategories:\n  - {name: c, marks: 1}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - {id: T-1, summary: the greeting, ambiguous: no}\n  \
         - {id: END-1, summary: anything after it, ambiguous: no, match: {stdout: any}}\n",
    );
    write(
        &pack.join("c/greet.yaml"),
        "summary: greet\ncategory: c\nrules: [T-1, END-1]\nstdout: \"hello\\n\"\nstatus: 0\n",
    );
}

#[test]
fn any_on_an_empty_span_frees_what_is_printed_there_and_says_when_nothing_marks_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    any_after(dir.path(), true);
    for (program, code) in [
        ("echo hello; echo bye", 0),
        ("echo hello", 0),
        ("echo hallo; echo bye", 1),
    ] {
        write(&dir.path().join("p.sh"), &format!("{program}\n"));
        let (got, text) = run(dir.path(), &["--spec", "./pack", "--bin", "sh p.sh"]);
        assert_eq!(got, Some(code), "{program}: {text}");
    }
    // The model marks no span of END-1: the case compares exactly, and
    // its failure says END-1's `any` freed nothing.
    let dir = tempfile::tempdir().expect("temp dir");
    any_after(dir.path(), false);
    write(&dir.path().join("p.sh"), "echo hello; echo bye\n");
    let (got, text) = run(dir.path(), &["--spec", "./pack", "--bin", "sh p.sh"]);
    assert_eq!(got, Some(1), "{text}");
    assert!(
        text.contains("END-1 freed nothing: the model marks no span of it in this case"),
        "{text}"
    );
}

#[test]
fn a_checkers_words_reach_it_as_written_and_one_that_crashes_stops_bless_with_its_traceback() {
    // Issue 53: `average` is also a category folder of the pack; the
    // checker gets the word, not the folder's path.
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = dir.path().join("pack");
    write(
        &pack.join("pack.yaml"),
        "name: toy\nmodel:\n  command: sh model.sh\n",
    );
    write(&pack.join("model.sh"), "echo 'Average: 2.5'\n");
    write(
        &pack.join("suite.yaml"),
        "name: toy\ncategories:\n  - {name: average, marks: 1}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - id: AVG-1\n    summary: the average\n    ambiguous: no\n    match: \
         {stdout: {checker: \"python3 {pack}/check.py average\"}}\n",
    );
    write(
        &pack.join("average/one.yaml"),
        "summary: one\ncategory: average\nrules: [AVG-1]\n",
    );
    // Rejects, saying the word it was given.
    write(
        &pack.join("check.py"),
        "import sys\nprint('given ' + sys.argv[1])\nsys.exit(1)\n",
    );
    let (code, text) = run(dir.path(), &["bless", "--spec", "./pack"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("rejects the model's own stdout: given average (a fault of the checker)"),
        "{text}"
    );
    // A traceback: a fault of the pack, exit 2 at `bless`, its last line shown.
    write(
        &pack.join("check.py"),
        "import sys\nraise ValueError('no ' + sys.argv[1] + ' here')\n",
    );
    let (code, text) = run(dir.path(), &["bless", "--spec", "./pack"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("ValueError: no average here") && text.contains("a fault of the checker"),
        "{text}"
    );
    let case = std::fs::read_to_string(pack.join("average/one.yaml")).expect("case");
    assert!(!case.contains("stdout"), "not blessed: {case}");
    // Accepting, it blesses.
    write(&pack.join("check.py"), "import sys\nsys.exit(0)\n");
    let (code, text) = run(dir.path(), &["bless", "--spec", "./pack"]);
    assert_eq!(code, Some(0), "{text}");
}
