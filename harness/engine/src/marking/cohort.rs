//! The class view, built from the submissions' marks alone (so a run and
//! `mark merge` of its slices give the same bytes): `marks.csv` for a
//! spreadsheet or a gradebook, and `cohort.json` with the distribution of
//! marks, the averages per category, every case with the share of the
//! class that failed it (more than half flagged) and the causes several
//! submissions share, the checks they miss and the memory errors they
//! make. Nothing here depends on timings.
//!
//! One piece: the view's types and their builders are one record, read
//! back by `mark merge`: a type and the builder that fills it cannot
//! change apart. Its tests are the sibling `cohort/tests.rs`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::output::report::as_f64;

use serde::{Deserialize, Serialize};

use crate::output::results::VerdictKind;

use super::build::BuildStatus;
use super::gap::Unmarked;
use super::intake::Student;
use super::partition::Partition;
use super::record::{Category, SubmissionMark};

/// The value of [`Cohort::format`].
pub const FORMAT: &str = "conformance-cohort/1";

/// Bars of the histogram of marks.
pub const BINS: usize = 10;

/// What the class view says of the suite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteInfo {
    /// The pack.
    pub spec: String,
    /// The suite's name and version.
    pub suite: String,
    /// Its content hash.
    pub content_hash: String,
    /// Its marking categories.
    pub categories: Vec<Category>,
    /// The build line (`--build`, or the pack's course line).
    #[serde(default)]
    pub build: String,
    /// The marks available when a grading tree makes the total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marks: Option<f64>,
}

/// `cohort.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cohort {
    /// Always [`FORMAT`].
    pub format: String,
    /// The suite.
    pub suite: SuiteInfo,
    /// Submissions with a row.
    pub submissions: usize,
    /// Of those, how many built.
    pub built: usize,
    /// Marks available.
    pub max: f64,
    /// The mean mark; `None` (null) when no row was judged (the
    /// environment or the pack struck every submission).
    pub mean: Option<f64>,
    /// The median mark; `None` as the mean.
    pub median: Option<f64>,
    /// Submissions per tenth of the marks (the last bar includes full
    /// marks).
    pub histogram: Vec<usize>,
    /// The mean per category, over every submission.
    pub categories: Vec<CategoryMean>,
    /// Every case, the most failed first.
    pub cases: Vec<CaseShare>,
    /// The rules the flagged cases cite, the most cited first.
    pub flagged_rules: Vec<FlaggedRule>,
    /// Causes found in more than one submission, the most shared first.
    pub shared_causes: Vec<SharedCause>,
    /// The checks programs miss (a line the rulings reject accepted, or
    /// going on where the reference stops), by rule, each with every
    /// submission that misses it: what the class did not check.
    #[serde(default)]
    pub missing_checks: Vec<MissingCheck>,
    /// The memory errors programs make (under `--memcheck`), by kind and
    /// place in the program's source, each with every submission that
    /// makes it.
    #[serde(default)]
    pub memory_errors: Vec<MemoryErrorShare>,
    /// The environment failures (a module, class or library missing
    /// where the marks ran), each with every submission it struck: marks
    /// not to publish until the environment is fixed and the class
    /// re-marked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub environment: Vec<SharedCause>,
    /// A row per submission, in id order.
    pub rows: Vec<Row>,
    /// The slice of a `--partition K/N` run (`mark merge` checks that it
    /// is given every slice); none for a whole run or a merge.
    #[serde(default)]
    pub slice: Option<Partition>,
    /// Every submission of the class a `--partition` slice was cut from
    /// (ids, sorted): what `mark merge` expects a row for. Empty for a
    /// whole run or a merge.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub class: Vec<String>,
    /// The submissions of the class without a row (the harness could not
    /// mark them; their slice is missing from a merge `--allow-missing`),
    /// each with its slice; `marks.csv` lists them as `not marked`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unmarked: Vec<Unmarked>,
}

/// A category's mean.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CategoryMean {
    /// The category.
    pub name: String,
    /// Marks available.
    pub marks: f64,
    /// Mean marks earned; `None` (null) when no submission had a case
    /// of it judged.
    pub mean: Option<f64>,
}

/// A case and how much of the class failed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseShare {
    /// The case.
    pub name: String,
    /// Its category.
    pub category: Option<String>,
    /// Whether it rests on an ambiguous ruling.
    pub ambiguous: bool,
    /// Submissions that failed it.
    pub failed: usize,
    /// Submissions it was judged on (those that built).
    pub judged: usize,
    /// Failed by more than half of them: check the ruling or the teaching.
    pub flagged: bool,
    /// The rule IDs it cites.
    pub rules: Vec<String>,
}

