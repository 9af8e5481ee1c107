//! What the caller widens for every program of this process: more
//! folders to read (`--allow-read`, [`ALLOW_READ_ENV`]) and the host's
//! network (`--allow-network`). Set once by the command line before the
//! first run; read by whatever builds a run's [`crate::Spec`].

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

/// A `:`-separated list of paths every program under test may also read.
pub const ALLOW_READ_ENV: &str = "CONFORMANCE_ALLOW_READ";

/// The widenings in force.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    /// Paths (files or folders) programs may read besides their own.
    pub allow_read: Vec<PathBuf>,
    /// Programs may use the host's network.
    pub allow_network: bool,
}

static POLICY: Mutex<Option<Policy>> = Mutex::new(None);

/// Sets the widenings of this process: `allow_read` with what
/// [`ALLOW_READ_ENV`] names added (absolute paths; a relative one is taken
/// from the current folder).
pub fn set(mut allow_read: Vec<PathBuf>, allow_network: bool) {
    if let Some(list) = std::env::var_os(ALLOW_READ_ENV) {
        allow_read.extend(std::env::split_paths(&list).filter(|p| !p.as_os_str().is_empty()));
    }
    let allow_read = allow_read
        .into_iter()
        .map(|p| std::path::absolute(&p).unwrap_or(p))
        .collect();
    *POLICY.lock().unwrap_or_else(PoisonError::into_inner) = Some(Policy {
        allow_read,
        allow_network,
    });
}

/// The widenings in force (none until [`set`], except what
/// [`ALLOW_READ_ENV`] names).
pub fn get() -> Policy {
    let mut guard = POLICY.lock().unwrap_or_else(PoisonError::into_inner);
    if guard.is_none() {
        drop(guard);
        set(Vec::new(), false);
        guard = POLICY.lock().unwrap_or_else(PoisonError::into_inner);
    }
    guard.clone().unwrap_or_default()
}
