//! One test case run and judged: the program contained on the case's
//! input ([`crate::exec::run`]), its output judged by the default
//! validator or the package's own (`validator input answer feedback_dir
//! [flags] < output`, run contained too: exit 42 accepts, 43 rejects,
//! `judgemessage.txt` the reason, `score.txt` a score). An interactive
//! problem's case is [`super::interactive`]'s. A validator that exits
//! with neither 42 nor 43, or cannot run, is a fault of the package
//! ([`Fault`]), never a verdict.

use std::ffi::OsString;
use std::time::Duration;

use crate::exec::run::{self, Ending, Invocation, Limits, Target};
use crate::packs::problem::validator::{self, Flags};

/// A verdict on one case, in problemtools' order of severity (its
/// default grader's `worst_error`: a run-time error is worse than a
/// timeout, which is worse than a wrong answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Accepted.
    Accepted,
    /// Wrong answer.
    WrongAnswer,
    /// Time limit exceeded.
    TimeLimitExceeded,
    /// Run-time error: a crash, a status other than 0, too much output.
    RunTimeError,
}

impl Verdict {
    /// The format's abbreviation.
    pub fn short(self) -> &'static str {
        match self {
            Self::Accepted => "AC",
            Self::WrongAnswer => "WA",
            Self::RunTimeError => "RTE",
            Self::TimeLimitExceeded => "TLE",
        }
    }
}

/// One case's result for one submission.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseResult {
    /// The verdict.
    pub verdict: Verdict,
    /// The program's time (CPU when the sandbox measures it, else wall).
    pub runtime: Duration,
    /// The validator's score (`score.txt`), if it gave one.
    pub score: Option<f64>,
    /// Why, for a verdict other than accepted.
    pub reason: String,
}

impl CaseResult {
    /// This result on a problem that takes a validator's score
    /// (`scoring`) or not: a score where none is taken is a fault of the
    /// package, as problemtools judges it (a judge error), never a
    /// verdict.
    pub fn scored(self, scoring: bool) -> Result<Self, Fault> {
        match self.score {
            Some(s) if !scoring => Err(Fault(not_scoring(&s.to_string()))),
            _ => Ok(self),
        }
    }
}

/// Why a validator's score on a problem that is not a scoring problem is
/// a fault of the package.
pub fn not_scoring(score: &str) -> String {
    format!(
        "the output validator wrote score.txt ({score}), but the problem is not a scoring problem \
         (problem.yaml: type scoring, or legacy validation: custom score)"
    )
}

/// A fault of the package (its validator) or of the harness: exit 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault(pub String);

/// How a package judges an output.
#[derive(Debug, Clone)]
pub enum Judge {
    /// The default validator.
    Default,
    /// The package's validator, built.
    Custom(Target),
}

/// What one run needs besides the program.
#[derive(Debug, Clone, Copy)]
pub struct CaseLimits {
    /// The time limit: longer is a timeout.
    pub time_limit: Duration,
    /// When the program is killed (the limit times the safety margin).
    pub kill_after: Duration,
    /// Output bytes at most.
    pub output_cap: u64,
}

/// A program's run on one input, before its output is judged.
#[derive(Debug, Clone)]
pub enum Executed {
    /// It exited with status 0 in time: its output and time.
    Output(Vec<u8>, Duration),
    /// It timed out or crashed: the case's result already.
    Failed(CaseResult),
}

/// Runs `program` contained on `input`.
pub fn execute(program: &Target, input: &[u8], limits: CaseLimits) -> Result<Executed, Fault> {
    let mut inv = Invocation::new(program.clone(), Vec::new(), input.to_vec());
    inv.timeout = limits.kill_after;
    inv.limits = Limits::for_timeout(limits.kill_after);
    inv.output_cap = limits.output_cap;
    let (outcome, activity) =
        run::run_with_activity(&inv).map_err(|e| Fault(format!("cannot run the program: {e}")))?;
    // A runtime that never started is no verdict on the program.
    if let Some(no) = &outcome.no_start {
        return Err(Fault(no.to_string()));
    }
    let runtime = activity.cpu.unwrap_or(outcome.elapsed);
    let failed = |verdict, reason: String| {
        Ok(Executed::Failed(CaseResult {
            verdict,
            runtime,
            score: None,
            reason,
        }))
    };
    match &outcome.ending {
        Ending::TimedOut { after, .. } => Ok(Executed::Failed(CaseResult {
            verdict: Verdict::TimeLimitExceeded,
            runtime: *after,
            score: None,
            reason: format!("killed after {:.2} s", after.as_secs_f64()),
        })),
        _ if runtime > limits.time_limit => failed(
            Verdict::TimeLimitExceeded,
            format!(
                "{:.2} s, over the time limit of {:.2} s",
                runtime.as_secs_f64(),
                limits.time_limit.as_secs_f64()
            ),
        ),
        Ending::Exited(0) => Ok(Executed::Output(outcome.stdout, runtime)),
        other => {
            let said = String::from_utf8_lossy(if outcome.stderr.is_empty() {
                &outcome.stdout
            } else {
                &outcome.stderr
            });
            // An uncaught exception names the program's own file and line
            // as a cause does (`./index.py:3`), its folder shown as `./`.
            let shown = match program.home() {
                Some(home) => crate::judge::mask::in_program_folder(&home, &said),
                None => said.into_owned(),
            };
            let last = shown.lines().rev().find(|l| !l.trim().is_empty());
            failed(
                Verdict::RunTimeError,
                match (crate::judge::exception::parse(shown.as_bytes()), last) {
                    (Some(raised), _) => format!("{other} ({raised})"),
                    (None, Some(l)) => {
                        format!("{other} ({})", l.chars().take(120).collect::<String>())
                    }
                    (None, None) => other.to_string(),
                },
            )
        }
    }
}

