//! The verdict of one case and its result, what every reporter renders
//! from: passed, failed (how, structured: [`CaseFailure`]) or not judged.

use std::fmt;
use std::time::Duration;

use crate::exec::run::Ending;
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
    /// What it forgave, one line (`stdout `a  b` for `a b``).
    pub forgave: String,
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
    /// The exit status it expects, when known.
    pub expected_status: Option<i32>,
    /// How the program ended, when it ran.
    pub actual: Option<Ending>,
    /// Its verdict.
    pub verdict: Verdict,
    /// Wall time.
    pub time: Duration,
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
