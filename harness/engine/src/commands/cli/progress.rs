//! The harness's own runner, behind the report a person reads: the
//! selected cases run in parallel with nothing printed per case (one
//! progress line on a terminal, on stderr, erased at the end), so that the
//! causes and the score are what the report shows first and last.
//! `--format libtest|terse|json`, `-v`, `--list` and the `cargo test`
//! targets hand the cases to libtest-mimic instead.

use std::collections::VecDeque;
use std::io::{IsTerminal as _, Write as _};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use libtest_mimic::Arguments;

use super::trials::Job;
use crate::judge::verdict::CaseResult;

/// What became of the selected cases.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Tally {
    pub(super) passed: usize,
    pub(super) failed: usize,
    /// Ambiguous cases not run (`--include-ignored` runs them).
    pub(super) ignored: usize,
    pub(super) filtered_out: usize,
    /// Cases whose run panicked inside the harness: its fault, exit 2.
    pub(super) panicked: usize,
    pub(super) elapsed: Duration,
}

impl Tally {
    /// The closing line, worded as libtest's so that scripts and eyes used
    /// to `cargo test` read it; the cases of `results` that made a memory
    /// error only warned about (`--memcheck …,warn`) are counted after it.
    pub(super) fn line(&self, results: &[CaseResult]) -> String {
        let warned = match results.iter().filter(|r| r.warning.is_some()).count() {
            0 => String::new(),
            n => format!("; {n} case(s) with memory warnings (no marks lost)"),
        };
        format!(
            "test result: {}. {} passed; {} failed; {} ignored; {} filtered out; finished in \
             {:.2}s{warned}",
            if self.failed + self.panicked > 0 {
                "FAILED"
            } else {
                "ok"
            },
            self.passed,
            self.failed + self.panicked,
            self.ignored,
            self.filtered_out,
            self.elapsed.as_secs_f64()
        )
    }
}

/// Whether a case runs under `args` (libtest's rules: the name filters,
/// then `--ignored` / `--include-ignored`); `None` when filtered out.
fn admitted(args: &Arguments, job: &Job) -> Option<bool> {
    if args.is_filtered_out(&job.probe()) || (args.ignored && !job.ignored) {
        return None;
    }
    Some(!job.ignored || args.ignored || args.include_ignored)
}

/// Runs the cases `args` selects on `args.test_threads` threads (default
/// one per core), drawing a progress line on stderr when it is a terminal
/// and `show_progress` holds.
pub(super) fn run(args: &Arguments, jobs: Vec<Job>, show_progress: bool) -> Tally {
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut queue = VecDeque::new();
    for job in jobs {
        match admitted(args, &job) {
            None => tally.filtered_out += 1,
            Some(false) => tally.ignored += 1,
            Some(true) => queue.push_back(job),
        }
    }
    let total = queue.len();
    let threads = args
        .test_threads
        .filter(|n| *n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .min(total.max(1));
    let progress = Progress {
        draw: show_progress && std::io::stderr().is_terminal(),
        total,
    };
    let queue = Mutex::new(queue);
    let tally = Mutex::new(tally);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let next = queue
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .pop_front();
                    let Some(job) = next else { break };
                    let name = job.name.clone();
                    let outcome = catch_unwind(AssertUnwindSafe(|| job.run()));
                    let mut t = tally.lock().unwrap_or_else(PoisonError::into_inner);
                    match outcome {
                        Ok(Ok(())) => t.passed += 1,
                        Ok(Err(_)) => t.failed += 1,
                        Err(_) => {
                            t.panicked += 1;
                            let _ = writeln!(
                                std::io::stderr(),
                                "case {name}: the harness panicked while running it (a fault \
                                 of the harness, not of the program)"
                            );
                        }
                    }
                    progress.draw(&t);
                }
            });
        }
    });
    progress.erase();
    let mut tally = tally.into_inner().unwrap_or_else(PoisonError::into_inner);
    tally.elapsed = started.elapsed();
    tally
}

/// The one progress line.
struct Progress {
    draw: bool,
    total: usize,
}

impl Progress {
    fn draw(&self, t: &Tally) {
        if self.draw {
            let done = t.passed + t.failed + t.panicked;
            let _ = write!(
                std::io::stderr(),
                "\r\x1b[K{done}/{} cases, {} failed",
                self.total,
                t.failed + t.panicked
            );
        }
    }

    fn erase(&self) {
        if self.draw {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
    }
}