/// A rule the flagged cases cite: where to look first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlaggedRule {
    /// The rule ID.
    pub rule: String,
    /// Flagged cases citing it.
    pub cases: usize,
}

/// A cause several submissions share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedCause {
    /// The cause's key (numbers as `#`).
    pub cause: String,
    /// The submissions (ids) it was found in.
    pub submissions: Vec<String>,
    /// Failed cases it explains, over all of them.
    pub cases: usize,
}

/// A check some submissions miss.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissingCheck {
    /// The rule of the check (`TURN-3`).
    pub rule: String,
    /// The check in words (`accepts what the reference rejects: a
    /// horizontal edge's row past H`).
    pub check: String,
    /// The submissions (ids) that miss it.
    pub submissions: Vec<String>,
    /// Failed cases it explains, over all of them.
    pub cases: usize,
}

/// A memory error some submissions make: one kind at one place (the
/// function and source line, in each submission's own source).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryErrorShare {
    /// `heap-buffer-overflow`, `leak`, ...
    pub kind: String,
    /// The program's frame (`` `encipher` (substitution.c:41) ``), empty
    /// when the report names none.
    pub place: String,
    /// The submissions (ids) that make it.
    pub submissions: Vec<String>,
    /// Failed cases it explains, over all of them (under `warn`, the
    /// cases that made it).
    pub cases: usize,
    /// Only warned about (`--memcheck …,warn`): no marks lost by it.
    #[serde(default)]
    pub warning: bool,
}

/// A submission's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// The id.
    pub id: String,
    /// Its folder under `submissions/`.
    pub slug: String,
    /// Its students.
    pub students: Vec<Student>,
    /// How its build ended.
    pub build: BuildStatus,
    /// Marks earned.
    pub total: f64,
    /// The categories none of whose cases was judged: no total.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unjudged: Vec<String>,
    /// Its first cause, if any.
    pub first_cause: Option<String>,
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The class view of `marks` (sorted by id).
pub fn build(suite: &SuiteInfo, marks: &[SubmissionMark]) -> Cohort {
    let max = suite.max();
    let n = marks.len();
    let built: Vec<&SubmissionMark> = marks
        .iter()
        .filter(|m| m.build == BuildStatus::Ok && m.reason.is_none())
        .collect();
    // A submission with a category the environment left unjudged has no
    // total: it counts in no figure of the class.
    let mut totals: Vec<f64> = marks
        .iter()
        .filter_map(SubmissionMark::judged_total)
        .collect();
    totals.sort_by(f64::total_cmp);
    let judged = totals.len();
    let mean = (judged > 0).then(|| totals.iter().sum::<f64>() / as_f64(judged));
    let median = match judged {
        0 => None,
        n if n % 2 == 1 => Some(totals[n / 2]),
        n => Some(f64::midpoint(totals[n / 2 - 1], totals[n / 2])),
    };
    let mut histogram = vec![0; BINS];
    for t in &totals {
        let share = if max > 0.0 { t / max } else { 0.0 };
        // A share in [0, 1]: its tenth, full marks in the last bar.
        let bin = (0..BINS)
            .rev()
            .find(|&i| share >= as_f64(i) / as_f64(BINS))
            .unwrap_or(0);
        if let Some(b) = histogram.get_mut(bin) {
            *b += 1;
        }
    }
    let categories = suite
        .categories
        .iter()
        .map(|c| {
            let earned: Vec<f64> = marks.iter().filter_map(|m| m.earned_in(&c.name)).collect();
            CategoryMean {
                name: c.name.clone(),
                marks: c.marks,
                mean: (!earned.is_empty())
                    .then(|| round2(earned.iter().sum::<f64>() / as_f64(earned.len()))),
            }
        })
        .collect();
    let cases = case_shares(&built);
    let shared_causes = shared(marks);
    let missing_checks = missing_checks(marks);
    let memory_errors = memory_errors(marks);
    let flagged_rules = flagged_rules(&cases);
    Cohort {
        slice: None,
        class: Vec::new(),
        unmarked: Vec::new(),
        format: FORMAT.to_owned(),
        suite: suite.clone(),
        submissions: n,
        built: built.len(),
        max,
        mean: mean.map(round2),
        median: median.map(round2),
        histogram,
        categories,
        cases,
        flagged_rules,
        shared_causes,
        missing_checks,
        memory_errors,
        environment: environment(marks),
        rows: marks
            .iter()
            .map(|m| Row {
                id: m.id.clone(),
                slug: m.slug.clone(),
                students: m.students.clone(),
                build: m.build,
                total: round2(m.total),
                unjudged: m.unjudged.clone(),
                first_cause: m.first_cause(),
            })
            .collect(),
    }
}

