//! The containment level: which one the kernel allows (`pid`, `full`,
//! `landlock`, `group`), chosen once per process by a probe, the choice
//! an operator forces, and `shortfall`'s account of what is missing.

use std::io;
use std::sync::OnceLock;
use std::time::Duration;

use crate::spec::{Layout, Spec};
use crate::{Io, Report, Reported, Streams, policy, read_report, reads, start};

/// The environment variable that turns a harness binary into a keeper; its
/// value is the JSON [`Spec`] of the program to run.
pub const KEEPER_ENV: &str = "CONFORMANCE_KEEPER";

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

/// Where the keeper finds its status folder inside the sandbox; it
/// detaches the mount once the file is open, so the program never sees it.
pub(crate) const CONTROL_MOUNT: &str = "/run/conformance-control";

/// In a mount namespace, the program's private temporary folder (a tmpfs
/// that vanishes with the run): it may write there and read it back.
pub(crate) const PRIVATE_TMP: &str = "/tmp";

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

/// Set once runs are kept at the `landlock` level: the keepers' zygote
/// this process starts seals itself too ([`seal`]).
pub(crate) static SEALED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The environment variable that tells a zygote to [`seal`] itself.
pub(crate) const SEALED_ENV: &str = "CONFORMANCE_SEALED";

/// Makes this process (the harness, a keeper, the zygote: every one holds
/// the harness's executable, and so the embedded suite, in its memory)
/// non-dumpable, so that a program under test of the same user cannot
/// read its `/proc` entries (`mem`, `maps`, `environ`): the kernel's
/// ptrace check refuses them to a process without `CAP_SYS_PTRACE`, which
/// a keeper at the `landlock` level takes away from its programs. With no
/// PID namespace, this is what hides them.
pub(crate) fn seal() {
    let _ = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
}

/// Set by [`keeper_mode`]: this executable's `main` hands control to the
/// keeper when started as one, so it can be re-run as a sandbox's keeper.
pub(crate) static KEEPER_CAPABLE: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// The containment of this process's runs, decided once: the choice of
/// [`CONTAINMENT_ENV`], then a probe that starts a keeper in namespaces.
/// The fall-back is announced once on stderr.
pub fn containment() -> &'static Containment {
    static CHOSEN: OnceLock<Containment> = OnceLock::new();
    CHOSEN.get_or_init(|| {
        // The keeper is this executable re-run: one whose `main` never
        // called [`keeper_mode`] (a test binary calling the engine
        // in-process) would run its own `main` instead, so it runs its
        // programs in process groups, quietly.
        if !KEEPER_CAPABLE.load(std::sync::atomic::Ordering::Relaxed) {
            return Containment::ProcessGroup(
                "this executable cannot act as the sandbox's keeper".to_owned(),
            );
        }
        let wanted = std::env::var(CONTAINMENT_ENV).unwrap_or_default();
        let chosen = match wanted.as_str() {
            "group" => Containment::ProcessGroup(format!("{CONTAINMENT_ENV}=group")),
            // The network namespace is opt-in: its creation and tear-down
            // cost more than the rest of a run (see docs/containment.md
            // for the numbers).
            // Landlock where the kernel has it: a mount namespace costs
            // tens of milliseconds per run.
            "" | "pid" => {
                let namespaces = Containment::Namespaces {
                    network: true,
                    landlock: true,
                };
                match probe(namespaces) {
                    Containment::ProcessGroup(_) => match probe(Containment::Namespaces {
                        network: true,
                        landlock: false,
                    }) {
                        // Namespaces refused (a container): Landlock alone.
                        Containment::ProcessGroup(why) => probe(Containment::Landlock(why)),
                        chosen => chosen,
                    },
                    chosen => chosen,
                }
            }
            "full" => probe(Containment::Namespaces {
                network: false,
                landlock: false,
            }),
            "landlock" => probe(Containment::Landlock(format!("{CONTAINMENT_ENV}=landlock"))),
            // [`check_choice`] stopped the command before any run.
            other => Containment::ProcessGroup(format!(
                "{CONTAINMENT_ENV}={other} is not one of {}",
                LEVELS.join(", ")
            )),
        };
        match &chosen {
            Containment::ProcessGroup(_) if wanted != "group" => {
                eprintln!("{}: {}", own_name(), chosen.describe());
            }
            // Chosen or fallen back to, it says what it cannot promise.
            Containment::Landlock(_) => {
                seal();
                SEALED.store(true, std::sync::atomic::Ordering::Relaxed);
                eprintln!("{}: {}", own_name(), chosen.describe());
            }
            Containment::Namespaces { .. } if !reads::available() => eprintln!(
                "{}: containment: reads are not narrowed (this kernel lacks Landlock): \
                 programs may read the whole file system",
                own_name()
            ),
            _ => {}
        }
        chosen
    })
}

