//! Containment of a run: where the kernel allows it, each program runs in
//! namespaces of its own:
//!
//! - a PID namespace, so that every process the program starts (`setsid`
//!   daemons included) dies with the case, and none can see or signal the
//!   harness;
//! - at the default `pid` level, a user namespace and Landlock rules
//!   ([`confine`]) that leave the file system read-only except the case
//!   folder and a private temporary folder (named by `TMPDIR`; `/tmp`
//!   itself is read-only); the keeper makes these itself ([`keeper`]);
//!   where the kernel lacks Landlock (ABI 3 or later), a mount namespace
//!   instead;
//! - with `full` (opt-in: it costs more than the rest of a run), a mount
//!   namespace in which the file system is read-only except the case
//!   folder and a private `/tmp`, and IPC and network namespaces with no
//!   interface up. The `hakoniwa` crate builds these (our crates deny
//!   `unsafe`, and mount set-up needs much of it);
//! - at every namespace level: a program under test reads only an
//!   allow-list ([`reads`]: Landlock rules it puts on itself before
//!   `exec`, so the keeper can still start the built-in reference), no
//!   socket can be made (`network`: a seccomp filter, unless
//!   [`policy`] allows the network), and the keeper's `watchdog` holds
//!   the run to its process and folder limits ([`Limits`]).
//!
//! Inside, the first process (PID 1) is not the program but this very
//! executable in *keeper* mode ([`keeper_mode`]), which starts the program
//! and reports how it ended ([`Report`]). Callers start a sandbox with
//! [`start`]; a caller that reuses a run's folders keeps a [`resident`]
//! keeper with them, and one that runs many keepers shares a [`zygote`].
//!
//! Where namespaces are refused (some containers, Gradescope's), runs
//! fall back to the `landlock` level: no namespace, but the same Landlock
//! read and write rules and seccomp filter, the limits, a process group
//! of the keeper's own, and a keeper that is the *subreaper* of what the
//! program starts (so `setsid` daemons come back to it and die with the
//! run). Where Landlock is missing too, a process group only; the harness
//! says so once.
//!
//! Past 600 lines: the `landlock` level (issue 38) and `shortfall`'s
//! checks grew it from 571 to 700; the level chooser, its probe and
//! `shortfall` are one concept and should move together into a module of
//! their own, which is left to the next change of this crate.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

pub mod confine;
mod keeper;
mod limits;
mod network;
pub mod policy;
pub mod reads;
mod report;
pub mod resident;
mod start;
mod tree;
mod watchdog;
mod wire;
pub mod zygote;

pub use keeper::keeper_mode;
pub use limits::{Bounds, Limits, reserves_address_space};
pub use report::{LeftBehind, Report, Reported, read_report, started};
pub use start::{Io, Kept, Streams, start, start_with};

/// Marks every descriptor above 2 close-on-exec, so that no program this
/// process starts inherits one: a program under test gets its fds 0, 1 and
/// 2 and nothing else, whatever the caller of the harness left open
/// (a shell's `7>file`, a CI runner's pipes, a socket). Called first thing
/// by every binary that runs programs and by every keeper before it starts
/// one; the program's own streams are dup'ed onto 0-2 by `spawn`.
pub fn seal_inherited_fds() {
    close_fds::set_fds_cloexec_threadsafe(3, &[]);
}

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
const CONTROL_MOUNT: &str = "/run/conformance-control";

/// In a mount namespace, the program's private temporary folder (a tmpfs
/// that vanishes with the run): it may write there and read it back.
const PRIVATE_TMP: &str = "/tmp";

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
static SEALED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The environment variable that tells a zygote to [`seal`] itself.
const SEALED_ENV: &str = "CONFORMANCE_SEALED";

/// Makes this process (the harness, a keeper, the zygote: every one holds
/// the harness's executable, and so the embedded suite, in its memory)
/// non-dumpable, so that a program under test of the same user cannot
/// read its `/proc` entries (`mem`, `maps`, `environ`): the kernel's
/// ptrace check refuses them to a process without `CAP_SYS_PTRACE`, which
/// a keeper at the `landlock` level takes away from its programs. With no
/// PID namespace, this is what hides them.
fn seal() {
    let _ = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
}

