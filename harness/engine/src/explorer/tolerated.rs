//! `diff` judged with the tolerance the rulings declare (docs/diff.md,
//! docs/matching.md): where a session's two runs differ, they go through
//! the judge a case goes through ([`compare::judge_owned`], checkers run
//! by [`CaseOracle`]), with the `match:` declarations resolved as for a
//! case citing the rules the session exercises: the explorer's
//! classification, the ambiguous rulings its input touches and every rule
//! the reference's record cites on it (its spans, its rejections and its
//! stop), the suite's default, and stdout by span where the reference
//! marks spans. A difference a tolerance forgives is no mismatch;
//! `--strict` keeps it and says what would have forgiven it.

use std::collections::{BTreeMap, BTreeSet};

use super::compare::{Difference, Part};
use crate::exec::run::{Invocation, Outcome, Target};
use crate::judge::checker::{CaseOracle, Checkers};
use crate::judge::compare::{self, Forgiven};
use crate::model::case::Expectation;
use crate::model::matching::{self, MatchSpec, Matching, Tolerance};
use crate::model::schema::Suite;

/// The `match:` declarations a pack's suite makes and what runs its
/// checkers: how `diff` judges the sessions of that pack.
#[derive(Debug, Clone, Default)]
pub struct Tolerances {
    /// `suite.yaml`'s `match:`, the suite's default.
    pub suite: Option<MatchSpec>,
    /// Every rule's `match:`, by rule ID.
    pub rules: BTreeMap<String, MatchSpec>,
    /// The pack's checkers (`builtin:NAME`, a folder pack's commands).
    pub checkers: Checkers,
    /// `--strict`: every difference is a mismatch; what a tolerance would
    /// have forgiven is only said.
    pub strict: bool,
}

/// What the tolerances made of one session's differences.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judged {
    /// The parts a tolerance forgave (under `--strict`, would have).
    pub forgiven: Vec<Forgiven>,
    /// How each part still differing was compared under a tolerance
    /// (`stderr compared as nonempty (any text) (USE-1)`), with a
    /// checker's reason.
    pub judged: Vec<String>,
    /// The rules the session cites that declare a `match:`: those whose
    /// declarations judged it, cited by the case written for it.
    pub rules: BTreeSet<String>,
}

impl Tolerances {
    /// The declarations of `suite` (loaded with its rules' `match:`).
    pub fn of(suite: &Suite, checkers: Checkers, strict: bool) -> Self {
        Self {
            suite: suite.matching.clone(),
            rules: suite.rule_matching.clone(),
            checkers,
            strict,
        }
    }

    /// The same declarations, judged exactly when `strict`.
    #[must_use]
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Whether nothing is declared: every session compares byte for byte.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
            && self
                .suite
                .as_ref()
                .is_none_or(|s| *s == MatchSpec::default())
    }

    /// Whether every checker a declaration names can run here: `Err`
    /// names the declaration and why not.
    pub fn check(&self) -> Result<(), String> {
        let mut declared: Vec<(String, &MatchSpec)> = self
            .rules
            .iter()
            .map(|(id, m)| (format!("rules.yaml: rule {id}"), m))
            .collect();
        if let Some(m) = &self.suite {
            declared.push(("suite.yaml".to_owned(), m));
        }
        for (at, spec) in declared {
            let commands = [&spec.stdout, &spec.stderr]
                .into_iter()
                .flatten()
                .chain(spec.files.values())
                .filter_map(|t| match t {
                    Tolerance::Checker(c) => Some(c),
                    _ => None,
                });
            for command in commands {
                self.checkers
                    .usable(command)
                    .map_err(|e| format!("{at}: match: {e}"))?;
            }
        }
        Ok(())
    }

    /// Every non-exact declaration, as `run`'s header lists them
    /// (`IO-1: stdout spacing`).
    pub fn declared(&self) -> Vec<String> {
        matching::declared(self.suite.as_ref(), &self.rules)
    }

    /// Judges the `differences` between the two runs of `session`
    /// (`expected`, `actual`): without `--strict`, the differences a
    /// tolerance forgives are removed. The rules cited are the session's
    /// classified ones and those the reference's record of it cites.
    /// `Err` is a fault of the suite or of a checker, never of the
    /// program.
    pub fn judge(
        &self,
        session: Session<'_>,
        expected: &Outcome,
        actual: &Outcome,
        differences: &mut Vec<Difference>,
    ) -> Result<Judged, String> {
        let compared = differences
            .iter()
            .any(|d| !matches!(d.part, Part::Memory { .. }));
        if self.is_empty() || !compared {
            return Ok(Judged::default());
        }
        let reference = crate::exec::run::Later::ready(Some(session.reference.clone()));
        let oracle = CaseOracle::new(
            &self.checkers,
            session.run,
            Some(&reference),
            &expected.stdout,
        );
        let mut cited: BTreeSet<String> = session.classified.clone();
        // Which rules the reference applied on this session: a session
        // varied from a case of one rule often ends in another's check.
        // Traced only when a rule declares a tolerance for a part that
        // differs: the trace is one more run of the reference.
        let wanted = differences
            .iter()
            .any(|d| self.rules.values().any(|spec| declares(spec, &d.part)));
        if wanted && let Some(record) = oracle.record() {
            cited.extend(record.spans.iter().flat_map(|s| s.rules.iter().cloned()));
            for r in &record.rulings {
                cited.extend(
                    [&r.rule, &r.exit_rule]
                        .into_iter()
                        .filter(|id| !id.is_empty() && id.as_str() != "-")
                        .cloned(),
                );
            }
        }
        let rules = cited
            .iter()
            .filter(|id| self.rules.contains_key(*id))
            .cloned()
            .collect();
        let cited: Vec<String> = cited.into_iter().collect();
        let resolved = matching::resolve(
            None,
            &cited,
            &self.rules,
            self.suite.as_ref(),
            expected.files.keys().cloned(),
        );
        if resolved.is_exact() {
            return Ok(Judged {
                rules,
                ..Judged::default()
            });
        }
        let expectation = Expectation {
            ending: expected.ending.clone(),
            stdout: expected.stdout.clone(),
            stderr: expected.stderr.clone(),
            output_files: expected.files.clone(),
            absent_files: Vec::new(),
            any_status: false,
            matching: resolved,
            // A session is judged on its bytes: its reads are not counted,
            // and it has no other readings (ambiguity is set apart).
            count_reads: false,
            reads: None,
            alternatives: Vec::new(),
        };
        let judgement = compare::judge_owned(&expectation, actual.clone(), &oracle)?;
        let mut forgiven = judgement.forgiven;
        forgiven.extend(not_compared(&expectation.matching, differences));
        let kept = |d: &Difference| !forgiven.iter().any(|f| names(&d.part, &f.part));
        if !self.strict {
            differences.retain(kept);
        }
        Ok(Judged {
            forgiven,
            judged: judgement.judged,
            rules,
        })
    }
}

