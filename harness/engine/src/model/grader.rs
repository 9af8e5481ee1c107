//! How a marking category's marks follow from its cases when the suite
//! says so (`grader:` on a category: a problem package's test group
//! under its default grader's rules) rather than shared by weight, and
//! how a suite's total follows from its categories' cases when it says
//! so (`grading:`, a tree of groups: a problem package's parent groups
//! combining their subgroups); and the one grading of a group from its
//! children (its cases in order, a validator's own score where it gave
//! one, then its subgroups: `on_reject: break`, the verdict rules, `sum`,
//! `min`, `max`, `avg`, clamped to a range) that `verify`'s grading of a
//! whole package uses too (`packs/problem/grade.rs`).
//!
//! One piece: a category's grader, a suite's tree of them and the
//! grading both run are one set of rules, the format's default grader,
//! written once.

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

/// How a group's verdict follows from its children's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum VerdictRule {
    /// The worst child verdict (problemtools' order: a run-time error
    /// over a timeout over a wrong answer): the default.
    #[default]
    WorstError,
    /// The first child's verdict that is not accepted.
    FirstError,
    /// Accepted whatever the children.
    AlwaysAccept,
}

/// A case's or a group's grade: its verdict (`V`'s least value is
/// accepted, the rest worse in order), its score, and what decided a
/// rejection (`F`: the first rejected case, as the caller describes it).
#[derive(Debug, Clone, PartialEq)]
pub struct Graded<V, F> {
    /// The verdict.
    pub verdict: V,
    /// The score.
    pub score: f64,
    /// The first rejected case below, if any.
    pub failure: Option<F>,
}

/// A case as its group's grader reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseOutcome<V, F> {
    /// Its verdict.
    pub verdict: V,
    /// The score its validator gave it (`score.txt`), if any: the
    /// group's `accept-score` (or `reject-score`) otherwise.
    pub score: Option<f64>,
    /// What it says when rejected.
    pub failure: F,
}

/// Passed or not, as a default run or `mark` judges a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pass {
    /// Passed: accepted.
    Passed,
    /// Failed.
    Failed,
}

/// A case of a default run or `mark` as a grader reads it: passed or
/// not, and its validator's score, if it gave one.
pub type Outcome = CaseOutcome<Pass, ()>;

/// The score of a group whose children scored `scores` (in order),
/// combined by `rule`, clamped to `range`. No child scores 0.
pub fn group_score(rule: ScoreRule, range: Option<(f64, f64)>, scores: &[f64]) -> f64 {
    let counted = scores;
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
    /// How the group's verdict follows from its children's (only a parent
    /// group's stop at a rejected subgroup reads it).
    #[serde(default, skip_serializing_if = "is_default")]
    pub verdict: VerdictRule,
    /// Accepted when any child is, whatever `verdict` says.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub accept_if_any_accepted: bool,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_default(rule: &VerdictRule) -> bool {
    *rule == VerdictRule::default()
}

/// A suite's total by its groups' graders (`grading:` in `suite.yaml`)
/// rather than its categories' sum: what it is worth (the tree with
/// every case passed, as the pack that wrote it worked it out) and the
/// tree.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Grading {
    /// The marks available.
    pub marks: f64,
    /// The root group.
    pub tree: GradeTree,
}

/// A group of a suite's [`Grading`]: its children are its category's cases (`cases`, in name order),
/// then its subgroups, combined by its grader ([`Grader::group`]).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GradeTree {
    /// How its children combine.
    pub grader: Grader,
    /// The category holding its own cases, if it has any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cases: Option<String>,
    /// Its subgroups, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GradeTree>,
}

impl GradeTree {
    /// The tree's score when each category's cases went as `outcomes`
    /// says (in name order; a category with none counts no child):
    /// `None` when no child counts.
    pub fn earned(&self, outcomes: &dyn Fn(&str) -> Vec<Outcome>) -> Option<f64> {
        self.graded(outcomes).map(|g| g.score)
    }

