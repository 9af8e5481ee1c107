//! What `mark` says of the submissions the environment or the pack
//! struck (docs/mark.md, "Environment failures"): how many cases each
//! failure struck, the message at the end of `mark` (a pack's own fault,
//! told by [`super::record::is_pack_fault`], is fixed in the pack and
//! blessed, not installed where the marks run), and the class's mean
//! where no row was judged.

use super::record::{SubmissionMark, is_pack_fault};
use crate::output::results::VerdictKind;

/// The cases of `m` that the environment failure `why` struck: a cause's
/// cases, or for a pack's fault (which has no cause) the cases not
/// judged that no environment cause holds.
pub fn cases(m: &SubmissionMark, why: &str) -> usize {
    fn told(c: &crate::output::results::CauseRecord) -> Option<&str> {
        crate::judge::environment::told(&c.cause)
    }
    if !is_pack_fault(why) {
        return m
            .causes
            .iter()
            .find(|c| told(c) == Some(why))
            .map_or(0, |c| c.cases.len());
    }
    let struck: Vec<&str> = m
        .causes
        .iter()
        .filter(|c| told(c).is_some())
        .flat_map(|c| c.cases.iter().map(String::as_str))
        .collect();
    m.cases
        .iter()
        .filter(|c| c.verdict == VerdictKind::Error && !struck.contains(&c.name.as_str()))
        .count()
}

/// What `mark` says of the submissions the environment or the pack
/// struck (`struck`, their ids): the pack's faults are fixed in the pack
/// and blessed, what the machine lacks is installed where the marks run.
pub fn said(marks: &[SubmissionMark], struck: &[&str]) -> String {
    let whys = || marks.iter().flat_map(|m| m.environment.iter());
    let pack = whys().any(|w| is_pack_fault(w));
    let machine = whys().any(|w| !is_pack_fault(w));
    let what = match (pack, machine) {
        (true, false) => "for a fault of the pack (a checker or model run that failed), not for \
                          their own bugs"
            .to_owned(),
        (false, _) => "for what this machine lacks, not for their own bugs".to_owned(),
        (true, true) => "for what this machine lacks or for a fault of the pack, not for their \
                         own bugs"
            .to_owned(),
    };
    let mut fix = Vec::new();
    if pack {
        fix.push("fix the pack, `bless` it");
    }
    if machine {
        fix.push("install what is missing where the marks run");
    }
    format!(
        "ENVIRONMENT FAILURE: {} submission(s) failed {what} ({}): do not publish these marks; \
         {} and mark again",
        struck.len(),
        struck.join(", "),
        fix.join(", ")
    )
}

/// The class's mean as a summary says it: `mean 31.5 of 42`, or that no
/// row was judged (no mean to give, rather than 0).
/// (`mean`: the class view's, of `max` marks.)
pub fn mean_said(mean: Option<f64>, max: f64) -> String {
    let n = |x: f64| format!("{}", (x * 100.0).round() / 100.0);
    match mean {
        Some(mean) => format!("mean {} of {}", n(mean), n(max)),
        None => format!("no row judged (of {} marks): no mean", n(max)),
    }
}
