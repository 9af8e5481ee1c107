//! What memory checking costs: the hanoi example's suite (a C assignment,
//! `examples/hanoi`) run on its model solution built three ways, at the
//! default containment: plain (`-O2`, the pack's own line), with
//! AddressSanitizer and UndefinedBehaviorSanitizer (`-O1 -g
//! -fsanitize=address,undefined`), and the plain build (`-g`) under
//! valgrind's memcheck through a wrapper. Best of a few rounds each; the
//! ratios are against the plain run (goal for ASan: at most 3x).
//!
//! `cargo bench -p boxes-harness --bench memcheck` (`MEMCHECK_BENCH_ROUNDS`
//! to change the rounds; a build or tool that is missing is said and
//! skipped).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

const HARNESS: &str = env!("CARGO_BIN_EXE_boxes-harness");

fn pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hanoi")
}

/// Compiles the model with `flags` into `out`; whether it worked.
fn build(out: &Path, flags: &[&str]) -> bool {
    Command::new("cc")
        .args(["-std=gnu99"])
        .args(flags)
        .arg("-o")
        .arg(out)
        .arg(pack().join("model/hanoi.c"))
        .status()
        .is_ok_and(|s| s.success())
}

/// One run of the suite on `bin`: wall time and the harness's last line.
fn run(bin: &Path) -> (Duration, String) {
    let start = Instant::now();
    let out = Command::new(HARNESS)
        .env("NO_COLOR", "1")
        .arg("--spec")
        .arg(pack())
        .arg("--bin")
        .arg(bin)
        .stdin(Stdio::null())
        .output();
    let wall = start.elapsed();
    let last = out
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .rev()
                .find(|l| l.contains("passed") || l.contains("failed"))
                .unwrap_or("")
                .to_owned()
        })
        .unwrap_or_default();
    (wall, last)
}

fn best(bin: &Path, rounds: usize) -> (Duration, String) {
    let mut best = (Duration::MAX, String::new());
    for _ in 0..rounds {
        let got = run(bin);
        if got.0 < best.0 {
            best = got;
        }
    }
    best
}

fn main() -> ExitCode {
    let rounds: usize = std::env::var("MEMCHECK_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let Ok(dir) = tempfile::tempdir() else {
        eprintln!("cannot make a temporary folder");
        return ExitCode::FAILURE;
    };
    let (plain, asan, debug) = (
        dir.path().join("plain/hanoi"),
        dir.path().join("asan/hanoi"),
        dir.path().join("valgrind/hanoi-g"),
    );
    for p in [&plain, &asan, &debug] {
        if let Some(parent) = p.parent()
            && std::fs::create_dir_all(parent).is_err()
        {
            eprintln!("cannot make {}", parent.display());
            return ExitCode::FAILURE;
        }
    }
    if !build(&plain, &["-O2"]) {
        eprintln!("cannot build the model plain: is cc installed?");
        return ExitCode::FAILURE;
    }
    let (base, said) = best(&plain, rounds);
    println!("plain (-O2): {:.2} s  {said}", base.as_secs_f64());
    let ratio = |d: Duration| d.as_secs_f64() / base.as_secs_f64();
    if build(
        &asan,
        &[
            "-O1",
            "-g",
            "-fno-omit-frame-pointer",
            "-fsanitize=address,undefined",
        ],
    ) {
        let (wall, said) = best(&asan, rounds);
        println!(
            "ASan+UBSan (-O1 -g): {:.2} s ({:.2}x)  {said}",
            wall.as_secs_f64(),
            ratio(wall)
        );
    } else {
        println!("ASan+UBSan: this compiler cannot build with -fsanitize=address,undefined");
    }
    let wrapper = dir.path().join("valgrind/hanoi");
    let script = format!(
        "#!/bin/sh\nexec valgrind -q --error-exitcode=99 --vgdb=no \"{}\" \"$@\"\n",
        debug.display()
    );
    let ready = build(&debug, &["-O2", "-g"]) && std::fs::write(&wrapper, script).is_ok() && {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).is_ok()
    };
    let has_valgrind = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ready && has_valgrind {
        let (wall, said) = best(&wrapper, rounds);
        println!(
            "valgrind memcheck (-O2 -g): {:.2} s ({:.2}x)  {said}",
            wall.as_secs_f64(),
            ratio(wall)
        );
    } else {
        println!("valgrind: not installed");
    }
    ExitCode::SUCCESS
}
