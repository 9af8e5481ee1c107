//! The suite is strong enough to fail programs that are almost right: each
//! deliberately wrong variant of `boxes` (`boxes-fixture-variant`, one rule
//! broken each) must make the harness exit 1 and fail the named cases.
//! Each variant runs only its named cases (`--exact`): the whole-suite run
//! it replaced asserted only those cases and the exit status (issue 47).
//! The whole suite runs here on the reference and on the ambiguous-only
//! variant; a few variants meet it again in `causes.rs` and
//! `strict_unchanged.rs`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

const HARNESS: &str = env!("CARGO_BIN_EXE_boxes-harness");
const FIXTURE: &str = env!("CARGO_BIN_EXE_boxes-fixture-variant");

/// The harness's exit status when a case failed.
const CASE_FAILED: i32 = 1;

/// A variant, whether its departure lies in an ambiguous ruling (so only a
/// run with `--include-ignored` sees it), and cases that must catch it.
struct Expect {
    variant: &'static str,
    ambiguous_only: bool,
    caught_by: &'static [&'static str],
}

const VARIANTS: &[Expect] = &[
    Expect {
        variant: "usage-on-stdout",
        ambiguous_only: false,
        caught_by: &["args-count/no-arguments", "args-count/five-arguments"],
    },
    Expect {
        variant: "dimension-wording",
        ambiguous_only: false,
        caught_by: &["args-dims/height-1", "args-dims/width-1000"],
    },
    Expect {
        variant: "dimension-1000",
        ambiguous_only: false,
        caught_by: &["args-dims/height-1000", "args-dims/width-1000"],
    },
    Expect {
        variant: "players-before-dimensions",
        ambiguous_only: false,
        caught_by: &[
            "args-dims/dims-and-players-invalid",
            "args-dims/width-and-players-invalid",
        ],
    },
    Expect {
        variant: "trimmed-trailing-spaces",
        ambiguous_only: false,
        caught_by: &[
            "initial-display/new-2x2",
            "full-games/assignment-worked-example",
        ],
    },
    Expect {
        variant: "blank-line-after-grid",
        ambiguous_only: false,
        caught_by: &[
            "initial-display/new-2x2",
            "full-games/assignment-worked-example",
        ],
    },
    Expect {
        variant: "save-reprints-grid",
        ambiguous_only: false,
        caught_by: &["save/new-game-save", "save/save-twice"],
    },
    Expect {
        variant: "prompt-newline",
        ambiguous_only: false,
        caught_by: &["initial-display/new-2x2", "single-move/first-h-edge"],
    },
    Expect {
        variant: "cr-tolerant",
        ambiguous_only: false,
        caught_by: &["reject-illegal/carriage-return"],
    },
    Expect {
        variant: "leading-zero-moves",
        ambiguous_only: true,
        caught_by: &[
            "reject-illegal/leading-zero-row",
            "reject-illegal/leading-zero-col",
        ],
    },
    Expect {
        variant: "extra-turn-per-cell",
        ambiguous_only: false,
        caught_by: &["single-move/completes-two-cells-one-extra-turn"],
    },
    Expect {
        variant: "no-extra-turn",
        ambiguous_only: false,
        caught_by: &[
            "single-move/completes-cell-extra-turn",
            "full-games/assignment-worked-example",
        ],
    },
    Expect {
        variant: "zero-based-save",
        ambiguous_only: false,
        caught_by: &["save/new-game-save", "save/save-by-b"],
    },
    Expect {
        variant: "winners-without-ties",
        ambiguous_only: false,
        caught_by: &[
            "full-games/assignment-worked-example",
            "full-games/tie-three-players-2x3",
        ],
    },
    Expect {
        variant: "winners-at-eof",
        ambiguous_only: false,
        caught_by: &["initial-display/new-2x2", "full-games/eof-after-valid-move"],
    },
    Expect {
        variant: "echo-moves",
        ambiguous_only: false,
        caught_by: &[
            "initial-display/new-game-interactive-move",
            "full-games/assignment-worked-example",
        ],
    },
    Expect {
        variant: "h-rows-against-width",
        ambiguous_only: false,
        caught_by: &[
            "reject-illegal/bound-2x14-h-3-14",
            "reject-illegal/bound-8x12-h-9-12",
            "reject-illegal/bound-wide-h-row-13-wrong-dimension",
        ],
    },
    Expect {
        variant: "v-columns-against-height",
        ambiguous_only: false,
        caught_by: &[
            "reject-illegal/bound-12x8-v-12-8",
            "reject-illegal/bound-tall-v-col-13-wrong-dimension",
        ],
    },
    Expect {
        variant: "load-swapped-dimensions",
        ambiguous_only: false,
        caught_by: &[
            "load/bound-wide-2x7-corner-owners",
            "load/bound-tall-7x2-corner-owners",
            "file-errors/bound-wide-file-as-tall",
            "file-errors/bound-tall-file-as-wide",
        ],
    },
];

