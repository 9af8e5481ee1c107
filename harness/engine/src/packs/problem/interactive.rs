//! One case of an interactive problem: the program and the output
//! validator joined, each one's stdout the other's stdin, as problemtools
//! joins them (`validator input answer feedback_dir [flags]`).
//!
//! - The program is contained exactly as any other run at the chosen
//!   level ([`run::run_joined`]): its own fds 0-2 only (two pipes and its
//!   stderr), never the answer (the validator's folder is outside its
//!   sandbox), its processes dead when the run ends; the time limit is
//!   its own (CPU where the sandbox measures it, else wall), and it is
//!   killed at the kill margin.
//! - The validator is the jury's, started outside the program's
//!   containment: a process group of its own in a fresh folder holding
//!   `input`, `answer` and `feedback/`, registered with the interrupt (its
//!   group killed and its folder removed on Ctrl-C). Once the program has
//!   ended it has [`VALIDATOR_GRACE`] to end too; its group is killed
//!   whatever happened.
//! - The verdict: a program that timed out is a timeout; else the
//!   validator's exit (42 accepts, 43 rejects with `judgemessage.txt`);
//!   an accepted conversation with a program that then crashed is the
//!   crash. A validator that exits otherwise, or does not end, is a fault
//!   of the package ([`Fault`]), never a verdict on the program.

use std::io::Read as _;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::exec::interrupt::Ticket;
use crate::exec::run::{self, Ending, Invocation, Limits, Target};
use crate::packs::problem::run::{CaseLimits, CaseResult, Fault, Verdict, decide};

/// How long the validator may take to end once the program has.
pub const VALIDATOR_GRACE: Duration = Duration::from_secs(10);

/// Bytes of a validator's file (its message, its score, its stderr) read
/// at most.
const READ_CAP: u64 = 64 << 10;

/// The validator's side of one case: its folder and its process group.
struct Side {
    dir: tempfile::TempDir,
    child: Child,
    /// Keeps the folder and the group registered with the interrupt.
    _ticket: Ticket,
}

impl Side {
    /// Kills the validator's group and reaps its leader.
    fn kill(&mut self) {
        if let Some(pid) = rustix::process::Pid::from_raw(self.child.id().cast_signed()) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits for the validator until `deadline`: its status, if it ended.
    fn wait_until(&mut self, deadline: Instant) -> Option<std::process::ExitStatus> {
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                _ => return None,
            }
        }
    }

    /// One of its files, bounded; `None` when it wrote none.
    fn read(&self, name: &str) -> Option<String> {
        let file = std::fs::File::open(self.dir.path().join(name)).ok()?;
        let mut bytes = Vec::new();
        file.take(READ_CAP).read_to_end(&mut bytes).ok()?;
        Some(String::from_utf8_lossy(&bytes).trim().to_owned())
    }
}

impl Drop for Side {
    fn drop(&mut self) {
        self.kill();
    }
}

fn fault(what: &str, e: impl std::fmt::Display) -> Fault {
    Fault(format!("interactive run: {what}: {e}"))
}

/// Starts the validator on `input` and `answer` in a fresh folder, its
/// stdin and stdout the given pipe ends.
fn start_validator(
    validator: &Target,
    input: &[u8],
    answer: &[u8],
    flags: &[String],
    stdin: std::io::PipeReader,
    stdout: std::io::PipeWriter,
) -> Result<Side, Fault> {
    let registered = Ticket::register(|| {
        let dir = tempfile::Builder::new()
            .prefix("conformance-validator-")
            .tempdir()?;
        let path = dir.path().to_owned();
        Ok((dir, path))
    });
    let (ticket, dir) = match registered {
        Err(interrupted) => return Err(Fault(interrupted.to_string())),
        Ok(Err(e)) => return Err(fault("a folder for the validator", e)),
        Ok(Ok(made)) => made,
    };
    let at = |name: &str| dir.path().join(name);
    std::fs::create_dir(at("feedback")).map_err(|e| fault("its feedback folder", e))?;
    std::fs::write(at("input"), input).map_err(|e| fault("its input", e))?;
    std::fs::write(at("answer"), answer).map_err(|e| fault("its answer", e))?;
    let stderr = std::fs::File::create(at("stderr")).map_err(|e| fault("its stderr", e))?;
    let mut cmd = Command::new(validator.path());
    cmd.args(validator.words())
        .args(["input", "answer", "feedback/"])
        .args(flags)
        .current_dir(dir.path())
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::from(stderr));
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    // Our copies of its pipe ends close at once: the program sees the end
    // of its input when the validator's end closes.
    let spawned = ticket.spawn_group(cmd).map_err(|i| Fault(i.to_string()))?;
    let child = spawned.map_err(|e| fault("cannot start the output validator", e))?;
    Ok(Side {
        dir,
        child,
        _ticket: ticket,
    })
}

/// Runs one case: `program` contained, joined to `validator`, on `input`
/// (the validator's; the program never sees it nor `answer`). A program
/// whose runtime never started is a fault here (no verdict on it):
/// [`run_case_started`] tells it apart.
pub fn run_case(
    program: &Target,
    validator: &Target,
    input: &[u8],
    answer: &[u8],
    flags: &[String],
    limits: CaseLimits,
) -> Result<CaseResult, Fault> {
    match run_case_started(program, validator, input, answer, flags, limits)? {
        (_, Some(no)) => Err(Fault(no.to_string())),
        (result, None) => Ok(result),
    }
}

