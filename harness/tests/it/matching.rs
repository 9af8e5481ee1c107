//! `match:` (docs/matching.md) on a small folder pack whose text leaves a
//! prompt's spacing and a usage message free (`tests/fixtures/matching`):
//! programs correct by the text pass, programs with real bugs fail, named
//! by rule and by the tolerance that judged them; a rule's tolerance
//! covers only its spans; a checker decides where one is declared, and a
//! checker's fault or hang is exit 2 naming it, never the program's; a
//! misspelt tolerance or one on a file the case lacks is exit 2 naming
//! file and line. `diff` judges with the same tolerance: a program right
//! by the text differs from the model in every session yet finds
//! nothing (the forgiven sessions counted by tolerance); one missing the
//! message USE-1 requires is a finding judged and cited by USE-1;
//! `--strict` judges exactly.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/matching")
}

/// A copy of the fixture pack in a temporary folder, with the span
/// protocol's Python module (`span/`) its model imports.
fn pack_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy(&fixture(), dir.path());
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("../span/conformance_span.py");
    std::fs::copy(module, dir.path().join("conformance_span.py")).expect("copy the module");
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

/// Runs the harness on the pack in `pack` with `args`: status and output.
fn run(pack: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .current_dir(pack)
        .env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(["--spec", "."])
        .args(args)
        .output()
        .expect("run the harness");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

fn student(pack: &Path, name: &str, extra: &[&str]) -> (Option<i32>, String) {
    let bin = format!("python3 students/{name}.py");
    let mut args = vec!["--bin", bin.as_str()];
    args.extend_from_slice(extra);
    run(pack, &args)
}

#[test]
fn the_model_passes_and_the_header_names_the_tolerances() {
    let pack = pack_copy();
    let (code, text) = run(pack.path(), &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("tolerances: IO-1: stdout spacing; USE-1: stderr nonempty, status nonzero"),
        "{text}"
    );
}

#[test]
fn a_program_right_by_the_text_passes_and_strict_lists_what_was_forgiven() {
    let pack = pack_copy();
    let (code, text) = student(pack.path(), "loose", &[]);
    assert_eq!(code, Some(0), "{text}");
    // Exact, the same program fails: one space in the prompt, another
    // message and status.
    let (code, text) = student(pack.path(), "loose", &["--strict"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("--strict: what the tolerances forgive"),
        "{text}"
    );
    assert!(
        text.contains("basic/greet: stdout compared by span: ignoring spacing (IO-1)"),
        "{text}"
    );
    assert!(
        text.contains("status compared as nonzero (USE-1)"),
        "{text}"
    );
}

#[test]
fn a_rule_s_tolerance_covers_its_spans_only() {
    let pack = pack_copy();
    // Two spaces inside the greeting (OUT-1, exact) fail though the
    // prompt's spacing (IO-1) is free.
    let (code, text) = student(pack.path(), "comma", &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("judged: stdout compared by span: ignoring spacing (IO-1), the rest exactly"),
        "{text}"
    );
    assert!(text.contains("1 failed"), "{text}");
}

#[test]
fn missing_checks_still_fail_under_tolerance() {
    let pack = pack_copy();
    // No message where `nonempty` wants one.
    let (code, text) = student(pack.path(), "silent", &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("judged: stderr compared as nonempty"),
        "{text}"
    );
    // Going on where the model stops.
    let (code, text) = student(pack.path(), "goes-on", &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("basic/usage"), "{text}");
}

#[test]
fn a_checker_decides_and_its_reason_is_shown() {
    let pack = pack_copy();
    let (code, text) = student(pack.path(), "anonymous", &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(
            "judged: stdout compared by checker `python3 {pack}/names.py` (case): the greeting does not \
             name Bob"
        ),
        "{text}"
    );
}

#[test]
fn a_faulty_or_hanging_checker_is_exit_2_naming_it() {
    let pack = pack_copy();
    std::fs::write(pack.path().join("names.py"), "import sys\nsys.exit(3)\n").expect("write");
    let (code, text) = student(pack.path(), "loose", &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("checker `python3 {pack}/names.py` on stdout: ended status 3"),
        "{text}"
    );
    assert!(
        text.contains("a fault of the checker, not of the program"),
        "{text}"
    );
    std::fs::write(
        pack.path().join("names.py"),
        "import time\nwhile True:\n    time.sleep(1)\n",
    )
    .expect("write");
    let start = Instant::now();
    let (code, text) = student(pack.path(), "loose", &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("checker `python3 {pack}/names.py`"), "{text}");
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn a_misspelt_tolerance_or_a_missing_file_is_exit_2_at_its_line() {
    let pack = pack_copy();
    let rules = pack.path().join("rules.yaml");
    let text = std::fs::read_to_string(&rules).expect("rules");
    std::fs::write(&rules, text.replace("stdout: spacing", "stdout: spacng")).expect("write");
    let (code, out) = run(pack.path(), &[]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("rules.yaml:12:"), "{out}");
    assert!(out.contains("unknown tolerance `spacng`"), "{out}");
    std::fs::write(&rules, text).expect("write");
    let case = pack.path().join("basic/named.yaml");
    let named = std::fs::read_to_string(&case).expect("case");
    std::fs::write(&case, format!("{named}  files:\n    saved.txt: any\n")).expect("write");
    let (code, out) = run(pack.path(), &[]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("named.yaml:13: `match:` names file `saved.txt`"),
        "{out}"
    );
}

#[test]
fn bless_records_the_model_s_exact_bytes() {
    let pack = pack_copy();
    let case = pack.path().join("basic/greet.yaml");
    let text = std::fs::read_to_string(&case).expect("case");
    std::fs::write(&case, text.replace("greeting:  Hello", "greeting: Hello")).expect("write");
    let basic = pack.path().join("basic");
    let (code, out) = run(
        pack.path(),
        &["bless", "--cases", basic.to_str().expect("utf-8 path")],
    );
    assert_eq!(code, Some(0), "{out}");
    let whole = std::fs::read_to_string(&case).expect("case");
    // The model marks spans: bless keeps its trace beside the case, so
    // that run and mark name a rule without running the model.
    assert!(whole.contains("\ntrace: greet.trace\n"), "{whole}");
    assert!(pack.path().join("basic/greet.trace").is_file());
    let blessed: String = whole
        .lines()
        .filter(|l| !l.starts_with("reference-ms:") && !l.starts_with("trace:"))
        .flat_map(|l| [l, "\n"])
        .collect();
    assert_eq!(blessed, text);
    let named = std::fs::read_to_string(pack.path().join("basic/named.yaml")).expect("case");
    assert!(
        named.contains("match:\n  stdout: {checker: \"python3 {pack}/names.py\"}"),
        "{named}"
    );
}

/// The block of docs/matching.md written as `file=NAME`.
fn documented(name: &str) -> String {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/matching.md");
    let text = std::fs::read_to_string(page).expect("docs/matching.md");
    let start = text
        .lines()
        .position(|l| l.starts_with("```") && l.contains(&format!("file={name}")))
        .expect("the documented checker");
    text.lines()
        .skip(start + 1)
        .take_while(|l| !l.starts_with("```"))
        .flat_map(|l| [l, "\n"])
        .collect()
}

#[test]
fn the_documented_checkers_accept_and_reject_as_documented() {
    let pack = pack_copy();
    std::fs::write(pack.path().join("names.py"), documented("names.py")).expect("write");
    let c = pack.path().join("names.c");
    std::fs::write(&c, documented("names.c")).expect("write");
    let built = std::process::Command::new("cc")
        .current_dir(pack.path())
        .args(["-std=gnu99", "-Wall", "-Werror", "-o", "names", "names.c"])
        .status()
        .expect("cc runs");
    assert!(built.success());
    let case = pack.path().join("basic/named.yaml");
    let python = std::fs::read_to_string(&case).expect("case");
    for text in [
        python.clone(),
        python.replace("python3 {pack}/names.py", "./names"),
    ] {
        std::fs::write(&case, &text).expect("write");
        let (code, out) = student(pack.path(), "loose", &[]);
        assert_eq!(code, Some(0), "{out}");
        let (code, out) = student(pack.path(), "anonymous", &[]);
        assert_eq!(code, Some(1), "{out}");
        assert!(out.contains("the greeting does not name Bob"), "{out}");
    }
}

/// `diff` of the student `name` against the model, cases written to
/// `out`, with `extra` options.
fn diff(pack: &Path, name: &str, out: &str, extra: &[&str]) -> (Option<i32>, String) {
    let bin = format!("python3 students/{name}.py");
    let mut args = vec![
        "diff",
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
    // `run` names the pack first: `--spec . diff ...` is `diff --spec .`.
    run(pack, &args)
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
fn diff_finds_nothing_in_a_program_right_by_the_text_and_counts_the_forgiven() {
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
fn diff_strict_judges_exactly_and_says_what_would_have_been_forgiven() {
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
fn diff_finds_a_missing_message_judged_and_cited_by_its_rule() {
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
        let mut args = Vec::new();
        if let Some(bin) = bin {
            args.extend(["--bin", bin]);
        }
        args.extend(["--cases", &case]);
        let (code, out) = run(pack.path(), &args);
        assert_eq!(code, Some(expected), "{bin:?}: {out}");
    }
}

/// A one-case pack whose model prints a third to 9 places, its case
/// comparing stdout's numbers within 1e-6; `prints` is the program.
fn numbers_pack(dir: &Path, prints: &str) {
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
        std::fs::write(path, text).expect("write");
    };
    write(
        "pack.yaml",
        "name: avg\nmodel:\n  command: sh model.sh\nsubmissions:\n  program: prog\n  run: \"sh {program}\"\n",
    );
    write("model.sh", "echo 'Average: 0.333333333'\n");
    write(
        "suite.yaml",
        "name: avg\ncategories:\n  - {name: c, marks: 1}\n",
    );
    write(
        "rules.yaml",
        "rules:\n  - id: AVG-1\n    summary: the average\n    ambiguous: no\n",
    );
    write(
        "c/third.yaml",
        "summary: a third\ncategory: c\nrules: [AVG-1]\nargs: []\nstatus: 0\nstdout: \"Average: \
         0.333333333\\n\"\nmatch:\n  stdout: {numbers: {absolute: 1e-6}}\n",
    );
    write("prog", &format!("#!/bin/sh\necho 'Average: {prints}'\n"));
    std::fs::set_permissions(
        dir.join("prog"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .expect("chmod");
}

#[test]
fn numbers_pass_within_tolerance_and_a_refusal_names_both_values_and_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    numbers_pack(dir.path(), "0.3333333333333333");
    let (code, out) = run(dir.path(), &["--bin", "./prog"]);
    assert_eq!(code, Some(0), "{out}");
    numbers_pack(dir.path(), "0.33");
    let (code, out) = run(dir.path(), &["--bin", "./prog"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "stdout: line 1: 0.33 printed where 0.333333333 was expected, not within absolute \
             1e-6"
        ),
        "{out}"
    );
}

/// A one-case pack whose Python model marks its spans: the count (CNT-1,
/// exact) then the average (AVG-1, its numbers within 1e-6, declared on
/// the rule); `prints` is the program's stdout.
fn span_numbers_pack(dir: &Path, prints: &str) {
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).expect("write");
    std::fs::create_dir_all(dir.join("c")).expect("folder");
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("../span/conformance_span.py");
    std::fs::copy(module, dir.join("conformance_span.py")).expect("copy the module");
    write(
        "pack.yaml",
        "name: avg\nmodel:\n  command: python3 model.py\nsubmissions:\n  program: prog\n  run: \
         \"sh {program}\"\n",
    );
    write(
        "model.py",
        "import conformance_span as span\nspan.install()\nspan.enter('CNT-1', 'the count')\n\
         print('Count: 3', flush=True)\nspan.enter('AVG-1', 'the average')\n\
         print('Average: 0.333333333', flush=True)\n",
    );
    write(
        "suite.yaml",
        "name: avg\ncategories:\n  - {name: c, marks: 1}\n",
    );
    write(
        "rules.yaml",
        "rules:\n  - id: CNT-1\n    summary: the count\n    ambiguous: no\n  - id: AVG-1\n    \
         summary: the average\n    ambiguous: no\n    match: {stdout: {numbers: {absolute: 1e-6}}}\n",
    );
    write(
        "c/third.yaml",
        "summary: a third\ncategory: c\nrules: [CNT-1, AVG-1]\nargs: []\nstatus: 0\nstdout: \
         \"Count: 3\\nAverage: 0.333333333\\n\"\n",
    );
    write("prog", &format!("#!/bin/sh\nprintf '{prints}'\n"));
}

#[test]
fn numbers_declared_on_a_rule_judge_its_spans_and_the_rest_exactly() {
    let dir = tempfile::tempdir().expect("temp dir");
    span_numbers_pack(dir.path(), "Count: 3\\nAverage: 0.3333333333333333\\n");
    let (code, out) = run(dir.path(), &["--bin", "sh prog"]);
    assert_eq!(code, Some(0), "{out}");
    span_numbers_pack(dir.path(), "Count: 3\\nAverage: 0.33\\n");
    let (code, out) = run(dir.path(), &["--bin", "sh prog"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "stdout (AVG-1): line 2: 0.33 printed where 0.333333333 was expected, not within \
             absolute 1e-6"
        ),
        "{out}"
    );
    // The count's span is not the rule's: exact, whatever AVG-1 forgives.
    span_numbers_pack(dir.path(), "Count: 3.0\\nAverage: 0.333333333\\n");
    let (code, out) = run(dir.path(), &["--bin", "sh prog"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(!out.contains("not within"), "{out}");
}