/// Runs the embedded suite against `bin` (only the cases named in `only`,
/// when there are any); returns the exit status and the names of the
/// failed cases.
#[expect(
    clippy::panic,
    reason = "test helper: a harness that cannot start must fail the test"
)]
fn run_suite(bin: &Path, include_ignored: bool, only: &[&str]) -> (Option<i32>, BTreeSet<String>) {
    let mut cmd = Command::new(HARNESS);
    // Runs per variant test the verdicts, not containment
    // (tests/it/contain.rs): the cheapest level keeps them fast.
    cmd.env("CONFORMANCE_CONTAINMENT", "group")
        .arg("--bin")
        .arg(bin)
        .args(["--test-threads", "2", "--format", "libtest"]);
    if include_ignored {
        cmd.arg("--include-ignored");
    }
    if !only.is_empty() {
        cmd.arg("--exact").args(only);
    }
    let Ok(output) = cmd.output() else {
        panic!("cannot run the harness {HARNESS}");
    };
    let stdout = String::from_utf8_lossy(&output.stdout);
    let failed = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("test ")?.strip_suffix(" ... FAILED"))
        .map(|name| name.trim().to_owned())
        .collect();
    (output.status.code(), failed)
}

#[test]
fn every_variant_fails_the_suite_on_its_cases() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut problems = Vec::new();
    for expect in VARIANTS {
        let link = dir.path().join(expect.variant);
        std::os::unix::fs::symlink(FIXTURE, &link).expect("symlink");
        let (status, failed) = run_suite(&link, expect.ambiguous_only, expect.caught_by);
        if status != Some(CASE_FAILED) {
            problems.push(format!(
                "{}: harness exit {status:?}, expected {CASE_FAILED}",
                expect.variant
            ));
        }
        for case in expect.caught_by {
            if !failed.contains(*case) {
                problems.push(format!(
                    "{}: case {case} did not fail (not run, or passed); failed were {failed:?}",
                    expect.variant
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn ambiguous_only_variant_passes_the_default_run() {
    // Departing from an ambiguous ruling costs nothing unless asked for.
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("leading-zero-moves");
    std::os::unix::fs::symlink(FIXTURE, &link).expect("symlink");
    let (status, failed) = run_suite(&link, false, &[]);
    assert_eq!(status, Some(0), "failed: {failed:?}");
}

#[test]
fn reference_name_runs_the_reference() {
    // `diff`'s bench and tests compare against the fixture named `boxes`.
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("boxes");
    std::os::unix::fs::symlink(FIXTURE, &link).expect("symlink");
    let (status, failed) = run_suite(&link, true, &[]);
    assert_eq!(status, Some(0), "failed: {failed:?}");
}

#[test]
fn unknown_variant_name_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("no-such-variant");
    std::os::unix::fs::symlink(FIXTURE, &link).expect("symlink");
    let output = Command::new(&link).output().expect("fixture runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("usage-on-stdout"));
}