/// Judges a program's `output` on one case (`runtime`, its time).
pub fn judge_output(
    judge: &Judge,
    input: &[u8],
    answer: &[u8],
    flags: &[String],
    output: &[u8],
    runtime: Duration,
) -> Result<CaseResult, Fault> {
    let (verdict, score, reason) = validate(judge, input, answer, flags, output)?;
    Ok(CaseResult {
        verdict,
        runtime,
        score,
        reason,
    })
}

/// An output judged: the verdict, the validator's score, its reason.
fn validate(
    judge: &Judge,
    input: &[u8],
    answer: &[u8],
    flags: &[String],
    output: &[u8],
) -> Result<(Verdict, Option<f64>, String), Fault> {
    match judge {
        Judge::Default => {
            let parsed = Flags::parse(flags).map_err(Fault)?;
            Ok(match validator::judge(answer, output, &parsed) {
                Ok(()) => (Verdict::Accepted, None, String::new()),
                Err(r) => (Verdict::WrongAnswer, None, r.to_string()),
            })
        }
        Judge::Custom(target) => {
            let mut args: Vec<OsString> = ["input", "answer", "feedback/"]
                .into_iter()
                .map(OsString::from)
                .collect();
            args.extend(flags.iter().map(OsString::from));
            let mut inv = Invocation::new(target.clone(), args, output.to_vec());
            inv.files = vec![
                ("input".to_owned(), input.to_vec()),
                ("answer".to_owned(), answer.to_vec()),
                ("feedback/.keep".to_owned(), Vec::new()),
            ];
            inv.timeout = VALIDATOR_TIME;
            inv.limits = Limits::for_timeout(VALIDATOR_TIME);
            let outcome = run::run(&inv)
                .map_err(|e| Fault(format!("cannot run the output validator: {e}")))?;
            let file = |name: &str| {
                outcome
                    .files
                    .get(&format!("feedback/{name}"))
                    .map(|b| String::from_utf8_lossy(b).trim().to_owned())
            };
            decide(&outcome.ending, file("judgemessage.txt"), file("score.txt"))
        }
    }
}

/// The output validator's time.
const VALIDATOR_TIME: Duration = Duration::from_secs(60);

/// A validator's ending and files read: 42 accepts (with its score, if
/// it wrote one: a number, else a fault), 43 rejects (a score then is
/// not read: problemtools reads score.txt only on an acceptance).
pub(super) fn decide(
    ending: &Ending,
    message: Option<String>,
    score: Option<String>,
) -> Result<(Verdict, Option<f64>, String), Fault> {
    let message = message.filter(|m| !m.is_empty());
    let accepted = matches!(ending, Ending::Exited(42));
    let score = match score.filter(|s| accepted && !s.is_empty()) {
        None => None,
        Some(s) => Some(s.parse::<f64>().map_err(|_| {
            Fault(format!(
                "the output validator wrote score.txt `{s}`, which is no number"
            ))
        })?),
    };
    match ending {
        Ending::Exited(42) => Ok((Verdict::Accepted, score, String::new())),
        Ending::Exited(43) => Ok((
            Verdict::WrongAnswer,
            None,
            message.unwrap_or_else(|| {
                "rejected by the output validator (no judgemessage.txt)".to_owned()
            }),
        )),
        other => Err(Fault(format!(
            "the output validator ended with {other} (42 accepts, 43 rejects){}",
            message.map_or_else(String::new, |m| format!(": {m}"))
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_validator_decides_by_its_status() {
        let ok = decide(&Ending::Exited(42), None, Some("7.5".into())).expect("ok");
        assert_eq!((ok.0, ok.1), (Verdict::Accepted, Some(7.5)));
        let wa = decide(&Ending::Exited(43), Some("guessed 7 twice".into()), None).expect("wa");
        assert_eq!(
            (wa.0, wa.2.as_str()),
            (Verdict::WrongAnswer, "guessed 7 twice")
        );
        assert!(decide(&Ending::Exited(1), None, None).is_err());
        assert!(decide(&Ending::Exited(42), None, Some("lots".into())).is_err());
        // A rejection's score.txt is not read.
        let wa = decide(&Ending::Exited(43), None, Some("lots".into())).expect("wa");
        assert_eq!((wa.0, wa.1), (Verdict::WrongAnswer, None));
        // A score where the problem takes none is the package's fault.
        let scored = |s| {
            judge_output(&Judge::Default, b"", b"1", &[], b"1", Duration::ZERO)
                .map(|r| CaseResult { score: s, ..r })
        };
        assert!(scored(Some(2.0)).expect("ran").scored(false).is_err());
        assert!(scored(Some(2.0)).expect("ran").scored(true).is_ok());
        assert!(scored(None).expect("ran").scored(false).is_ok());
    }
}
