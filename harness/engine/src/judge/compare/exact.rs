//! The byte-exact comparison: exit status, both streams, output files,
//! absent files and the stdin lines read, each a [`Mismatch`] when it
//! differs. The comparison under tolerances reuses its parts.

use super::mismatch::{Mismatch, ReadCount};
use crate::exec::run::{Ending, Outcome, Stream};
use crate::model::case::Expectation;

pub(super) fn same_ending(expected: &Ending, actual: &Ending) -> bool {
    match (expected, actual) {
        // Two runs that both timed out (or both passed the cap) agree
        // whatever prompt they waited for.
        (Ending::TimedOut { .. }, Ending::TimedOut { .. }) => true,
        _ => expected == actual,
    }
}

/// Compares a run against a case's expectation: every file listed must
/// exist with its bytes, every absent file must not exist; other files the
/// program wrote are its business.
pub fn compare(expected: &Expectation, actual: &Outcome) -> Vec<Mismatch> {
    let mut out = ending(expected, actual);
    streams(
        expected,
        [
            (
                Stream::Stdout,
                actual.stdout.as_slice().into(),
                actual.dropped.stdout,
            ),
            (
                Stream::Stderr,
                actual.stderr.as_slice().into(),
                actual.dropped.stderr,
            ),
        ],
        &mut out,
    );
    files(expected, actual, &mut out);
    reads(expected, actual, &mut out);
    out
}

/// [`compare`], moving the run's streams into the mismatches instead of
/// copying them: a flood's capped output is held once, not twice, while
/// its failure is built.
pub fn compare_owned(expected: &Expectation, mut actual: Outcome) -> Vec<Mismatch> {
    let mut out = ending(expected, &actual);
    let stdout = std::mem::take(&mut actual.stdout);
    let stderr = std::mem::take(&mut actual.stderr);
    streams(
        expected,
        [
            (Stream::Stdout, stdout.into(), actual.dropped.stdout),
            (Stream::Stderr, stderr.into(), actual.dropped.stderr),
        ],
        &mut out,
    );
    files(expected, &actual, &mut out);
    reads(expected, &actual, &mut out);
    out
}

/// The number of stdin lines read, where the case counts them and both
/// sides were measured. A run that did not exit (a crash, a hang, the cap)
/// fails by its ending: the reads it made before say nothing more.
pub(super) fn reads(expected: &Expectation, actual: &Outcome, out: &mut Vec<Mismatch>) {
    if !expected.count_reads || !matches!(actual.ending, Ending::Exited(_)) {
        return;
    }
    let (Some(model), Some(seen)) = (expected.reads, actual.reads.as_ref()) else {
        return;
    };
    // A count taken without seeing the program wait for each line may
    // differ run to run: not judged.
    if seen.uncertain {
        return;
    }
    if seen.count() != model {
        out.push(Mismatch::Reads(ReadCount {
            expected: model,
            actual: seen.count(),
            line: None,
            ruling: None,
        }));
    }
}

pub(super) fn files(expected: &Expectation, actual: &Outcome, out: &mut Vec<Mismatch>) {
    for (path, bytes) in &expected.output_files {
        match actual.files.get(path) {
            None => out.push(Mismatch::FileMissing { path: path.clone() }),
            Some(got) if got != bytes => out.push(Mismatch::FileDiffers {
                path: path.clone(),
                expected: bytes.clone(),
                actual: got.clone(),
            }),
            Some(_) => {}
        }
    }
    absent(expected, actual, out);
}

pub(super) fn absent(expected: &Expectation, actual: &Outcome, out: &mut Vec<Mismatch>) {
    for path in &expected.absent_files {
        let p = crate::exec::run::normalize(path);
        if actual.files.contains_key(&p) || actual.dirs.contains(&p) {
            out.push(Mismatch::FileUnexpected { path: p });
        }
    }
}

/// The ending and a process left holding the output.
pub(super) fn ending(expected: &Expectation, actual: &Outcome) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let any_exit = expected.any_status
        && matches!(
            (&expected.ending, &actual.ending),
            (Ending::Exited(_), Ending::Exited(_))
        );
    if !any_exit && !same_ending(&expected.ending, &actual.ending) {
        out.push(Mismatch::Ending {
            expected: expected.ending.clone(),
            actual: actual.ending.clone(),
        });
    }
    if actual.left_process {
        out.push(Mismatch::LeftProcess {
            killed: actual
                .left_behind
                .iter()
                .filter(|l| l.held_output)
                .map(ToString::to_string)
                .collect(),
        });
    }
    out
}

/// Both streams, each borrowed or owned by the caller.
pub(super) fn streams(
    expected: &Expectation,
    actual: [(Stream, std::borrow::Cow<'_, [u8]>, u64); 2],
    out: &mut Vec<Mismatch>,
) {
    for (stream, act, dropped) in actual {
        let exp = match stream {
            Stream::Stdout => &expected.stdout,
            Stream::Stderr => &expected.stderr,
        };
        // Bytes not kept make the stream longer than what was kept.
        if exp.as_slice() != act.as_ref() || dropped > 0 {
            out.push(Mismatch::Stream {
                stream,
                expected: exp.clone(),
                actual: act.into_owned(),
                dropped,
            });
        }
    }
}

/// Under `--memcheck`, the run with its stderr stripped of the
/// sanitizer's or valgrind's report (what the program wrote itself still
/// compares), and the memory error it fails by (none when the report
/// holds only leaks, and `leaks` does not count them).
pub fn memory_error(mut outcome: Outcome, leaks: bool) -> (Outcome, Option<Mismatch>) {
    let report = crate::judge::memory::parse(&outcome.stderr);
    if report.errors.is_empty() {
        return (outcome, None);
    }
    let error = report.first(leaks).cloned();
    outcome.stderr = report.rest;
    let failure = error.map(|error| Mismatch::Memory {
        quoted: error.lines.clone(),
        error,
    });
    (outcome, failure)
}
