//! Interrupts: Ctrl-C (SIGINT), SIGTERM, and a closed output pipe. Every run
//! in progress registers here (its sandbox folder and how to kill its
//! process tree), so that the signal path can kill every program, remove
//! every sandbox, let the reporting side print what finished, and end with
//! 130 / 143. Nothing of the run survives an interrupt.
//!
//! The signals are received by a thread of `signal-hook` (not in a signal
//! handler), so the clean-up can lock, allocate and print freely.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use rustix::process::{Pid, Signal};

/// Why the run stops early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// A signal (SIGINT, SIGTERM) asked the harness to stop.
    Signal(i32),
    /// Nobody reads the output any more.
    OutputClosed,
}

/// 0: not interrupted; a signal number; or [`OUTPUT_CLOSED`].
static STATE: AtomicI32 = AtomicI32::new(0);
const OUTPUT_CLOSED: i32 = -1;

/// Whether the run was interrupted: a run that has not started must not
/// start, one in progress is being killed.
pub fn interrupted() -> bool {
    STATE.load(Ordering::SeqCst) != 0
}

/// Why the run was interrupted, if it was.
pub fn reason() -> Option<Reason> {
    match STATE.load(Ordering::SeqCst) {
        0 => None,
        OUTPUT_CLOSED => Some(Reason::OutputClosed),
        sig => Some(Reason::Signal(sig)),
    }
}

/// The exit status for an interrupt by signal `sig`: 128 + its number
/// (130 for SIGINT, 143 for SIGTERM), as a shell reports it.
pub fn exit_status(sig: i32) -> u8 {
    u8::try_from(128 + sig).unwrap_or(128)
}

/// How a live run's processes are killed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Killer {
    /// Nothing started yet.
    NotStarted,
    /// SIGKILL to this process group (containment by process group).
    Group(Pid),
    /// SIGKILL to this process: the keeper of a PID namespace, whose death
    /// kills everything inside it.
    Keeper(Pid),
    /// SIGTERM to a child harness alone in its process group (`mark`'s
    /// checks), which then kills its own programs and removes its own
    /// sandbox folders; waited for (5 s at most, then SIGKILL to its group).
    Harness(Pid),
}

/// Whether `pid` has ended (gone, or a zombie not yet reaped).
fn ended(pid: Pid) -> bool {
    std::fs::read_to_string(format!("/proc/{}/stat", pid.as_raw_nonzero()))
        .ok()
        .and_then(|stat| {
            let after = stat.rsplit_once(')')?.1;
            after
                .split_whitespace()
                .next()
                .map(|s| s == "Z" || s == "X")
        })
        .unwrap_or(true)
}

impl Killer {
    /// Kills what this handle reaches; a process already gone is fine.
    pub fn kill(self) {
        match self {
            Killer::NotStarted => {}
            Killer::Group(pid) => {
                if !ended(pid) {
                    let _ = rustix::process::kill_process_group(pid, Signal::KILL);
                }
            }
            Killer::Keeper(pid) => {
                let _ = rustix::process::kill_process(pid, Signal::KILL);
            }
            Killer::Harness(pid) => {
                let _ = rustix::process::kill_process(pid, Signal::TERM);
                let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
                while !ended(pid) && std::time::Instant::now() < deadline {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                let _ = rustix::process::kill_process_group(pid, Signal::KILL);
            }
        }
    }
}

struct Live {
    sandbox: PathBuf,
    killer: Killer,
}

#[derive(Default)]
struct Registry {
    runs: BTreeMap<u64, Live>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    runs: BTreeMap::new(),
});
static NEXT: AtomicU64 = AtomicU64::new(1);

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The run was interrupted before or while it was set up.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("the run was interrupted")]
pub struct Interrupted;

/// A run's entry in the registry, from the making of its folder to its
/// removal; dropping it unregisters the run (its folder is removed by its
/// owner).
#[derive(Debug)]
pub struct Ticket(u64);

impl Ticket {
    /// Registers a run whose sandbox folder is `make_sandbox()`'s; the
    /// folder is made under the registry's lock, so an interrupt either
    /// sees it or prevents it.
    pub fn register<T>(
        make_sandbox: impl FnOnce() -> std::io::Result<(T, PathBuf)>,
    ) -> Result<std::io::Result<(Self, T)>, Interrupted> {
        let mut reg = registry();
        if interrupted() {
            return Err(Interrupted);
        }
        let (value, sandbox) = match make_sandbox() {
            Ok(made) => made,
            Err(e) => return Ok(Err(e)),
        };
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        reg.runs.insert(
            id,
            Live {
                sandbox,
                killer: Killer::NotStarted,
            },
        );
        Ok(Ok((Self(id), value)))
    }

    /// Records how the run's processes are killed; when an interrupt came
    /// in meanwhile, kills them at once and says so.
    pub fn started(&self, killer: Killer) -> Result<(), Interrupted> {
        let mut reg = registry();
        if let Some(live) = reg.runs.get_mut(&self.0) {
            live.killer = killer;
        }
        if interrupted() {
            killer.kill();
            return Err(Interrupted);
        }
        Ok(())
    }

