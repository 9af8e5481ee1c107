//! The nogo pack catches programs that are almost right: each one-rule-wrong
//! variant of `nogo` (`nogo-fixture-variant` under the variant's name) fails
//! the suite (the ambiguous-only ones with `--include-ignored` alone), and
//! `diff --spec nogo` finds it within a bounded number of sessions and
//! shrinks it to a small case that fails on the variant and passes on the
//! reference. A generated corpus folder runs as cases and passes. Every
//! cause the suite gives a variant names a rule, and a program that never
//! saves is one save cause (issue 45).

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

const FIXTURE: &str = env!("CARGO_BIN_EXE_nogo-fixture-variant");

/// A variant and whether only ambiguous rulings see it.
const VARIANTS: [(&str, bool); 16] = [
    ("dims-before-types", false),
    ("dimension-1000-refused", false),
    ("load-ignores-next", false),
    ("prompt-no-space", false),
    ("leading-zeros-refused", true),
    ("skip-without-advancing", false),
    ("computer-column-first", false),
    ("suicide-first", false),
    ("whole-board-scan", true),
    ("wins-full-stop", false),
    ("save-states-swapped", false),
    ("save-reprints-grid", false),
    ("eof-on-stdout", false),
    // Found in real programs, each passing the whole suite once: 0xFF read
    // as end of input, a suicide beside no opponent stone, a long last
    // grid line.
    ("byte-ff-is-eof", false),
    ("capture-beside-only", false),
    ("file-last-line-cut", false),
];

/// Sessions `diff` may take to find a variant.
const SESSIONS: &str = "600";

fn harness() -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env_remove("NOGO_BIN")
        .env_remove("BOXES_BIN")
        .env_remove("CONFORMANCE_REFERENCE")
        .env("NO_COLOR", "1")
        // Verdicts and shrinking, not containment (tests/it/contain.rs): the
        // cheapest level keeps these whole-suite and diff runs fast.
        .env("CONFORMANCE_CONTAINMENT", "group");
    cmd
}

/// The fixture under `name`, through a symlink in `dir`.
fn variant(dir: &Path, name: &str) -> PathBuf {
    let link = dir.join(name);
    std::os::unix::fs::symlink(FIXTURE, &link).expect("symlink the fixture");
    link
}

/// Runs the nogo suite on `bin`: exit status and stdout.
fn suite(bin: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let out = harness()
        .args(["--spec", "nogo", "--bin"])
        .arg(bin)
        .args(extra)
        .output()
        .expect("run the harness");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_fixture_under_another_name_is_the_reference() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = variant(dir.path(), "nogo");
    let (code, text) = suite(&bin, &["--include-ignored"]);
    assert_eq!(code, Some(0), "{text}");
}

#[test]
fn the_suite_fails_every_variant() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, ambiguous_only) in VARIANTS {
        // Every case (the run `folder_pack` and `strict_unchanged` share):
        // it fails; without the ambiguous cases it fails unless only they
        // see the variant, which a run without them shows.
        let all = crate::nogo_runs::nogo_run(name);
        assert_eq!(
            all.code,
            Some(1),
            "{name} with ambiguous cases: {}",
            all.stdout
        );
        let failed_plain = all.results["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .filter(|c| c["verdict"] == "failed")
            .any(|c| {
                !c["tags"]
                    .as_array()
                    .is_some_and(|t| t.iter().any(|t| t == "ambiguous"))
            });
        assert_eq!(failed_plain, !ambiguous_only, "{name}: {}", all.stdout);
        crate::cause_lines::assert_every_cause_names_a_rule(name, &all.stdout);
        if ambiguous_only {
            let bin = variant(dir.path(), name);
            let (code, text) = suite(&bin, &[]);
            assert_eq!(code, Some(0), "{name} without ambiguous cases: {text}");
        }
    }
}

/// A program that answers a save as if it were made and writes nothing
/// misses files, leaves a placed file as it was and prints no `Unable to
/// save game`: one bug, one cause, named by the rules of what the model
/// marks as writing them (five causes naming no rule before issue 45).
#[test]
fn a_program_that_never_saves_has_one_save_cause_naming_the_save_rules() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = variant(dir.path(), "never-saves");
    let (code, text) = suite(&bin, &[]);
    assert_eq!(code, Some(1), "{text}");
    let causes = crate::cause_lines::cause_blocks(&text);
    assert_eq!(causes.len(), 1, "{text}");
    assert!(text.contains("17 failed case(s), 1 cause(s)"), "{text}");
    for words in [
        "does not save the game",
        "(SAVE-1, SAVE-2, SAVE-4)",
        "not written",
    ] {
        assert!(causes[0].contains(words), "no `{words}` in {}", causes[0]);
    }
    // Its cases are those that save, fail to, or save over a placed file.
    for case in [
        "save/new-game",
        "save/empty-path",
        "save/overwrite-existing",
    ] {
        assert!(text.contains(case), "{case}: {text}");
    }
}