    fn graded(&self, outcomes: &dyn Fn(&str) -> Vec<Outcome>) -> Option<Graded<Pass, ()>> {
        let cases = self.cases.as_deref().map(outcomes).unwrap_or_default();
        let subgroups = self.groups.iter().map(|g| g.graded(outcomes));
        self.grader
            .group(Pass::Passed, cases.into_iter().map(Some), subgroups)
    }
}

fn one() -> f64 {
    1.0
}

impl Grader {
    /// What the category earns when its cases, in name order, went as
    /// `cases` says.
    pub fn earned(&self, cases: &[Outcome]) -> f64 {
        let subgroups = std::iter::empty();
        self.group(Pass::Passed, cases.iter().cloned().map(Some), subgroups)
            .map_or(0.0, |g| g.score)
    }

    /// The grade of a group whose children are `cases` (in order; `None`:
    /// not run, an earlier case decided, which ends the group as a stop
    /// would) then `subgroups` (`None`: no child of it counted), `accepted`
    /// being the accepted verdict: a case scores its validator's score or
    /// `accept-score` when accepted, else `reject-score`; a stop at the
    /// first rejected child; only the last child when `last-only`; the
    /// verdict by its rules; the score combined and clamped. `None` when
    /// no child counts.
    pub fn group<V: Copy + Ord, F: Clone>(
        &self,
        accepted: V,
        cases: impl IntoIterator<Item = Option<CaseOutcome<V, F>>>,
        subgroups: impl IntoIterator<Item = Option<Graded<V, F>>>,
    ) -> Option<Graded<V, F>> {
        let mut children: Vec<Graded<V, F>> = Vec::new();
        for case in cases {
            let Some(case) = case else { break };
            let ok = case.verdict == accepted;
            let score = match case.score {
                // A validator's score is an accepted case's (problemtools
                // reads score.txt only then).
                Some(s) if ok => s,
                _ if ok => self.accept_score,
                _ => self.reject_score,
            };
            children.push(Graded {
                verdict: case.verdict,
                score,
                failure: (!ok).then_some(case.failure),
            });
            if !ok && self.stop_at_failure {
                return Some(self.combine(accepted, children));
            }
        }
        for sub in subgroups.into_iter().flatten() {
            let rejected = sub.verdict != accepted;
            children.push(sub);
            if rejected && self.stop_at_failure {
                break;
            }
        }
        (!children.is_empty()).then(|| self.combine(accepted, children))
    }

