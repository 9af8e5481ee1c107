//! Watching a started run to its end: stdin fed, both streams read, the
//! timeout and the cap enforced, what was left behind settled and the
//! sandbox surveyed.

use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::ExitStatusExt;
use std::sync::PoisonError;
use std::time::{Duration, Instant};

use rustix::process::Signal;

use super::supervise::{Ends, Rules, Stop, Supervisor};
use conformance_sandbox::{self as sandbox, Layout, Reported};

use super::cpu::CpuStop;
use super::ending::Ending;
use super::files::survey;
use super::invocation::{Invocation, KEEPER_DRAIN, LINGER_GRACE};
use super::outcome::{Activity, Dropped, Outcome, RunError};
use super::spawn::{Proc, Started};

/// Feeds stdin, reads both streams, supervises the run to its end and
/// surveys the sandbox.
pub(super) fn watch(
    inv: &Invocation,
    layout: &Layout,
    start: Instant,
    mut started: Started,
) -> Result<Outcome, RunError> {
    let keeper = matches!(started.proc, Proc::Keeper { .. });
    // A resident keeper has run earlier programs: the CPU time they took
    // (reaped into its own) is counted now and taken off at the end, so a
    // run is charged only what it used itself.
    let before = super::cpu::tree_time(started.proc.pid()).cpu;
    let rules = rules(inv, keeper, (started.proc.pid(), before));
    let ends = Ends {
        stdin: started.stdin.take(),
        typing: started
            .typist
            .take()
            .map(|(master, keys)| (OwnedFd::from(master), keys)),
        stdout: started.stdout.take(),
        stderr: started.stderr.take(),
    };
    let watched = (started.proc.pid(), started.proc.pidfd());
    let feed = (&inv.stdin[..], &inv.prompt[..], inv.count_reads);
    let mut supervisor = match Supervisor::new(ends, feed, watched, rules) {
        Ok(supervisor) => supervisor,
        Err(e) => {
            settle(&mut started.proc, true, false);
            return Err(RunError::Watch(e));
        }
    };
    let stop = match supervisor.run(start) {
        Ok(stop) => stop,
        Err(e) => {
            settle(&mut started.proc, true, supervisor.exited());
            return Err(RunError::Watch(e));
        }
    };
    let mut left_process = stop == Stop::Lingered && !keeper;
    let forced = forced_ending(stop, inv);
    // Read before anything is killed or reaped.
    let activity = activity_since(
        started.proc.pid(),
        before,
        supervisor.last_output().map(|at| at - start),
    );
    let status = settle(&mut started.proc, forced.is_some(), supervisor.exited());
    // What the streams still hold was written before the kill. A process
    // left behind is killed only now: a moment for the pipes to close.
    let until = Instant::now() + LEFT_DRAIN * u32::from(left_process);
    // A failed poll here only loses output after the verdict.
    let _ = supervisor.drain(until);
    let elapsed = start.elapsed();
    if crate::exec::interrupt::interrupted() {
        return Err(RunError::Interrupted);
    }
    let mut left_behind = Vec::new();
    let ending = match (forced, status) {
        (Some(forced), _) => forced,
        (None, Settled::Group(ending)) => ending,
        (None, Settled::Keeper(why)) => {
            let Some(report) = sandbox::read_report(layout) else {
                let why = why.unwrap_or_else(|| "no status".to_owned());
                return Err(RunError::Contain(format!(
                    "the sandbox reported nothing ({why})"
                )));
            };
            left_process = report.left.iter().any(|l| l.held_output);
            left_behind = report.left;
            match report.ending {
                Reported::Exited(c) => Ending::Exited(c),
                Reported::Signaled(s) => Ending::Signaled(s),
                Reported::SpawnFailed(errno, _) => {
                    return Err(RunError::Spawn {
                        path: inv.target.path().to_owned(),
                        source: io::Error::from_raw_os_error(errno),
                    });
                }
                Reported::Probe => Ending::Exited(-1),
                Reported::ConfineFailed(why) => return Err(RunError::Contain(why)),
            }
        }
    };

    let reads = supervisor.reads();
    let stdin_taken = supervisor.stdin_taken();
    let [(stdout, stdout_dropped), (stderr, stderr_dropped)] = supervisor.captured();
    let survey = survey(&layout.work, &inv.files, inv.output_cap);
    Ok(Outcome {
        ending,
        stdout,
        stderr,
        files: survey.files,
        dirs: survey.dirs,
        written: survey.written,
        cut: survey.cut,
        folder: layout.work.clone(),
        left_process,
        left_behind,
        dropped: Dropped {
            stdout: stdout_dropped,
            stderr: stderr_dropped,
        },
        elapsed,
        reads,
        stdin_taken,
        no_start: None,
        activity,
    })
}

