//! Read counting at `bless` and at a run (issue 53, item 3): a model's
//! count blessed into `reads: N` and judged; `reads: off` on a case and on
//! a rule blesses nothing and judges nothing; a model whose count flips
//! between runs gets `reads: varies`, and keeps it on later blesses.
//! Each pack is a shell script reading with `read` (one line per call,
//! so its count is certain).

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

use crate::write_file::write;

/// `boxes-harness ARGS` in `dir`: its status and stdout with stderr.
fn harness(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    harness_in(dir, args, "")
}

/// As [`harness`], at containment level `level` (`""`: the default); its
/// temporary folders in `dir/tmp`, which must be empty once it returned
/// (the built model's folder and every case folder removed).
fn harness_in(dir: &Path, args: &[&str], level: &str) -> (Option<i32>, String) {
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).expect("mkdir");
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env("TMPDIR", &tmp);
    if !level.is_empty() {
        cmd.env("CONFORMANCE_CONTAINMENT", level);
    }
    let out = cmd
        .env_remove("CONFORMANCE_REFERENCE")
        .env("NO_COLOR", "1")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("harness");
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .expect("TMPDIR")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(
        left.is_empty(),
        "`{}` left in TMPDIR: {left:?}",
        args.join(" ")
    );
    crate::write_file::said(&out)
}

/// The pack `dir/pack`: its model `model` (a shell script), rule T-1
/// and rule T-2 with `reads: off`, and one
/// case per `(name, rule)` feeding three lines, its stdout free
/// (`nonempty`) so that reads count.
fn pack(dir: &Path, model: &str, cases: &[(&str, &str, &str)]) -> PathBuf {
    let pack = dir.join("pack");
    write(
        &pack.join("pack.yaml"),
        "name: toy\nmodel:\n  command: sh model.sh\n",
    );
    write(&pack.join("model.sh"), model);
    write(
        &pack.join("suite.yaml"),
        "name: toy\ncategories:\n  - {name: c, marks: 1}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - id: T-1\n    summary: reads two lines\n    ambiguous: no\n    match: \
             {stdout: nonempty}\n  - id: T-2\n    summary: reads what it likes\n    \
             ambiguous: no\n    match: {stdout: nonempty}\n    reads: off\n",
    );
    for (name, rule, extra) in cases {
        write(
            &pack.join(format!("c/{name}.yaml")),
            &format!(
                "summary: {name}\ncategory: c\nrules: [{rule}]\nstdin: \"1\\n2\\n3\\n\"\n{extra}"
            ),
        );
    }
    pack
}

/// A model reading two of its three lines, then printing `sum`.
const TWO: &str = "read a\nread b\necho sum\n";

fn case_text(pack: &Path, name: &str) -> String {
    std::fs::read_to_string(pack.join(format!("c/{name}.yaml"))).expect("case")
}

#[test]
fn a_blessed_count_is_judged_and_reads_off_on_a_case_or_a_rule_is_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = pack(
        dir.path(),
        TWO,
        &[
            ("counted", "T-1", ""),
            ("case_off", "T-1", "reads: off\n"),
            ("rule_off", "T-2", ""),
        ],
    );
    let (code, text) = harness(dir.path(), &["bless", "--spec", "./pack"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(case_text(&pack, "counted").contains("reads: 2\n"), "{text}");
    // The author's `off` stays; a rule's `off` writes nothing.
    let off = case_text(&pack, "case_off");
    assert!(
        off.contains("reads: off\n") && !off.contains("reads: 2"),
        "{off}"
    );
    assert!(!case_text(&pack, "rule_off").contains("reads:"), "{text}");

    // A program reading all three lines prints the same word: only the
    // counted case fails, and by its reads.
    write(
        &dir.path().join("all.sh"),
        "read a\nread b\nread c\necho sum\n",
    );
    let (code, text) = harness(dir.path(), &["--spec", "./pack", "--bin", "sh all.sh"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("2 passed") && text.contains("1 failed"),
        "{text}"
    );
    assert!(
        text.contains("reads 3 stdin line(s)") && text.contains("counted"),
        "{text}"
    );
    // The model itself passes its own blessed count.
    let (code, text) = harness(
        dir.path(),
        &["--spec", "./pack", "--bin", "sh pack/model.sh"],
    );
    assert_eq!(code, Some(0), "{text}");
}

#[test]
fn a_count_that_flips_between_runs_is_varies_and_stays_varies() {
    let dir = tempfile::tempdir().expect("temp dir");
    let counter = dir.path().join("counter");
    // Every other run (by a count kept outside the runs) reads the third line too: its stdout is the same.
    let flips = format!(
        "echo >> '{c}'\nread a\nread b\nif [ $(( $(wc -l < '{c}') % 2 )) = 0 ]; then read c; \
         fi\necho sum\n",
        c = counter.display()
    );
    let pack = pack(dir.path(), &flips, &[("flips", "T-1", "")]);
    // Its counter is outside its case folder: only `group` lets it write.
    let (code, text) = harness_in(dir.path(), &["bless", "--spec", "./pack"], "group");
    assert_eq!(code, Some(0), "{text}");
    assert!(
        case_text(&pack, "flips").contains("reads: varies\n"),
        "{text}"
    );
    assert!(
        text.contains("flips") && text.contains("reads not judged"),
        "bless names the case: {text}"
    );
    // The model now reads two lines every time: the `varies` stays, and
    // bless says so.
    write(&pack.join("model.sh"), TWO);
    let (code, text) = harness(dir.path(), &["bless", "--spec", "./pack"]);
    assert_eq!(code, Some(0), "{text}");
    let case = case_text(&pack, "flips");
    assert!(
        case.contains("reads: varies\n") && !case.contains("reads: 2"),
        "{case}"
    );
    assert!(text.contains("kept from an earlier bless"), "{text}");
    // Its line deleted by the lecturer, the count is taken anew.
    write(
        &pack.join("c/flips.yaml"),
        &case.replace("reads: varies\n", ""),
    );
    let (code, text) = harness(dir.path(), &["bless", "--spec", "./pack"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(case_text(&pack, "flips").contains("reads: 2\n"), "{text}");
}