/// Every case with how many of the built submissions failed it, the most
/// failed first.
fn case_shares(built: &[&SubmissionMark]) -> Vec<CaseShare> {
    let mut cases: BTreeMap<&str, CaseShare> = BTreeMap::new();
    for m in built {
        for c in &m.cases {
            let share = cases.entry(c.name.as_str()).or_insert_with(|| CaseShare {
                name: c.name.clone(),
                category: c.category.clone(),
                ambiguous: c.ambiguous,
                failed: 0,
                judged: 0,
                flagged: false,
                rules: c.rules.clone(),
            });
            match c.verdict {
                VerdictKind::Failed => {
                    share.failed += 1;
                    share.judged += 1;
                }
                VerdictKind::Passed => share.judged += 1,
                VerdictKind::Environment | VerdictKind::Error => {}
            }
        }
    }
    let mut shares: Vec<CaseShare> = cases
        .into_values()
        .map(|mut c| {
            c.flagged = 2 * c.failed > c.judged;
            c
        })
        .collect();
    // The most failed first (by share, then count), then by name.
    shares.sort_by(|a, b| {
        (b.failed * a.judged.max(1))
            .cmp(&(a.failed * b.judged.max(1)))
            .then(b.failed.cmp(&a.failed))
            .then_with(|| a.name.cmp(&b.name))
    });
    shares
}

/// The rules the flagged cases cite, the most cited first, then by ID.
fn flagged_rules(cases: &[CaseShare]) -> Vec<FlaggedRule> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for c in cases.iter().filter(|c| c.flagged) {
        for r in &c.rules {
            *counts.entry(r.as_str()).or_default() += 1;
        }
    }
    let mut rules: Vec<FlaggedRule> = counts
        .into_iter()
        .map(|(rule, cases)| FlaggedRule {
            rule: rule.to_owned(),
            cases,
        })
        .collect();
    rules.sort_by(|a, b| b.cases.cmp(&a.cases).then_with(|| a.rule.cmp(&b.rule)));
    rules
}

/// The causes found in more than one submission, the most shared first.
fn shared(marks: &[SubmissionMark]) -> Vec<SharedCause> {
    let mut by_cause: BTreeMap<&str, (Vec<String>, usize)> = BTreeMap::new();
    for m in marks {
        for c in &m.causes {
            let entry = by_cause.entry(c.cause.as_str()).or_default();
            entry.0.push(m.id.clone());
            entry.1 += c.cases.len();
        }
    }
    let mut found: Vec<SharedCause> = by_cause
        .into_iter()
        .filter(|(_, (subs, _))| subs.len() > 1)
        .map(|(cause, (submissions, cases))| SharedCause {
            cause: cause.to_owned(),
            submissions,
            cases,
        })
        .collect();
    found.sort_by(|a, b| {
        b.submissions
            .len()
            .cmp(&a.submissions.len())
            .then(b.cases.cmp(&a.cases))
            .then_with(|| a.cause.cmp(&b.cause))
    });
    found
}

/// The causes `key` names a pair for (a missed check's rule and words, a
/// memory error's kind and place), each with the submissions that have
/// it and the cases it explains: the most submissions first, then by the
/// pair.
fn by_pair(
    marks: &[SubmissionMark],
    list: impl Fn(&SubmissionMark) -> &[crate::output::results::CauseRecord],
    key: impl Fn(&str) -> Option<(String, String)>,
) -> Vec<((String, String), Vec<String>, usize)> {
    let mut by: BTreeMap<(String, String), (Vec<String>, usize)> = BTreeMap::new();
    for m in marks {
        for c in list(m) {
            let Some(pair) = key(&c.cause) else {
                continue;
            };
            let entry = by.entry(pair).or_default();
            if entry.0.last() != Some(&m.id) {
                entry.0.push(m.id.clone());
            }
            entry.1 += c.cases.len();
        }
    }
    let mut found: Vec<_> = by
        .into_iter()
        .map(|(pair, (submissions, cases))| (pair, submissions, cases))
        .collect();
    found.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    found
}

