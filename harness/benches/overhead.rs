//! The harness's per-case overhead: every case of the suite run through the
//! harness (sandbox, cleared environment, process group, limits, reader
//! threads, comparison) against a bare loop that spawns the same processes
//! with the same arguments and stdin and only collects their output.
//! Target: harness wall time at most 1.3x the bare loop.
//!
//! `cargo bench -p boxes-harness --bench overhead [-- CASES_DIR...]`
//! (default: `cases/`, and the harness's own seed cases when it has none).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use boxes_harness::engine::case::{self, Overrides};
use boxes_harness::engine::compare;
use boxes_harness::engine::run::{self, Invocation, REFERENCE_ENV, Target};
use boxes_harness::engine::suite::{CaseFile, Root};

const ROUNDS: usize = 5;

fn main() -> ExitCode {
    if let Some(code) = boxes_harness::reference_mode() {
        return code;
    }
    let dirs: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .collect();
    let dirs = if dirs.is_empty() {
        let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        vec![
            manifest.join("../cases/boxes"),
            manifest.join("tests/fixtures/boxes"),
        ]
    } else {
        dirs
    };
    let Ok(target) = Target::reference("boxes") else {
        eprintln!("cannot find the bench's own executable");
        return ExitCode::FAILURE;
    };
    let mut cases = Vec::new();
    for dir in dirs {
        let root = Root::Dir(dir);
        for rel in root.case_files().unwrap_or_default() {
            let file = CaseFile {
                root: root.clone(),
                rel,
            };
            let Ok(c) = case::load(&file) else { continue };
            let (Ok(inv), Ok(exp)) = (
                case::invocation(&c, &file, &target, Overrides::default()),
                case::expectation(&c, &file),
            ) else {
                continue;
            };
            cases.push((inv, exp));
        }
    }
    if cases.is_empty() {
        eprintln!("no runnable cases");
        return ExitCode::FAILURE;
    }

    // The bare loop has no sandbox per case, but its processes must not
    // save files into the source tree: they all share one scratch folder.
    let Ok(scratch) = tempfile::tempdir() else {
        eprintln!("cannot make a scratch folder");
        return ExitCode::FAILURE;
    };
    let mut bare = Duration::MAX;
    let mut harness = Duration::MAX;
    let mut passed = 0;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        for (inv, _) in &cases {
            bare_spawn(inv, scratch.path());
        }
        bare = bare.min(t.elapsed());

        let t = Instant::now();
        passed = 0;
        for (inv, exp) in &cases {
            if let Ok(outcome) = run::run(inv)
                && compare::compare(exp, &outcome).is_empty()
            {
                passed += 1;
            }
        }
        harness = harness.min(t.elapsed());
    }
    let n = cases.len();
    let per =
        |d: Duration| d.as_secs_f64() * 1000.0 / f64::from(u32::try_from(n).unwrap_or(u32::MAX));
    println!(
        "{n} cases ({passed} passed), best of {ROUNDS} rounds, one at a time:\n  \
         bare spawn loop: {:.1} ms ({:.2} ms/case)\n  \
         harness:         {:.1} ms ({:.2} ms/case)\n  \
         ratio harness/bare: {:.2} (target <= 1.30)",
        bare.as_secs_f64() * 1000.0,
        per(bare),
        harness.as_secs_f64() * 1000.0,
        per(harness),
        harness.as_secs_f64() / bare.as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// The same process with the same arguments and stdin, output collected,
/// nothing else.
fn bare_spawn(inv: &Invocation, scratch: &std::path::Path) {
    let mut cmd = Command::new(inv.target.path());
    cmd.args(&inv.args)
        .env(REFERENCE_ENV, "boxes")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Cases that load files need them in the working folder.
    for (p, b) in &inv.files {
        let path = scratch.join(p);
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::fs::write(path, b);
    }
    cmd.current_dir(scratch);
    let Ok(mut child) = cmd.spawn() else { return };
    if let Some(mut stdin) = child.stdin.take() {
        let bytes = inv.stdin.clone();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
    }
    let _ = child.wait_with_output();
}
