//! The verdict of one case and its result, what every reporter renders
//! from: passed, failed (how, structured: [`CaseFailure`]) or not judged.

use std::fmt;
use std::time::Duration;

use crate::exec::run::Ending;
use crate::judge::compare::Forgiven;
use crate::judge::failure::CaseFailure;

/// The verdict of one case: what every reporter renders from.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The program did what the case expects.
    Passed,
    /// The program departed from the case.
    Failed(Box<CaseFailure>),
    /// The harness or the suite could not run the case (an invalid case
    /// file or suite, an unreadable sidecar, a sandbox that cannot start):
    /// never counted against the program.
    Error(String),
}

impl Verdict {
    /// The verdict with `note` (how it was reached: a confirmation, a
    /// charge) after a failure's summary, in brackets; a pass or an
    /// error unchanged.
    #[must_use]
    pub fn noted(mut self, note: Option<String>) -> Self {
        if let (Self::Failed(f), Some(note)) = (&mut self, note) {
            f.summary = if f.summary.is_empty() {
                note
            } else {
                format!("{} [{note}]", f.summary)
            };
        }
        self
    }

    /// Whether the case was judged: not when the harness could not run
    /// it, nor when the environment struck it (a runtime that never
    /// started, a module the marker's machine lacks). A case not judged
    /// counts neither way in a score: a mark is never charged for the
    /// machine.
    pub fn judged(&self) -> bool {
        match self {
            Self::Passed => true,
            Self::Failed(_) => self.struck().is_none(),
            Self::Error(_) => false,
        }
    }

    /// For a case the environment struck (a runtime that never started,
    /// a module the marker's machine lacks), what it lacked or how it
    /// failed, one line: such a case is not judged, and every machine
    /// output says so in its own words (`environment` in `--results`, an
    /// `<error>` in JUnit), never as the program's failure.
    pub fn struck(&self) -> Option<&str> {
        match self {
            Self::Failed(f) => f.cause.environment_why(),
            Self::Passed | Self::Error(_) => None,
        }
    }
}

impl fmt::Display for Verdict {
    /// One line: `passed`, the first difference, or the error.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Passed => write!(f, "passed"),
            Self::Failed(failure) => write!(f, "{}", failure.headline()),
            Self::Error(e) => write!(f, "error: {}", e.lines().next().unwrap_or("")),
        }
    }
}

/// A departure a tolerance forgave that carries a one-time deduction.
#[derive(Debug, Clone, PartialEq)]
pub struct Deduction {
    /// The rule whose `match:` declared it (or `case` / `suite` when declared there).
    pub rule: String,
    /// Marks taken, once per submission and rule.
    pub marks: f64,
    /// What it forgave, one line (`` prints `a  b` on stdout where the
    /// model prints `a b` ``).
    pub forgave: String,
    /// The hint of the case it was taken in, shown with the charge.
    pub hint: Option<String>,
}

/// One case's result.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// The case's name.
    pub name: String,
    /// Its category, when its file parsed.
    pub category: Option<String>,
    /// The rule IDs it cites.
    pub rules: Vec<String>,
    /// Its tags.
    pub tags: Vec<String>,
    /// Whether it is tagged ambiguous.
    pub ambiguous: bool,
    /// Whether it is secret (`visibility: secret`, its own or its
    /// category's): a student-facing output shows it only through
    /// the redaction of `output/secret.rs`.
    pub secret: bool,
    /// The exit status it expects, when known.
    pub expected_status: Option<i32>,
    /// How the program ended, when it ran.
    pub actual: Option<Ending>,
    /// Its verdict.
    pub verdict: Verdict,
    /// Wall time.
    pub time: Duration,
    /// The score a problem package's output validator gave the case
    /// (`score.txt`), which its category's grader takes over its
    /// `accept-score` when the case passed.
    pub score: Option<f64>,
    /// What the case weighs in its category
    /// ([`crate::model::weight`]; 1 unless the suite weighs it).
    pub weight: f64,
    /// One-time deductions a tolerance declared for the departures it
    /// forgave in this case; scored once per submission and rule, however
    /// many cases carry them (the score does).
    pub deductions: Vec<Deduction>,
    /// The departures a tolerance forgave (`--strict` lists them):
    /// `stdout compared ignoring spacing (IO-1)`.
    pub forgiven: Vec<String>,
    /// Under `--memcheck …,warn`, the memory error the run made, as the
    /// failure it would have been: reported as a warning, the verdict
    /// judged without it.
    pub warning: Option<Box<CaseFailure>>,
}

impl CaseResult {
    /// The result of case `name` with `verdict` and nothing else known
    /// yet: no category, rules, tags or run, weight 1, no time, nothing
    /// forgiven.
    pub fn new(name: impl Into<String>, verdict: Verdict) -> Self {
        Self {
            name: name.into(),
            category: None,
            rules: Vec::new(),
            tags: Vec::new(),
            ambiguous: false,
            secret: false,
            expected_status: None,
            actual: None,
            verdict,
            time: Duration::ZERO,
            score: None,
            weight: crate::model::weight::DEFAULT,
            deductions: Vec::new(),
            forgiven: Vec::new(),
            warning: None,
        }
    }
}

/// The deductions of what a tolerance forgave: once per rule (the
/// greatest, when two parts of one case charge the same rule).
pub fn deductions(forgiven: &[Forgiven]) -> Vec<Deduction> {
    let mut out: Vec<Deduction> = Vec::new();
    for charge in forgiven.iter().flat_map(|f| &f.charges) {
        match out.iter_mut().find(|d| d.rule == charge.by) {
            Some(d) => d.marks = d.marks.max(charge.marks),
            None => out.push(Deduction {
                rule: charge.by.clone(),
                marks: charge.marks,
                forgave: forgiven
                    .iter()
                    .find(|f| f.charges.iter().any(|c| c.by == charge.by))
                    .filter(|f| !f.forgave.is_empty())
                    .map(|f| f.forgave.clone())
                    .unwrap_or_default(),
                hint: None,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::matching::Charge;

    #[test]
    fn a_case_the_environment_struck_is_not_judged() {
        let mut failure = CaseFailure::new(&[], b"", crate::judge::failure::Notes::default());
        assert!(Verdict::Failed(Box::new(failure.clone())).judged());
        crate::judge::environment::strike(
            &mut failure,
            &crate::judge::environment::Lack::Module("x".into()),
        );
        assert!(!Verdict::Failed(Box::new(failure)).judged());
        assert!(!Verdict::Error("e".into()).judged());
        assert!(Verdict::Passed.judged());
    }

    fn forgave(part: &str, charges: &[(&str, f64)]) -> Forgiven {
        Forgiven {
            part: part.to_owned(),
            how: "ignoring spacing".to_owned(),
            forgave: String::new(),
            charges: charges
                .iter()
                .map(|(by, marks)| Charge {
                    by: (*by).to_owned(),
                    marks: *marks,
                })
                .collect(),
        }
    }

    #[test]
    fn a_rule_deducts_once_per_case_however_many_parts_it_forgave() {
        let d = deductions(&[
            forgave("stdout", &[("IO-1", 0.25)]),
            forgave("stderr", &[("IO-1", 0.5), ("case", 1.0)]),
            forgave("status", &[]),
        ]);
        assert_eq!(
            d,
            [
                Deduction {
                    rule: "IO-1".to_owned(),
                    marks: 0.5,
                    forgave: String::new(),
                    hint: None,
                },
                Deduction {
                    rule: "case".to_owned(),
                    marks: 1.0,
                    forgave: String::new(),
                    hint: None,
                }
            ]
        );
        assert!(deductions(&[]).is_empty());
    }
}
