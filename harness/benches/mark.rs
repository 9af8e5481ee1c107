//! `mark` on a cohort of 100 C submissions, 2 jobs: each submission a
//! C program compiled by the course's line (`gcc -Wall -pedantic
//! -std=gnu99`) that runs the reference (85 of them) or a fixture variant
//! with one known bug (15), checked against the whole boxes suite. Prints
//! submissions per minute (goal: at least 60), the marking process's peak
//! RSS (`VmHWM`, polled) and the time of a re-run that finds nothing
//! changed.
//!
//! `cargo bench -p boxes-harness --bench mark` (`MARK_BENCH_SUBMISSIONS`,
//! `MARK_BENCH_JOBS` to change the cohort's size and the jobs).

use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

const HARNESS: &str = env!("CARGO_BIN_EXE_boxes-harness");
const VARIANT: &str = env!("CARGO_BIN_EXE_boxes-fixture-variant");
const BUGS: [&str; 5] = [
    "echo-moves",
    "no-extra-turn",
    "trimmed-trailing-spaces",
    "blank-line-after-grid",
    "zero-based-save",
];

fn source(exe: &str, name: &str, reference: bool) -> String {
    format!(
        "#include <stdlib.h>\n#include <unistd.h>\nint main(int argc, char **argv) {{\n    \
         (void)argc;\n{}    argv[0] = \"{name}\";\n    execv(\"{exe}\", argv);\n    return 99;\n}}\n",
        if reference {
            "    setenv(\"CONFORMANCE_REFERENCE\", \"boxes\", 1);\n"
        } else {
            ""
        }
    )
}

fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs `mark` with `args`; wall time, exit status and peak RSS (KiB).
fn run(dir: &Path, args: &[&str]) -> (Duration, Option<i32>, u64) {
    let start = Instant::now();
    let Ok(mut child) = Command::new(HARNESS)
        .current_dir(dir)
        .env("TMPDIR", dir)
        // The wrappers exec the harness and the fixture in target/, which
        // a program under test may read only when allowed.
        .env(
            "CONFORMANCE_ALLOW_READ",
            Path::new(HARNESS).parent().unwrap_or(Path::new("/")),
        )
        .arg("mark")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    else {
        return (Duration::ZERO, None, 0);
    };
    let mut peak = 0;
    let code = loop {
        if let Some(k) = vm_hwm(child.id()) {
            peak = peak.max(k);
        }
        match child.try_wait() {
            Ok(Some(s)) => break s.code(),
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break None,
        }
    };
    (start.elapsed(), code, peak)
}

fn main() -> ExitCode {
    let count: usize = std::env::var("MARK_BENCH_SUBMISSIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let jobs = std::env::var("MARK_BENCH_JOBS").unwrap_or_else(|_| "2".to_owned());
    let Ok(dir) = tempfile::tempdir() else {
        eprintln!("cannot make a temporary folder");
        return ExitCode::FAILURE;
    };
    let subs = dir.path().join("subs");
    for i in 0..count {
        let folder = subs.join(format!("student{i:03}"));
        let text = if i % 7 == 3 {
            let bug = BUGS[(i / 7) % BUGS.len()];
            source(VARIANT, bug, false)
        } else {
            source(HARNESS, "boxes", true)
        };
        if std::fs::create_dir_all(&folder)
            .and_then(|()| std::fs::write(folder.join("ass1.c"), text))
            .is_err()
        {
            eprintln!("cannot write the cohort");
            return ExitCode::FAILURE;
        }
    }
    let (wall, code, peak) = run(dir.path(), &["subs", "--out", "out", "-j", &jobs]);
    let per_minute =
        f64::from(u32::try_from(count).unwrap_or(u32::MAX)) / wall.as_secs_f64() * 60.0;
    println!(
        "mark: {count} C submissions, {jobs} jobs: {:.1} s, {per_minute:.0} submissions/min, \
         exit {code:?}, marking process peak RSS {} KiB",
        wall.as_secs_f64(),
        peak
    );
    let (again, code, _) = run(dir.path(), &["subs", "--out", "out", "-j", &jobs]);
    println!(
        "mark again, nothing changed: {:.2} s, exit {code:?}",
        again.as_secs_f64()
    );
    ExitCode::SUCCESS
}
