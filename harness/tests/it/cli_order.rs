//! The command line never passes silently: subcommands wherever they are
//! typed, selectors that match nothing refused with what exists, a report
//! with causes and score and no line per case unless asked for.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use std::path::Path;

use assert_cmd::Command;

const USAGE: i32 = 2;
const FAILED: i32 = 1;

fn harness() -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").unwrap();
    cmd.env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .env_remove("BOXES_BIN")
        .env_remove("NOGO_BIN")
        .env_remove("BOXES_BLESS");
    cmd
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = harness().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A boxes variant that prints a debug line after every move.
fn echo_variant(dir: &Path) -> String {
    let link = dir.join("echo-moves");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_boxes-fixture-variant"), &link).unwrap();
    link.display().to_string()
}

#[test]
fn a_subcommand_after_options_is_the_subcommand_not_a_filter() {
    let (code, out, err) = run(&["--spec", "codingame", "coverage"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("rules,"), "{out}");
    let (code, out, err) = run(&["--category", "args-count", "list"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("args-count/no-arguments: test"), "{out}");
    let (code, out, _) = run(&["version"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("boxes-harness 0."), "{out}");
    // Options of `diff` typed before it reach it: a missing --bin for a
    // pack without a default is diff's own usage error, not a filter.
    let (code, _, err) = run(&["--spec", "nogo", "diff", "--sessions", "1"]);
    assert_eq!(code, USAGE);
    assert!(err.contains("diff: --bin PATH (or NOGO_BIN)"), "{err}");
}

#[test]
fn selectors_that_match_nothing_exit_2_naming_what_exists() {
    for (args, says) in [
        (
            &["--category", "nosuch"][..],
            "has category nosuch (known: args-count",
        ),
        (
            &["--rule", "NOSUCH-1"][..],
            "has rule NOSUCH-1 (known: ARGS-1",
        ),
        (&["no-such-case"][..], "no case matches `no-such-case`"),
        (
            &["--exact", "args-count"][..],
            "no case matches exactly `args-count`",
        ),
        (
            &["--category", "args-count", "--skip", "args"][..],
            "--skip leaves no case",
        ),
        (
            &["--category", "args-count", "--ignored"][..],
            "none of the selected cases is ambiguous",
        ),
        (
            &["--exact", "args-dims/height-huge"][..],
            "every selected case is ambiguous",
        ),
        (&["--list", "--rule", "NOSUCH-1"][..], "has rule NOSUCH-1"),
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, USAGE, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn several_filters_run_the_cases_matching_any_of_them() {
    let names = |out: &str| -> Vec<String> {
        out.lines()
            .filter_map(|l| l.strip_suffix(": test"))
            .map(str::to_owned)
            .collect()
    };
    let (code, one, err) = run(&["--list", "args-count"]);
    assert_eq!(code, 0, "{err}");
    let (code, other, err) = run(&["--list", "save/"]);
    assert_eq!(code, 0, "{err}");
    let (code, both, err) = run(&["--list", "args-count", "save/"]);
    assert_eq!(code, 0, "{err}");
    let mut want = [names(&one), names(&other)].concat();
    want.sort();
    assert!(!names(&one).is_empty() && !names(&other).is_empty());
    let mut got = names(&both);
    got.sort();
    assert_eq!(got, want);

    // As libtest takes them: after --bin, `save` is a filter, not a
    // subcommand; the cases left out are counted as filtered out.
    // The fixture under a neutral name behaves as the reference.
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("boxes");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_boxes-fixture-variant"), &link).unwrap();
    let bin = link.display().to_string();
    let (code, out, err) = run(&["--bin", &bin, "args-count", "save/", "-q"]);
    assert_eq!(code, 0, "{out}{err}");
    let total = names(&run(&["--list"]).1).len();
    let ran = want.len();
    assert!(
        out.contains(&format!("{} filtered out", total - ran)),
        "{total} cases, {ran} selected: {out}"
    );

    // --exact applies to each.
    let (code, out, err) = run(&[
        "--list",
        "--exact",
        "args-count/no-arguments",
        "save/save-twice",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        names(&out),
        ["args-count/no-arguments", "save/save-twice"],
        "{out}"
    );

    let (code, out, err) = run(&["no-such-case", "nor-this"]);
    assert_eq!(code, USAGE, "{out}{err}");
    assert!(
        err.contains("no case matches any of `no-such-case`, `nor-this`"),
        "{err}"
    );
}

#[test]
fn color_never_governs_claps_usage_errors_too() {
    // CLICOLOR_FORCE makes clap colour without a terminal, as it would
    // on one; --color never must win over it, as NO_COLOR does.
    let usage_error = |args: &[&str]| {
        let out = Command::cargo_bin("boxes-harness")
            .unwrap()
            .env_remove("NO_COLOR")
            .env("CLICOLOR_FORCE", "1")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(USAGE), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(usage_error(&["--no-such-option"]).contains('\x1b'));
    for args in [
        &["--color", "never", "--no-such-option"][..],
        &["--no-such-option", "--color=never"][..],
    ] {
        let err = usage_error(args);
        assert!(err.contains("--no-such-option"), "{err}");
        assert!(!err.contains('\x1b'), "{args:?}: {err:?}");
    }
    assert!(usage_error(&["--color", "always", "--no-such-option"]).contains('\x1b'));
}

#[test]
fn zero_threads_is_one_per_core_and_jobs_is_accepted() {
    for args in [
        &["--test-threads", "0", "--category", "args-count"][..],
        &["-j", "2", "--category", "args-count"][..],
        &["--jobs", "0", "--category", "args-count"][..],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        assert!(out.contains("test result: ok. 11 passed"), "{out}");
    }
}

#[test]
fn list_format_json_prints_json() {
    let (code, out, _) = run(&["--list", "--format", "json", "--category", "args-count"]);
    assert_eq!(code, 0);
    let list: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 11, "{out}");
    assert!(names.contains(&"args-count/no-arguments"), "{out}");
}

#[test]
fn the_report_shows_causes_and_score_not_a_line_per_case() {
    let dir = tempfile::tempdir().unwrap();
    let bin = echo_variant(dir.path());
    // One category: the report's layout is the same for any number of
    // cases, and the whole suite cost six times the CPU.
    let one = ["--bin", &bin, "--category", "single-move", "-j", "2"];
    let (code, out, _) = run(&[&one[..], &["--score"]].concat());
    assert_eq!(code, FAILED);
    assert!(!out.contains("... FAILED"), "{out}");
    assert!(!out.contains("\nfailures:\n"), "{out}");
    let causes = out.find("failures by cause:").expect("causes");
    let score = out.find("estimated mark:").expect("score");
    let result = out.find("test result: FAILED.").expect("result line");
    assert!(causes < score && score < result, "{out}");

    // -q: the causes and the score, no header.
    let (code, quiet, _) = run(&[&one[..], &["--score", "-q"]].concat());
    assert_eq!(code, FAILED);
    assert!(!quiet.contains("checking"), "{quiet}");
    assert!(quiet.contains("failures by cause:"), "{quiet}");
    assert!(quiet.lines().count() < out.lines().count(), "{quiet}");

    // -v and --format libtest: a line per case, as libtest prints it.
    for flag in [&["-v"][..], &["--format", "libtest"][..]] {
        let (code, verbose, _) = run(&[&one[..], flag].concat());
        assert_eq!(code, FAILED);
        assert!(verbose.contains("... FAILED"), "{flag:?}");
    }
}

#[test]
fn color_is_honoured_in_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let bin = echo_variant(dir.path());
    let args = ["--bin", &bin, "--category", "single-move", "-j", "2"];
    let (_, always, _) = run(&[&args[..], &["--color", "always"]].concat());
    assert!(always.contains("\u{1b}["), "{always}");
    let (_, never, _) = run(&[&args[..], &["--color", "never"]].concat());
    assert!(!never.contains("\u{1b}["), "{never}");
}

#[test]
fn each_subcommand_shows_and_accepts_only_its_own_options() {
    for (sub, foreign) in [
        ("bless", "--score"),
        ("bless", "--bless"),
        ("list", "--junit"),
        ("coverage", "--bin"),
    ] {
        let (code, help, _) = run(&[sub, "--help"]);
        assert_eq!(code, 0);
        assert!(
            !help.contains(foreign),
            "{sub} --help shows {foreign}:\n{help}"
        );
        let (code, _, err) = run(&[sub, foreign, "x"]);
        assert_eq!(code, USAGE, "{sub} {foreign}: {err}");
    }
    let (_, help, _) = run(&["--help"]);
    for pack in [
        "boxes",
        "nogo",
        "codingame",
        "BOXES_BIN",
        "NOGO_BIN",
        "CODINGAME_BIN",
    ] {
        assert!(help.contains(pack), "--help lacks {pack}:\n{help}");
    }
}

#[test]
fn bless_from_another_folder_never_writes_into_the_source_tree() {
    let dir = tempfile::tempdir().unwrap();
    let out = harness()
        .current_dir(dir.path())
        .args(["bless", "--category", "args-count"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(USAGE));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("name the folder to rewrite with --cases"),
        "{err}"
    );
}
