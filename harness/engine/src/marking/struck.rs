//! What `mark` says of the submissions the environment or the pack
//! struck (docs/mark.md, "Environment failures"): which failures are the
//! pack's own (a checker that crashed, a model run that failed: fixed in
//! the pack and blessed, not installed where the marks run), how many
//! cases each struck, the message at the end of `mark`, and the class's
//! mean where no row was judged.

use super::cohort::Cohort;
use super::record::SubmissionMark;
use crate::output::results::VerdictKind;

/// How an environment failure that is the pack's own fault (a checker
/// that crashed, a model run that failed) begins: fixed in the pack and
/// blessed, not installed where the marks run.
pub const PACK_FAULT: &str = "a fault of the pack, not of the program: ";

/// A case's error (the harness's words) as a row keeps it: the pack's
/// fault, by its first line. That line may end where its detail (a
/// traceback) begins: it is said without the colon.
pub fn pack_fault(error: &str) -> String {
    let first = error.lines().next().unwrap_or_default();
    format!("{PACK_FAULT}{}", first.trim_end().trim_end_matches(':'))
}

/// Whether an environment failure (as a row keeps it) is the pack's.
pub fn is_pack_fault(why: &str) -> bool {
    why.starts_with(PACK_FAULT)
}

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
pub fn mean_said(c: &Cohort) -> String {
    let n = |x: f64| format!("{}", (x * 100.0).round() / 100.0);
    match c.mean {
        Some(mean) => format!("mean {} of {}", n(mean), n(c.max)),
        None => format!("no row judged (of {} marks): no mean", n(c.max)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::marking::cohort::tests::sub;

    #[test]
    fn a_pack_fault_says_fix_the_pack_not_install_what_is_missing() {
        let mut a = sub("a", 0.0, &[], None);
        a.environment = vec![pack_fault("checker crashed:")];
        let text = said(&[a.clone()], &["a"]);
        assert!(
            text.contains("failed for a fault of the pack")
                && text.contains("fix the pack, `bless` it and mark again"),
            "{text}"
        );
        assert!(!text.contains("install"), "{text}");
        let mut b = sub("b", 0.0, &[], None);
        b.environment = vec!["cannot import `x`: not installed where the marks run".into()];
        let text = said(&[b.clone()], &["b"]);
        assert!(
            text.contains("failed for what this machine lacks"),
            "{text}"
        );
        assert!(
            text.contains("install what is missing where the marks run and mark again"),
            "{text}"
        );
        let text = said(&[a, b], &["a", "b"]);
        assert!(
            text.contains("fix the pack, `bless` it, install what is missing"),
            "{text}"
        );
    }
}
