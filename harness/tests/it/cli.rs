//! The harness's command line against the reference, on its seed cases.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn seeds() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/boxes")
}

fn harness() -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").unwrap();
    cmd.env("NO_COLOR", "1")
        .env_remove("BOXES_BIN")
        .env_remove("BOXES_BLESS");
    cmd
}

fn run(args: &[&str]) -> (i32, String) {
    let out = harness().args(args).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn seeds_arg() -> String {
    seeds().display().to_string()
}

#[test]
fn seeds_pass_on_the_reference_and_ambiguous_ones_are_ignored() {
    let (code, text) = run(&["--cases", &seeds_arg()]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("checking the reference (built in) against suite boxes"),
        "{text}"
    );
    assert!(text.contains("1 ambiguous cases ignored"), "{text}");
    assert!(text.contains("1 ignored"), "{text}");
    let (code, text) = run(&["--cases", &seeds_arg(), "--include-ignored"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("0 ignored"), "{text}");
}

#[test]
fn score_counts_ambiguous_cases_apart() {
    let squash = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let (code, text) = run(&["--cases", &seeds_arg(), "--score", "--include-ignored"]);
    assert_eq!(code, 0, "{text}");
    let text = squash(&text);
    assert!(
        text.contains("args-count 1/1 1.00 / 1 args-dims 0/0 not run / 2"),
        "{text}"
    );
    assert!(
        text.contains("full-games 1/1 14.00 / 14 ambiguous 1/1 not counted"),
        "{text}"
    );
    assert!(text.contains("estimated mark: 21.00 / 42"), "{text}");
    let (_, strict) = run(&["--cases", &seeds_arg(), "--score", "--strict"]);
    let strict = squash(&strict);
    assert!(
        strict.contains("full-games 2/2 14.00 / 14 ambiguous 0/0 counted above"),
        "{strict}"
    );
}

#[test]
fn filters_select_by_rule_and_category() {
    let (_, text) = run(&["--cases", &seeds_arg(), "--rule", "SAVE-2", "--list"]);
    assert_eq!(text.trim(), "save/save-then-eof: test", "{text}");
    let (_, text) = run(&[
        "--cases",
        &seeds_arg(),
        "--category",
        "args-count",
        "--list",
    ]);
    assert_eq!(text.trim(), "args-count/no-args: test", "{text}");
}

#[test]
fn junit_report_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.xml");
    let (code, text) = run(&["--cases", &seeds_arg(), "--junit", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    let xml = std::fs::read_to_string(&path).unwrap();
    assert!(xml.contains("<testsuite name=\"save\""), "{xml}");
    assert!(xml.contains("name=\"save/save-then-eof\""), "{xml}");
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            copy_tree(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

#[test]
fn bless_restores_expected_fields_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&seeds(), dir.path());
    let case = dir.path().join("save/save-then-eof.yaml");
    let original = std::fs::read_to_string(&case).unwrap();
    // Strip the expectations (keep the listed output file's path), and
    // scramble the stdout sidecar.
    let stripped = "# keep me\nsummary: a save writes the state and reports on stderr\n\
        category: save\nrules: [SAVE-1, SAVE-2, SAVE-3]\nargs: [\"2\", \"2\", \"2\"]\n\
        stdin: \"0 0 h\\nw out.txt\\n\"\nstatus: 99\noutput-files:\n  - path: out.txt\n    text: x\n\
        absent-files: [other.txt]\n";
    // The recorded reference time stays as written while it gives the
    // same time limit.
    let recorded = original
        .lines()
        .find(|l| l.starts_with("reference-ms:"))
        .unwrap();
    let stripped = stripped.replace("status: 99\n", &format!("{recorded}\nstatus: 99\n"));
    std::fs::write(&case, stripped).unwrap();
    std::fs::write(dir.path().join("save/save-then-eof.stdout"), "junk").unwrap();
    let (code, text) = run(&["--bless", "--cases", case.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    let blessed = std::fs::read_to_string(&case).unwrap();
    let expected = format!(
        "# keep me\n{}",
        original.replace("absent-files: [other.txt]\n", "")
    ) + "absent-files: [other.txt]\n";
    assert_eq!(blessed, expected);
    assert_eq!(
        std::fs::read(dir.path().join("save/save-then-eof.stdout")).unwrap(),
        std::fs::read(seeds().join("save/save-then-eof.stdout")).unwrap()
    );
    // Blessing again changes nothing, and the blessed tree passes.
    run(&["--bless", "--cases", dir.path().to_str().unwrap()]);
    assert_eq!(std::fs::read_to_string(&case).unwrap(), blessed);
    for f in ["args-count/no-args.yaml", "initial-display/new-2x2.yaml"] {
        assert_eq!(
            std::fs::read(dir.path().join(f)).unwrap(),
            std::fs::read(seeds().join(f)).unwrap(),
            "{f}"
        );
    }
    let (code, text) = run(&["--cases", dir.path().to_str().unwrap(), "--include-ignored"]);
    assert_eq!(code, 0, "{text}");
}

#[test]
fn a_wrong_expectation_fails_with_a_visible_diff() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&seeds(), dir.path());
    let sidecar = dir.path().join("initial-display/new-2x2.stdout");
    // A candidate that trims trailing spaces looks like this.
    std::fs::write(&sidecar, "+ + +\n\n+ + +\n\n+ + +\nA> ").unwrap();
    let (code, text) = run(&[
        "--cases",
        dir.path().join("initial-display").to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("-⊘\n") || text.contains("-\n"), "{text}");
    assert!(text.contains("+·····\n"), "{text}");
    assert!(
        text.contains("first difference at line 2, column 1"),
        "{text}"
    );
}

#[test]
fn reference_mode_is_the_reference() {
    let out = harness()
        .env("CONFORMANCE_REFERENCE", "boxes")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        out.stderr,
        b"Usage: boxes height width playercount [filename]\n"
    );
    // A pack this binary does not register is a usage error, not a run.
    let out = harness()
        .env("CONFORMANCE_REFERENCE", "nosuchpack")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn schema_subcommand_prints_the_schema() {
    let (code, text) = run(&["schema"]);
    assert_eq!(code, 0);
    assert_eq!(text, boxes_harness::engine::schema::json_schema());
}

#[test]
fn coverage_counts_cases_per_rule() {
    let (code, text) = run(&["--cases", &seeds_arg(), "--coverage"]);
    assert_eq!(code, 0, "{text}");
    let squash = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = squash(&text);
    assert!(text.contains("SAVE-2 1 no the saved file"), "{text}");
    assert!(text.contains("SYS-1 1 whole"), "{text}");
    assert!(text.contains("END-2 0 whole"), "{text}");
    assert!(text.contains("4 rules, 1 without a case"), "{text}");
    assert!(
        text.contains("not in rules.yaml: ARGS-7, DISP-1, EOF-1"),
        "{text}"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["--no-such-flag"]).0, 2);
    assert_eq!(run(&["--cases", "/nonexistent"]).0, 2);
    assert_eq!(run(&["--timeout", "0"]).0, 2);
    let empty = tempfile::tempdir().unwrap();
    let (code, text) = run(&["--cases", empty.path().to_str().unwrap()]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("no cases in"), "{text}");
    assert_eq!(run(&["--help"]).0, 0);
}

#[test]
fn blessing_the_committed_suite_changes_no_byte() {
    let dir = tempfile::tempdir().unwrap();
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases/boxes");
    copy_tree(&suite, dir.path());
    let (code, text) = run(&["--bless", "--cases", dir.path().to_str().unwrap(), "-q"]);
    assert_eq!(code, 0, "{text}");
    let mut stack = vec![suite.clone()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path.strip_prefix(&suite).unwrap();
            assert_eq!(
                std::fs::read(dir.path().join(rel)).ok(),
                std::fs::read(&path).ok(),
                "bless changed {}",
                rel.display()
            );
        }
    }
}

/// The README's main command is `cargo run --release -p boxes-harness`; with
/// fixture binaries beside the harness, cargo needs `default-run` to pick it.
#[test]
fn readme_main_command_picks_the_harness_binary() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    assert!(
        manifest
            .lines()
            .any(|l| l.trim() == r#"default-run = "boxes-harness""#),
        "harness/Cargo.toml lacks default-run = \"boxes-harness\""
    );
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    assert!(
        readme.contains("cargo run --release -p boxes-harness\n"),
        "README main command changed"
    );
}

#[test]
fn help_lists_subcommands_and_hides_libtest_no_ops() {
    let out = harness().arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("Usage: boxes-harness [OPTIONS] [FILTER]"),
        "{help}"
    );
    for sub in ["run", "bless", "list", "coverage", "diff", "schema"] {
        assert!(
            help.contains(&format!("\n  {sub} ")),
            "{sub} missing:\n{help}"
        );
    }
    for hidden in ["--bench", "--nocapture", "--show-output", "-Z"] {
        assert!(!help.contains(hidden), "{hidden} shown:\n{help}");
    }
    // Still accepted, as cargo test and nextest pass them.
    harness()
        .args([
            "--nocapture",
            "--show-output",
            "-Z",
            "unstable-options",
            "--list",
        ])
        .assert()
        .success();
    let out = harness().args(["diff", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("Usage: boxes-harness diff [OPTIONS]"),
        "{help}"
    );
}

#[test]
fn version_names_the_suite_content() {
    let out = harness().arg("--version").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("boxes-harness 0."), "{text}");
    assert!(text.contains("boxes suite content "), "{text}");
}