    /// Records that the run's processes are all dead: its folder stays
    /// registered (to be removed on an interrupt) while it waits for the
    /// next run.
    pub fn idle(&self) {
        if let Some(live) = registry().runs.get_mut(&self.0) {
            live.killer = Killer::NotStarted;
        }
    }

    /// Runs `spawn` under the registry's lock, so that an interrupt cannot
    /// slip between the start of a process and its registration (needed
    /// where nothing else kills an orphan: containment by process group).
    pub fn spawn_locked<T>(
        &self,
        spawn: impl FnOnce() -> T,
        killer_of: impl FnOnce(&T) -> Killer,
    ) -> Result<T, Interrupted> {
        let mut reg = registry();
        if interrupted() {
            return Err(Interrupted);
        }
        let spawned = spawn();
        let killer = killer_of(&spawned);
        if let Some(live) = reg.runs.get_mut(&self.0) {
            live.killer = killer;
        }
        Ok(spawned)
    }
}

impl Ticket {
    /// Starts `cmd`, which leads a process group of its own, under the
    /// registry's lock ([`Ticket::spawn_locked`]): the group is the run's
    /// to kill. The command is dropped at once: it holds our copies of
    /// the child's pipe or terminal ends, which must close now, or
    /// reading the other end never ends.
    pub fn spawn_group(
        &self,
        mut cmd: std::process::Command,
    ) -> Result<std::io::Result<std::process::Child>, Interrupted> {
        self.spawn_locked(
            move || {
                let r = cmd.spawn();
                drop(cmd);
                r
            },
            |r| match r {
                Ok(child) => Killer::Group(Pid::from_child(child)),
                Err(_) => Killer::NotStarted,
            },
        )
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        registry().runs.remove(&self.0);
    }
}

/// Stops every live run: sets the flag, kills every program tree, removes
/// every sandbox folder. Returns the registry's guard, still locked, so
/// that no new run can start before the process ends.
fn stop_all(reason: Reason) -> MutexGuard<'static, Registry> {
    let code = match reason {
        Reason::Signal(sig) => sig,
        Reason::OutputClosed => OUTPUT_CLOSED,
    };
    let _ = STATE.compare_exchange(0, code, Ordering::SeqCst, Ordering::SeqCst);
    let reg = registry();
    for live in reg.runs.values() {
        live.killer.kill();
    }
    // The keepers' zygote and the resident keepers too: the keepers the
    // zygote forked die with it.
    conformance_sandbox::zygote::kill();
    conformance_sandbox::resident::kill_all();
    // Other threads may still be writing into a registered folder (a
    // submission being unpacked, a report being written) and can make it
    // again between removals: remove until every folder stays gone for one
    // pass, bounded, so that an interrupt leaves no half-written folder.
    for pass in 0..REMOVAL_PASSES {
        for live in reg.runs.values() {
            let _ = std::fs::remove_dir_all(&live.sandbox);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        if reg.runs.values().all(|live| !live.sandbox.exists()) && pass > 0 {
            break;
        }
    }
    reg
}

/// How many times [`stop_all`] removes the registered folders at most
/// (10 ms apart): a bound on the exit's wait, not a measured need.
const REMOVAL_PASSES: usize = 50;

/// Asks every run to stop without ending the process (the output closed:
/// the main thread unwinds and ends the command).
pub fn request(reason: Reason) {
    drop(stop_all(reason));
}

type Report = Box<dyn Fn(i32) + Send + Sync>;
static REPORT: OnceLock<Mutex<Option<Report>>> = OnceLock::new();

/// Sets what is printed when a signal interrupts the run (what finished,
/// the partial score), before the process exits.
pub fn on_interrupt(report: impl Fn(i32) + Send + Sync + 'static) {
    *REPORT
        .get_or_init(|| Mutex::new(None))
        .lock()
        .unwrap_or_else(PoisonError::into_inner) = Some(Box::new(report));
}

/// Installs the handlers for SIGINT and SIGTERM (once per process). On
/// either: every run is stopped, the report set by [`on_interrupt`] is
/// printed, and the process exits with 128 + the signal's number.
pub fn install() -> std::io::Result<()> {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
    ])?;
    let _ = INSTALLED.set(());
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            let guard = stop_all(Reason::Signal(sig));
            if let Some(report) = REPORT.get() {
                let report = report.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some(report) = report.as_ref() {
                    report(sig);
                }
            }
            let _ = std::io::Write::flush(&mut std::io::stdout());
            finish(sig, guard);
        }
    });
    Ok(())
}

/// Ends the process after an interrupt. The main thread is inside the test
/// runner, which has no way to be stopped, so the signal thread ends the
/// process itself once everything is killed and removed; the registry
/// stays locked so no run can start meanwhile.
#[expect(
    clippy::exit,
    reason = "the main thread is blocked in libtest-mimic; only this thread can end the run"
)]
fn finish(sig: i32, guard: MutexGuard<'static, Registry>) -> ! {
    let code = exit_status(sig);
    std::mem::forget(guard);
    std::process::exit(i32::from(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_follow_the_shell() {
        assert_eq!(exit_status(2), 130);
        assert_eq!(exit_status(15), 143);
    }
}
