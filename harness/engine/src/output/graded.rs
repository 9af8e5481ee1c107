//! What a category earns when its `grader:` combines its cases (a
//! problem package's test group: `min` all or nothing, `sum`, `max`,
//! `avg`, as `verify` grades it) rather than sharing its marks by
//! weight: its charged cases, passed or not in name order, through
//! [`crate::model::grader::Grader::earned`].

use crate::judge::verdict::{CaseResult, Verdict};
use crate::model::schema::Suite;

/// For each category of `suite`, in order, what its grader gives it from
/// `results` (`None`: no grader, or no case of it counted). A case counts
/// as the score table counts it: judged (not an error, not struck by the
/// environment), not ambiguous unless `strict`.
pub fn earned(suite: &Suite, results: &[&CaseResult], strict: bool) -> Vec<Option<f64>> {
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
            let grader = c.grader.as_ref()?;
            let passed: Vec<bool> = sorted
                .iter()
                .filter(|r| r.category.as_deref() == Some(c.name.as_str()))
                .map(|r| r.verdict == Verdict::Passed)
                .collect();
            (!passed.is_empty()).then(|| grader.earned(&passed).min(c.marks))
        })
        .collect()
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
        let earned_by = |r: &[CaseResult]| earned(&suite, &r.iter().collect::<Vec<_>>(), false);
        // g2 has no grader: shared by weight, as the score table does.
        assert_eq!(earned_by(&half), [Some(0.0), None]);
        assert_eq!(earned_by(&all), [Some(30.0), None]);
    }
}
