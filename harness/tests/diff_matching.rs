//! `diff` judged with the tolerance the rules declare (docs/diff.md,
//! docs/matching.md), on the folder pack `tests/fixtures/matching`: a
//! program right by the text (its own usage message and status, one
//! space after the prompt) differs from the model in every session yet is
//! exit 0, the forgiven sessions counted by tolerance; one missing the
//! message USE-1 requires is a finding judged and cited by USE-1, whose
//! case fails on it and passes on the model and on the right program;
//! `--strict` judges exactly and says what would have been forgiven.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// A copy of the fixture pack in a temporary folder, with the span
/// protocol's Python module its model imports.
fn pack_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy(&manifest.join("tests/fixtures/matching"), dir.path());
    std::fs::copy(
        manifest.join("../span/conformance_span.py"),
        dir.path().join("conformance_span.py"),
    )
    .expect("copy the module");
    dir
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("folder");
    for entry in std::fs::read_dir(from).expect("fixture folder").flatten() {
        let path = entry.path();
        let dest = to.join(entry.file_name());
        if path.is_dir() {
            copy(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).expect("copy");
        }
    }
}

/// Runs the harness in `pack` with `args`: status and output.
fn harness(pack: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .current_dir(pack)
        .env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(args)
        .output()
        .expect("run the harness");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

/// `diff` of the student `name` against the model, cases written to
/// `out`, with `extra` options.
fn diff(pack: &Path, name: &str, out: &str, extra: &[&str]) -> (Option<i32>, String) {
    let bin = format!("python3 students/{name}.py");
    let mut args = vec![
        "diff",
        "--spec",
        ".",
        "--bin",
        &bin,
        "--sessions",
        "40",
        "--seed",
        "1",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    harness(pack, &args)
}

/// Every case file written under `dir`.
fn written(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(written(&path));
        } else if path.extension().is_some_and(|e| e == "yaml") {
            found.push(path);
        }
    }
    found.sort();
    found
}

#[test]
fn a_program_right_by_the_text_is_no_finding_and_the_forgiven_are_counted() {
    let pack = pack_copy();
    let (code, text) = diff(pack.path(), "free", "cases", &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("40 sessions, 0 mismatching"), "{text}");
    assert!(
        text.contains("tolerances: IO-1: stdout spacing; USE-1: stderr nonempty, status nonzero"),
        "{text}"
    );
    // Every session differs byte for byte: each is counted as forgiven,
    // by the rule that forgave it (USE-1 from the model's record of its
    // stop, whatever case the session was varied from).
    assert!(
        text.contains(
            "40 session(s) differing only where a tolerance forgives, not counted (--strict \
             judges them exactly)"
        ),
        "{text}"
    );
    assert!(
        text.contains("stderr compared as nonempty (any text) (USE-1): "),
        "{text}"
    );
    assert!(
        text.contains("stdout compared by span: ignoring spacing (IO-1), the rest exactly: "),
        "{text}"
    );
    assert!(written(&pack.path().join("cases")).is_empty(), "{text}");
}

#[test]
fn strict_judges_exactly_and_says_what_would_have_been_forgiven() {
    let pack = pack_copy();
    let (code, text) = diff(pack.path(), "free", "cases", &["--strict"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("forgiven without --strict: status compared as nonzero (USE-1)"),
        "{text}"
    );
    assert!(
        text.contains(
            "--strict: 40 mismatching session(s) differ where a tolerance forgives; without \
             --strict these parts pass:"
        ),
        "{text}"
    );
    assert!(
        text.contains("--strict\n"),
        "the again line keeps it: {text}"
    );
}

#[test]
fn a_missing_message_is_a_finding_judged_and_cited_by_its_rule() {
    let pack = pack_copy();
    let (code, text) = diff(pack.path(), "no-usage", "cases", &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("judged: stderr compared as nonempty (any text) (USE-1)"),
        "{text}"
    );
    // The same run forgives the prompt's spacing: the shrunk finding is
    // the missing message, not a forgiven difference.
    assert!(
        text.contains("differing only where a tolerance forgives"),
        "{text}"
    );
    let cases = written(&pack.path().join("cases"));
    assert_eq!(cases.len(), 1, "{text}");
    let case = cases[0].to_string_lossy().into_owned();
    let yaml = std::fs::read_to_string(&cases[0]).expect("case text");
    assert!(
        yaml.lines()
            .any(|l| l.starts_with("rules: [") && l.contains("USE-1")),
        "{yaml}"
    );
    assert!(
        text.contains("--bin 'python3 students/no-usage.py' --cases"),
        "the reproduce line names the command: {text}"
    );
    // Run as a case, it is judged as diff judged it.
    for (bin, expected) in [
        (Some("python3 students/no-usage.py"), 1),
        (Some("python3 students/free.py"), 0),
        (None, 0),
    ] {
        let mut args = vec!["--spec", "."];
        if let Some(bin) = bin {
            args.extend(["--bin", bin]);
        }
        args.extend(["--cases", &case]);
        let (code, out) = harness(pack.path(), &args);
        assert_eq!(code, Some(expected), "{bin:?}: {out}");
    }
}
