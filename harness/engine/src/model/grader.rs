//! How a marking category's marks follow from its cases when the suite
//! says so (`grader:` on a category: a problem package's test group
//! under its default grader's rules) rather than shared by weight; and
//! the one combination of a group's children's scores (`sum`, `min`,
//! `max`, `avg`, then clamped to a range) that `verify`'s grading of a
//! whole package uses too (`packs/problem/grade.rs`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a group's score follows from its children's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ScoreRule {
    /// Their sum (the default).
    #[default]
    Sum,
    /// The least.
    Min,
    /// The greatest.
    Max,
    /// The mean.
    Avg,
}

/// The score of a group whose children scored `scores` (in order):
/// only the last counted when `last_only` (problemtools'
/// `ignore_sample`), combined by `rule`, clamped to `range`. No child
/// scores 0.
pub fn group_score(
    rule: ScoreRule,
    range: Option<(f64, f64)>,
    last_only: bool,
    scores: &[f64],
) -> f64 {
    let counted = match (last_only, scores.split_last()) {
        (true, Some((last, _))) => std::slice::from_ref(last),
        _ => scores,
    };
    if counted.is_empty() {
        return 0.0;
    }
    let all = counted.iter().copied();
    let score = match rule {
        ScoreRule::Sum => all.sum(),
        ScoreRule::Min => all.fold(f64::INFINITY, f64::min),
        ScoreRule::Max => all.fold(f64::NEG_INFINITY, f64::max),
        ScoreRule::Avg => {
            #[expect(clippy::cast_precision_loss, reason = "a count of cases")]
            let n = counted.len() as f64;
            all.sum::<f64>() / n
        }
    };
    match range {
        Some((lo, hi)) if lo <= hi => score.clamp(lo, hi),
        _ => score,
    }
}

/// A category's grader: its cases score `accept-score` when they pass,
/// else `reject-score`, in name order, and the category earns their
/// combination by `score` (no more than its marks, no less than 0).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Grader {
    /// How the cases' scores combine: `sum` (the default), `min`, `max`,
    /// `avg`.
    #[serde(default)]
    pub score: ScoreRule,
    /// A passed case's score (default 1).
    #[serde(default = "one")]
    pub accept_score: f64,
    /// A failed case's score (default 0).
    #[serde(default)]
    pub reject_score: f64,
    /// The least the combination may be, if bounded (`range`'s first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_least: Option<f64>,
    /// The most the combination may be, if bounded (`range`'s second).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<f64>,
    /// Whether the cases after the first failed one (in name order) count
    /// for nothing, as a group that stops at its first rejection is graded.
    #[serde(default)]
    pub stop_at_failure: bool,
    /// Whether only the last case counts.
    #[serde(default)]
    pub last_only: bool,
}

fn one() -> f64 {
    1.0
}

impl Grader {
    /// What the category earns when its cases, in name order, passed
    /// as `passed` says.
    pub fn earned(&self, passed: &[bool]) -> f64 {
        let mut scores = Vec::with_capacity(passed.len());
        for &p in passed {
            scores.push(if p {
                self.accept_score
            } else {
                self.reject_score
            });
            if !p && self.stop_at_failure {
                break;
            }
        }
        let range = (self.at_least.is_some() || self.at_most.is_some()).then(|| {
            (
                self.at_least.unwrap_or(f64::NEG_INFINITY),
                self.at_most.unwrap_or(f64::INFINITY),
            )
        });
        group_score(self.score, range, self.last_only, &scores)
    }
}

#[cfg(test)]
#[expect(clippy::float_cmp, reason = "small whole numbers, exact")]
mod tests {
    use super::*;

    fn grader(score: ScoreRule) -> Grader {
        Grader {
            score,
            accept_score: 30.0,
            reject_score: 0.0,
            at_least: None,
            at_most: None,
            stop_at_failure: false,
            last_only: false,
        }
    }

    #[test]
    fn a_min_group_is_all_or_nothing_a_sum_group_case_by_case() {
        let min = grader(ScoreRule::Min);
        assert_eq!(min.earned(&[true, true]), 30.0);
        assert_eq!(min.earned(&[true, false]), 0.0);
        let sum = grader(ScoreRule::Sum);
        assert_eq!(sum.earned(&[true, false, true]), 60.0);
        assert_eq!(grader(ScoreRule::Max).earned(&[false, true]), 30.0);
        assert_eq!(grader(ScoreRule::Avg).earned(&[false, true]), 15.0);
    }

    #[test]
    fn a_stop_the_last_only_and_the_range_apply_in_that_order() {
        let stop = Grader {
            stop_at_failure: true,
            ..grader(ScoreRule::Sum)
        };
        assert_eq!(stop.earned(&[true, false, true]), 30.0);
        let bounded = Grader {
            at_most: Some(40.0),
            ..grader(ScoreRule::Sum)
        };
        assert_eq!(bounded.earned(&[true, true]), 40.0);
        assert_eq!(group_score(ScoreRule::Sum, None, true, &[5.0, 7.0]), 7.0);
        assert_eq!(group_score(ScoreRule::Min, None, false, &[]), 0.0);
    }

    #[test]
    fn a_grader_reads_with_its_defaults() {
        let g: Grader = yaml_serde::from_str("score: min\naccept-score: 30\n").expect("parses");
        assert_eq!(
            (g.score, g.accept_score, g.reject_score),
            (ScoreRule::Min, 30.0, 0.0)
        );
        assert!(yaml_serde::from_str::<Grader>("scor: min\n").is_err());
    }
}