/// What decides the end of the run of `inv` (`watched`: the process and
/// the CPU time it held at the start).
fn rules(
    inv: &Invocation,
    keeper: bool,
    (pid, before): (rustix::process::Pid, Option<Duration>),
) -> Rules {
    Rules {
        timeout: inv.timeout,
        cap: inv.output_cap,
        keep: inv.keep,
        keeper,
        // Once a keeper is gone nothing can hold the streams: they only
        // drain what is left in the pipes.
        grace: if keeper { KEEPER_DRAIN } else { LINGER_GRACE },
        cpu_stop: inv.cpu_stop.map(|after| CpuStop { after, pid, before }),
    }
}

/// How busy the run was: the CPU time of the tree under `pid` less
/// `before` (what it held when the run started), and whether any of it
/// was runnable.
fn activity_since(
    pid: rustix::process::Pid,
    before: Option<Duration>,
    last_output: Option<Duration>,
) -> Activity {
    let tree = super::cpu::tree_time(pid);
    Activity {
        cpu: tree
            .cpu
            .map(|cpu| cpu.saturating_sub(before.unwrap_or_default())),
        runnable: tree.runnable,
        last_output,
    }
}

/// The ending the harness imposed on the run, if it cut it short.
fn forced_ending(stop: Stop, inv: &Invocation) -> Option<Ending> {
    match stop {
        Stop::Cap(stream) => Some(Ending::OutputCapExceeded {
            stream,
            cap: inv.output_cap,
        }),
        Stop::TimedOut(awaiting_prompt) => Some(Ending::TimedOut {
            after: inv.timeout,
            awaiting_prompt,
        }),
        Stop::Ended | Stop::Lingered => None,
    }
}

/// How long the streams may take to close once a left-behind process is
/// killed.
const LEFT_DRAIN: Duration = Duration::from_millis(100);

/// What is known of the process once the run is over.
enum Settled {
    /// A process group's leader ended so.
    Group(Ending),
    /// A keeper, whose report says how the program ended; its own status
    /// if it was reaped already (named when the report is missing).
    Keeper(Option<String>),
}

/// Kills what must be killed once the run is over (`kill`: the run was
/// cut short) and reaps the process watched. `exited`: its end was seen.
fn settle(proc: &mut Proc, kill: bool, exited: bool) -> Settled {
    match proc {
        Proc::Group { child, pid } => {
            // The leader is not reaped yet (its end was only peeked at), so
            // the group's id cannot have been reused: killing it reaches
            // only what the program started.
            let _ = rustix::process::kill_process_group(*pid, Signal::KILL);
            Settled::Group(match child.wait() {
                Ok(s) => match (s.code(), s.signal()) {
                    (Some(code), _) => Ending::Exited(code),
                    (None, Some(sig)) => Ending::Signaled(sig),
                    (None, None) => Ending::Exited(-1),
                },
                Err(_) => Ending::Exited(-1),
            })
        }
        Proc::Keeper {
            pid,
            status,
            waiter,
        } => {
            if kill {
                // Not reaped yet, so the id is still this keeper's.
                let _ = rustix::process::kill_process(*pid, Signal::KILL);
            }
            if let Some(mut child) = waiter.take() {
                // A keeper seen to end is reaped at once; one still
                // tearing down its namespaces is reaped later, off this
                // thread, rather than waited for.
                let reaped = if exited {
                    Some(child.wait())
                } else {
                    child.try_wait().transpose()
                };
                let reason = match reaped {
                    Some(Ok(reason)) => Some(reason),
                    Some(Err(e)) => Some(e.to_string()),
                    None => {
                        crate::exec::reaper::later(move || {
                            let _ = child.wait();
                        });
                        None
                    }
                };
                *status.lock().unwrap_or_else(PoisonError::into_inner) = reason;
            }
            Settled::Keeper(
                status
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone(),
            )
        }
    }
}
