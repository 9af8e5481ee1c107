//! One cause per bug, across the packs: fixture programs that each
//! reproduce one pattern met in real submissions (an echo of every input
//! line, a debug line, a loader that leaves cells unset and prints
//! garbage, a missing computer player, a crash after a failed save, a
//! chooser wrong in one tie-break level) each give one cause, two at most,
//! named after the rule whose output differs; and two runs of the loader
//! that prints garbage give the same cause list byte for byte (the garbage
//! byte changes from run to run).

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::Path;

use assert_cmd::Command;

/// The cause lines of a `-q` run of `pack`'s suite on `fixture` under the
/// variant's `name`.
fn causes(dir: &Path, pack: &str, fixture: &str, name: &str) -> Vec<String> {
    let link = dir.join(pack).join(name);
    if !link.exists() {
        std::fs::create_dir_all(dir.join(pack)).expect("a folder per pack");
        std::os::unix::fs::symlink(fixture, &link).expect("symlink the fixture");
    }
    let out = quiet(pack, &link);
    assert_eq!(out.status.code(), Some(1), "{pack} {name}");
    let text = String::from_utf8_lossy(&out.stdout);
    // Every nogo cause names a rule (issue 45); boxes and gridgame too.
    crate::cause_lines::assert_every_cause_names_a_rule(name, &text);
    text.lines()
        .filter(|l| l.starts_with("cause "))
        .map(str::to_owned)
        .collect()
}

/// A `-q` run of `pack`'s suite on the program `bin`.
fn quiet(pack: &str, bin: &Path) -> std::process::Output {
    quiet_with(pack, bin, &[])
}

/// [`quiet`] with more arguments.
fn quiet_with(pack: &str, bin: &Path, extra: &[&str]) -> std::process::Output {
    Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        .env_remove("CONFORMANCE_REFERENCE")
        // Causes, not containment (tests/it/contain.rs): the cheapest
        // level, a quarter less CPU a whole-suite run (issue 47).
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(["--spec", pack, "-q"])
        .args(extra)
        .arg("--bin")
        .arg(bin)
        .output()
        .expect("the harness runs")
}

const BOXES: &str = env!("CARGO_BIN_EXE_boxes-fixture-variant");
const NOGO: &str = env!("CARGO_BIN_EXE_nogo-fixture-variant");
const GRIDGAME: &str = env!("CARGO_BIN_EXE_gridgame-fixture-variant");

/// Each pattern: the pack, the fixture, the variant, and words its first
/// cause must hold (the rule, or the named departure).
const PATTERNS: &[(&str, &str, &str, &str)] = &[
    (
        "boxes",
        BOXES,
        "echo-lines",
        "the program echoes the input line it just read",
    ),
    (
        "boxes",
        BOXES,
        "echo-moves",
        "before the grid after a valid move (DISP-1",
    ),
    (
        "boxes",
        BOXES,
        "no-extra-turn",
        "in the prompt after a valid move (TURN-1, TURN-5)",
    ),
    (
        "nogo",
        NOGO,
        "loader-garbage",
        "in the grid at the start (a new game or the loaded file) (GRID-1",
    ),
    (
        "nogo",
        NOGO,
        "no-computer",
        "in the computer's move (COMP-4",
    ),
    (
        "nogo",
        NOGO,
        "crash-after-failed-save",
        "crashes (SIGABRT) on the input line `w",
    ),
    (
        "gridgame",
        GRIDGAME,
        "echo-lines",
        "the program echoes the input line it just read",
    ),
    (
        "gridgame",
        GRIDGAME,
        "debug-line",
        "before the grid of a turn (DISP-1",
    ),
    (
        "gridgame",
        GRIDGAME,
        "y-sum-first",
        "in the computer's move (COMP-8, COMP-3, COMP-6)",
    ),
];

#[test]
fn each_pattern_is_one_cause_named_by_its_rule_and_stable() {
    let dir = tempfile::tempdir().expect("temp dir");
    for &(pack, fixture, name, words) in PATTERNS {
        let first = causes(dir.path(), pack, fixture, name);
        assert!(
            (1..=2).contains(&first.len()),
            "{pack} {name}: {} causes\n{}",
            first.len(),
            first.join("\n")
        );
        assert!(first[0].contains(words), "{pack} {name}: {}", first[0]);
        // Run again where the output changes from run to run (the garbage
        // byte): a deterministic program's second run proves nothing more.
        if VARIES.contains(&name) {
            let again = causes(dir.path(), pack, fixture, name);
            assert_eq!(first, again, "{pack} {name}: another run, other causes");
        }
    }
}

/// The patterns whose output differs from run to run.
const VARIES: &[&str] = &["loader-garbage"];

