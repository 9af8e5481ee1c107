//! The tables and files a run's results become: the `--score` table, the
//! `--coverage` table and the `--junit` file. How to reproduce a case by
//! hand is [`crate::output::reproduce`]'s; bytes made visible and quoted
//! are [`crate::bytes`]'s; the verdict of a case is
//! [`crate::judge::verdict`]'s.
//!
//! One piece: the score table, the coverage table and the JUnit file
//! are the three renderings of the same case results and score rows;
//! about 150 lines are tests.

use std::fmt::Write as _;

use crate::bytes::visible::Style;
use crate::judge::verdict::{CaseResult, Verdict};
use crate::model::schema::{Rules, Suite};

/// Each rule's category, by row: the one holding most of the cases that
/// cite it (the first in `suite.yaml` on a tie), whatever case a
/// deduction happens to be first forgiven in, so that one rule's
/// deduction costs every program the same category.
fn homes<'r>(
    rows: &[ScoreRow],
    results: &[&'r CaseResult],
) -> std::collections::HashMap<&'r str, usize> {
    let mut counts: std::collections::HashMap<&str, Vec<usize>> = std::collections::HashMap::new();
    for r in results {
        let Some(i) = r
            .category
            .as_ref()
            .and_then(|c| rows.iter().position(|row| &row.name == c))
        else {
            continue;
        };
        for rule in &r.rules {
            let per = counts
                .entry(rule.as_str())
                .or_insert_with(|| vec![0; rows.len()]);
            per[i] += 1;
        }
    }
    counts
        .into_iter()
        .filter_map(|(rule, per)| {
            let most = *per.iter().max()?;
            Some((rule, per.iter().position(|&n| n == most)?))
        })
        .collect()
}

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
    /// Marks earned: the weight passed over the weight judged, less the
    /// deductions taken here.
    pub earned: Option<f64>,
    /// What the cases passed weigh (a case weighs 1 unless the suite
    /// weighs it: `weight:` on the case or its rules).
    #[serde(default)]
    pub weight_passed: f64,
    /// What the cases judged weigh.
    #[serde(default)]
    pub weight_total: f64,
    /// The one-time deductions taken from this category: each rule's
    /// once per program, in the rule's category (the one holding most of
    /// the cases citing it), else that of the first case (by name) that
    /// carries it.
    #[serde(default)]
    pub deductions: Vec<DeductionRecord>,
    /// Its cases that count, in name order: a `grading:` tree's (unwritten).
    #[serde(skip)]
    #[schemars(skip)]
    pub outcomes: Vec<crate::model::grader::Outcome>,
}

/// A one-time deduction as the score takes it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeductionRecord {
    /// The rule whose tolerance forgave the departure (or `case` /
    /// `suite` when the tolerance was declared there).
    pub rule: String,
    /// Marks taken (the largest any case declared for the rule).
    pub marks: f64,
    /// The first case, by name, where the tolerance forgave it.
    pub case: String,
    /// What it forgave there, one line (`` prints `a  b` on stdout where
    /// the model prints `a b` ``).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub forgave: String,
    /// How many cases it was forgiven in (charged once however many).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cases: usize,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl DeductionRecord {
    /// One line, as the score table, Gradescope and `marks.csv` show it:
    /// a charge in words (what the program did, where the model does
    /// otherwise, in how many cases, what it costs).
    pub fn line(&self) -> String {
        let what = if self.forgave.is_empty() {
            "a departure its rule lets pass at a cost".to_owned()
        } else {
            self.forgave.clone()
        };
        let cases = match self.cases {
            0 | 1 => format!("in {}", self.case),
            n => format!("in {n} cases, first {}", self.case),
        };
        format!(
            "-{} {}: {what} ({cases}; charged once)",
            self.marks, self.rule
        )
    }
}

/// Scores results by the suite's categories, each case counting by its
/// weight (or as a category's `grader:` combines them), then takes each rule's one-time deduction once. Ambiguous cases
/// get their own row and no marks, unless `strict`, where they count in
/// their category.
pub fn score(suite: &Suite, results: &[CaseResult], strict: bool) -> Vec<ScoreRow> {
    let row = |name: &str, marks: Option<f64>| ScoreRow {
        name: name.to_owned(),
        passed: 0,
        total: 0,
        errors: 0,
        marks,
        earned: None,
        weight_passed: 0.0,
        weight_total: 0.0,
        deductions: Vec::new(),
        outcomes: Vec::new(),
    };
    let mut rows: Vec<ScoreRow> = suite
        .categories
        .iter()
        .map(|c| row(&c.name, Some(c.marks)))
        .collect();
    let mut ambiguous = row("ambiguous", None);
    // By name: which case a deduction is first seen in must not depend on
    // the order parallel cases finished in.
    let mut sorted: Vec<&CaseResult> = results.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    let home = homes(&rows, &sorted);
    let ran = super::graded::outcomes(suite, &sorted, strict);
    let graded = super::graded::earned(suite, &ran);
    let mut taken: Vec<(usize, DeductionRecord)> = Vec::new();
    for r in sorted {
        let charged = !r.ambiguous || strict;
        let index = r
            .category
            .as_ref()
            .and_then(|c| rows.iter().position(|row| &row.name == c));
        let row = if charged {
            index.map(|i| &mut rows[i])
        } else {
            Some(&mut ambiguous)
        };
        let Some(row) = row else { continue };
        if !r.verdict.judged() {
            row.errors += 1;
            continue;
        }
        row.total += 1;
        row.weight_total += r.weight;
        if r.verdict == Verdict::Passed {
            row.passed += 1;
            row.weight_passed += r.weight;
        }
        let Some(i) = index.filter(|_| charged) else {
            continue;
        };
        for d in &r.deductions {
            let marks = d.marks.max(0.0);
            match taken.iter_mut().find(|(_, t)| t.rule == d.rule) {
                Some((_, t)) => {
                    t.marks = t.marks.max(marks);
                    t.cases += 1;
                }
                None => taken.push((
                    home.get(d.rule.as_str()).copied().unwrap_or(i),
                    DeductionRecord {
                        rule: d.rule.clone(),
                        marks,
                        case: r.name.clone(),
                        forgave: d.forgave.clone(),
                        cases: 1,
                    },
                )),
            }
        }
    }
    for (i, d) in taken {
        rows[i].deductions.push(d);
    }
    for ((row, graded), ran) in rows.iter_mut().zip(graded).zip(ran) {
        row.outcomes = ran;
        if row.total > 0 {
            let ratio = if row.weight_total > 0.0 {
                row.weight_passed / row.weight_total
            } else {
                as_f64(row.passed) / as_f64(row.total)
            };
            let deducted: f64 = row.deductions.iter().map(|d| d.marks).sum();
            let got = |m: f64| graded.unwrap_or(m * ratio);
            row.earned = row.marks.map(|m| (got(m) - deducted).max(0.0));
        }
    }
    rows.push(ambiguous);
    rows
}