/// A session as the judge needs it: its run, the rules its explorer
/// classifies it with, and the reference that traces it.
#[derive(Debug, Clone, Copy)]
pub struct Session<'a> {
    /// The session's run on the reference, as a case's would be: what a
    /// checker is given and what the reference is traced on.
    pub run: &'a Invocation,
    /// The rules the explorer classifies it with, and those of the
    /// ambiguous rulings its input touches.
    pub classified: &'a BTreeSet<String>,
    /// The pack's reference.
    pub reference: &'a Target,
}

/// Whether `spec` declares a tolerance for `part`.
fn declares(spec: &MatchSpec, part: &Part) -> bool {
    match part {
        Part::Status => spec.status.is_some(),
        Part::Stdout => spec.stdout.is_some(),
        Part::Stderr => spec.stderr.is_some(),
        Part::File(path) => spec
            .files
            .keys()
            .any(|k| k == matching::EVERY_FILE || crate::exec::run::normalize(k) == *path),
        Part::Memory { .. } => false,
    }
}

/// Whether the diff part `part` is the judge's part `name` (`stdout`,
/// `status`, ``file `PATH` ``).
fn names(part: &Part, name: &str) -> bool {
    match part {
        Part::Status => name == "status",
        Part::Stdout => name == "stdout",
        Part::Stderr => name == "stderr",
        Part::File(path) => {
            name.strip_prefix("file `")
                .and_then(|n| n.strip_suffix('`'))
                == Some(path)
        }
        Part::Memory { .. } => false,
    }
}

/// The output files that differ where their tolerance is `any`: the judge
/// does not compare them at all, so it lists no departure to forgive.
fn not_compared(resolved: &Matching, differences: &[Difference]) -> Vec<Forgiven> {
    differences
        .iter()
        .filter_map(|d| match &d.part {
            Part::File(path) => resolved
                .files
                .get(path)
                .filter(|j| j.tolerance == Tolerance::Any)
                .map(|j| Forgiven {
                    part: format!("file `{path}`"),
                    how: j.describe(),
                    charges: j.charges.clone(),
                    forgave: String::new(),
                }),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_named_as_the_judge_names_them() {
        assert!(names(&Part::Status, "status"));
        assert!(names(&Part::File("a b".into()), "file `a b`"));
        assert!(!names(&Part::File("a".into()), "file `ab`"));
        assert!(!names(&Part::Stdout, "stderr"));
    }

    fn spec(text: &str) -> MatchSpec {
        yaml_serde::from_str(text).unwrap_or_default()
    }

    #[test]
    fn a_rule_declares_the_parts_it_names_and_star_every_file() {
        let saves = spec("files:\n  \"*\": any\n");
        assert!(declares(&saves, &Part::File("g1".into())));
        assert!(!declares(&saves, &Part::Stdout));
        let usage = spec("stderr: nonempty\nstatus: nonzero\n");
        assert!(declares(&usage, &Part::Status));
        assert!(!declares(&usage, &Part::File("g1".into())));
    }

    #[test]
    fn nothing_declared_is_empty() {
        assert!(Tolerances::default().is_empty());
        let declared = Tolerances {
            suite: Some(spec("stderr: any\n")),
            ..Tolerances::default()
        };
        assert!(!declared.is_empty());
        assert_eq!(declared.declared(), ["suite: stderr any"]);
    }
}
