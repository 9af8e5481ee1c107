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
    /// Its cases that count, in name order (passed or not, a validator's
    /// score): what a suite's `grading:` tree combines. Not written.
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
    for (row, ran) in rows.iter_mut().zip(ran) {
        row.outcomes = ran;
    }
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
    for (row, graded) in rows.iter_mut().zip(graded) {
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
        let scored: Vec<String> = row
            .outcomes
            .iter()
            .filter_map(|o| o.score.map(|x| format!("{x}")))
            .collect();
        if !scored.is_empty() {
            let _ = write!(errors, "  (scored by the validator: {})", scored.join(", "));
        }
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
    // A parent group's grader over its subgroups (a problem package's):
    // the total is the tree's, not the rows' sum.
    if !partial && let Some((e, m)) = super::graded::total(suite, rows) {
        let _ = writeln!(
            out,
            "  the groups combined by their parents' graders: {e:.2} of {m} (not the rows' sum)"
        );
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
mod tests {

    use super::*;
    use crate::judge::failure::{CaseFailure, Notes};
    use crate::judge::verdict::Deduction;
    use crate::model::schema::parse;

    fn suite() -> Suite {
        parse(
            "suite.yaml",
            b"name: t\ncategories:\n  - {name: io, marks: 4}\n  - {name: calc, marks: 6}\n",
        )
        .unwrap()
    }

    /// A case of `category` weighing `weight`, passed or failed, with the
    /// deductions `(rule, marks)` a tolerance would have filled.
    fn case(
        name: &str,
        category: &str,
        weight: f64,
        passed: bool,
        d: &[(&str, f64)],
    ) -> CaseResult {
        let verdict = if passed {
            Verdict::Passed
        } else {
            Verdict::Failed(Box::new(CaseFailure::new(&[], b"", Notes::default())))
        };
        CaseResult {
            category: Some(category.to_owned()),
            weight,
            deductions: d
                .iter()
                .map(|&(rule, marks)| Deduction {
                    rule: rule.to_owned(),
                    marks,
                    forgave: String::new(),
                    hint: None,
                })
                .collect(),
            ..CaseResult::new(name, verdict)
        }
    }

    #[test]
    fn a_category_scores_by_weight_not_by_count() {
        // One heavy check failed, three light prompts passed: 3 of 6 by
        // weight, where the count would say 3 of 4.
        let results = [
            case("calc/a", "calc", 1.0, true, &[]),
            case("calc/b", "calc", 1.0, true, &[]),
            case("calc/c", "calc", 1.0, true, &[]),
            case("calc/d", "calc", 3.0, false, &[]),
        ];
        let rows = score(&suite(), &results, false);
        let calc = &rows[1];
        assert_eq!((calc.passed, calc.total), (3, 4));
        assert_eq!((calc.weight_passed, calc.weight_total), (3.0, 6.0));
        assert_eq!(calc.earned, Some(3.0));
        let table = score_table(&suite(), &rows, false, Reader::Own);
        assert!(
            table.contains("3/4       3.00 / 6  (by weight 3/6)"),
            "{table}"
        );
    }

    #[test]
    fn a_warning_only_case_passes_in_junit_with_the_warning_as_its_output() {
        let mut warned = case("io/a", "io", 1.0, true, &[]);
        warned.warning = Some(Box::new(CaseFailure::new(&[], b"", Notes::default())));
        let xml = junit("prog", &[warned, case("io/b", "io", 1.0, true, &[])]);
        assert!(!xml.contains("<failure"), "{xml}");
        assert_eq!(
            xml.matches("<system-out>memory warning (no marks lost):")
                .count(),
            1,
            "{xml}"
        );
    }

    #[test]
    fn unweighed_cases_score_as_before() {
        let results = [
            case("io/a", "io", 1.0, true, &[]),
            case("io/b", "io", 1.0, false, &[]),
        ];
        let rows = score(&suite(), &results, false);
        assert_eq!(rows[0].earned, Some(2.0));
        assert!(!score_table(&suite(), &rows, false, Reader::Own).contains("by weight"));
    }

    #[test]
    fn a_deduction_is_taken_from_its_rules_category() {
        // IO-1 is the prompt's rule, cited by two io cases and one calc
        // case: forgiven first in calc/a, it is still charged to io.
        let cite = |mut c: CaseResult, rules: &[&str]| {
            c.rules = rules.iter().map(|r| (*r).to_owned()).collect();
            c
        };
        let results = [
            cite(
                case("calc/a", "calc", 1.0, true, &[("IO-1", 0.5)]),
                &["IO-1", "K-1"],
            ),
            cite(case("io/y", "io", 1.0, true, &[]), &["IO-1"]),
            cite(case("io/z", "io", 1.0, true, &[]), &["IO-1"]),
            // A `case` declaration names no rule: its case's category.
            cite(
                case("calc/b", "calc", 1.0, true, &[("case", 1.0)]),
                &["K-1"],
            ),
        ];
        let rows = score(&suite(), &results, false);
        let taken = |i: usize| -> Vec<(String, String)> {
            rows[i]
                .deductions
                .iter()
                .map(|d| (d.rule.clone(), d.case.clone()))
                .collect()
        };
        assert_eq!(taken(0), [("IO-1".to_owned(), "calc/a".to_owned())]);
        assert_eq!(rows[0].earned, Some(3.5));
        assert_eq!(taken(1), [("case".to_owned(), "calc/b".to_owned())]);
        assert_eq!(rows[1].earned, Some(5.0));
    }

    #[test]
    fn a_deduction_is_taken_once_per_rule_whatever_the_number_of_cases() {
        // IO-1 forgave a prompt's spacing in three cases of two categories:
        // taken once, in the category of the first case by name, at the
        // largest amount declared; IO-2 once more.
        let results = [
            case("io/z", "io", 1.0, true, &[("IO-1", 0.25)]),
            case("calc/b", "calc", 1.0, true, &[("IO-1", 0.5), ("IO-2", 1.0)]),
            case("calc/a", "calc", 1.0, true, &[("IO-1", 0.25)]),
            case("io/y", "io", 1.0, true, &[]),
        ];
        let rows = score(&suite(), &results, false);
        assert_eq!(rows[0].deductions, []);
        assert_eq!(rows[0].earned, Some(4.0));
        let taken: Vec<(&str, f64, &str)> = rows[1]
            .deductions
            .iter()
            .map(|d| (d.rule.as_str(), d.marks, d.case.as_str()))
            .collect();
        assert_eq!(taken, [("IO-1", 0.5, "calc/a"), ("IO-2", 1.0, "calc/b")]);
        assert_eq!(rows[1].earned, Some(4.5));
        // The same results in another order give the same score.
        let mut reversed = results.to_vec();
        reversed.reverse();
        assert_eq!(score(&suite(), &reversed, false), rows);
        let table = score_table(&suite(), &rows, false, Reader::Own);
        assert!(
            table.contains(
                "    -0.5 IO-1: a departure its rule lets pass at a cost (in 3 cases, first \
                 calc/a; charged once)"
            ),
            "{table}"
        );
        assert!(table.contains("estimated mark: 8.50 / 10"), "{table}");
    }

    #[test]
    fn deductions_never_take_a_category_below_zero_nor_come_from_ambiguous_cases() {
        let mut ambiguous = case("io/a", "io", 1.0, true, &[("IO-9", 3.0)]);
        ambiguous.ambiguous = true;
        let results = [
            ambiguous,
            case("io/b", "io", 1.0, true, &[]),
            case("calc/a", "calc", 1.0, false, &[("IO-1", 2.0)]),
        ];
        let rows = score(&suite(), &results, false);
        assert_eq!(rows[0].earned, Some(4.0));
        assert_eq!(rows[1].earned, Some(0.0));
        assert_eq!(rows[1].deductions.len(), 1);
        // Under --strict the ambiguous case counts, and so does its deduction.
        let strict = score(&suite(), &results, true);
        assert_eq!(strict[0].earned, Some(1.0));
    }
}
