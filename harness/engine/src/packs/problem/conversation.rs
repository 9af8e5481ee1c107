//! An interactive problem's cases, and a scoring problem's judged by its
//! own output validator, under `run`, `mark` and the course outputs:
//! each case file holds `script: {case: NAME}`, which the engine hands,
//! with the program, to this driver ([`crate::exec::driver::CaseDriver`]);
//! it runs the case as `verify` does (the same functions: an interactive
//! one by [`super::interactive::run_case`], the program contained at the
//! chosen level, joined to the validator built once by the command;
//! another by [`super::run::execute`] then [`super::run::judge_output`],
//! the validator contained after the program) and says what broke:
//! nothing when the validator accepted, else one refusal naming the
//! verdict and the validator's reason (a problem package has no rule
//! IDs: the refusal cites none). An accepted case's score (`score.txt`)
//! goes with it to its category's grader. A validator that exits with
//! neither 42 nor 43 is a fault of the package (`Err`: exit 2 at `run`),
//! never the program's; so is a score on a problem that is not a scoring
//! one ([`super::run::CaseResult::scored`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::exec::driver::{CaseDriver, Conversation, DriveSettings, Exchange};
use crate::exec::run::Target;
use crate::packs::problem::package::Problem;
use crate::packs::problem::run::{self, CaseLimits, Executed, Fault, Judge, Verdict};
use crate::packs::problem::time_limit::TimeLimit;

/// One case as the driver runs it.
#[derive(Debug, Clone)]
pub struct Case {
    /// Its `.in` (the validator's).
    pub input: Vec<u8>,
    /// Its `.ans` (the validator's).
    pub answer: Vec<u8>,
    /// Its group's validator flags.
    pub flags: Vec<String>,
}

/// The driver of one package.
#[derive(Debug)]
pub struct Driver {
    /// The built validator.
    pub validator: Target,
    /// Each case by name (`secret/7`).
    pub cases: BTreeMap<String, Case>,
    /// A case's time limit (and where it is killed).
    pub time_limit: Arc<TimeLimit>,
    /// Bytes of the program's stderr kept.
    pub output_cap: u64,
    /// Whether the program and the validator talk (else the validator
    /// reads the program's output once it has ended).
    pub interactive: bool,
    /// Whether the problem takes the validator's score.
    pub scoring: bool,
}

/// The `script` of the case named `name`.
pub fn script(name: &str) -> serde_json::Value {
    serde_json::json!({ "case": name })
}

impl Driver {
    /// The driver of `problem`'s cases, joined to `validator` (built),
    /// each case given `time_limit`.
    pub fn of(problem: &Problem, validator: Target, time_limit: Arc<TimeLimit>) -> Self {
        let cases = problem
            .root
            .all_cases()
            .into_iter()
            .map(|(g, c)| {
                let case = Case {
                    input: c.input.clone(),
                    answer: c.answer.clone(),
                    flags: g.flags.validator_flags.clone(),
                };
                (c.name.clone(), case)
            })
            .collect();
        Self {
            validator,
            cases,
            time_limit,
            output_cap: problem.output_cap,
            interactive: problem.interactive,
            scoring: problem.scoring,
        }
    }

    fn case(&self, script: &serde_json::Value) -> Result<(&str, &Case), String> {
        let name = script
            .get("case")
            .and_then(serde_json::Value::as_str)
            .ok_or_else(|| "a problem package's script is `{case: NAME}`".to_owned())?;
        self.cases
            .get_key_value(name)
            .map(|(n, c)| (n.as_str(), c))
            .ok_or_else(|| format!("the package has no case `{name}`"))
    }
}

impl CaseDriver for Driver {
    fn check(&self, script: &serde_json::Value) -> Result<(), String> {
        self.case(script).map(|_| ())
    }

    fn drive(
        &self,
        script: &serde_json::Value,
        program: &Target,
        settings: DriveSettings,
    ) -> Result<Conversation, String> {
        let (name, case) = self.case(script)?;
        let limit = settings
            .timeout
            .unwrap_or_else(|| self.time_limit.get().mul_f64(settings.time_factor));
        let limits = CaseLimits {
            time_limit: limit,
            kill_after: limit,
            output_cap: self.output_cap,
        };
        // The program's runtime never started: said beside the verdict it
        // would have, which the engine charges or not.
        let (r, no_start) = self
            .run(program, case, limits)
            .and_then(|(r, no_start)| Ok((r.scored(self.scoring)?, no_start)))
            .map_err(|Fault(f)| format!("case data/{name}: {f} (a fault of the package)"))?;
        let score = r
            .score
            .filter(|_| r.verdict == Verdict::Accepted)
            .map(|s| format!(", scored {s} by the validator"))
            .unwrap_or_default();
        let ending = format!(
            "{}, which cannot be replayed by hand here: {}{score} after {:.2} s of the program's \
             time",
            if self.interactive {
                "a conversation with the package's validator"
            } else {
                "a run judged by the package's validator"
            },
            r.verdict.short(),
            r.runtime.as_secs_f64()
        );
        let message = match r.verdict {
            Verdict::Accepted => {
                return Ok(Conversation {
                    exchanges: Vec::new(),
                    reproduce: String::new(),
                    ending,
                    no_start,
                    score: r.score,
                });
            }
            Verdict::WrongAnswer => format!("the output validator: {}", r.reason),
            Verdict::TimeLimitExceeded => format!("time limit exceeded: {}", r.reason),
            Verdict::RunTimeError => format!("run-time error: {}", r.reason),
        };
        Ok(Conversation {
            exchanges: vec![Exchange {
                rule: String::new(),
                message,
                number: 0,
                request: Vec::new(),
                answer: Vec::new(),
            }],
            reproduce: String::new(),
            ending,
            no_start,
            score: None,
        })
    }
}

impl Driver {
    /// One case run and judged as `verify` runs it.
    fn run(
        &self,
        program: &Target,
        case: &Case,
        limits: CaseLimits,
    ) -> Result<(run::CaseResult, Option<crate::exec::run::NoStart>), Fault> {
        if self.interactive {
            return super::interactive::run_case_started(
                program,
                &self.validator,
                &case.input,
                &case.answer,
                &case.flags,
                limits,
            );
        }
        let judged = match run::execute(program, &case.input, limits)? {
            Executed::Failed(r) => r,
            Executed::Output(bytes, time) => run::judge_output(
                &Judge::Custom(self.validator.clone()),
                &case.input,
                &case.answer,
                &case.flags,
                &bytes,
                time,
            )?,
        };
        Ok((judged, None))
    }
}