/// Each missing check a program may have: the pack, its fixture, the
/// variant and the rule and reason words its one cause must name.
const MISSING_CHECKS: &[(&str, &str, &str, &[&str])] = &[
    (
        "boxes",
        BOXES,
        "boxes-wrap",
        &["accepts `", "TURN-3 rejects it", "past 2147483647"],
    ),
    (
        "boxes",
        BOXES,
        "extra-spaces",
        &["accepts `", "TURN-2 rejects it", "extra spaces"],
    ),
    (
        "boxes",
        BOXES,
        "h-row-against-width",
        &["TURN-3 rejects it", "horizontal edges have rows 0..H"],
    ),
    (
        "boxes",
        BOXES,
        "v-col-against-height",
        &["TURN-3 rejects it", "vertical edges have columns 0..W"],
    ),
    (
        "boxes",
        BOXES,
        "file-next-player-unchecked",
        &[
            "goes on after a grid file",
            "FILE-2 wants 1..P",
            "(exit 5, FILE-6)",
        ],
    ),
    (
        "boxes",
        BOXES,
        "file-crlf-accepted",
        &["goes on after a grid file", "FILE-5"],
    ),
    (
        "boxes",
        BOXES,
        "file-owner-unchecked",
        &["goes on after a grid file", "FILE-3 wants owners 0..P"],
    ),
    (
        "boxes",
        BOXES,
        "file-long-edge-row-accepted",
        &[
            "edge row too long",
            "FILE-1 wants edge rows of W and W+1 bytes",
        ],
    ),
    (
        "nogo",
        NOGO,
        "file-huge-dimension",
        &[
            "goes on after a save file",
            "outside 4..=1000",
            "FILE-2 rejects",
        ],
    ),
    (
        "nogo",
        NOGO,
        "file-crlf-accepted",
        &["goes on after a save file", "0x0d", "FILE-4 rejects"],
    ),
    (
        "nogo",
        NOGO,
        "file-long-line-accepted",
        &["grid line too long", "FILE-4 rejects"],
    ),
    (
        "nogo",
        NOGO,
        "file-no-final-newline",
        &["ends inside the grid", "FILE-5 rejects"],
    ),
    (
        "nogo",
        NOGO,
        "file-extra-fields",
        &["not nine fields", "FILE-1 rejects"],
    ),
    (
        "nogo",
        NOGO,
        "file-move-number-bounded",
        &[
            "stops after a save file the reference loads",
            "FILE-3 sets no bound on move numbers",
        ],
    ),
    (
        "nogo",
        NOGO,
        "file-next-unchecked",
        &[
            "next player is not 0 or 1",
            "FILE-2 rejects",
            "(exit 5, FILE-6)",
        ],
    ),
];

/// Variants missing three checks at once, and the three single variants.
const COMBINATIONS: &[(&str, &str, &str, [&str; 3])] = &[
    (
        "boxes",
        BOXES,
        "combo-wrap-spaces-h-row",
        ["boxes-wrap", "extra-spaces", "h-row-against-width"],
    ),
    (
        "boxes",
        BOXES,
        "combo-file-three",
        [
            "file-next-player-unchecked",
            "file-crlf-accepted",
            "file-owner-unchecked",
        ],
    ),
    (
        "nogo",
        NOGO,
        "combo-file-three",
        [
            "file-crlf-accepted",
            "file-long-line-accepted",
            "file-extra-fields",
        ],
    ),
];

/// The label of each cause in `causes` (past `N case(s): `).
fn labels(causes: &[String]) -> Vec<&str> {
    causes
        .iter()
        .map(|c| c.split_once(" case(s): ").map_or(c.as_str(), |(_, l)| l))
        .collect()
}

#[test]
fn each_missing_check_is_one_cause_and_a_combination_its_three() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut alone = std::collections::BTreeMap::new();
    for &(pack, fixture, name, words) in MISSING_CHECKS {
        let found = causes(dir.path(), pack, fixture, name);
        assert_eq!(found.len(), 1, "{pack} {name}: {}", found.join("\n"));
        for w in words {
            assert!(
                found[0].contains(w),
                "{pack} {name}: no `{w}` in {}",
                found[0]
            );
        }
        alone.insert((pack, name), labels(&found)[0].to_owned());
    }
    for &(pack, fixture, combo, parts) in COMBINATIONS {
        let found = causes(dir.path(), pack, fixture, combo);
        let mut got: Vec<&str> = labels(&found);
        got.sort_unstable();
        let mut want: Vec<&str> = parts.iter().map(|p| alone[&(pack, *p)].as_str()).collect();
        want.sort_unstable();
        assert_eq!(got, want, "{pack} {combo}: its three causes, each as alone");
        let again = causes(dir.path(), pack, fixture, combo);
        assert_eq!(found, again, "{pack} {combo}: another run, other causes");
    }
}

