//! A submission's verdict and score from its cases' results, as the
//! format's default grader makes them: a group's children (its cases,
//! then its subgroups) in order; `on_reject: break` stops at the first
//! rejected child; the verdict by `worst_error` (the default),
//! `first_error` or `always_accept`, or accepted when any child is
//! (`accept_if_any_accepted`); the score by `sum` (the default), `min`,
//! `max` or `avg` of the children's (a case scores `accept_score` when
//! accepted, else `reject_score`, unless its validator gave one),
//! clamped to `range`; `ignore_sample` keeps only the last child (the
//! root's `secret`; a subgroup that inherits it keeps only its last
//! group, as problemtools' grader does). The full score is the same
//! made of every case accepted.

use std::collections::BTreeMap;

use crate::model::grader::{CaseOutcome, Graded};
use crate::packs::problem::package::Group;
use crate::packs::problem::run::{CaseResult, Verdict};

/// A group's (or the submission's) grade.
#[derive(Debug, Clone, PartialEq)]
pub struct Grade {
    /// The verdict.
    pub verdict: Verdict,
    /// The score.
    pub score: f64,
    /// The first rejected case in order, its group and reason.
    pub first_failure: Option<Failure>,
}

/// The case that decided a rejection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Its group (`secret/group1`).
    pub group: String,
    /// The case (`secret/group1/03`).
    pub case: String,
    /// Its verdict.
    pub verdict: Verdict,
    /// The validator's or the run's reason.
    pub reason: String,
}

/// The grade of `group` from `results` by case name; a case without a
/// result (not run: an earlier case decided) ends the group as a break
/// would. `None` when no child counts. The model's grading
/// ([`crate::model::grader::Grader::group`]), which the default run's and
/// `mark`'s graders use too.
pub fn grade(group: &Group, results: &BTreeMap<String, CaseResult>) -> Option<Grade> {
    let cases = group.cases.iter().map(|case| {
        results.get(&case.name).map(|r| CaseOutcome {
            verdict: r.verdict,
            score: r.score,
            failure: Failure {
                group: group.name.clone(),
                case: case.name.clone(),
                verdict: r.verdict,
                reason: r.reason.clone(),
            },
        })
    });
    let subgroups = group.groups.iter().map(|sub| {
        grade(sub, results).map(|g| Graded {
            verdict: g.verdict,
            score: g.score,
            failure: g.first_failure,
        })
    });
    let graded = group
        .flags
        .grader()
        .group(Verdict::Accepted, cases, subgroups)?;
    Some(Grade {
        verdict: graded.verdict,
        score: graded.score,
        first_failure: graded.failure,
    })
}

/// The full score of `group`: every case accepted with its
/// `accept_score`.
pub fn full_score(group: &Group) -> f64 {
    let all: BTreeMap<String, CaseResult> = group
        .all_cases()
        .into_iter()
        .map(|(_, c)| {
            (
                c.name.clone(),
                CaseResult {
                    verdict: Verdict::Accepted,
                    runtime: std::time::Duration::ZERO,
                    score: None,
                    reason: String::new(),
                },
            )
        })
        .collect();
    grade(group, &all).map_or(0.0, |g| g.score)
}

#[cfg(test)]
#[expect(clippy::float_cmp, reason = "sums of small whole numbers, exact")]
mod tests {
    use super::*;
    use crate::model::schema::Visibility;
    use crate::packs::problem::package::TestCase;
    use crate::packs::problem::testdata::{GroupFlags, ScoreRule, VerdictRule};
    use Verdict::{
        Accepted as AC, RunTimeError as RTE, TimeLimitExceeded as TLE, WrongAnswer as WA,
    };

    fn case(name: &str) -> TestCase {
        TestCase {
            name: name.to_owned(),
            input: Vec::new(),
            answer: Vec::new(),
            visibility: Visibility::Secret,
        }
    }

    fn tree(root: GroupFlags, group: &GroupFlags) -> Group {
        Group {
            name: String::new(),
            flags: root.clone(),
            cases: Vec::new(),
            groups: vec![
                Group {
                    name: "sample".into(),
                    flags: root.clone(),
                    cases: vec![case("sample/1")],
                    groups: Vec::new(),
                },
                Group {
                    name: "secret".into(),
                    flags: root,
                    cases: Vec::new(),
                    groups: ["g1", "g2"]
                        .iter()
                        .map(|g| Group {
                            name: format!("secret/{g}"),
                            flags: group.clone(),
                            cases: vec![
                                case(&format!("secret/{g}/1")),
                                case(&format!("secret/{g}/2")),
                            ],
                            groups: Vec::new(),
                        })
                        .collect(),
                },
            ],
        }
    }

    fn results(verdicts: &[(&str, Verdict)]) -> BTreeMap<String, CaseResult> {
        verdicts
            .iter()
            .map(|(n, v)| {
                (
                    (*n).to_owned(),
                    CaseResult {
                        verdict: *v,
                        runtime: std::time::Duration::ZERO,
                        score: None,
                        reason: format!("{n} failed"),
                    },
                )
            })
            .collect()
    }

    #[test]
    fn pass_fail_takes_the_first_error_in_order() {
        let t = tree(GroupFlags::default(), &GroupFlags::default());
        let r = results(&[
            ("sample/1", AC),
            ("secret/g1/1", AC),
            ("secret/g1/2", WA),
            ("secret/g2/1", TLE),
        ]);
        let g = grade(&t, &r).expect("graded");
        assert_eq!(g.verdict, WA);
        let f = g.first_failure.expect("failure");
        assert_eq!(
            (f.group.as_str(), f.case.as_str()),
            ("secret/g1", "secret/g1/2")
        );
    }

    #[test]
    fn scoring_sums_groups_of_min_and_ignores_the_sample() {
        let root = GroupFlags {
            on_reject_break: false,
            verdict: VerdictRule::AlwaysAccept,
            ignore_sample: true,
            ..GroupFlags::default()
        };
        let group = GroupFlags {
            on_reject_break: false,
            score: ScoreRule::Min,
            accept_score: 30.0,
            ..GroupFlags::default()
        };
        let mut t = tree(root.clone(), &group);
        t.groups[1].flags = GroupFlags {
            verdict: VerdictRule::AlwaysAccept,
            ignore_sample: false,
            ..root.clone()
        };
        assert_eq!(full_score(&t), 60.0);
        let r = results(&[
            ("sample/1", WA),
            ("secret/g1/1", AC),
            ("secret/g1/2", AC),
            ("secret/g2/1", AC),
            ("secret/g2/2", WA),
        ]);
        let g = grade(&t, &r).expect("graded");
        assert_eq!((g.verdict, g.score), (AC, 30.0));
        // Inherited by `secret`, ignore_sample keeps its last group only,
        // as problemtools' grader does.
        t.groups[1].flags = root;
        assert_eq!(full_score(&t), 30.0);
        assert_eq!(grade(&t, &r).map(|g| g.score), Some(0.0));
    }

    #[test]
    fn the_worst_error_is_a_crash_over_a_timeout_over_a_wrong_answer() {
        let flags = GroupFlags {
            on_reject_break: false,
            ..GroupFlags::default()
        };
        let t = tree(flags.clone(), &flags);
        let r = results(&[
            ("sample/1", WA),
            ("secret/g1/1", TLE),
            ("secret/g1/2", AC),
            ("secret/g2/1", RTE),
            ("secret/g2/2", AC),
        ]);
        let g = grade(&t, &r).expect("graded");
        assert_eq!(g.verdict, RTE);
        assert_eq!(g.first_failure.map(|f| f.case), Some("sample/1".to_owned()));
    }
}
