//! The harness's per-case overhead: every case of the suite run through the
//! harness (sandbox, cleared environment, containment, limits, capture,
//! comparison) against a bare loop that spawns the same processes with the
//! same arguments and stdin and only collects their output, once per
//! containment level (`group`, `pid`, `full`; each in a child process of
//! its own, since the level is chosen once per process).
//!
//! Printed per level: wall time (best of the rounds) of both loops and
//! their ratio, and CPU time per case (user + system of this process and of
//! every process it started and reaped), which other jobs on the same cores
//! do not inflate the way they inflate wall time. The load average before
//! and after is printed too: wall-time ratios are only meaningful on idle
//! cores. Targets: at the `group` level, harness wall time at most 1.10x the
//! bare loop; the default `pid` level (no network) at most 1.25x the
//! `group` level's harness wall time, printed last with every level's ratio
//! to `group`. The reference's reads are not narrowed (it is ours): each
//! namespace level is also timed with the same program as a program under
//! test (a copy of this executable in a folder of its own, told to play the
//! reference), whose reads are, so the read rules' cost is in the figures.
//!
//! `cargo bench -p boxes-harness --bench overhead [-- [--level L]... [--rounds N] [CASES_DIR...]]`
//! (default: every level, `cases/boxes` and the harness's own seed cases).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use boxes_harness::engine::case::{self, Expectation, Overrides};
use boxes_harness::engine::compare;
use boxes_harness::engine::run::{self, Invocation, REFERENCE_ENV, Target};
use boxes_harness::engine::sandbox::{self, CONTAINMENT_ENV};
use boxes_harness::engine::suite::{CaseFile, Root};

/// The child's line with its harness wall time, read by the parent.
const WALL_LINE: &str = "harness wall ms: ";
/// The same, the program run as a program under test.
const CANDIDATE_LINE: &str = "candidate wall ms: ";

/// Set in the child that measures one level (its value: the level).
const CHILD_ENV: &str = "OVERHEAD_BENCH_LEVEL";
const LEVELS: [&str; 3] = ["group", "pid", "full"];
/// Rounds per level; namespace levels cost far more per case, so fewer.
const ROUNDS_GROUP: usize = 7;
const ROUNDS_NAMESPACES: usize = 3;

/// The bench's own options.
struct Options {
    levels: Vec<String>,
    rounds: Option<usize>,
    dirs: Vec<PathBuf>,
}

fn options() -> Options {
    let mut opts = Options {
        levels: Vec::new(),
        rounds: None,
        dirs: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--level" => opts.levels.extend(args.next()),
            "--rounds" => opts.rounds = args.next().and_then(|n| n.parse().ok()),
            // cargo bench passes `--bench`; libtest-style flags are ignored.
            _ if a.starts_with('-') => {}
            _ => opts.dirs.push(PathBuf::from(a)),
        }
    }
    if opts.levels.is_empty() {
        opts.levels = LEVELS.iter().map(|&l| l.to_owned()).collect();
    }
    if opts.dirs.is_empty() {
        let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        opts.dirs = vec![
            manifest.join("../cases/boxes"),
            manifest.join("tests/fixtures/boxes"),
        ];
    }
    opts
}

fn main() -> ExitCode {
    if let Some(code) = boxes_harness::reference_mode() {
        return code;
    }
    let opts = options();
    if let Some(level) = std::env::var_os(CHILD_ENV) {
        return measure(&level.to_string_lossy(), &opts);
    }
    let Ok(exe) = std::env::current_exe() else {
        eprintln!("cannot find the bench's own executable");
        return ExitCode::FAILURE;
    };
    println!("load average before: {}", load_average());
    let mut ok = true;
    let mut walls: Vec<(String, f64)> = Vec::new();
    for level in &opts.levels {
        let out = Command::new(&exe)
            .args(std::env::args_os().skip(1))
            .env(CHILD_ENV, level)
            .env(CONTAINMENT_ENV, level)
            .stderr(Stdio::inherit())
            .output();
        let Ok(out) = out else {
            ok = false;
            continue;
        };
        ok &= out.status.success();
        let text = String::from_utf8_lossy(&out.stdout);
        print!("{text}");
        let line = |prefix: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(prefix))
                .and_then(|ms| ms.trim().parse::<f64>().ok())
        };
        if let Some(ms) = line(WALL_LINE) {
            walls.push((level.clone(), ms));
        }
        if let Some(ms) = line(CANDIDATE_LINE) {
            walls.push((format!("{level} (program under test)"), ms));
        }
    }
    if let Some(&(_, group)) = walls.iter().find(|(l, _)| l == "group") {
        for (level, ms) in walls.iter().filter(|(l, _)| l != "group") {
            println!(
                "{level}/group harness wall: {:.2}{}",
                ms / group,
                if level.starts_with("pid") {
                    " (target <= 1.25)"
                } else {
                    ""
                }
            );
        }
    }
    println!("load average after:  {}", load_average());
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `/proc/loadavg`'s three averages.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "unknown".to_owned(),
        |s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
    )
}

/// CPU time (user + system) of this process and of its reaped children so
/// far, from `/proc/self/stat` (clock ticks of 10 ms: summed over a whole
/// round of cases, fine enough).
fn cpu_time() -> Duration {
    let text = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces), from field 3.
    let rest = text.rsplit_once(") ").map_or("", |(_, r)| r);
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(4)
        .filter_map(|f| f.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 10)
}