/// The missed checks of every submission's causes, by rule, the most
/// missed first.
fn missing_checks(marks: &[SubmissionMark]) -> Vec<MissingCheck> {
    by_pair(
        marks,
        |m| &m.causes,
        |cause| {
            crate::judge::cause::missed_check_of(cause)
                .map(|(rule, check)| (rule.to_owned(), check))
        },
    )
    .into_iter()
    .map(|((rule, check), submissions, cases)| MissingCheck {
        rule,
        check,
        submissions,
        cases,
    })
    .collect()
}

/// The memory errors of every submission's causes, by kind and place,
/// the most made first; then those only warned about (`--memcheck
/// …,warn`) likewise.
fn memory_errors(marks: &[SubmissionMark]) -> Vec<MemoryErrorShare> {
    let key = |cause: &str| {
        crate::judge::cause::memory_error_of(cause).map(|(k, p)| (k.to_owned(), p.to_owned()))
    };
    let charged = by_pair(marks, |m| &m.causes, key);
    let warned = by_pair(marks, |m| &m.memory_warnings, key);
    let tagged = |found: Vec<_>, warning| {
        found.into_iter().map(
            move |((kind, place), submissions, cases)| MemoryErrorShare {
                kind,
                place,
                submissions,
                cases,
                warning,
            },
        )
    };
    tagged(charged, false).chain(tagged(warned, true)).collect()
}

/// One CSV field: quoted when it must be, and a leading `=`, `+`, `-` or
/// `@` of a text field defused (a spreadsheet would run it as a formula).
pub(super) fn field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

fn number(x: f64) -> String {
    format!("{}", round2(x))
}

/// Each environment failure with the submissions it struck (and their
/// cases under it), the most struck first.
fn environment(marks: &[SubmissionMark]) -> Vec<SharedCause> {
    let mut by: BTreeMap<&str, (Vec<String>, usize)> = BTreeMap::new();
    for m in marks {
        for why in &m.environment {
            let cases = super::struck::cases(m, why);
            let entry = by.entry(why).or_default();
            entry.0.push(m.id.clone());
            entry.1 += cases;
        }
    }
    let mut out: Vec<SharedCause> = by
        .into_iter()
        .map(|(cause, (submissions, cases))| SharedCause {
            cause: cause.to_owned(),
            submissions,
            cases,
        })
        .collect();
    out.sort_by_key(|s| std::cmp::Reverse(s.submissions.len()));
    out
}

/// `marks.csv`: a header, then a row per submission in id order.
pub fn csv(suite: &SuiteInfo, marks: &[SubmissionMark]) -> String {
    let mut out = String::from("id,name,email,sid,build,warnings");
    for c in &suite.categories {
        out.push(',');
        out.push_str(&field(&c.name));
    }
    out.push_str(",total,passed,failed,errors,first cause,deductions,memory warnings\n");
    for m in marks {
        let join =
            |f: fn(&Student) -> &str| m.students.iter().map(f).collect::<Vec<_>>().join("; ");
        let _ = write!(
            out,
            "{},{},{},{},{},{}",
            field(&m.id),
            field(&join(|s| &s.name)),
            field(&join(|s| &s.email)),
            field(&join(|s| &s.sid)),
            m.build,
            m.warnings
        );
        // A category the environment left unjudged is blank, and so is
        // the total: a gradebook reads no mark rather than one charged
        // for the machine.
        for c in &suite.categories {
            let earned = m.earned_in(&c.name).map(number).unwrap_or_default();
            let _ = write!(out, ",{earned}");
        }
        let total = m.judged_total().map(number).unwrap_or_default();
        let cause = m
            .first_cause()
            .or_else(|| m.reason.clone())
            .unwrap_or_default();
        let deductions = m
            .deductions
            .iter()
            .map(|d| format!("{} -{}", d.rule, number(d.marks)))
            .collect::<Vec<_>>()
            .join("; ");
        // Warned about only (`--memcheck …,warn`): no marks lost, but a
        // row of the spreadsheet still tells the student's marker.
        let warned = m
            .memory_warnings
            .iter()
            .map(|w| w.cause.as_str())
            .collect::<Vec<_>>()
            .join("; ");
        let _ = writeln!(
            out,
            ",{},{},{},{},{},{},{}",
            total,
            m.passed,
            m.failed,
            m.errors,
            field(&cause),
            field(&deductions),
            field(&warned)
        );
    }
    out
}

#[cfg(test)]
pub(super) mod tests;
