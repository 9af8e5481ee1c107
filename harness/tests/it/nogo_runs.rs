//! The whole nogo suite run on a nogo fixture variant, made once per test
//! binary: `nogo_variants`, `folder_pack` and `strict_unchanged` each need
//! the built-in pack's verdicts on the same variants (every case,
//! ambiguous ones included, at the process-group level), and a whole-suite
//! run is most of what those tests cost (issue 47). A test that asks for a
//! run another test is making waits for that one.

#![expect(
    clippy::expect_used,
    reason = "test helpers: a harness that cannot run must fail the test"
)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use assert_cmd::Command;

const FIXTURE: &str = env!("CARGO_BIN_EXE_nogo-fixture-variant");

/// One run of `--spec nogo --include-ignored -q --results`.
pub struct SuiteRun {
    /// The harness's exit status.
    pub code: Option<i32>,
    /// What it printed (`-q`: the causes' lines and the summary).
    pub stdout: String,
    /// The results document.
    pub results: serde_json::Value,
    /// The program's path in that run (gone since): where a document
    /// names it, a test comparing runs of other paths puts its own.
    pub bin: String,
}

type Slot = Arc<OnceLock<Arc<SuiteRun>>>;

/// The run on the fixture under `variant` (`nogo` is the reference's own
/// behaviour), made by the first test that asks.
pub fn nogo_run(variant: &str) -> Arc<SuiteRun> {
    static RUNS: Mutex<Option<HashMap<String, Slot>>> = Mutex::new(None);
    let slot = RUNS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .entry(variant.to_owned())
        .or_default()
        .clone();
    slot.get_or_init(|| Arc::new(run(variant))).clone()
}

fn run(variant: &str) -> SuiteRun {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = dir.path().join(variant);
    std::os::unix::fs::symlink(FIXTURE, &bin).expect("symlink the fixture");
    let results = dir.path().join("results.json");
    let out = Command::cargo_bin("boxes-harness")
        .expect("the harness binary")
        .env_remove("NOGO_BIN")
        .env_remove("BOXES_BIN")
        .env_remove("CONFORMANCE_REFERENCE")
        .env("NO_COLOR", "1")
        // Verdicts, not containment (tests/it/contain.rs): the cheapest
        // level.
        .env("CONFORMANCE_CONTAINMENT", "group")
        .args(["--spec", "nogo", "--include-ignored", "-q", "--bin"])
        .arg(&bin)
        .arg("--results")
        .arg(&results)
        .output()
        .expect("run the harness");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "nogo on {variant}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&results).expect("the results document");
    SuiteRun {
        code: out.status.code(),
        stdout,
        results: serde_json::from_str(&text).expect("results JSON"),
        bin: bin.display().to_string(),
    }
}
