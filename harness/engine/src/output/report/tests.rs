//! Tests of the score and its table (`report.rs`).

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
fn case(name: &str, category: &str, weight: f64, passed: bool, d: &[(&str, f64)]) -> CaseResult {
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

#[test]
fn a_grading_tree_makes_the_total_and_a_validators_scores_are_shown() {
    let suite = parse(
        "suite.yaml",
        b"name: t\ncategories:\n  - {name: g1, marks: 30, grader: {score: min, accept-score: 30}}\n  \
          - {name: g2, marks: 70, grader: {score: min, accept-score: 70}}\ngrading:\n  marks: 30\n  \
          tree:\n    grader: {score: min, stop-at-failure: false}\n    groups:\n      \
          - {grader: {score: min, accept-score: 30}, cases: g1}\n      \
          - {grader: {score: min, accept-score: 70}, cases: g2}\n",
    )
    .unwrap();
    let mut results = [
        case("g1/1", "g1", 1.0, true, &[]),
        case("g2/1", "g2", 1.0, true, &[]),
    ];
    results[0].score = Some(12.0);
    let rows = score(&suite, &results, false);
    // Each row its own group's grade; the total the parent's `min`.
    assert_eq!((rows[0].earned, rows[1].earned), (Some(12.0), Some(70.0)));
    let table = score_table(&suite, &rows, false, Reader::Own);
    assert!(
        table.contains("(scored by the validator: 12)")
            && table.contains("the groups by their parents' graders: 12.00 of 30")
            && table.contains("estimated mark: 12.00 / 30"),
        "{table}"
    );
    assert_eq!(tree_total(&suite, &rows), Some((12.0, 30.0)));
}
