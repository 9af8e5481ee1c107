//! The CPU time a run used, read from `/proc` just before its end is
//! settled: the process watched (the program, or the sandbox's keeper)
//! and every descendant still listed, each with the time of the children
//! it already reaped. A time limit checked against this does not depend on
//! what else the machine was doing, unlike wall time.

use std::path::Path;
use std::time::Duration;

use rustix::process::Pid;

/// Processes looked at in one tree, at most: a fork bomb is not walked.
const MAX_PROCESSES: usize = 4096;

/// The CPU time (user and system, the reaped children's included) of
/// `pid` and its descendants; `None` when `/proc` cannot tell.
pub(super) fn tree_cpu(pid: Pid) -> Option<Duration> {
    let ticks = rustix::param::clock_ticks_per_second();
    if ticks == 0 {
        return None;
    }
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
        let children =
            std::fs::read_to_string(dir.join("task").join(p.to_string()).join("children"))
                .unwrap_or_default();
        todo.extend(
            children
                .split_whitespace()
                .filter_map(|c| c.parse::<i32>().ok()),
        );
    }
    Some(Duration::from_millis(total.saturating_mul(1000) / ticks))
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
        assert_eq!(stat_ticks("garbage"), None);
    }

    #[test]
    fn this_process_has_a_cpu_time() {
        let me = rustix::process::getpid();
        assert!(tree_cpu(me).is_some());
    }
}
