//! Resource limits of a run, named: address space (a memory hog), CPU
//! time, the largest file, open files (descriptor exhaustion), processes
//! (a fork bomb) and the bytes of its folders (a program filling its case
//! folder). The first four are `setrlimit` limits set on the program
//! before it reads its input (by the keeper, or on a process group's
//! leader right after it started). The last two are the keeper's
//! ([`crate::watchdog`]): it counts the sandbox's processes and its
//! folders' bytes while the program runs and kills the whole sandbox at
//! the limit, saying which on the program's stderr. The process limit is
//! also `RLIMIT_NPROC` inside the sandbox's user namespace (where the
//! kernel counts per sandbox; it does not bind root, the watchdog does).

use rustix::process::{Pid, Resource, Rlimit};

/// Resource limits set on the program (`None`: inherited or unbounded).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Address space, bytes.
    pub address_space: Option<u64>,
    /// CPU time, seconds.
    pub cpu_seconds: Option<u64>,
    /// Largest file the program may write, bytes.
    pub file_size: Option<u64>,
    /// Descriptors open at once.
    #[serde(default)]
    pub open_files: Option<u64>,
    /// Processes (and threads) alive at once in the sandbox.
    #[serde(default)]
    pub processes: Option<u64>,
    /// Bytes on disk under the case folder and the private temporary
    /// folder together.
    #[serde(default)]
    pub folder_bytes: Option<u64>,
}

/// The defaults, which `--max-*` options change for a whole command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Address space, bytes.
    pub memory: u64,
    /// Open descriptors.
    pub open_files: u64,
    /// Processes and threads.
    pub processes: u64,
    /// Bytes of the run's folders.
    pub folder_bytes: u64,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            memory: 4 << 30,
            open_files: 1024,
            processes: 256,
            folder_bytes: 1 << 30,
        }
    }
}

impl Limits {
    /// The limits of a run with this timeout: CPU seconds two above the
    /// timeout, 256 MiB files, and the [`Bounds`] in force ([`crate::policy`]).
    pub fn for_timeout(timeout: std::time::Duration) -> Self {
        let bounds = crate::policy::get().bounds;
        Self {
            address_space: Some(bounds.memory),
            cpu_seconds: Some(timeout.as_secs() + 2),
            file_size: Some(256 << 20),
            open_files: Some(bounds.open_files),
            processes: Some(bounds.processes),
            folder_bytes: Some(bounds.folder_bytes),
        }
    }

    /// Sets the `setrlimit` limits on `pid` (`None`: this process), all but
    /// the process count (`apply_processes`, inside the sandbox). A process that is
    /// already gone (ESRCH) has nothing to limit.
    pub fn apply(self, pid: Option<Pid>) -> std::io::Result<()> {
        set(
            pid,
            &[
                (Resource::As, self.address_space),
                (Resource::Cpu, self.cpu_seconds),
                (Resource::Fsize, self.file_size),
                (Resource::Nofile, self.open_files),
            ],
        )
    }

    /// Sets `RLIMIT_NPROC` on `pid`: only inside a sandbox's own user
    /// namespace, where the kernel counts the sandbox's processes alone
    /// (outside, it would count every process of the user).
    pub(crate) fn apply_processes(self, pid: Option<Pid>) -> std::io::Result<()> {
        set(pid, &[(Resource::Nproc, self.processes)])
    }
}

fn set(pid: Option<Pid>, pairs: &[(Resource, Option<u64>)]) -> std::io::Result<()> {
    for &(resource, value) in pairs {
        if let Some(v) = value {
            let limit = Rlimit {
                current: Some(v),
                maximum: Some(v),
            };
            match rustix::process::prlimit(pid, resource, limit) {
                Ok(_) | Err(rustix::io::Errno::SRCH) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(())
}
