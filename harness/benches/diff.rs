//! Sessions per second of `boxes-harness diff` with the reference against
//! itself: the candidate is the reference binary (the variant fixture under
//! the plain name `boxes`, which runs `boxes_reference::main_with_args`),
//! the expected side is this bench re-executed in reference mode, exactly
//! as `boxes-harness diff --bin boxes` runs it. Target: at least 400
//! sessions/s on 2 cores.
//!
//! `cargo bench -p boxes-harness --bench diff` (`BOXES_BENCH_SESSIONS=N`
//! per round, default 2000; 3 rounds, seeds 1 to 3).

use std::process::ExitCode;

use boxes_corpus::pack::EXPLORER;
use boxes_harness::engine::diff::args::DiffCli;
use boxes_harness::engine::diff::explore::Context;
use boxes_harness::engine::diff::tolerated::Tolerances;

const ROUNDS: u64 = 3;

fn main() -> ExitCode {
    if let Some(code) = boxes_harness::reference_mode() {
        return code;
    }
    let sessions = std::env::var("BOXES_BENCH_SESSIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let Ok(dir) = tempfile::tempdir() else {
        eprintln!("diff bench: cannot make a temporary folder");
        return ExitCode::FAILURE;
    };
    let boxes = dir.path().join("boxes");
    if std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_boxes-fixture-variant"), &boxes).is_err() {
        eprintln!("diff bench: cannot link the reference binary");
        return ExitCode::FAILURE;
    }
    let mut rates = Vec::new();
    for seed in 1..=ROUNDS {
        let cli = DiffCli {
            bin: Some(boxes.clone()),
            against: None,
            sessions: Some(sessions),
            time: None,
            seed: Some(seed),
            ambiguous: false,
            out: dir.path().join("cases"),
            max_failures: 10,
            timeout: None,
            memcheck: None,
            jobs: None,
            strict: false,
        };
        let Ok(reference) = boxes_harness::engine::run::Target::reference("boxes") else {
            eprintln!("cannot find the harness to run the reference");
            return ExitCode::FAILURE;
        };
        let context = Context {
            pack: "boxes",
            spec: "boxes",
            reference: &reference,
            program: boxes_harness::PROGRAM,
            default: true,
            bin_is_command: false,
            // boxes declares no `match:`: every session compares exactly.
            tolerances: &Tolerances::default(),
        };
        match boxes_harness::engine::diff::run(&EXPLORER, &context, &cli) {
            Ok(report) if report.mismatching == 0 => {
                #[expect(
                    clippy::cast_precision_loss,
                    reason = "a session count is far below 2^52"
                )]
                let rate = report.sessions as f64 / report.elapsed.as_secs_f64();
                rates.push(rate);
            }
            Ok(report) => {
                eprintln!("diff bench: the reference disagrees with itself: {report:?}");
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("diff bench: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    rates.sort_by(f64::total_cmp);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    println!(
        "diff bench: reference against itself, {sessions} sessions x {ROUNDS} rounds on {cores} \
         core(s): min {:.0}, median {:.0}, max {:.0} sessions/s (target >= 400, issue 11)",
        rates[0],
        rates[rates.len() / 2],
        rates[rates.len() - 1]
    );
    ExitCode::SUCCESS
}