    fn combine<V: Copy + Ord, F: Clone>(
        &self,
        accepted: V,
        mut children: Vec<Graded<V, F>>,
    ) -> Graded<V, F> {
        if self.last_only && children.len() > 1 {
            children.drain(..children.len() - 1);
        }
        let failure = children.iter().find_map(|c| c.failure.clone());
        let verdicts = children.iter().map(|c| c.verdict);
        let verdict = match self.verdict {
            _ if self.accept_if_any_accepted && children.iter().any(|c| c.verdict == accepted) => {
                Some(accepted)
            }
            VerdictRule::FirstError => verdicts.clone().find(|v| *v != accepted),
            VerdictRule::WorstError => verdicts.clone().max(),
            VerdictRule::AlwaysAccept => None,
        }
        .unwrap_or(accepted);
        let scores: Vec<f64> = children.iter().map(|c| c.score).collect();
        let range = (self.at_least.is_some() || self.at_most.is_some()).then(|| {
            (
                self.at_least.unwrap_or(f64::NEG_INFINITY),
                self.at_most.unwrap_or(f64::INFINITY),
            )
        });
        Graded {
            verdict,
            // `last_only` was applied above: the children left all count.
            score: group_score(self.score, range, &scores),
            failure,
        }
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
            verdict: VerdictRule::WorstError,
            accept_if_any_accepted: false,
        }
    }

    fn ran(passed: &[bool]) -> Vec<Outcome> {
        passed
            .iter()
            .map(|&p| Outcome {
                verdict: if p { Pass::Passed } else { Pass::Failed },
                score: None,
                failure: (),
            })
            .collect()
    }

    #[test]
    fn a_min_group_is_all_or_nothing_a_sum_group_case_by_case() {
        let min = grader(ScoreRule::Min);
        assert_eq!(min.earned(&ran(&[true, true])), 30.0);
        assert_eq!(min.earned(&ran(&[true, false])), 0.0);
        let sum = grader(ScoreRule::Sum);
        assert_eq!(sum.earned(&ran(&[true, false, true])), 60.0);
        assert_eq!(grader(ScoreRule::Max).earned(&ran(&[false, true])), 30.0);
        assert_eq!(grader(ScoreRule::Avg).earned(&ran(&[false, true])), 15.0);
    }

    #[test]
    fn a_stop_the_last_only_and_the_range_apply_in_that_order() {
        let stop = Grader {
            stop_at_failure: true,
            ..grader(ScoreRule::Sum)
        };
        assert_eq!(stop.earned(&ran(&[true, false, true])), 30.0);
        let bounded = Grader {
            at_most: Some(40.0),
            ..grader(ScoreRule::Sum)
        };
        assert_eq!(bounded.earned(&ran(&[true, true])), 40.0);
        let last = Grader {
            last_only: true,
            ..grader(ScoreRule::Sum)
        };
        assert_eq!(last.earned(&ran(&[true, false])), 0.0);
        assert_eq!(group_score(ScoreRule::Min, None, &[]), 0.0);
    }

    #[test]
    fn an_accepted_cases_validator_score_counts_a_rejected_ones_does_not() {
        let mut cases = ran(&[true, true, false]);
        cases[1].score = Some(12.5);
        cases[2].score = Some(30.0);
        assert_eq!(grader(ScoreRule::Sum).earned(&cases), 42.5);
        assert_eq!(grader(ScoreRule::Min).earned(&cases), 0.0);
    }

    #[test]
    fn a_tree_combines_its_subgroups_by_their_parents_grader() {
        let leaf = |name: &str, accept: f64| GradeTree {
            grader: Grader {
                accept_score: accept,
                ..grader(ScoreRule::Min)
            },
            cases: Some(name.to_owned()),
            groups: Vec::new(),
        };
        let mut secret = GradeTree {
            grader: grader(ScoreRule::Sum),
            cases: None,
            groups: vec![leaf("g1", 30.0), leaf("g2", 70.0)],
        };
        let outcomes = |c: &str| {
            ran(if c == "g1" {
                &[true, true]
            } else {
                &[true, false]
            })
        };
        let all = |_: &str| ran(&[true, true]);
        assert_eq!(
            (secret.earned(&outcomes), secret.earned(&all)),
            (Some(30.0), Some(100.0))
        );
        // A parent `min`: the least of its subgroups.
        secret.grader.score = ScoreRule::Min;
        assert_eq!(
            (secret.earned(&outcomes), secret.earned(&all)),
            (Some(0.0), Some(30.0))
        );
        // A parent that stops at a rejected subgroup counts none after it.
        secret.grader.score = ScoreRule::Sum;
        secret.grader.stop_at_failure = true;
        secret.groups.reverse();
        assert_eq!(secret.earned(&outcomes), Some(0.0));
        // ... unless that subgroup's verdict is accepted whatever its cases.
        secret.groups[0].grader.verdict = VerdictRule::AlwaysAccept;
        assert_eq!(secret.earned(&outcomes), Some(30.0));
        // The root keeping its last child only (`ignore_sample`).
        let root = GradeTree {
            grader: Grader {
                last_only: true,
                ..grader(ScoreRule::Sum)
            },
            cases: None,
            groups: vec![leaf("sample", 5.0), secret],
        };
        assert_eq!(
            (root.earned(&outcomes), root.earned(&all)),
            (Some(30.0), Some(100.0))
        );
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