#[test]
fn a_program_of_another_registered_pack_is_named_before_the_causes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("plain");
    std::os::unix::fs::symlink(NOGO, &link).expect("symlink the fixture");
    // One category of 10 cases or more (the other packs are probed on
    // runs of 10 cases or more): the note is the same on the whole suite.
    let one = ["--category", "initial-display"];
    let run =
        |spec: &str| String::from_utf8_lossy(&quiet_with(spec, &link, &one).stdout).into_owned();
    let wrong = run("boxes");
    let note = wrong.find("this looks like a nogo program: --spec nogo?");
    let causes = wrong.find("failures by cause");
    assert!(note.is_some() && note < causes, "{wrong}");
    assert!(!run("nogo").contains("this looks like"));
    // Under mark (`--reproduce-as`) a student cannot act on `--spec`, and
    // mark checks the class as a whole: no probe, no note.
    let marked = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        .env_remove("CONFORMANCE_REFERENCE")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(["--spec", "boxes", "-q", "--reproduce-as", "plain"])
        .args(one)
        .arg("--bin")
        .arg(&link)
        .output()
        .expect("the harness runs");
    let marked = String::from_utf8_lossy(&marked.stdout);
    assert!(marked.contains("failures by cause"), "{marked}");
    assert!(!marked.contains("this looks like"), "{marked}");
}

#[test]
fn a_difference_confined_to_one_line_does_not_hide_the_rest() {
    let dir = tempfile::tempdir().expect("temp dir");
    let prompt = causes(dir.path(), "gridgame", GRIDGAME, "size-prompt-2-9");
    assert_eq!(prompt.len(), 1, "{}", prompt.join("\n"));
    assert!(
        prompt[0].contains("in the size prompt (PRE-1)"),
        "{}",
        prompt[0]
    );
    let chooser = causes(dir.path(), "gridgame", GRIDGAME, "y-sum-first");
    let both = causes(
        dir.path(),
        "gridgame",
        GRIDGAME,
        "size-prompt-2-9-y-sum-first",
    );
    // The prompt's cause first (every case), then the chooser's, each as
    // alone: the wrong prompt hides nothing.
    let mut want: Vec<&str> = labels(&prompt);
    want.extend(labels(&chooser));
    assert_eq!(labels(&both), want, "{}", both.join("\n"));
    let link = dir
        .path()
        .join("gridgame")
        .join("size-prompt-2-9-y-sum-first");
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(["--spec", "gridgame", "--bin"])
        .arg(&link)
        .output()
        .expect("the harness runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("count under another cause too"),
        "the report says a case counts twice"
    );
    // The score counts cases, not causes: 69 failed, as the prompt alone.
    assert!(text.contains("69 failed case(s), 3 cause(s)"), "{text}");
    // A later cause's worked example shows its own departure, compared
    // past the prompt's, never the prompt's line again.
    for k in 2..=3 {
        let head = format!("cause {k} of 3:");
        let block = text.split_once(head.as_str()).map_or_else(
            || panic!("no {head}: {text}"),
            |(_, rest)| rest.split("\ncause ").next().unwrap_or(rest),
        );
        assert!(
            block.contains("later: the output compared past its earlier difference(s):"),
            "{block}"
        );
        assert!(
            !block
                .lines()
                .any(|l| l.starts_with('+') && l.contains("(2..9)")),
            "{block}"
        );
    }
}

/// The `-q` cause lines of `args` on the nogo fixture under `name`.
fn nogo_causes(dir: &Path, name: &str, args: &[&str]) -> Vec<String> {
    let link = dir.join(name);
    std::os::unix::fs::symlink(NOGO, &link).expect("symlink the fixture");
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env("NO_COLOR", "1")
        .env_remove("CONFORMANCE_REFERENCE")
        .env_remove("NOGO_BIN")
        .args(["--spec", "nogo", "-q"])
        .args(args)
        .arg("--bin")
        .arg(&link)
        .output()
        .expect("the harness runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{name}: {text}");
    crate::cause_lines::assert_every_cause_names_a_rule(name, &text);
    text.lines()
        .filter(|l| l.starts_with("cause "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn three_crash_sites_are_three_causes_each_named_by_a_rule() {
    let dir = tempfile::tempdir().expect("temp dir");
    let causes = nogo_causes(dir.path(), "crash-three-sites", &[]);
    let crashes: Vec<&String> = causes
        .iter()
        .filter(|c| c.contains("crashes (SIGABRT)"))
        .collect();
    let joined = causes.join("\n");
    for (site, rule) in [
        ("on the input line `w", "SAVE-3"),
        ("on the input line `", "TURN-2"),
        ("", "FILE-"),
    ] {
        assert!(
            crashes.iter().any(|c| c.contains(site) && c.contains(rule)),
            "{site} {rule}:\n{joined}"
        );
    }
    assert!(crashes.len() >= 3, "{joined}");
}

#[test]
fn a_hang_after_a_loader_bug_names_the_rule_it_stops_by() {
    let dir = tempfile::tempdir().expect("temp dir");
    let causes = nogo_causes(
        dir.path(),
        "loader-spin",
        &[
            "--timeout",
            "0.3",
            "--no-early-stop",
            "--category",
            "file-errors",
        ],
    );
    let joined = causes.join("\n");
    assert_eq!(causes.len(), 1, "{joined}");
    assert!(
        causes[0].contains("hangs (timed out) where the reference stops (FILE-6): "),
        "{joined}"
    );
}