/// What the default containment promises and this process's runs do not
/// get, in words (`None`: they get all of it): a process group instead of
/// namespaces, or reads not narrowed (no Landlock). `mark` refuses to run
/// without `--allow-weaker-containment` when there is any.
pub fn shortfall() -> Option<String> {
    level_shortfall().or_else(readable_harness)
}

/// What the containment level itself lacks.
pub(crate) fn level_shortfall() -> Option<String> {
    match containment() {
        Containment::ProcessGroup(why) => Some(format!(
            "programs would run in a process group only ({why}): they could read and write \
             what the harness can and signal it"
        )),
        Containment::Namespaces { .. } if !reads::available() => {
            Some("this kernel lacks Landlock: programs could read the whole file system".to_owned())
        }
        Containment::Landlock(_) if !reads::scopes_signals() => Some(
            "this kernel's Landlock predates signal scoping (ABI 6): with no PID namespace, \
             programs could signal the harness and its keeper, and leave processes behind"
                .to_owned(),
        ),
        // Reads and writes confined by Landlock and no socket: what `mark`
        // needs (the header says what this level cannot promise).
        Containment::Namespaces { .. } | Containment::Landlock(_) => None,
    }
}

/// The harness's own executable, when it lies in a folder every program
/// may read (`/usr/local/bin` after a `sudo pip install`): it embeds the
/// suites, and so the expected outputs.
pub(crate) fn readable_harness() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let exe = std::fs::canonicalize(&exe).unwrap_or(exe);
    reads::system()
        .iter()
        .any(|dir| dir.is_dir() && exe.starts_with(dir))
        .then(|| {
            format!(
                "this executable, {}, lies in a folder every program may read, and it embeds \
                 the suites with their expected outputs: install it elsewhere (a virtual \
                 environment, /opt; docs/install.md)",
                exe.display()
            )
        })
}

/// Whether `fd` is readable (or hung up), waiting up to `timeout` (`None`:
/// as long as it takes). An interrupted wait counts as not yet.
pub(crate) fn readable(fd: impl std::os::fd::AsFd, timeout: Option<Duration>) -> io::Result<bool> {
    let timeout = timeout.map(|t| rustix::event::Timespec {
        tv_sec: i64::try_from(t.as_secs()).unwrap_or(i64::MAX),
        tv_nsec: i64::from(t.subsec_nanos()),
    });
    let mut fds = [rustix::event::PollFd::new(
        &fd,
        rustix::event::PollFlags::IN,
    )];
    match rustix::event::poll(&mut fds, timeout.as_ref()) {
        Ok(n) => Ok(n > 0),
        Err(rustix::io::Errno::INTR) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// The name this executable was started as, for messages of the engine
/// that come before any command line is parsed.
pub(crate) fn own_name() -> String {
    std::env::args_os()
        .next()
        .map(std::path::PathBuf::from)
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default()
}

/// Starts one keeper that runs nothing at `level`: its namespaces (and
/// its Landlock rules) work if it reports.
pub(crate) fn probe(level: Containment) -> Containment {
    let result = (|| -> Result<(), String> {
        let dir = tempfile::Builder::new()
            .prefix("conformance-probe-")
            .tempdir()
            .map_err(|e| format!("no temporary folder: {e}"))?;
        let layout = Layout::for_containment(dir.path(), &level).map_err(|e| e.to_string())?;
        let streams = Streams {
            stdin: Io::Inherit,
            stdout: Io::Inherit,
            stderr: Io::Inherit,
        };
        let mut kept = start(&layout, &Spec::probe(&layout), &level, &[], streams)
            .map_err(|e| format!("the kernel refused namespaces ({e})"))?;
        let ended = kept
            .wait()
            .map_err(|e| format!("the kernel refused namespaces ({e})"))?;
        match read_report(&layout) {
            Some(Report {
                ending: Reported::Probe,
                ..
            }) => Ok(()),
            Some(Report {
                ending: Reported::ConfineFailed(why),
                ..
            }) => Err(why),
            _ => Err(format!("the kernel refused namespaces ({})", ended.trim())),
        }
    })();
    match (result, level) {
        (Ok(()), level) => level,
        (Err(why), Containment::Landlock(before)) => {
            Containment::ProcessGroup(format!("{before}, and {why}"))
        }
        (Err(why), _) => Containment::ProcessGroup(why),
    }
}
