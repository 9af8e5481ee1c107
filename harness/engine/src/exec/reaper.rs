//! Reaping what outlives its run: a keeper whose streams closed (its end,
//! see `exec/run/supervise.rs`) may still be tearing down its namespaces, which
//! the kernel does slowly. The run does not wait for it; one thread for the
//! whole process reaps such keepers in turn, so no run starts a thread of
//! its own and no zombie accumulates over thousands of runs.

use std::sync::OnceLock;
use std::sync::mpsc::{self, SendError, Sender};
use std::thread;

/// A wait for one process.
type Job = Box<dyn FnOnce() + Send>;

/// The reaper's queue (`None`: its thread could not be started).
static QUEUE: OnceLock<Option<Sender<Job>>> = OnceLock::new();

/// Runs `wait` (a blocking wait for a process) on the reaper's thread, or
/// here if there is none.
pub fn later(wait: impl FnOnce() + Send + 'static) {
    let queue = QUEUE.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("reaper".to_owned())
            .spawn(move || {
                for job in rx {
                    job();
                }
            })
            .ok()
            .map(|_| tx)
    });
    let job: Job = Box::new(wait);
    match queue {
        Some(tx) => {
            if let Err(SendError(job)) = tx.send(job) {
                job();
            }
        }
        None => job(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;
    use std::time::Duration;

    #[test]
    fn a_process_handed_over_is_reaped_off_this_thread() {
        let mut child = Command::new("/bin/sh")
            .args(["-c", "sleep 0.2"])
            .spawn()
            .unwrap();
        let (tx, rx) = mpsc::channel();
        later(move || {
            let on = thread::current().name().map(str::to_owned);
            let _ = tx.send((on, child.wait().map(|s| s.success()).ok()));
        });
        assert_eq!(
            rx.recv_timeout(Duration::from_secs(10)),
            Ok((Some("reaper".to_owned()), Some(true))),
        );
    }
}
