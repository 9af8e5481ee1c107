//! The CPU time a run used, read from `/proc` just before its end is
//! settled: the process watched (the program, or the sandbox's keeper)
//! and every descendant still listed, each with the time of the children
//! it already reaped. A time limit checked against this does not depend on
//! what else the machine was doing, unlike wall time. A resident keeper
//! carries the time of every earlier program it ran: the watcher reads
//! the tree when the run starts too and charges only the difference.

use std::path::Path;
use std::time::Duration;

use rustix::process::Pid;

/// Processes looked at in one tree, at most: a fork bomb is not walked.
const MAX_PROCESSES: usize = 4096;

/// What `/proc` says of a process tree.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct TreeTime {
    /// CPU time (user and system, the reaped children's included) of the
    /// process and its descendants; `None` when `/proc` cannot tell.
    pub(super) cpu: Option<Duration>,
    /// Whether one of them (a thread of one) was running, waiting for a
    /// CPU or in an uninterruptible wait (state `R` or `D`): a run killed
    /// so was starved or busy, not blocked.
    pub(super) runnable: bool,
}

/// A run stopped once its CPU time reaches `after`
/// ([`super::invocation::Invocation::cpu_stop`]): the tree under `pid`,
/// less the `before` it held when the run started (a resident keeper's
/// earlier programs).
#[derive(Debug, Clone, Copy)]
pub(super) struct CpuStop {
    pub(super) after: Duration,
    pub(super) pid: Pid,
    pub(super) before: Option<Duration>,
}

impl CpuStop {
    /// How often the tree's CPU time is read: a spinning run overshoots
    /// its stop by about this much.
    pub(super) const LOOK: Duration = Duration::from_millis(20);

    /// Whether the run has used its `after` of CPU time.
    pub(super) fn reached(&self) -> bool {
        tree_time(self.pid)
            .cpu
            .is_some_and(|cpu| cpu.saturating_sub(self.before.unwrap_or_default()) >= self.after)
    }
}

/// The CPU time of `pid` and its descendants, and whether one of them
/// was runnable.
pub(super) fn tree_time(pid: Pid) -> TreeTime {
    let ticks = rustix::param::clock_ticks_per_second();
    if ticks == 0 {
        return TreeTime::default();
    }
    let mut runnable = false;
    let mut total = 0u64;
    let mut todo = vec![pid.as_raw_nonzero().get()];
    let mut seen = 0;
    while let Some(p) = todo.pop() {
        seen += 1;
        if seen > MAX_PROCESSES {
            break;
        }
        let dir = Path::new("/proc").join(p.to_string());
        let Ok(stat) = std::fs::read_to_string(dir.join("stat")) else {
            continue;
        };
        total = total.saturating_add(stat_ticks(&stat).unwrap_or(0));
        runnable =
            runnable || waits_on_the_machine(stat_state(&stat)) || a_thread_runs(&dir, &stat);
        let children =
            std::fs::read_to_string(dir.join("task").join(p.to_string()).join("children"))
                .unwrap_or_default();
        todo.extend(
            children
                .split_whitespace()
                .filter_map(|c| c.parse::<i32>().ok()),
        );
    }
    TreeTime {
        cpu: Some(Duration::from_millis(total.saturating_mul(1000) / ticks)),
        runnable,
    }
}

/// Whether a thread of the process at `dir` (`/proc/PID`), other than the
/// one its `stat` line tells of, is running or waiting for a CPU. A JVM's
/// first thread waits for the thread running `main` for the whole run, so
/// its process's own state says "sleeping" while the program runs: a JVM
/// starved by a loaded machine looked blocked, and its timeout was
/// charged without a second run (issue 53).
fn a_thread_runs(dir: &Path, stat: &str) -> bool {
    if stat_threads(stat).is_none_or(|n| n < 2) {
        return false;
    }
    let Ok(tasks) = std::fs::read_dir(dir.join("task")) else {
        return false;
    };
    tasks.flatten().take(MAX_PROCESSES).any(|task| {
        std::fs::read_to_string(task.path().join("stat"))
            .is_ok_and(|line| waits_on_the_machine(stat_state(&line)))
    })
}

/// Whether a process or thread in `state` waits for the machine rather
/// than for its input: running or waiting for a CPU (`R`), or in an
/// uninterruptible wait (`D`: a page of its executable read back from
/// disk, memory reclaimed), which a loaded machine explains. Seen: Node.js
/// killed at its 1 s limit at load 32, in `D` having used next to no CPU
/// time, charged as blocked (issue 53).
fn waits_on_the_machine(state: Option<char>) -> bool {
    matches!(state, Some('R' | 'D'))
}

/// The number of threads of a `/proc/PID/stat` line (field 20).
fn stat_threads(stat: &str) -> Option<u64> {
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    rest.split_whitespace().nth(17)?.parse().ok()
}

/// The state letter of a `/proc/PID/stat` line (field 3).
fn stat_state(stat: &str) -> Option<char> {
    stat.get(stat.rfind(')')? + 1..)?
        .trim_start()
        .chars()
        .next()
}

/// utime + stime + cutime + cstime of a `/proc/PID/stat` line (fields 14
/// to 17; the command name, field 2, may hold spaces and parentheses, so
/// the fields are counted from its last `)`).
fn stat_ticks(stat: &str) -> Option<u64> {
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (the state).
    (11..15).map(|i| fields.get(i)?.parse::<u64>().ok()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_times_are_fields_14_to_17() {
        let line = "42 (a (b) c) R 1 42 42 0 -1 4194304 10 0 0 0 7 3 2 1 20 0 1 0 5 0 0";
        assert_eq!(stat_ticks(line), Some(13));
        assert_eq!(stat_state(line), Some('R'));
        assert!(waits_on_the_machine(Some('R')) && waits_on_the_machine(Some('D')));
        assert!(!waits_on_the_machine(Some('S')) && !waits_on_the_machine(None));
        assert_eq!(stat_ticks("garbage"), None);
        assert_eq!(stat_threads(line), Some(1));
        assert_eq!(stat_threads("garbage"), None);
    }

    /// A Python process whose first thread waits for a second one, which
    /// spins (`spin`) or sleeps.
    fn joined(spin: bool) -> std::process::Child {
        let body = if spin {
            "while True: pass"
        } else {
            "time.sleep(30)"
        };
        std::process::Command::new("python3")
            .args([
                "-c",
                &format!(
                    "import threading, time\ndef f():\n    {body}\nt = threading.Thread(target=f, \
                     daemon=True)\nt.start()\nt.join()"
                ),
            ])
            .spawn()
            .unwrap()
    }

    #[test]
    fn a_thread_running_beside_a_waiting_first_thread_is_runnable() {
        for spin in [true, false] {
            let mut child = joined(spin);
            let dir = Path::new("/proc").join(child.id().to_string());
            // Started, its second thread running or asleep.
            let mut seen = false;
            for _ in 0..200 {
                std::thread::sleep(std::time::Duration::from_millis(10));
                let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
                if stat_threads(&stat) == Some(2) && stat_state(&stat) != Some('R') {
                    seen = a_thread_runs(&dir, &stat);
                    if seen || !spin {
                        break;
                    }
                }
            }
            let _ = child.kill();
            let _ = child.wait();
            assert_eq!(seen, spin, "spinning: {spin}");
        }
    }

    #[test]
    fn this_process_has_a_cpu_time() {
        let me = rustix::process::getpid();
        let t = tree_time(me);
        assert!(t.cpu.is_some());
    }
}
