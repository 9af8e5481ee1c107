//! What the caller widens for every program of this process: more
//! folders to read (`--allow-read`, [`ALLOW_READ_ENV`]) and the host's
//! network (`--allow-network`), and the resource [`Bounds`] of every run
//! (`--max-*`). Set once by the command line before the first run; read
//! by whatever builds a run's [`crate::Spec`] and its
//! [`crate::Limits`].
//!
//! At the bottom of the sandbox's order (docs/architecture.md): it
//! imports nothing of the crate.

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

/// A `:`-separated list of paths every program under test may also read.
pub const ALLOW_READ_ENV: &str = "CONFORMANCE_ALLOW_READ";

/// Set to `1`: programs under test may use the host's network.
pub const ALLOW_NETWORK_ENV: &str = "CONFORMANCE_ALLOW_NETWORK";

/// The resource bounds a harness passes to the harnesses it starts
/// (`mark`'s checks): four numbers, `memory,open-files,processes,folder`
/// (bytes, count, count, bytes).
const BOUNDS_ENV: &str = "CONFORMANCE_BOUNDS";

/// The bounds given by the harness that started this one, else the
/// defaults.
pub fn inherited_bounds() -> Bounds {
    let given = std::env::var(BOUNDS_ENV).ok().and_then(|text| {
        let n: Vec<u64> = text
            .split(',')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        match n[..] {
            [memory, open_files, processes, folder_bytes] => Some(Bounds {
                memory,
                open_files,
                processes,
                folder_bytes,
            }),
            _ => None,
        }
    });
    given.unwrap_or_default()
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

/// The widenings in force.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    /// Paths (files or folders) programs may read besides their own.
    pub allow_read: Vec<PathBuf>,
    /// Programs may use the host's network.
    pub allow_network: bool,
    /// The resource limits of every run.
    pub bounds: Bounds,
}

static POLICY: Mutex<Option<Policy>> = Mutex::new(None);

/// Sets the widenings of this process: `allow_read` with what
/// [`ALLOW_READ_ENV`] names added (absolute paths; a relative one is taken
/// from the current folder).
pub fn set(mut allow_read: Vec<PathBuf>, allow_network: bool, bounds: Bounds) {
    let allow_network =
        allow_network || std::env::var_os(ALLOW_NETWORK_ENV).is_some_and(|v| v == "1");
    if let Some(list) = std::env::var_os(ALLOW_READ_ENV) {
        allow_read.extend(std::env::split_paths(&list).filter(|p| !p.as_os_str().is_empty()));
    }
    let allow_read = distinct(
        allow_read
            .into_iter()
            .map(|p| std::path::absolute(&p).unwrap_or(p)),
    );
    *POLICY.lock().unwrap_or_else(PoisonError::into_inner) = Some(Policy {
        allow_read,
        allow_network,
        bounds,
    });
}

/// Each path once, in the order first given: the environment is read
/// again each time the policy is widened (a folder pack's `containment:`),
/// and a run's header names every path.
fn distinct(paths: impl Iterator<Item = PathBuf>) -> Vec<PathBuf> {
    let mut seen = std::collections::BTreeSet::new();
    paths.filter(|p| seen.insert(p.clone())).collect()
}

/// The widenings in force (none until [`set`], except what
/// [`ALLOW_READ_ENV`] names).
pub fn get() -> Policy {
    let mut guard = POLICY.lock().unwrap_or_else(PoisonError::into_inner);
    if guard.is_none() {
        drop(guard);
        set(Vec::new(), false, inherited_bounds());
        guard = POLICY.lock().unwrap_or_else(PoisonError::into_inner);
    }
    guard.clone().unwrap_or_default()
}

impl Policy {
    /// One line for a run's header when anything is widened.
    pub fn describe(&self) -> Option<String> {
        let mut said = Vec::new();
        if self.allow_network {
            said.push(
                "programs under test may use the host's network (--allow-network)".to_owned(),
            );
        }
        if !self.allow_read.is_empty() {
            let paths: Vec<String> = self
                .allow_read
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            said.push(format!(
                "programs under test may also read {} (--allow-read)",
                paths.join(", ")
            ));
        }
        (!said.is_empty()).then(|| said.join("; "))
    }

    /// The environment that gives a harness this process starts (`mark`'s
    /// checks) the same widenings.
    pub fn child_env(&self) -> Vec<(&'static str, std::ffi::OsString)> {
        let mut env = Vec::new();
        if let Ok(list) = std::env::join_paths(&self.allow_read) {
            env.push((ALLOW_READ_ENV, list));
        }
        env.push((
            ALLOW_NETWORK_ENV,
            if self.allow_network { "1" } else { "0" }.into(),
        ));
        let b = self.bounds;
        env.push((
            BOUNDS_ENV,
            format!(
                "{},{},{},{}",
                b.memory, b.open_files, b.processes, b.folder_bytes
            )
            .into(),
        ));
        env
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_policy_says_what_it_widens_and_passes_its_bounds_on() {
        let policy = Policy {
            allow_read: vec![PathBuf::from("/opt/py"), PathBuf::from("/srv/data")],
            allow_network: true,
            bounds: Bounds {
                memory: 1 << 30,
                open_files: 64,
                processes: 32,
                folder_bytes: 8 << 20,
            },
        };
        assert_eq!(
            policy.describe().as_deref(),
            Some(
                "programs under test may use the host's network (--allow-network); programs \
                 under test may also read /opt/py, /srv/data (--allow-read)"
            )
        );
        assert_eq!(Policy::default().describe(), None);
        let env = policy.child_env();
        let get = |name: &str| env.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone());
        assert_eq!(get(ALLOW_READ_ENV), Some("/opt/py:/srv/data".into()));
        assert_eq!(get(ALLOW_NETWORK_ENV), Some("1".into()));
        assert_eq!(get(BOUNDS_ENV), Some("1073741824,64,32,8388608".into()));
    }

    #[test]
    fn a_path_given_again_is_kept_once_in_its_first_place() {
        let paths = ["/srv/data", "/opt/py", "/srv/data", "/opt/py"].map(PathBuf::from);
        assert_eq!(
            distinct(paths.into_iter()),
            ["/srv/data", "/opt/py"].map(PathBuf::from)
        );
    }
}