/// Every case file written under `out`.
fn written_cases(out: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![out.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                found.push(path);
            }
        }
    }
    found
}

/// `diff --spec nogo` of `bin`, run in `dir`: [`SESSIONS`] sessions of
/// seed 42, stopping at the first finding, its case written under `out`.
fn diff_to_first(dir: &Path, bin: &Path, out: &Path) -> Command {
    let mut cmd = harness();
    cmd.current_dir(dir)
        .args(["diff", "--spec", "nogo", "--bin"])
        .arg(bin)
        .args(["--sessions", SESSIONS, "--seed", "42"])
        .args(["--max-failures", "1", "--out"])
        .arg(out);
    cmd
}

#[test]
fn diff_finds_and_shrinks_every_variant() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, ambiguous_only) in VARIANTS {
        let bin = variant(dir.path(), name);
        let out = dir.path().join(format!("cases-{name}"));
        let mut cmd = diff_to_first(dir.path(), &bin, &out);
        if ambiguous_only {
            cmd.arg("--ambiguous");
        }
        let run = cmd.output().expect("run diff");
        let text = String::from_utf8_lossy(&run.stdout).into_owned();
        assert_eq!(run.status.code(), Some(1), "{name}: {text}");
        assert!(text.contains("shrunk to: nogo "), "{name}: {text}");
        let cases = written_cases(&out);
        assert_eq!(cases.len(), 1, "{name}: {text}");
        let case = &cases[0];
        // Small: at most a few stdin lines and a grid of at most 6 x 6, or
        // the edge of the range the variant breaks.
        let yaml = std::fs::read_to_string(case).expect("case text");
        let stdin_lines = yaml
            .lines()
            .find_map(|l| l.strip_prefix("stdin: "))
            .map_or(0, |s| s.matches("\\n").count());
        assert!(stdin_lines <= 4, "{name}: {yaml}");
        let fails = harness()
            .args(["--spec", "nogo", "--include-ignored", "--bin"])
            .arg(&bin)
            .arg("--cases")
            .arg(case)
            .output()
            .expect("rerun on the variant");
        assert_eq!(fails.status.code(), Some(1), "{name} passes its case");
        let passes = harness()
            .args(["--spec", "nogo", "--include-ignored", "--cases"])
            .arg(case)
            .output()
            .expect("rerun on the reference");
        assert_eq!(
            passes.status.code(),
            Some(0),
            "{name}: the reference fails {}: {}",
            case.display(),
            String::from_utf8_lossy(&passes.stdout)
        );
    }
}

#[test]
fn the_reference_against_itself_finds_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = variant(dir.path(), "nogo");
    let run = harness()
        .current_dir(dir.path())
        .args(["diff", "--spec", "nogo", "--ambiguous", "--bin"])
        .arg(&bin)
        .args(["--sessions", "400", "--seed", "2016", "--out"])
        .arg(dir.path().join("cases"))
        .output()
        .expect("run diff");
    let text = String::from_utf8_lossy(&run.stdout).into_owned();
    assert_eq!(run.status.code(), Some(0), "{text}");
    assert!(text.contains("400 sessions, 0 mismatching"), "{text}");
}

#[test]
fn a_generated_corpus_runs_as_cases_and_passes_on_the_reference() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("corpus");
    let spec = nogo_corpus::Spec {
        height: 5,
        width: 7,
        seed: 3,
    };
    let entries = nogo_corpus::generate(&spec, &out).expect("generate the corpus");
    let ambiguous = entries.iter().filter(|e| e.ambiguous).count();
    assert!(ambiguous > 0 && ambiguous < entries.len());
    let run = harness()
        .args(["--spec", "nogo", "--include-ignored", "--cases"])
        .arg(&out)
        .output()
        .expect("run the corpus");
    let text = String::from_utf8_lossy(&run.stdout).into_owned();
    assert_eq!(run.status.code(), Some(0), "{text}");
    assert!(
        text.contains(&format!("{} passed; 0 failed", entries.len())),
        "{text}"
    );
    // A loader accepting every file fails the faulty ones.
    let lax = variant(dir.path(), "load-ignores-next");
    let run = harness()
        .args(["--spec", "nogo", "--include-ignored", "--bin"])
        .arg(&lax)
        .arg("--cases")
        .arg(&out)
        .output()
        .expect("run the corpus on a variant");
    assert_eq!(run.status.code(), Some(1));
}