/// Set by [`keeper_mode`]: this executable's `main` hands control to the
/// keeper when started as one, so it can be re-run as a sandbox's keeper.
static KEEPER_CAPABLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

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
fn level_shortfall() -> Option<String> {
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
fn readable_harness() -> Option<String> {
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
fn own_name() -> String {
    std::env::args_os()
        .next()
        .map(std::path::PathBuf::from)
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default()
}

/// Starts one keeper that runs nothing at `level`: its namespaces (and
/// its Landlock rules) work if it reports.
fn probe(level: Containment) -> Containment {
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

/// A run's folders: the case folder the program works in, and the status
/// folder only the keeper writes.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The case folder: the program's working directory, its only
    /// writable place besides `/tmp`.
    pub work: PathBuf,
    /// The keeper's status folder.
    pub control: PathBuf,
    /// Where the sandbox's root file system is assembled (inside the run's
    /// folder, so that removing that folder removes everything).
    pub rootfs: PathBuf,
    /// The program's private temporary folder (`TMPDIR`) at the Landlock
    /// level; with a mount namespace, `/tmp` is private instead.
    pub tmp: Option<PathBuf>,
}

impl Layout {
    /// Makes the folders of a run in a mount namespace inside `root`.
    pub fn new(root: &Path) -> io::Result<Self> {
        let work = root.join("case");
        let control = root.join("control");
        let rootfs = root.join("rootfs");
        fs::create_dir(&work)?;
        fs::create_dir(&control)?;
        fs::create_dir(&rootfs)?;
        Ok(Self {
            work,
            control,
            rootfs,
            tmp: None,
        })
    }

    /// Makes the folders of a run confined by Landlock inside `root`: no
    /// root file system to assemble, and `root` itself is the status
    /// folder (the rules leave it read-only to the program). Every folder
    /// more is a `mkdir` and an `rmdir` per case, which a busy disk makes
    /// slow.
    pub fn confined(root: &Path) -> io::Result<Self> {
        let work = root.join("case");
        let tmp = root.join("tmp");
        fs::create_dir(&work)?;
        fs::create_dir(&tmp)?;
        Ok(Self {
            work,
            control: root.to_owned(),
            rootfs: root.to_owned(),
            tmp: Some(tmp),
        })
    }

    /// The one folder of a run in a process group: `root` itself is the
    /// case folder (no keeper, so no status folder).
    pub fn group(root: &Path) -> Self {
        Self {
            work: root.to_owned(),
            control: root.to_owned(),
            rootfs: root.to_owned(),
            tmp: None,
        }
    }

    /// The folders of a run contained as `containment` says, made inside
    /// `root`.
    pub fn for_containment(root: &Path, containment: &Containment) -> io::Result<Self> {
        match containment {
            Containment::ProcessGroup(_) => Ok(Self::group(root)),
            Containment::Namespaces { landlock: true, .. } | Containment::Landlock(_) => {
                Self::confined(root)
            }
            Containment::Namespaces {
                landlock: false, ..
            } => Self::new(root),
        }
    }
}

impl Layout {
    /// Empties the folders of a finished run for the next one: the case
    /// folder and the private temporary folder lose their contents and get
    /// back their first permissions, and the keeper's files are emptied
    /// (not removed: on some file systems making a file or folder costs
    /// far more than emptying one). `Err`: the layout cannot be reused
    /// (something in it cannot be removed), and should be removed whole.
    pub fn recycle(&self) -> io::Result<()> {
        use std::os::unix::fs::PermissionsExt as _;
        for dir in std::iter::once(&self.work).chain(&self.tmp) {
            fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
            for entry in fs::read_dir(dir)? {
                let entry = entry?;
                if entry.file_type()?.is_dir() {
                    fs::remove_dir_all(entry.path())?;
                } else {
                    fs::remove_file(entry.path())?;
                }
            }
        }
        if self.control != self.work {
            for name in [report::STATUS_FILE, report::STARTED_FILE] {
                match fs::OpenOptions::new()
                    .write(true)
                    .truncate(true)
                    .open(self.control.join(name))
                {
                    Ok(_) => {}
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(())
    }
}

/// What the keeper runs, passed in [`KEEPER_ENV`] as JSON (bytes, since
/// paths and arguments need not be UTF-8).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "a message on the wire: each flag is an independent choice of the caller"
)]
pub struct Spec {
    /// The program; empty for a probe.
    program: Vec<u8>,
    args: Vec<Vec<u8>>,
    env: Vec<(Vec<u8>, Vec<u8>)>,
    cwd: Vec<u8>,
    /// How long processes left behind may keep the output open after the
    /// program exited, milliseconds.
    grace_ms: u64,
    /// At the Landlock level: where the keeper writes and what the
    /// program may write (absent: a mount namespace, whose control folder
    /// is mounted at [`CONTROL_MOUNT`]).
    #[serde(default)]
    confine: Option<Confine>,
    /// Set by the keeper on itself, and so inherited by the program.
    #[serde(default)]
    limits: Limits,
    /// A program under test: what it may read besides the system and the
    /// run's folders ([`reads`]); `None`: a program of ours (the built-in
    /// reference), whose reads are not narrowed.
    #[serde(default)]
    reads: Option<Reads>,
    /// The keeper leaves the host's network reachable (`--allow-network`);
    /// otherwise it refuses every socket ([`network`]).
    #[serde(default)]
    network: bool,
    /// The process that started the keeper (Landlock level): the keeper
    /// checks it is still its parent once it asked to die with it.
    #[serde(default)]
    caller: u32,
    /// A resident keeper: serves run after run over its stdin, a socket
    /// ([`resident`]).
    #[serde(default)]
    resident: bool,
    /// The keeper lets go of the program's streams once it has started it
    /// (its own fds 0-2 become `/dev/null`), so that the program's output
    /// ends when the program, and what it left running, close it: a
    /// caller that reads the output as a conversation sees the end there.
    #[serde(default)]
    release_streams: bool,
    /// The `landlock` level: the keeper makes no namespace; it leads a
    /// process group of its own and is the subreaper of what the program
    /// starts, and kills that itself.
    #[serde(default)]
    no_namespaces: bool,
}

/// What a program under test may read besides the system and its run's
/// folders, as a [`Spec`] carries it (paths as bytes).
pub type Reads = Vec<Vec<u8>>;

/// The reads of a program under test whose own files are `own`: those
/// and what the caller allowed ([`policy`]). `None` where the kernel
/// cannot narrow reads (no Landlock).
pub fn reads_for(own: &[&Path]) -> Option<Reads> {
    reads::available().then(|| {
        let allowed = policy::get().allow_read;
        own.iter()
            .copied()
            .chain(allowed.iter().map(PathBuf::as_path))
            .map(|p| p.as_os_str().as_bytes().to_vec())
            .collect()
    })
}

/// The Landlock level's part of a [`Spec`].
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Confine {
    /// The control folder, as the host names it.
    control: Vec<u8>,
    /// The folders the program may write beneath.
    writable: Vec<Vec<u8>>,
}

impl Spec {
    /// The program `program` with `args` and the (whole) environment `env`,
    /// run in the layout's case folder.
    pub fn new(
        layout: &Layout,
        program: &Path,
        args: &[OsString],
        env: &[(OsString, OsString)],
        grace: Duration,
    ) -> Self {
        Self {
            program: program.as_os_str().as_bytes().to_vec(),
            args: args.iter().map(|a| a.as_bytes().to_vec()).collect(),
            env: env
                .iter()
                .map(|(k, v)| (k.as_bytes().to_vec(), v.as_bytes().to_vec()))
                .collect(),
            cwd: layout.work.as_os_str().as_bytes().to_vec(),
            grace_ms: u64::try_from(grace.as_millis()).unwrap_or(u64::MAX),
            confine: None,
            limits: Limits::default(),
            reads: None,
            network: policy::get().allow_network,
            caller: 0,
            resident: false,
            release_streams: false,
            no_namespaces: false,
        }
    }

    /// The same, with the keeper letting go of the program's streams once
    /// the program runs (see the field's documentation). Not for a caller
    /// that takes the streams' closing as the run's end.
    #[must_use]
    pub fn releasing_streams(mut self) -> Self {
        self.release_streams = true;
        self
    }

    /// The same, for a program under test: it may read the system, the
    /// run's folders, `own` (its folder, the files its command line
    /// names) and what the caller allowed ([`policy`]), nothing else.
    /// Where the kernel cannot narrow reads (no Landlock), unchanged.
    #[must_use]
    pub fn reading(mut self, own: &[&Path]) -> Self {
        self.reads = reads_for(own);
        self
    }

    /// The same, reading what [`reads_for`] gave (`None`: not narrowed).
    #[must_use]
    pub fn with_reads(mut self, reads: Option<Reads>) -> Self {
        self.reads = reads;
        self
    }

    /// The same, with these resource limits on the program.
    #[must_use]
    pub fn limited(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The same, run in `cwd` (shown read-only in a mount namespace, see [`start`])
    /// instead of the case folder.
    #[must_use]
    pub fn in_dir(mut self, cwd: &Path) -> Self {
        self.cwd = cwd.as_os_str().as_bytes().to_vec();
        self
    }

    fn probe(layout: &Layout) -> Self {
        Self::new(layout, Path::new(""), &[], &[], Duration::ZERO)
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

    use super::*;

    #[test]
    fn a_recycled_layout_is_empty_and_open_again() {
        let root = tempfile::tempdir().unwrap();
        let layout = Layout::confined(root.path()).unwrap();
        fs::create_dir_all(layout.work.join("deep/er")).unwrap();
        fs::write(layout.work.join("deep/er/file"), b"x").unwrap();
        fs::write(layout.work.join("file"), b"x").unwrap();
        let tmp = layout.tmp.clone().unwrap();
        fs::write(tmp.join("scratch"), b"x").unwrap();
        fs::set_permissions(&layout.work, fs::Permissions::from_mode(0o500)).unwrap();
        fs::write(layout.control.join(report::STATUS_FILE), b"exited 0\n").unwrap();
        fs::write(layout.control.join(report::STARTED_FILE), b"started\n").unwrap();
        layout.recycle().unwrap();
        assert_eq!(fs::read_dir(&layout.work).unwrap().count(), 0);
        assert_eq!(fs::read_dir(&tmp).unwrap().count(), 0);
        let mode = fs::metadata(&layout.work).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        assert_eq!(read_report(&layout), None);
        assert!(!started(&layout));
    }

    #[test]
    fn a_group_layout_is_emptied_whole() {
        let root = tempfile::tempdir().unwrap();
        let layout = Layout::group(root.path());
        fs::write(layout.work.join("file"), b"x").unwrap();
        fs::create_dir(layout.work.join("dir")).unwrap();
        layout.recycle().unwrap();
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 0);
    }
}
