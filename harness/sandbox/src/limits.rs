//! Resource limits of a run: address space, CPU time and file size, set
//! on the program before it starts (by the keeper on itself, or on a
//! process group's leader right after it started).

use rustix::process::{Pid, Resource, Rlimit};

/// Resource limits set on the program (`None`: inherited).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Address space, bytes.
    pub address_space: Option<u64>,
    /// CPU time, seconds.
    pub cpu_seconds: Option<u64>,
    /// Largest file the program may write, bytes.
    pub file_size: Option<u64>,
}

impl Limits {
    /// The defaults for a run with this timeout: 4 GiB of address space,
    /// CPU seconds two above the timeout, 256 MiB files.
    pub fn for_timeout(timeout: std::time::Duration) -> Self {
        Self {
            address_space: Some(4 << 30),
            cpu_seconds: Some(timeout.as_secs() + 2),
            file_size: Some(256 << 20),
        }
    }

    /// Sets the limits on `pid` (`None`: this process). A process that is
    /// already gone (ESRCH) has nothing to limit.
    pub fn apply(self, pid: Option<Pid>) -> std::io::Result<()> {
        let pairs = [
            (Resource::As, self.address_space),
            (Resource::Cpu, self.cpu_seconds),
            (Resource::Fsize, self.file_size),
        ];
        for (resource, value) in pairs {
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
}
