//! Tolerances change no verdict the rulings do not free: on fixture
//! programs of the built-in packs, every case's verdict (results JSON) is
//! the same judged with the packs' `match:` declarations and judged
//! exactly (`--strict`, today's byte-exact behaviour), except nogo's cases
//! whose saved file the `save-game` checker judges by the game it loads
//! into (SAVE-2): there, and only there, a program may pass with the
//! tolerance and fail exactly.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// Each case's verdict and rules, from one run's results.
type Verdicts = BTreeMap<String, (String, Vec<String>)>;

fn verdicts(pack: &str, bin: &Path, dir: &Path, strict: bool) -> Verdicts {
    let name = format!(
        "{pack}-{}-{strict}.json",
        bin.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    );
    let results = dir.join(name);
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env("NO_COLOR", "1")
        .env_remove("CONFORMANCE_REFERENCE")
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(["--spec", pack, "--include-ignored", "--bin"])
        .arg(bin)
        .arg("--results")
        .arg(&results);
    if strict {
        cmd.arg("--strict");
    }
    let out = cmd.output().expect("the harness runs");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{pack} {}: {}",
        bin.display(),
        String::from_utf8_lossy(&out.stdout)
    );
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(&results).expect("results")).expect("json");
    by_case(&doc)
}

/// Each case's verdict and rules in a results document.
fn by_case(doc: &Value) -> Verdicts {
    doc["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            let rules = c["rules"]
                .as_array()
                .map(|r| {
                    r.iter()
                        .filter_map(|x| x.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            (
                c["name"].as_str().unwrap_or_default().to_owned(),
                (c["verdict"].as_str().unwrap_or_default().to_owned(), rules),
            )
        })
        .collect()
}

fn variant(dir: &Path, fixture: &str, name: &str) -> PathBuf {
    let link = dir.join(name);
    std::os::unix::fs::symlink(fixture, &link).expect("symlink the fixture");
    link
}

/// Compares both judgements of `bin`; returns the cases that passed with
/// the tolerance and failed exactly (each a saved-file case, asserted).
fn compare(pack: &str, bin: &Path, dir: &Path) -> Vec<String> {
    // Both runs at once: a variant whose interactive cases wait out their
    // limits (`prompt-no-space`) waits once, not twice (issue 47).
    let (loose, exact) = std::thread::scope(|s| {
        let exact = s.spawn(|| verdicts(pack, bin, dir, true));
        let loose = if pack == "nogo" {
            // The run `nogo_variants` and `folder_pack` share.
            let name = bin.file_name().expect("a name").to_string_lossy();
            by_case(&crate::nogo_runs::nogo_run(&name).results)
        } else {
            verdicts(pack, bin, dir, false)
        };
        (loose, exact.join().expect("the exact run"))
    });
    assert_eq!(
        loose.keys().collect::<Vec<_>>(),
        exact.keys().collect::<Vec<_>>(),
        "{pack} {}: the same cases",
        bin.display()
    );
    let mut freed = Vec::new();
    for (name, (verdict, rules)) in &loose {
        let (strict, _) = &exact[name];
        if verdict == strict {
            continue;
        }
        // The cases whose saved file the checker judges: SAVE-2's, the
        // save category's and the game ended after a save.
        let saves = rules.iter().any(|r| r == "SAVE-2")
            || name.starts_with("save/")
            || name == "full-games/eof-after-save";
        assert!(
            verdict == "passed" && strict == "failed" && saves,
            "{pack} {} {name}: {verdict} with the tolerance, {strict} exactly ({rules:?})",
            bin.display()
        );
        freed.push(name.clone());
    }
    freed
}

#[test]
fn boxes_and_gridgame_verdicts_are_the_same_with_and_without_tolerance() {
    let dir = tempfile::tempdir().expect("temp dir");
    let boxes = env!("CARGO_BIN_EXE_boxes-fixture-variant");
    for name in ["usage-on-stdout", "dimension-wording", "extra-spaces"] {
        let bin = variant(dir.path(), boxes, name);
        assert_eq!(compare("boxes", &bin, dir.path()), Vec::<String>::new());
    }
    let gridgame = env!("CARGO_BIN_EXE_gridgame-fixture-variant");
    let bin = variant(dir.path(), gridgame, "byte-ff-is-eof");
    assert_eq!(compare("gridgame", &bin, dir.path()), Vec::<String>::new());
}

#[test]
fn nogo_verdicts_differ_only_where_the_save_game_checker_judges() {
    let dir = tempfile::tempdir().expect("temp dir");
    let nogo = env!("CARGO_BIN_EXE_nogo-fixture-variant");
    for name in ["prompt-no-space", "suicide-first", "save-states-swapped"] {
        let bin = variant(dir.path(), nogo, name);
        assert_eq!(
            compare("nogo", &bin, dir.path()),
            Vec::<String>::new(),
            "{name}"
        );
    }
    // An unreduced saved state: the cases the checker frees, and only those.
    let bin = variant(dir.path(), nogo, "save-unreduced");
    let freed = compare("nogo", &bin, dir.path());
    assert!(!freed.is_empty(), "save-unreduced fails no case exactly");
}
