//! No silent wrong run: after a marking run, the class as a whole is
//! looked at once. When no built submission passed a single case, or the
//! programs answer a run without arguments with another registered pack's
//! usage line, the run was most likely pointed at the wrong suite
//! (one pack's `--spec` copied onto another pack's class), and `mark` says so and exits
//! 1 rather than handing out a column of zeros. The packs are iterated,
//! never named: the engine knows none of them.

use std::fmt::Write as _;
use std::time::Duration;

use crate::exec::run::{self, Invocation, Keep, Limits, Target};
use crate::packs::pack::Pack;

use super::build::BuildStatus;
use super::record::SubmissionMark;

/// How long a program may take to print its usage line.
pub const USAGE_TIMEOUT: Duration = Duration::from_secs(2);
/// Bytes of a usage line looked at.
const USAGE_KEPT: u64 = 4096;

/// The first line a program prints when run without arguments (stderr,
/// else stdout), trimmed, as text; `None` if it printed nothing or could
/// not run. `mark` keeps each program's in its `mark.json`.
pub fn usage_line(target: Target) -> Option<String> {
    let mut inv = Invocation::new(target, Vec::new(), Vec::new());
    inv.timeout = USAGE_TIMEOUT;
    inv.limits = Limits::for_timeout(USAGE_TIMEOUT);
    inv.keep = Keep {
        stdout: USAGE_KEPT,
        stderr: USAGE_KEPT,
    };
    let outcome = run::run(&inv).ok()?;
    let first = crate::exec::preflight::first_line;
    first(&outcome.stderr).or_else(|| first(&outcome.stdout))
}

/// The warning on a run that looks pointed at the wrong suite, if it does:
/// `marks` are the class's, each with its program's usage line.
pub fn wrong_run(packs: &[&dyn Pack], pack: &dyn Pack, marks: &[SubmissionMark]) -> Option<String> {
    let built: Vec<&SubmissionMark> = marks
        .iter()
        .filter(|m| m.build == BuildStatus::Ok && m.reason.is_none())
        .collect();
    if built.is_empty() {
        return None;
    }
    let none_passed = built.iter().all(|m| m.passed == 0);
    let lines: Vec<&str> = built.iter().filter_map(|m| m.usage.as_deref()).collect();
    if !none_passed && lines.is_empty() {
        return None;
    }
    // Another pack whose reference's usage line more than half of the
    // programs print (and this pack's reference does not). This pack's
    // reference is asked only then: a folder pack's model runs at `mark`
    // for nothing else.
    let mut own: Option<Option<String>> = None;
    let other = packs
        .iter()
        .filter(|p| p.name() != pack.name())
        .find(|p| {
            let Some(theirs) = Target::reference(p.name()).ok().and_then(usage_line) else {
                return false;
            };
            2 * lines.iter().filter(|l| **l == theirs).count() > built.len()
                && own
                    .get_or_insert_with(|| pack.reference().ok().and_then(usage_line))
                    .as_ref()
                    != Some(&theirs)
        })
        .map(|p| p.name());
    if !none_passed && other.is_none() {
        return None;
    }
    let mut warning = if none_passed {
        format!(
            "{} of {} built submissions passed any case: is --spec {} right?",
            0,
            built.len(),
            pack.name()
        )
    } else {
        format!(
            "the programs do not answer like {} programs: is --spec {} right?",
            pack.name(),
            pack.name()
        )
    };
    if let Some(other) = other {
        let _ = write!(
            warning,
            " these look like {other} programs (run without arguments, they print {other}'s \
             usage line)"
        );
    }
    Some(warning)
}