/// Saves a generator state moved past taken candidates: SAVE-2 calls a
/// state that loads into the same game ambiguous and its `match:` hands
/// it to the `save-game` checker, so `diff` forgives it, with
/// `--ambiguous` too; `--strict` judges it exactly, sets it apart as
/// ambiguous, and with `--ambiguous` reports it tagged.
#[test]
fn diff_forgives_what_save_2_leaves_open_and_strict_sets_it_apart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = variant(dir.path(), "save-skips-taken");
    let run = |flags: &[&str], out: &Path| {
        let mut cmd = harness();
        cmd.current_dir(dir.path())
            .args(["diff", "--spec", "nogo", "--bin"])
            .arg(&bin)
            .args(["--sessions", "400", "--seed", "7", "--out"])
            .arg(out)
            .args(flags);
        let run = cmd.output().expect("run diff");
        (
            run.status.code(),
            String::from_utf8_lossy(&run.stdout).into_owned(),
        )
    };
    for flags in [&[][..], &["--ambiguous"]] {
        let (code, text) = run(flags, &dir.path().join("plain"));
        assert_eq!(code, Some(0), "{flags:?}: {text}");
        assert!(text.contains(" 0 mismatching, 0 distinct"), "{text}");
        assert!(
            text.contains("session(s) differing only where a tolerance forgives"),
            "{text}"
        );
        assert!(
            text.contains("compared by checker `builtin:save-game` (SAVE-2)"),
            "{text}"
        );
    }
    let (code, text) = run(&["--strict"], &dir.path().join("strict"));
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("difference(s) on ambiguous points, not counted: --ambiguous shows them"),
        "{text}"
    );
    let out = dir.path().join("asked");
    let (code, text) = run(&["--strict", "--ambiguous"], &out);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("forgiven without --strict: file"), "{text}");
    let cases = written_cases(&out);
    assert!(!cases.is_empty(), "{text}");
    for case in cases {
        let yaml = std::fs::read_to_string(&case).expect("case text");
        assert!(yaml.contains("ambiguous"), "{}: {yaml}", case.display());
        assert!(yaml.contains("saved-state-same-game"), "{yaml}");
    }
}

/// `diff` judges a saved file by SAVE-2's checker as a case does: an
/// unreduced generator state is the same game (no finding, counted as
/// forgiven); a wrong player to move is a finding whose case cites
/// SAVE-2, fails on the variant and passes on the reference.
#[test]
fn diff_judges_saved_files_by_the_game_they_load_into() {
    let dir = tempfile::tempdir().expect("temp dir");
    let diff = |name: &str, out: &Path| {
        let bin = variant(dir.path(), name);
        let run = diff_to_first(dir.path(), &bin, out)
            .output()
            .expect("run diff");
        (
            bin,
            run.status.code(),
            String::from_utf8_lossy(&run.stdout).into_owned(),
        )
    };
    let (_, code, text) = diff("save-unreduced", &dir.path().join("unreduced"));
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains(" 0 mismatching, 0 distinct"), "{text}");
    assert!(
        text.contains("session(s) differing only where a tolerance forgives"),
        "{text}"
    );
    let out = dir.path().join("wrong-next");
    let (bin, code, text) = diff("save-wrong-next", &out);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(
            "compared by checker `builtin:save-game` (SAVE-2): saved `X` as the player to move; \
             it is `O` (SAVE-2)"
        ),
        "{text}"
    );
    let cases = written_cases(&out);
    assert_eq!(cases.len(), 1, "{text}");
    let yaml = std::fs::read_to_string(&cases[0]).expect("case text");
    assert!(yaml.contains("SAVE-2"), "{yaml}");
    let fails = harness()
        .args(["--spec", "nogo", "--bin"])
        .arg(&bin)
        .arg("--cases")
        .arg(&cases[0])
        .output()
        .expect("rerun on the variant");
    assert_eq!(fails.status.code(), Some(1));
    let passes = harness()
        .args(["--spec", "nogo", "--cases"])
        .arg(&cases[0])
        .output()
        .expect("rerun on the reference");
    assert_eq!(passes.status.code(), Some(0));
}

/// SAVE-2 through the `save-game` checker: a saved generator state that
/// loads into the same game (unreduced, or moved past taken candidates)
/// passes every case; a wrong player to move fails, named by the checker.
#[test]
fn the_save_game_checker_passes_the_same_game_and_fails_another() {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["save-unreduced", "save-skips-taken"] {
        let bin = variant(dir.path(), name);
        let (code, text) = suite(&bin, &["--category", "save"]);
        assert_eq!(code, Some(0), "{name}: {text}");
        let (code, text) = suite(&bin, &["--exact", "full-games/eof-after-save"]);
        assert_eq!(code, Some(0), "{name}: {text}");
    }
    let bin = variant(dir.path(), "save-wrong-next");
    let (code, text) = suite(&bin, &["--category", "save"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("player to move"), "{text}");
    assert!(text.contains("builtin:save-game"), "{text}");
    crate::cause_lines::assert_every_cause_names_a_rule("save-wrong-next", &text);
    // X saved for O and O for X: one bug, one cause.
    assert_eq!(crate::cause_lines::cause_blocks(&text).len(), 1, "{text}");
    // --strict judges exactly and lists what the checker forgave.
    let bin = dir.path().join("save-unreduced");
    let (code, text) = suite(&bin, &["--category", "save", "--strict"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("--strict: what the tolerances forgive"),
        "{text}"
    );
}