fn load_cases(opts: &Options, target: &Target) -> Vec<(Invocation, Expectation)> {
    let mut cases = Vec::new();
    for dir in &opts.dirs {
        let root = Root::Dir(dir.clone());
        for rel in root.case_files().unwrap_or_default() {
            let file = CaseFile {
                root: root.clone(),
                rel,
            };
            let Ok(c) = case::load(&file) else { continue };
            let (Ok(inv), Ok(exp)) = (
                case::invocation(&c, &file, target, Overrides::default()),
                case::expectation(&c, &file),
            ) else {
                continue;
            };
            cases.push((inv, exp));
        }
    }
    cases
}

/// One side's best wall time and least CPU time over the rounds.
struct Best {
    wall: Duration,
    cpu: Duration,
}

impl Best {
    fn new() -> Self {
        Self {
            wall: Duration::MAX,
            cpu: Duration::MAX,
        }
    }

    fn time(&mut self, f: impl FnOnce()) {
        let (c, t) = (cpu_time(), Instant::now());
        f();
        self.wall = self.wall.min(t.elapsed());
        self.cpu = self.cpu.min(cpu_time().saturating_sub(c));
    }
}

fn measure(level: &str, opts: &Options) -> ExitCode {
    let Ok(target) = Target::reference("boxes") else {
        eprintln!("cannot find the bench's own executable");
        return ExitCode::FAILURE;
    };
    let cases = load_cases(opts, &target);
    if cases.is_empty() {
        eprintln!("no runnable cases");
        return ExitCode::FAILURE;
    }
    let rounds = opts.rounds.unwrap_or(if level == "group" {
        ROUNDS_GROUP
    } else {
        ROUNDS_NAMESPACES
    });
    // The bare loop has no sandbox per case, but its processes must not
    // save files into the source tree: they all share one scratch folder.
    let Ok(scratch) = tempfile::tempdir() else {
        eprintln!("cannot make a scratch folder");
        return ExitCode::FAILURE;
    };
    // The same program as a program under test: a copy in a folder of its
    // own, told by its environment to play the reference.
    let Ok(own) = tempfile::tempdir() else {
        eprintln!("cannot make a folder for the candidate");
        return ExitCode::FAILURE;
    };
    let candidate_cases = if level == "group" {
        Vec::new()
    } else {
        as_candidate(&cases, own.path())
    };
    let mut bare = Best::new();
    let mut harness = Best::new();
    let mut candidate = Best::new();
    let mut passed = 0;
    for _ in 0..rounds {
        bare.time(|| {
            for (inv, _) in &cases {
                bare_spawn(inv, scratch.path());
            }
        });
        harness.time(|| passed = run_all(&cases));
        if !candidate_cases.is_empty() {
            candidate.time(|| {
                run_all(&candidate_cases);
            });
        }
    }
    let n = cases.len();
    let per = |d: Duration| d.as_secs_f64() * 1000.0 / f64::from(u32::try_from(n).unwrap_or(1));
    println!(
        "level {level}: {}\n  \
         {n} cases ({passed} passed), best of {rounds} rounds, one at a time, load average now {}\n  \
         bare spawn loop: {:9.1} ms wall ({:.2} ms/case), {:.2} ms CPU/case\n  \
         harness:         {:9.1} ms wall ({:.2} ms/case), {:.2} ms CPU/case\n  \
         ratio harness/bare: wall {:.2} (target <= 1.10 at `group`), CPU {:.2}",
        sandbox::containment().describe(),
        load_average(),
        bare.wall.as_secs_f64() * 1000.0,
        per(bare.wall),
        per(bare.cpu),
        harness.wall.as_secs_f64() * 1000.0,
        per(harness.wall),
        per(harness.cpu),
        harness.wall.as_secs_f64() / bare.wall.as_secs_f64(),
        harness.cpu.as_secs_f64() / bare.cpu.as_secs_f64().max(1e-9),
    );
    println!("{WALL_LINE}{:.1}", harness.wall.as_secs_f64() * 1000.0);
    if !candidate_cases.is_empty() {
        println!(
            "  as a program under test (reads narrowed): {:9.1} ms wall ({:.2} ms/case), \
             {:.2} ms CPU/case",
            candidate.wall.as_secs_f64() * 1000.0,
            per(candidate.wall),
            per(candidate.cpu)
        );
        println!(
            "{CANDIDATE_LINE}{:.1}",
            candidate.wall.as_secs_f64() * 1000.0
        );
    }
    ExitCode::SUCCESS
}

/// Runs every case as a command of the harness does: run folders, their
/// resident keepers and the zygote live for the round, and are gone
/// (their CPU time reaped into this process's) before it is read. Returns
/// how many passed.
fn run_all(cases: &[(Invocation, Expectation)]) -> usize {
    let _kept = boxes_harness::engine::spare::Scope::enter();
    cases
        .iter()
        .filter(|(inv, exp)| {
            run::run(inv).is_ok_and(|outcome| compare::compare(exp, &outcome).is_empty())
        })
        .count()
}

/// The cases with this executable copied into `dir` as their program, told
/// to play the reference: a program under test, whose reads are narrowed.
fn as_candidate(
    cases: &[(Invocation, Expectation)],
    dir: &std::path::Path,
) -> Vec<(Invocation, Expectation)> {
    let copy = dir.join("candidate");
    let Some(target) = std::env::current_exe()
        .and_then(|exe| std::fs::copy(exe, &copy))
        .ok()
        .and_then(|_| Target::binary(&copy).ok())
    else {
        return Vec::new();
    };
    cases
        .iter()
        .map(|(inv, exp)| {
            let mut inv = inv.clone();
            inv.target = target.clone();
            inv.env.push((REFERENCE_ENV.into(), "boxes".into()));
            (inv, exp.clone())
        })
        .collect()
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
