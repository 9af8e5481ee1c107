//! The marking run's workers: `--jobs` threads taking submissions from one
//! queue, the progress (a bar on a terminal, a line per submission
//! otherwise), and the marks gathered in id order.

use std::collections::VecDeque;
use std::io::IsTerminal as _;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};

use super::intake::Submission;
use super::record::SubmissionMark;
use super::submission::{Done, Shared, one};

/// Marks every submission on `jobs` threads; `None` when interrupted.
pub(super) fn run_workers(
    shared: &Arc<Shared>,
    subs: Vec<Submission>,
    jobs: usize,
    program: &str,
) -> Option<(Vec<SubmissionMark>, usize)> {
    let total = subs.len();
    let queue = Arc::new(Mutex::new(subs.into_iter().collect::<VecDeque<_>>()));
    let (tx, rx) = mpsc::channel();
    let mut handles = Vec::new();
    for _ in 0..jobs {
        let (queue, tx, shared) = (Arc::clone(&queue), tx.clone(), Arc::clone(shared));
        handles.push(std::thread::spawn(move || {
            loop {
                let next = queue
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .pop_front();
                let Some(sub) = next else { break };
                let done = one(&shared, &sub);
                let stop = matches!(done, Done::Interrupted);
                if tx.send(done).is_err() || stop {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let bar = progress_bar(total);
    let mut marks = Vec::with_capacity(total);
    let mut faults = 0;
    let mut interrupted = false;
    for (k, done) in rx.iter().enumerate() {
        let line = |m: &SubmissionMark, how: &str| {
            format!(
                "[{}/{total}] {}: {how}, {}{}{}{}",
                k + 1,
                m.id,
                marked(m),
                m.reason
                    .as_ref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default(),
                match m.memory_warnings.len() {
                    0 => String::new(),
                    n => format!(" ({n} memory warning(s), no marks lost)"),
                },
                match m.environment.first() {
                    None => String::new(),
                    Some(why) => format!(" — ENVIRONMENT FAILURE, not the program's: {why}"),
                }
            )
        };
        let text = match done {
            Done::Marked(m, stale) => {
                let how = match stale {
                    Some(why) => format!("re-marked ({why}), build {}", m.build),
                    None => format!("build {}", m.build),
                };
                let t = line(&m, &how);
                marks.push(*m);
                t
            }
            Done::Kept(m) => {
                let t = line(&m, "unchanged");
                marks.push(*m);
                t
            }
            Done::Fault(m, e) => {
                faults += 1;
                format!(
                    "[{}/{total}] {}: not marked, no row — harness fault: {e}",
                    k + 1,
                    m.id
                )
            }
            Done::Interrupted => {
                interrupted = true;
                continue;
            }
        };
        if let Some(b) = &bar {
            b.println(text);
            b.inc(1);
        } else {
            say!("{program} mark: {text}");
        }
    }
    for h in handles {
        let _ = h.join();
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if interrupted || crate::exec::interrupt::interrupted() {
        return None;
    }
    marks.sort_by(|a, b| a.id.as_bytes().cmp(b.id.as_bytes()));
    Some((marks, faults))
}

fn progress_bar(total: usize) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:30} {pos}/{len} submissions, {elapsed} elapsed, ETA {eta}",
    ) {
        bar.set_style(style);
    }
    Some(bar)
}

/// A submission's mark as its progress line says it: `31.5 of 42`, or no
/// mark where a category had no case judged, and the cases not judged
/// (the environment struck them) counted.
fn marked(m: &SubmissionMark) -> String {
    let earned = if m.unjudged.is_empty() {
        format!("{}", (m.total * 100.0).round() / 100.0)
    } else {
        "no mark".to_owned()
    };
    match m.errors {
        0 => format!("{earned} of {}", m.max),
        n => format!("{earned} of {} ({n} case(s) not judged)", m.max),
    }
}
