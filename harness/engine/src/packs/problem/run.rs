//! One test case run and judged: the program contained on the case's
//! input ([`crate::exec::run`]), its output judged by the default
//! validator or the package's own (`validator input answer feedback_dir
//! [flags] < output`, run contained too: exit 42 accepts, 43 rejects,
//! `judgemessage.txt` the reason, `score.txt` a score); or, for an
//! interactive problem, the program and the validator joined, each
//! one's output the other's input, the validator's exit deciding.
//!
//! An interactive run starts both as plain processes of their own group
//! in fresh temporary folders (the sandbox runs one program, not two
//! joined): bounded in time, killed by group at the limit, their stderr
//! dropped. A validator that exits with neither 42 nor 43, or cannot
//! run, is a fault of the package ([`Fault`]), never a verdict.

use std::ffi::OsString;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

/// A validator's ending and files read: 42 accepts, 43 rejects.
fn decide(
    ending: &Ending,
    message: Option<String>,
    score: Option<String>,
) -> Result<(Verdict, Option<f64>, String), Fault> {
    let message = message.filter(|m| !m.is_empty());
    let score = match score.filter(|s| !s.is_empty()) {
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
            score,
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

/// Runs an interactive case: `program` and the `validator` joined.
#[expect(
    clippy::too_many_lines,
    reason = "one conversation: start both, watch both, read the verdict"
)]
pub fn run_interactive(
    program: &Target,
    validator: &Target,
    input: &[u8],
    answer: &[u8],
    flags: &[String],
    limits: CaseLimits,
) -> Result<CaseResult, Fault> {
    let fault = |what: &str, e: std::io::Error| Fault(format!("interactive run: {what}: {e}"));
    let vdir = tempfile::tempdir().map_err(|e| fault("a folder for the validator", e))?;
    let pdir = tempfile::tempdir().map_err(|e| fault("a folder for the program", e))?;
    let feedback = vdir.path().join("feedback");
    std::fs::create_dir(&feedback).map_err(|e| fault("feedback folder", e))?;
    std::fs::write(vdir.path().join("input"), input).map_err(|e| fault("input", e))?;
    std::fs::write(vdir.path().join("answer"), answer).map_err(|e| fault("answer", e))?;
    let command = |t: &Target, dir: &std::path::Path| {
        let mut c = Command::new(t.path());
        c.args(t.words()).current_dir(dir).stderr(Stdio::null());
        std::os::unix::process::CommandExt::process_group(&mut c, 0);
        c
    };
    let mut prog = command(program, pdir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| fault("cannot start the program", e))?;
    let (Some(to_prog), Some(from_prog)) = (prog.stdin.take(), prog.stdout.take()) else {
        kill(&mut prog);
        return Err(Fault("interactive run: no pipes".to_owned()));
    };
    let started = Instant::now();
    let mut val = match command(validator, vdir.path())
        .args(["input", "answer", "feedback/"])
        .args(flags)
        .stdin(Stdio::from(from_prog))
        .stdout(Stdio::from(to_prog))
        .spawn()
    {
        Ok(v) => v,
        Err(e) => {
            kill(&mut prog);
            return Err(fault("cannot start the output validator", e));
        }
    };
    let deadline = started + limits.kill_after;
    let (mut prog_end, mut val_end) = (None, None);
    let mut prog_time = None;
    while prog_end.is_none() || val_end.is_none() {
        if prog_end.is_none() {
            prog_end = prog.try_wait().ok().flatten();
            if prog_end.is_some() {
                prog_time = Some(started.elapsed());
            }
        }
        if val_end.is_none() {
            val_end = val.try_wait().ok().flatten();
        }
        if Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let timed_out = prog_end.is_none();
    kill(&mut prog);
    kill(&mut val);
    let runtime = prog_time.unwrap_or_else(|| started.elapsed());
    let result = |verdict, reason: String, score| CaseResult {
        verdict,
        runtime,
        score,
        reason,
    };
    if timed_out || runtime > limits.time_limit {
        return Ok(result(
            Verdict::TimeLimitExceeded,
            format!(
                "{:.2} s, over the time limit of {:.2} s",
                runtime.as_secs_f64(),
                limits.time_limit.as_secs_f64()
            ),
            None,
        ));
    }
    let Some(val_status) = val_end else {
        return Err(Fault("the output validator did not end in time".to_owned()));
    };
    let ending = match val_status.code() {
        Some(c) => Ending::Exited(c),
        None => Ending::Signaled(
            std::os::unix::process::ExitStatusExt::signal(&val_status).unwrap_or(0),
        ),
    };
    // Bounded: the validator's files are read no further than 64 KiB.
    let read = |name: &str| {
        use std::io::Read as _;
        let file = std::fs::File::open(feedback.join(name)).ok()?;
        let mut bytes = Vec::new();
        file.take(64 << 10).read_to_end(&mut bytes).ok()?;
        Some(String::from_utf8_lossy(&bytes).trim().to_owned())
    };
    let (verdict, score, reason) = decide(&ending, read("judgemessage.txt"), read("score.txt"))?;
    // A rejection speaks first; an accepted conversation with a program
    // that then crashed is the crash.
    if verdict == Verdict::Accepted
        && let Some(status) = prog_end.filter(|s| !s.success())
    {
        return Ok(result(
            Verdict::RunTimeError,
            format!("the program ended with {status}"),
            None,
        ));
    }
    Ok(result(verdict, reason, score))
}

/// Kills a child's whole group and reaps it.
fn kill(child: &mut std::process::Child) {
    if let Some(pid) = rustix::process::Pid::from_raw(child.id().cast_signed()) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
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
    }
}
