//! What memory checking costs: the hanoi example's suite (a C assignment
//! in the boxes style, `examples/hanoi`; there is no C build of the boxes
//! reference) run on its model solution three ways, at the default
//! containment: built plain (`-O2`, the pack's own line) and run plain;
//! built with AddressSanitizer and UndefinedBehaviorSanitizer (`-O1 -g
//! -fsanitize=address,undefined`) and run with `--memcheck asan`; built
//! `-O2 -g` and run with `--memcheck valgrind`. Best of a few rounds each,
//! wall time of the whole command and CPU time of everything it ran (the
//! steadier figure on a loaded machine); the ratios are against the plain
//! run (goal for ASan: at most 3x).
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

/// CPU time (user and system) of every waited-for child so far: the
/// `cutime` and `cstime` fields of `/proc/self/stat`, in clock ticks.
fn children_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<u64> = stat
        .rsplit_once(')')
        .map(|(_, rest)| {
            rest.split_whitespace()
                .map(|f| f.parse().unwrap_or(0))
                .collect()
        })
        .unwrap_or_default();
    // Fields 16 and 17 of the file; the rest starts at field 3.
    let ticks = fields.get(13).unwrap_or(&0) + fields.get(14).unwrap_or(&0);
    let per_second = rustix::param::clock_ticks_per_second().max(1);
    // Whole ticks: nanoseconds from integers, never through a float.
    Duration::from_nanos(ticks.saturating_mul(1_000_000_000) / per_second)
}

/// One timing: wall time and CPU time.
#[derive(Clone, Copy)]
struct Cost {
    wall: Duration,
    cpu: Duration,
}

/// One run of the suite on `bin` with `memcheck` (if any): its cost and
/// the harness's last line.
fn run(bin: &Path, memcheck: Option<&str>) -> (Cost, String) {
    let cpu = children_cpu();
    let start = Instant::now();
    let mut cmd = Command::new(HARNESS);
    cmd.env("NO_COLOR", "1")
        .arg("--spec")
        .arg(pack())
        .arg("--bin")
        .arg(bin)
        .stdin(Stdio::null());
    if let Some(m) = memcheck {
        cmd.args(["--memcheck", m]);
    }
    let out = cmd.output();
    let cost = Cost {
        wall: start.elapsed(),
        cpu: children_cpu().saturating_sub(cpu),
    };
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
    (cost, last)
}

/// The best of `rounds` runs (by wall time; CPU time too).
fn best(bin: &Path, memcheck: Option<&str>, rounds: usize) -> (Cost, String) {
    let mut best = (
        Cost {
            wall: Duration::MAX,
            cpu: Duration::MAX,
        },
        String::new(),
    );
    for _ in 0..rounds {
        let (cost, said) = run(bin, memcheck);
        best.1 = if cost.wall < best.0.wall {
            said
        } else {
            best.1
        };
        best.0 = Cost {
            wall: best.0.wall.min(cost.wall),
            cpu: best.0.cpu.min(cost.cpu),
        };
    }
    best
}

/// One line of the table: the costs and their ratios to `base`.
fn say(what: &str, cost: Cost, base: Cost, said: &str) {
    println!(
        "{what}: wall {:.2} s ({:.2}x), CPU {:.2} s ({:.2}x)  {said}",
        cost.wall.as_secs_f64(),
        cost.wall.as_secs_f64() / base.wall.as_secs_f64(),
        cost.cpu.as_secs_f64(),
        cost.cpu.as_secs_f64() / base.cpu.as_secs_f64().max(1e-3),
    );
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
    let (base, said) = best(&plain, None, rounds);
    say("plain (-O2)", base, base, &said);
    if build(
        &asan,
        &[
            "-O1",
            "-g",
            "-fno-omit-frame-pointer",
            "-fsanitize=address,undefined",
        ],
    ) {
        let (cost, said) = best(&asan, Some("asan"), rounds);
        say("--memcheck asan (-O1 -g)", cost, base, &said);
    } else {
        println!("ASan+UBSan: this compiler cannot build with -fsanitize=address,undefined");
    }
    let ready = build(&debug, &["-O2", "-g"]);
    let has_valgrind = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ready && has_valgrind {
        let (cost, said) = best(&debug, Some("valgrind"), rounds);
        say("--memcheck valgrind (-O2 -g)", cost, base, &said);
    } else {
        println!("valgrind: not installed");
    }
    ExitCode::SUCCESS
}
