//! What a category earns when its `grader:` combines its cases (a
//! problem package's test group: `min` all or nothing, `sum`, `max`,
//! `avg`, as `verify` grades it) rather than sharing its marks by
//! weight: its charged cases, passed or not in name order with the
//! score a validator gave them, through
//! [`crate::model::grader::Grader::earned`]; and the total when the
//! suite's `grading:` combines its categories' cases by a tree of groups
//! (a parent group's grader over its subgroups) rather than summing them.

use crate::judge::verdict::{CaseResult, Verdict};
use crate::model::grader::{Outcome, Pass};
use crate::model::schema::Suite;

/// For each category of `suite`, in order, its cases that count as the
/// score table counts them (judged: not an error, not struck by the
/// environment; not ambiguous unless `strict`), in name order: passed
/// or not, and a validator's score.
pub fn outcomes(suite: &Suite, results: &[&CaseResult], strict: bool) -> Vec<Vec<Outcome>> {
    let mut sorted: Vec<&CaseResult> = results
        .iter()
        .copied()
        .filter(|r| (!r.ambiguous || strict) && r.verdict.judged())
        .collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    suite
        .categories
        .iter()
        .map(|c| {
            sorted
                .iter()
                .filter(|r| r.category.as_deref() == Some(c.name.as_str()))
                .map(|r| Outcome {
                    verdict: if r.verdict == Verdict::Passed {
                        Pass::Passed
                    } else {
                        Pass::Failed
                    },
                    score: r.score,
                    failure: (),
                })
                .collect()
        })
        .collect()
}

/// For each category of `suite`, in order, what its grader gives it from
/// its `outcomes` ([`outcomes`]; `None`: no grader, or no case of it
/// counted).
pub fn earned(suite: &Suite, outcomes: &[Vec<Outcome>]) -> Vec<Option<f64>> {
    suite
        .categories
        .iter()
        .zip(outcomes)
        .map(|(c, ran)| {
            let grader = c.grader.as_ref()?;
            (!ran.is_empty()).then(|| grader.earned(ran).min(c.marks))
        })
        .collect()
}

/// The total and the marks available by the suite's `grading:` tree,
/// each category's cases as `outcomes_of` gives them: `None` when the
/// suite has no tree (its categories' sum is the total).
pub fn total(suite: &Suite, outcomes_of: &dyn Fn(&str) -> Vec<Outcome>) -> Option<(f64, f64)> {
    let grading = suite.grading.as_ref()?;
    let earned = grading.tree.earned(outcomes_of).unwrap_or(0.0);
    Some((earned.clamp(0.0, grading.marks), grading.marks))
}

/// What a row says of its cases' validator scores, if any were given.
pub fn scored_note(outcomes: &[Outcome]) -> Option<String> {
    let scored: Vec<String> = outcomes
        .iter()
        .filter_map(|o| o.score.map(|x| x.to_string()))
        .collect();
    (!scored.is_empty()).then(|| format!("  (scored by the validator: {})", scored.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::failure::{CaseFailure, Notes};
    use crate::model::schema::parse;

    fn result(name: &str, passed: bool) -> CaseResult {
        let verdict = if passed {
            Verdict::Passed
        } else {
            Verdict::Failed(Box::new(CaseFailure::new(&[], b"", Notes::default())))
        };
        CaseResult {
            category: Some("g1".to_owned()),
            ..CaseResult::new(name, verdict)
        }
    }

    #[test]
    fn a_min_category_is_all_or_nothing() {
        let suite = parse(
            "suite.yaml",
            b"name: t\ncategories:\n  - {name: g1, marks: 30, grader: {score: min, accept-score: 30}}\n  - {name: g2, marks: 2}\n",
        )
        .unwrap();
        let half = [result("g1/1", true), result("g1/2", false)];
        let all = [result("g1/1", true), result("g1/2", true)];
        let earned_by = |r: &[CaseResult]| {
            let ran = outcomes(&suite, &r.iter().collect::<Vec<_>>(), false);
            earned(&suite, &ran)
        };
        // g2 has no grader: shared by weight, as the score table does.
        assert_eq!(earned_by(&half), [Some(0.0), None]);
        assert_eq!(earned_by(&all), [Some(30.0), None]);
    }
}
