//! The tables and files a run's results become: the `--score` table, the
//! `--coverage` table and the `--junit` file. How to reproduce a case by
//! hand is [`crate::output::reproduce`]'s; bytes made visible and quoted
//! are [`crate::bytes`]'s; the verdict of a case is
//! [`crate::judge::verdict`]'s.

use std::fmt::Write as _;

use crate::bytes::visible::Style;
use crate::judge::verdict::{CaseResult, Verdict};
use crate::model::schema::{Rules, Suite};

/// One row of the score (also a row of the `--results` document).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoreRow {
    /// Category name, or `ambiguous`.
    pub name: String,
    /// Cases passed.
    pub passed: usize,
    /// Cases judged (errors excluded).
    pub total: usize,
    /// Cases that could not be judged.
    pub errors: usize,
    /// Marks the category is worth (`None` for the ambiguous row).
    pub marks: Option<f64>,
    /// Marks earned, pro rata.
    pub earned: Option<f64>,
}

/// Scores results by the suite's categories. Ambiguous cases get their own
/// row and no marks, unless `strict`, where they count in their category.
pub fn score(suite: &Suite, results: &[CaseResult], strict: bool) -> Vec<ScoreRow> {
    let mut rows: Vec<ScoreRow> = suite
        .categories
        .iter()
        .map(|c| ScoreRow {
            name: c.name.clone(),
            passed: 0,
            total: 0,
            errors: 0,
            marks: Some(c.marks),
            earned: None,
        })
        .collect();
    let mut ambiguous = ScoreRow {
        name: "ambiguous".to_owned(),
        passed: 0,
        total: 0,
        errors: 0,
        marks: None,
        earned: None,
    };
    for r in results {
        let passed = usize::from(r.verdict == Verdict::Passed);
        let row = if r.ambiguous && !strict {
            Some(&mut ambiguous)
        } else {
            r.category
                .as_ref()
                .and_then(|c| rows.iter_mut().find(|row| &row.name == c))
        };
        if let Some(row) = row {
            if matches!(r.verdict, Verdict::Error(_)) {
                row.errors += 1;
            } else {
                row.passed += passed;
                row.total += 1;
            }
        }
    }
    for row in &mut rows {
        if row.total > 0 {
            let ratio = as_f64(row.passed) / as_f64(row.total);
            row.earned = row.marks.map(|m| m * ratio);
        }
    }
    rows.push(ambiguous);
    rows
}

/// A count as a float (counts here never pass `u32::MAX`).
pub(crate) fn as_f64(n: usize) -> f64 {
    f64::from(u32::try_from(n).unwrap_or(u32::MAX))
}

/// The `--score` table.
pub fn score_table(suite: &Suite, rows: &[ScoreRow], strict: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\nscore ({}):", suite.name);
    // As wide as the longest category name (gridgame's are 20 bytes).
    let width = rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(18);
    let _ = writeln!(
        out,
        "  {:<width$} {:>7} {:>14}",
        "category", "passed", "marks"
    );
    let mut earned = 0.0;
    let mut possible = 0.0;
    let mut partial = false;
    for row in rows {
        let ratio = format!("{}/{}", row.passed, row.total);
        let marks = match (row.marks, row.earned) {
            (Some(m), Some(e)) => {
                earned += e;
                possible += m;
                format!("{e:.2} / {m}")
            }
            (Some(m), None) => {
                partial = true;
                format!("not run / {m}")
            }
            (None, _) if strict => "counted above".to_owned(),
            (None, _) => "not counted".to_owned(),
        };
        let errors = if row.errors > 0 {
            format!("  ({} could not be run)", row.errors)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  {:<width$} {:>7} {:>14}{errors}",
            row.name, ratio, marks
        );
    }
    let total: f64 = suite.categories.iter().map(|c| c.marks).sum();
    let _ = writeln!(
        out,
        "  estimated mark: {earned:.2} / {total}{}",
        if partial {
            format!(" (only {possible} marks' worth of categories ran)")
        } else {
            String::new()
        }
    );
    if !strict {
        let _ = writeln!(
            out,
            "  ambiguous cases never cost marks; --strict runs them and counts them in \
             their categories"
        );
    }
    out
}

/// The `--coverage` table: each rule with the number of cases citing it.
pub fn coverage_table(rules: &Rules, counts: &std::collections::BTreeMap<String, usize>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<8} {:>5}  {:<9} summary",
        "rule", "cases", "ambiguous"
    );
    let mut uncovered = 0;
    for rule in &rules.rules {
        let n = counts.get(&rule.id).copied().unwrap_or(0);
        uncovered += usize::from(n == 0);
        let _ = writeln!(
            out,
            "{:<8} {:>5}  {:<9} {}",
            rule.id, n, rule.ambiguous, rule.summary
        );
    }
    let unknown: Vec<&String> = counts
        .keys()
        .filter(|id| !rules.rules.iter().any(|r| &r.id == *id))
        .collect();
    let _ = writeln!(
        out,
        "{} rules, {uncovered} without a case",
        rules.rules.len()
    );
    if !unknown.is_empty() {
        let _ = writeln!(
            out,
            "cited by cases but not in rules.yaml: {}",
            unknown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out
}

/// The JUnit XML of a run: one test suite per category.
pub fn junit(program: &str, results: &[CaseResult]) -> String {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new(program);
    let mut suites: std::collections::BTreeMap<String, TestSuite> =
        std::collections::BTreeMap::new();
    for r in results {
        let category = r.category.clone().unwrap_or_else(|| "invalid".to_owned());
        let status = match &r.verdict {
            Verdict::Passed => TestCaseStatus::success(),
            Verdict::Failed(failure) => {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                s.set_message(r.verdict.to_string());
                s.set_description(failure.render(Style { colour: false }));
                s
            }
            Verdict::Error(text) => {
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
                s.set_message(r.verdict.to_string());
                s.set_description(text.as_str());
                s
            }
        };
        let mut case = TestCase::new(r.name.as_str(), status);
        case.set_classname(category.as_str());
        case.set_time(r.time);
        suites
            .entry(category.clone())
            .or_insert_with(|| TestSuite::new(category.as_str()))
            .add_test_case(case);
    }
    report.add_test_suites(suites.into_values());
    report.to_string().unwrap_or_default()
}