/// [`run_case`], with the [`run::NoStart`] of a program whose runtime
/// never started ([`run::start`]), beside the result it had (charged
/// where the failure is found to be the program's). The conversation,
/// validator and all, is started afresh up to [`run::start::TRIES`]
/// times, as a run is.
pub fn run_case_started(
    program: &Target,
    validator: &Target,
    input: &[u8],
    answer: &[u8],
    flags: &[String],
    limits: CaseLimits,
) -> Result<(CaseResult, Option<run::NoStart>), Fault> {
    let mut tries = 1;
    loop {
        match converse_once(program, validator, (input, answer, flags), limits)? {
            (Some(said), result) if tries >= run::start::TRIES => {
                return Ok((result, Some(run::NoStart { said, tries })));
            }
            (Some(_), _) => {
                std::thread::sleep(run::start::PAUSE * tries);
                tries += 1;
            }
            (None, result) => return Ok((result, None)),
        }
    }
}

/// One conversation, and what told that the program's runtime never
/// started, if it did not.
fn converse_once(
    program: &Target,
    validator: &Target,
    (input, answer, flags): (&[u8], &[u8], &[String]),
    limits: CaseLimits,
) -> Result<(Option<String>, CaseResult), Fault> {
    // Program → validator, validator → program.
    let (from_prog, prog_out) = std::io::pipe().map_err(|e| fault("a pipe", e))?;
    let (prog_in, to_prog) = std::io::pipe().map_err(|e| fault("a pipe", e))?;
    let mut side = start_validator(validator, input, answer, flags, from_prog, to_prog)?;
    let mut inv = Invocation::new(program.clone(), Vec::new(), Vec::new());
    inv.timeout = limits.kill_after;
    inv.limits = Limits::for_timeout(limits.kill_after);
    inv.output_cap = limits.output_cap;
    let ran = run::run_joined(&inv, prog_in.into(), prog_out.into());
    let (outcome, activity) = ran.map_err(|e| Fault(format!("cannot run the program: {e}")))?;
    // Its stdout went to the validator: what it wrote there is unknown,
    // its start-up message, its ending and its CPU time tell.
    let unstarted = run::start::failed_to_start(&outcome);
    let runtime = activity.cpu.unwrap_or(outcome.elapsed);
    let result = |verdict, reason: String, score| CaseResult {
        verdict,
        runtime,
        score,
        reason,
    };
    if let Ending::TimedOut { after, .. } = outcome.ending {
        return Ok((
            unstarted.clone(),
            CaseResult {
                runtime: after,
                ..result(
                    Verdict::TimeLimitExceeded,
                    format!("killed after {:.2} s", after.as_secs_f64()),
                    None,
                )
            },
        ));
    }
    if runtime > limits.time_limit {
        return Ok((
            unstarted.clone(),
            result(
                Verdict::TimeLimitExceeded,
                format!(
                    "{:.2} s, over the time limit of {:.2} s",
                    runtime.as_secs_f64(),
                    limits.time_limit.as_secs_f64()
                ),
                None,
            ),
        ));
    }
    let status = side.wait_until(Instant::now() + VALIDATOR_GRACE);
    side.kill();
    let Some(status) = status else {
        return Err(Fault(format!(
            "the output validator did not end within {} s of the program's end",
            VALIDATOR_GRACE.as_secs()
        )));
    };
    let ending = match (
        status.code(),
        std::os::unix::process::ExitStatusExt::signal(&status),
    ) {
        (Some(c), _) => Ending::Exited(c),
        (None, Some(s)) => Ending::Signaled(s),
        (None, None) => Ending::Exited(-1),
    };
    let decided = decide(
        &ending,
        side.read("feedback/judgemessage.txt"),
        side.read("feedback/score.txt"),
    )
    .map_err(|Fault(f)| Fault(with_stderr(f, side.read("stderr"))))?;
    let (verdict, score, reason) = decided;
    // A rejection speaks first; an accepted conversation with a program
    // that then crashed is the crash.
    if verdict == Verdict::Accepted && outcome.ending != Ending::Exited(0) {
        let said = String::from_utf8_lossy(&outcome.stderr);
        let last = said.lines().rev().find(|l| !l.trim().is_empty());
        return Ok((
            unstarted.clone(),
            result(
                Verdict::RunTimeError,
                match last {
                    Some(l) => format!(
                        "{} ({})",
                        outcome.ending,
                        l.chars().take(120).collect::<String>()
                    ),
                    None => outcome.ending.to_string(),
                },
                None,
            ),
        ));
    }
    Ok((unstarted, result(verdict, reason, score)))
}

/// A validator's fault with the last lines of its stderr (a traceback).
fn with_stderr(fault: String, stderr: Option<String>) -> String {
    match stderr.filter(|s| !s.is_empty()) {
        None => fault,
        Some(s) => {
            let lines: Vec<&str> = s.lines().collect();
            let tail = lines[lines.len().saturating_sub(8)..].join("\n  ");
            format!("{fault}; its stderr ends:\n  {tail}")
        }
    }
}

#[cfg(test)]
#[path = "interactive_tests.rs"]
mod tests;
