//! The containment levels (`pid`, `full`, `landlock`, `group`): the
//! [`Containment`] a run is kept at, the environment variable an operator
//! chooses one with ([`CONTAINMENT_ENV`], checked by [`check_choice`]),
//! and each level's account of itself for people. Which level this
//! process's runs get is the probe's ([`crate::probe`]), near the top.
//!
//! Low in the sandbox's order (docs/architecture.md): it imports only
//! [`policy`] and [`reads`], for what a level's description says.

use crate::{policy, reads};

/// The environment variable that chooses the containment: `pid` (the
/// default: user and PID namespaces, reads and writes confined by
/// Landlock, no network), `full` (PID, mount, IPC and network namespaces
/// too), `landlock` (no namespace: Landlock and the seccomp filter), or
/// `group` (a process group only).
pub const CONTAINMENT_ENV: &str = "CONFORMANCE_CONTAINMENT";

/// The values [`CONTAINMENT_ENV`] takes.
pub const LEVELS: [&str; 4] = ["pid", "full", "landlock", "group"];

/// Checks [`CONTAINMENT_ENV`] before anything runs: `Err` names the value
/// and the levels, for the caller's usage error (exit 2). An unknown
/// level never quietly becomes a weaker one.
pub fn check_choice() -> Result<(), String> {
    match std::env::var_os(CONTAINMENT_ENV) {
        None => Ok(()),
        Some(v) if v.is_empty() || LEVELS.iter().any(|l| v == *l) => Ok(()),
        Some(v) => Err(format!(
            "{CONTAINMENT_ENV}={} is not a containment level: one of {}",
            v.to_string_lossy(),
            LEVELS.join(", ")
        )),
    }
}

/// How runs are contained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Containment {
    /// Namespaces: PID, then either Landlock rules or a mount namespace
    /// (read-only file system), and network unless `network` says the
    /// host's network is shared.
    Namespaces {
        /// The host's network is visible (the `pid` choice).
        network: bool,
        /// Writes are confined by Landlock, with no mount namespace.
        landlock: bool,
    },
    /// No namespace (the `landlock` level): the Landlock read and write
    /// rules and the seccomp filter of the default level, the limits, and
    /// a keeper leading a process group of its own, the subreaper of what
    /// the program starts. With the reason it was chosen.
    Landlock(String),
    /// A process group only, with the reason namespaces are not used.
    ProcessGroup(String),
}

impl Containment {
    /// One line for people: what protects the harness from the program.
    pub fn describe(&self) -> String {
        let reads = if reads::available() {
            "reads: the system, the case folder and the program's own files"
        } else {
            "reads: the whole file system (no Landlock)"
        };
        let network = if policy::get().allow_network {
            "the host's network (--allow-network)"
        } else {
            "no network"
        };
        match self {
            Containment::Namespaces {
                network: true,
                landlock: true,
            } => format!(
                "containment: PID namespace and Landlock ({reads}; writes: the case folder \
                 and a private TMPDIR; {network})"
            ),
            Containment::Namespaces { network: false, .. } => format!(
                "containment: PID, mount, IPC and network namespaces ({reads}; writes: the \
                 case folder and a private /tmp; no network)"
            ),
            Containment::Namespaces { network: true, .. } => format!(
                "containment: PID and mount namespaces ({reads}; writes: the case folder and \
                 a private /tmp; {network})"
            ),
            Containment::Landlock(why) => format!(
                "containment: Landlock without namespaces, because {why} ({reads}; writes: the \
                 case folder and a private TMPDIR; {network}; no PID namespace: a program sees \
                 the host's processes, and the environment of its user's, and its daemons die \
                 with the run unless its keeper is killed outright)"
            ),
            Containment::ProcessGroup(why) => {
                format!("containment: process group only, because {why}")
            }
        }
    }

    /// Whether runs at this level are kept without namespaces: the keeper
    /// leads a process group and reaps orphans instead of being PID 1.
    pub(crate) fn without_namespaces(&self) -> bool {
        matches!(self, Containment::Landlock(_))
    }
}
