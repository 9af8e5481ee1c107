//! Whole-process measuring shared by the references' benches (each bench
//! includes this file by path: a bench target has no other way to share a
//! module without a crate of its own): wall times, their median, and the
//! peak RSS of a child once it has done its work.

use std::fs;
use std::process::Child;
use std::thread;
use std::time::Duration;

/// A duration as seconds, four decimals.
pub fn seconds(d: Duration) -> String {
    format!("{:.4} s", d.as_secs_f64())
}

/// The median of sorted durations (the mean of the middle two for an even
/// count).
pub fn median(sorted: &[Duration]) -> Duration {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}

/// The peak resident memory of a live process, in KiB.
pub fn peak_rss_kib(pid: u32) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc status")
}

/// Waits until `child` sleeps (on its read of stdin, the only place it can
/// wait once its input is all written) and returns its peak RSS.
pub fn peak_when_waiting(child: &Child) -> u64 {
    loop {
        let stat = fs::read_to_string(format!("/proc/{}/stat", child.id())).unwrap();
        if stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('S'))
        {
            return peak_rss_kib(child.id());
        }
        thread::sleep(Duration::from_micros(200));
    }
}