/// The total by the suite's `grading:` tree, if any ([`super::graded::total`]).
pub fn tree_total(suite: &Suite, rows: &[ScoreRow]) -> Option<(f64, f64)> {
    let row = |name: &str| rows.iter().find(|r| r.name == name && r.marks.is_some());
    super::graded::total(suite, &|n| {
        row(n).map(|r| r.outcomes.clone()).unwrap_or_default()
    })
}

/// A count as a float (counts here never pass `u32::MAX`).
pub(crate) fn as_f64(n: usize) -> f64 {
    f64::from(u32::try_from(n).unwrap_or(u32::MAX))
}

/// The `--score` table.
pub fn score_table(suite: &Suite, rows: &[ScoreRow], strict: bool, reader: Reader) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\nscore ({}):", suite.name);
    // As wide as the longest category name (gridgame's are 20 bytes).
    let width = rows.iter().fold(18, |w, r| w.max(r.name.chars().count()));
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
        let mut errors = if row.errors > 0 {
            format!("  ({} could not be run)", row.errors)
        } else {
            String::new()
        };
        errors.push_str(&super::graded::scored_note(&row.outcomes).unwrap_or_default());
        // Weighed cases: the marks follow the weight, not the count.
        if (row.weight_total - as_f64(row.total)).abs() > f64::EPSILON {
            let _ = write!(
                errors,
                "  (by weight {}/{})",
                row.weight_passed, row.weight_total
            );
        }
        let _ = writeln!(
            out,
            "  {:<width$} {:>7} {:>14}{errors}",
            row.name, ratio, marks
        );
        for d in &row.deductions {
            let _ = writeln!(out, "    {}", d.line());
        }
    }
    let mut total: f64 = suite.categories.iter().map(|c| c.marks).sum();
    // Parent groups' graders over their subgroups: the tree's total,
    // said when it is not the rows' sum.
    if !partial && let Some((e, m)) = tree_total(suite, rows) {
        if (e - earned).abs() > 1e-9 || (m - total).abs() > 1e-9 {
            let _ = writeln!(out, "  the groups by their parents' graders: {e:.2} of {m}");
        }
        (earned, total) = (e, m);
    }
    let _ = writeln!(
        out,
        "  estimated mark: {earned:.2} / {total}{}",
        if partial {
            format!(" (only {possible} marks' worth of categories ran)")
        } else {
            String::new()
        }
    );
    match reader {
        _ if strict => {}
        // `mark` chose the options: nothing to offer its student.
        Reader::Marked => {
            let _ = writeln!(out, "  ambiguous cases never cost marks");
        }
        Reader::Own => {
            let _ = writeln!(
                out,
                "  ambiguous cases never cost marks; --strict runs them and counts them in \
                 their categories"
            );
        }
    }
    out
}

/// Who reads a report: what it may offer and say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// Whoever ran the harness (a student on their own program, a
    /// marker): every option it names is theirs to use.
    Own,
    /// A student of a class `mark` marked (`--reproduce-as`): no option
    /// they cannot use, none of the marker's vocabulary (the tolerance
    /// listing, other readings).
    Marked,
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
            // Not judged: the environment, not the program, failed. An
            // `<error>` (the test could not run), never a `<failure>`.
            Verdict::Failed(failure) if r.verdict.struck().is_some() => {
                let lack = r.verdict.struck().unwrap_or_default();
                let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
                s.set_message(format!("not judged: environment: {lack}"));
                s.set_type("environment");
                s.set_description(failure.render(Style { colour: false }));
                s
            }
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
        // A warning only (`--memcheck …,warn`) leaves the case passed; a
        // CI page still shows it, as the case's output.
        if let Some(warning) = &r.warning {
            case.set_system_out(format!(
                "memory warning (no marks lost):\n{}",
                warning.render(Style { colour: false })
            ));
        }
        suites
            .entry(category.clone())
            .or_insert_with(|| TestSuite::new(category.as_str()))
            .add_test_case(case);
    }
    report.add_test_suites(suites.into_values());
    report.to_string().unwrap_or_default()
}

#[cfg(test)]
#[path = "report/tests.rs"]
mod tests;
