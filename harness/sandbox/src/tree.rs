//! The keeper's process tree: every live process below it, found through
//! `/proc`. The keeper is PID 1 of its namespace, so whatever the program
//! left behind (`setsid` daemons included) is its descendant. Walking the
//! tree from `/proc/self` works whether `/proc` is the sandbox's own (a
//! mount namespace) or the host's (the Landlock level, where `/proc` lists
//! every process of the machine and scanning it all would cost far more).
//!
//! At the bottom of the sandbox's order (docs/architecture.md): it
//! imports nothing of the crate.

use std::fs;

/// A live process below the keeper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Descendant {
    /// Its number in the `/proc` the keeper sees.
    pub proc_pid: u32,
    /// Its number inside the sandbox's PID namespace.
    pub pid: u32,
}

/// Every live (not zombie) process below this one.
pub fn descendants() -> Vec<Descendant> {
    let Some(me) = fs::read_link("/proc/self")
        .ok()
        .and_then(|p| p.to_str().and_then(|s| s.parse::<u32>().ok()))
    else {
        return Vec::new();
    };
    let mut seen: Vec<u32> = Vec::new();
    let mut pending = vec![me];
    while let Some(pid) = pending.pop() {
        for child in children(pid) {
            if child != me && !seen.contains(&child) {
                seen.push(child);
                pending.push(child);
            }
        }
    }
    seen.into_iter()
        .filter(|&p| !is_zombie(p))
        .map(|proc_pid| Descendant {
            proc_pid,
            pid: namespace_pid(proc_pid).unwrap_or(proc_pid),
        })
        .collect()
}

/// How many processes live below this one (zombies included), counting
/// no further than `limit + 1`: the keeper's watch asks it every few
/// milliseconds, and a fork bomb's whole tree would take longer to walk
/// than it takes to grow.
pub fn count_below(limit: usize) -> usize {
    let Some(me) = fs::read_link("/proc/self")
        .ok()
        .and_then(|p| p.to_str().and_then(|s| s.parse::<u32>().ok()))
    else {
        return 0;
    };
    let mut count = 0;
    let mut pending = vec![me];
    while let Some(pid) = pending.pop() {
        for child in children(pid) {
            if child != me {
                count += 1;
                if count > limit {
                    return count;
                }
                pending.push(child);
            }
        }
    }
    count
}

/// The resident memory of every process below this one together, bytes
/// (a process's pages shared with another count for each).
pub fn resident_below() -> u64 {
    let page = u64::try_from(rustix::param::page_size()).unwrap_or(4096);
    descendants()
        .iter()
        .filter_map(|d| {
            let statm = fs::read_to_string(format!("/proc/{}/statm", d.proc_pid)).ok()?;
            statm.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .sum::<u64>()
        * page
}

/// The children of `pid`, from each of its threads' `children` file; where
/// the kernel has none (built without `CONFIG_PROC_CHILDREN`), from the
/// parent field of every process.
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for task in tasks.flatten() {
        match fs::read_to_string(task.path().join("children")) {
            Ok(text) => out.extend(
                text.split_whitespace()
                    .filter_map(|n| n.parse::<u32>().ok()),
            ),
            Err(_) => return children_by_scan(pid),
        }
    }
    out
}

fn children_by_scan(pid: u32) -> Vec<u32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()))
        .filter(|&p| stat_fields(p).and_then(|f| f.get(1)?.parse::<u32>().ok()) == Some(pid))
        .collect()
}

/// The fields of `/proc/PID/stat` after the command name, from the state.
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let text = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = text.rsplit_once(") ")?;
    Some(rest.split_whitespace().map(str::to_owned).collect())
}

/// A zombie is already dead, only not yet reaped.
fn is_zombie(pid: u32) -> bool {
    stat_fields(pid).is_some_and(|f| f.first().is_some_and(|s| s == "Z"))
}

/// The innermost of the `NSpid` numbers: the number inside the sandbox.
fn namespace_pid(pid: u32) -> Option<u32> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("NSpid:"))?;
    line.split_whitespace().last()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_stops_past_the_limit() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "exec 3<&0; cat <&3 & cat <&3 & wait"])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut seen = (0, 0);
        for _ in 0..500 {
            seen = (count_below(1), count_below(100));
            if seen.1 >= 3 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        drop(child.stdin.take());
        let _ = child.wait();
        // Past the limit of 1 it stops at 2; unbounded it finds the shell
        // and both `cat`s (and whatever other tests run at the moment).
        assert_eq!(seen.0, 2);
        assert!(seen.1 >= 3, "{seen:?}");
    }

    #[test]
    fn a_child_and_its_child_are_found() {
        // The shell's `cat` ends when its stdin closes, and the shell with
        // it (a background job's own stdin would be `/dev/null`).
        let mut child = std::process::Command::new("sh")
            .args(["-c", "exec 3<&0; cat <&3 & wait"])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let own = child.id();
        let mut found = Vec::new();
        for _ in 0..500 {
            found = descendants();
            if found.len() >= 2 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        drop(child.stdin.take());
        let _ = child.wait();
        assert!(found.iter().any(|d| d.proc_pid == own), "{found:?}");
        assert!(found.len() >= 2, "{found:?}");
        assert!(found.iter().all(|d| d.pid == d.proc_pid), "{found:?}");
    }
}
