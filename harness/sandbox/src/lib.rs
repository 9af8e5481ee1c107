//! Containment of a run: where the kernel allows it, each program runs in
//! namespaces of its own, set up by the `hakoniwa` crate (our crates deny
//! `unsafe`, and namespace set-up needs it):
//!
//! - a PID namespace, so that every process the program starts (`setsid`
//!   daemons included) dies with the case, and none can see or signal the
//!   harness;
//! - at the default `pid` level, Landlock rules ([`confine`]) that leave
//!   the file system read-only except the case folder and a private
//!   temporary folder (named by `TMPDIR`; `/tmp` itself is read-only);
//!   where the kernel lacks Landlock (ABI 3 or later), a mount namespace
//!   instead;
//! - with `full` (opt-in: it costs more than the rest of a run), a mount
//!   namespace in which the file system is read-only except the case
//!   folder and a private `/tmp`, and IPC and network namespaces with no
//!   interface up: no network.
//!
//! Inside, the first process (PID 1) is not the program but this very
//! executable in *keeper* mode ([`keeper_mode`]): PID 1 ignores every signal
//! it has no handler for, so a program run as PID 1 could not be killed by
//! its own `abort()`. The keeper starts the program as PID 2, waits for it,
//! lets processes it left behind finish for a moment, names those still
//! alive, writes it all to a status file only it can reach, and exits,
//! which kills everything left in the namespace.
//!
//! Where namespaces are refused (some containers), runs fall back to a
//! process group, and the harness says so once.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs;
use std::io::{self, Write as _};
use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub mod confine;
mod tree;

/// The environment variable that turns a harness binary into a keeper; its
/// value is the JSON [`Spec`] of the program to run.
pub const KEEPER_ENV: &str = "CONFORMANCE_KEEPER";

/// The environment variable that chooses the containment: `pid` (the
/// default: user and PID namespaces, writes confined by Landlock, the
/// host's network), `full` (PID, mount, IPC and network namespaces), or
/// `group` (a process group only).
pub const CONTAINMENT_ENV: &str = "CONFORMANCE_CONTAINMENT";

/// Where the keeper finds its status folder inside the sandbox; it
/// detaches the mount once the file is open, so the program never sees it.
const CONTROL_MOUNT: &str = "/run/conformance-control";
const STATUS_FILE: &str = "status";
/// Made by the keeper once the program has started (its `exec` done), so
/// that a caller timing the program can leave the sandbox's start-up out.
const STARTED_FILE: &str = "started";

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
    /// A process group only, with the reason namespaces are not used.
    ProcessGroup(String),
}

impl Containment {
    /// One line for people: what protects the harness from the program.
    pub fn describe(&self) -> String {
        match self {
            Containment::Namespaces {
                network: true,
                landlock: true,
            } => "containment: PID namespace and Landlock (read-only file system except the \
                  case folder and a private temporary folder named by TMPDIR; /tmp is \
                  read-only; the host's network)"
                .to_owned(),
            Containment::Namespaces { network: false, .. } => {
                "containment: PID, mount, IPC and network namespaces (read-only file system \
                 except the case folder and a private /tmp; no network)"
                    .to_owned()
            }
            Containment::Namespaces { network: true, .. } => {
                "containment: PID and mount namespaces (read-only file system except the \
                 case folder and a private /tmp; the host's network)"
                    .to_owned()
            }
            Containment::ProcessGroup(why) => {
                format!("containment: process group only, because {why}")
            }
        }
    }
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
            // cost more than the rest of a run (see the README's
            // Containment section for the numbers).
            // Landlock where the kernel has it: a mount namespace costs
            // tens of milliseconds per run.
            "" | "pid" => match probe(true, true) {
                Containment::ProcessGroup(_) => probe(true, false),
                chosen @ Containment::Namespaces { .. } => chosen,
            },
            "full" => probe(false, false),
            other => Containment::ProcessGroup(format!(
                "{CONTAINMENT_ENV}={other} is not one of full, pid, group"
            )),
        };
        if let Containment::ProcessGroup(_) = &chosen
            && wanted != "group"
        {
            eprintln!("{}: {}", own_name(), chosen.describe());
        }
        chosen
    })
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

/// Starts one keeper that runs nothing: namespaces (and, with `landlock`,
/// its rules) work if it reports.
fn probe(network: bool, landlock: bool) -> Containment {
    let result = (|| -> Result<(), String> {
        let dir = tempfile::Builder::new()
            .prefix("conformance-probe-")
            .tempdir()
            .map_err(|e| format!("no temporary folder: {e}"))?;
        let layout = if landlock {
            Layout::confined(dir.path())
        } else {
            Layout::new(dir.path())
        }
        .map_err(|e| e.to_string())?;
        let spec = Spec::probe(&layout);
        let mut cmd = if landlock {
            command_confined(&layout, &spec, &[])?
        } else {
            command(&layout, &spec, &[], network, None)?
        };
        cmd.stdin(hakoniwa::Stdio::inherit())
            .stdout(hakoniwa::Stdio::inherit())
            .stderr(hakoniwa::Stdio::inherit());
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("the kernel refused namespaces ({e})"))?;
        let status = child
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
            _ => Err(format!(
                "the kernel refused namespaces ({})",
                status.reason.trim()
            )),
        }
    })();
    match result {
        Ok(()) => Containment::Namespaces { network, landlock },
        Err(why) => Containment::ProcessGroup(why),
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
            Containment::Namespaces { landlock: true, .. } => Self::confined(root),
            Containment::Namespaces {
                landlock: false, ..
            } => Self::new(root),
        }
    }
}

/// What the keeper runs, passed in [`KEEPER_ENV`] as JSON (bytes, since
/// paths and arguments need not be UTF-8).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
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
        }
    }

    /// The same, run in `cwd` (shown read-only, see [`command_showing`])
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

/// The resource limits set on the keeper, and so inherited by the
/// program before it starts: (resource, value).
pub type Rlimits = [(hakoniwa::Rlimit, Option<u64>)];

/// The hakoniwa command that starts a keeper for `spec`.
pub fn command(
    layout: &Layout,
    spec: &Spec,
    limits: &Rlimits,
    network: bool,
    program_dir: Option<&Path>,
) -> Result<hakoniwa::Command, String> {
    command_showing(layout, spec, limits, network, program_dir.as_slice())
}

/// [`command`], showing every folder of `dirs` read-only (the program's
/// folder, a working directory of the caller's, ...).
pub fn command_showing(
    layout: &Layout,
    spec: &Spec,
    limits: &Rlimits,
    network: bool,
    dirs: &[&Path],
) -> Result<hakoniwa::Command, String> {
    let exe = std::env::current_exe().map_err(|e| format!("no own executable: {e}"))?;
    let text = |p: &Path| {
        p.to_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("{} is not UTF-8: namespaces need UTF-8 paths", p.display()))
    };
    let mut c = hakoniwa::Container::new();
    c.rootdir(&layout.rootfs);
    c.rootfs("/").map_err(|e| e.to_string())?;
    if !network {
        c.unshare(hakoniwa::Namespace::Network);
        c.unshare(hakoniwa::Namespace::Ipc);
    }
    // The executables may live outside the standard folders (a build
    // folder, a student's home): their folders are shown read-only.
    let mut shown: Vec<PathBuf> = Vec::new();
    for dir in exe.parent().into_iter().chain(dirs.iter().copied()) {
        let dir = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
        // The root itself is never shown whole: only its standard folders.
        if dir.parent().is_some() && !shown.iter().any(|d| dir.starts_with(d)) && !is_standard(&dir)
        {
            shown.push(dir);
        }
    }
    for dir in &shown {
        let d = text(dir)?;
        c.bindmount_ro(&d, &d);
    }
    c.tmpfsmount("/tmp");
    c.devfsmount("/dev");
    let work = text(&layout.work)?;
    c.bindmount_rw(&work, &work);
    c.bindmount_rw(&text(&layout.control)?, CONTROL_MOUNT);
    for (resource, value) in limits {
        if let Some(v) = value {
            c.setrlimit(*resource, *v, *v);
        }
    }
    let json = serde_json::to_string(spec).map_err(|e| e.to_string())?;
    let mut cmd = c.command(&text(&exe)?);
    cmd.env(KEEPER_ENV, &json).current_dir(&work);
    Ok(cmd)
}

/// The hakoniwa command that starts a keeper for `spec` at the Landlock
/// level: user and PID namespaces only (no mount namespace: the keeper
/// confines itself, and so the program, with [`confine::restrict`]).
pub fn command_confined(
    layout: &Layout,
    spec: &Spec,
    limits: &Rlimits,
) -> Result<hakoniwa::Command, String> {
    let exe = std::env::current_exe().map_err(|e| format!("no own executable: {e}"))?;
    let exe = exe.to_str().ok_or_else(|| {
        format!(
            "{} is not UTF-8: namespaces need UTF-8 paths",
            exe.display()
        )
    })?;
    let mut c = hakoniwa::Container::empty();
    c.unshare(hakoniwa::Namespace::User);
    c.uidmap(rustix::process::getuid().as_raw());
    c.gidmap(rustix::process::getgid().as_raw());
    c.unshare(hakoniwa::Namespace::Pid);
    // Unused without a mount namespace, but set: hakoniwa would otherwise
    // make (and remove) a folder of its own per run.
    c.rootdir(&layout.rootfs);
    for (resource, value) in limits {
        if let Some(v) = value {
            c.setrlimit(*resource, *v, *v);
        }
    }
    let bytes = |p: &Path| p.as_os_str().as_bytes().to_vec();
    let mut spec = spec.clone();
    spec.confine = Some(Confine {
        control: bytes(&layout.control),
        writable: std::iter::once(&layout.work)
            .chain(&layout.tmp)
            .map(|p| bytes(p))
            .collect(),
    });
    let json = serde_json::to_string(&spec).map_err(|e| e.to_string())?;
    let mut cmd = c.command(exe);
    cmd.env(KEEPER_ENV, &json).current_dir(&layout.work);
    Ok(cmd)
}

fn is_standard(dir: &Path) -> bool {
    ["/bin", "/etc", "/lib", "/lib64", "/lib32", "/sbin", "/usr"]
        .iter()
        .any(|s| dir.starts_with(s))
}

/// How the program ended, as the keeper reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reported {
    /// It exited with this status.
    Exited(i32),
    /// A signal killed it.
    Signaled(i32),
    /// It could not be started: errno and message.
    SpawnFailed(i32, String),
    /// A probe: nothing was run.
    Probe,
    /// The keeper could not put the Landlock rules in place: why.
    ConfineFailed(String),
}

/// A process the program left behind, killed when the keeper exited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftBehind {
    /// Its PID inside the sandbox.
    pub pid: u32,
    /// Its command name (`/proc/PID/comm`).
    pub name: String,
    /// It still held the program's stdout or stderr open.
    pub held_output: bool,
}

impl std::fmt::Display for LeftBehind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` (pid {} in the sandbox)", self.name, self.pid)
    }
}

/// The keeper's status file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// How the program ended.
    pub ending: Reported,
    /// What it left behind.
    pub left: Vec<LeftBehind>,
}

impl Report {
    fn render(&self) -> String {
        let mut out = match &self.ending {
            Reported::Exited(c) => format!("exited {c}\n"),
            Reported::Signaled(s) => format!("signaled {s}\n"),
            Reported::SpawnFailed(e, m) => format!("spawn-failed {e} {}\n", m.replace('\n', " ")),
            Reported::Probe => "probe\n".to_owned(),
            Reported::ConfineFailed(m) => format!("confine-failed {}\n", m.replace('\n', " ")),
        };
        for l in &self.left {
            let _ = writeln!(
                out,
                "left {} {} {}",
                l.pid,
                u8::from(l.held_output),
                l.name.replace('\n', " ")
            );
        }
        out
    }

    fn parse(text: &str) -> Option<Self> {
        let mut lines = text.lines();
        let first = lines.next()?;
        let (word, rest) = first.split_once(' ').unwrap_or((first, ""));
        let ending = match word {
            "exited" => Reported::Exited(rest.parse().ok()?),
            "signaled" => Reported::Signaled(rest.parse().ok()?),
            "spawn-failed" => {
                let (e, m) = rest.split_once(' ').unwrap_or((rest, ""));
                Reported::SpawnFailed(e.parse().ok()?, m.to_owned())
            }
            "probe" => Reported::Probe,
            "confine-failed" => Reported::ConfineFailed(rest.to_owned()),
            _ => return None,
        };
        let left = lines
            .filter_map(|l| {
                let mut parts = l.splitn(4, ' ');
                (parts.next()? == "left").then_some(())?;
                Some(LeftBehind {
                    pid: parts.next()?.parse().ok()?,
                    held_output: parts.next()? == "1",
                    name: parts.next().unwrap_or("").to_owned(),
                })
            })
            .collect();
        Some(Self { ending, left })
    }
}

/// Whether the keeper has started the program (its `exec` is done): the
/// marker file is not empty (at the Landlock level, it is made empty
/// before the rules forbid making files, and written once started).
pub fn started(layout: &Layout) -> bool {
    fs::metadata(layout.control.join(STARTED_FILE)).is_ok_and(|m| m.len() > 0)
}

/// Reads the keeper's report of a finished run, if it wrote one.
pub fn read_report(layout: &Layout) -> Option<Report> {
    let text = fs::read_to_string(layout.control.join(STATUS_FILE)).ok()?;
    Report::parse(&text)
}

/// Runs the keeper when this process was started as one ([`KEEPER_ENV`]
/// set); every binary that runs cases calls this first thing in `main`
/// (through the engine's `reference_mode`).
pub fn keeper_mode() -> Option<ExitCode> {
    KEEPER_CAPABLE.store(true, std::sync::atomic::Ordering::Relaxed);
    let json = std::env::var_os(KEEPER_ENV)?;
    let spec: Spec = match serde_json::from_slice(json.as_bytes()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("conformance keeper: bad spec: {e}");
            return Some(ExitCode::from(125));
        }
    };
    Some(match keep(&spec) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("conformance keeper: {e}");
            ExitCode::from(125)
        }
    })
}

/// The keeper's work, as PID 1 of the sandbox.
fn keep(spec: &Spec) -> io::Result<()> {
    use std::os::unix::process::ExitStatusExt as _;
    let control_dir = match &spec.confine {
        Some(c) => PathBuf::from(OsString::from_vec(c.control.clone())),
        None => PathBuf::from(CONTROL_MOUNT),
    };
    let mut status = fs::File::create(control_dir.join(STATUS_FILE))?;
    // Made now, written once the program started: the rules below forbid
    // making files in the control folder, and the mount is detached.
    let mut started = fs::File::create(control_dir.join(STARTED_FILE))?;
    if let Some(c) = &spec.confine {
        // The keeper confines itself: the program inherits the rules, and
        // the files opened above stay writable.
        let writable: Vec<PathBuf> = c
            .writable
            .iter()
            .map(|w| PathBuf::from(OsString::from_vec(w.clone())))
            .collect();
        let dirs: Vec<&Path> = writable.iter().map(PathBuf::as_path).collect();
        if let Err(e) = confine::restrict(&dirs) {
            let report = Report {
                ending: Reported::ConfineFailed(e.to_string()),
                left: Vec::new(),
            };
            return status.write_all(report.render().as_bytes());
        }
    } else {
        // The file stays open; the folder disappears from the sandbox.
        let _ = rustix::mount::unmount(CONTROL_MOUNT, rustix::mount::UnmountFlags::DETACH);
    }
    if spec.program.is_empty() {
        return status.write_all(Report::render(&probe_report()).as_bytes());
    }
    let mut cmd = std::process::Command::new(OsString::from_vec(spec.program.clone()));
    cmd.args(spec.args.iter().map(|a| OsString::from_vec(a.clone())))
        .env_clear()
        .envs(
            spec.env
                .iter()
                .map(|(k, v)| (OsString::from_vec(k.clone()), OsString::from_vec(v.clone()))),
        )
        .current_dir(OsString::from_vec(spec.cwd.clone()));
    let ending = match cmd.spawn() {
        Err(e) => Reported::SpawnFailed(e.raw_os_error().unwrap_or(0), e.to_string()),
        Ok(mut child) => {
            // `spawn` returns once the program's `exec` succeeded.
            let _ = started.write_all(b"started\n");
            let s = child.wait()?;
            match (s.code(), s.signal()) {
                (Some(c), _) => Reported::Exited(c),
                (None, Some(sig)) => Reported::Signaled(sig),
                (None, None) => Reported::Exited(-1),
            }
        }
    };
    let left = linger(Duration::from_millis(spec.grace_ms));
    status.write_all(Report { ending, left }.render().as_bytes())?;
    status.flush()
}

fn probe_report() -> Report {
    Report {
        ending: Reported::Probe,
        left: Vec::new(),
    }
}

/// After the program exited: reaps what ends, gives processes that still
/// hold the output up to `grace` to finish, and names what is left.
fn linger(grace: Duration) -> Vec<LeftBehind> {
    let ours = [own_link(1), own_link(2)];
    let deadline = Instant::now() + grace;
    loop {
        reap();
        let left = survivors(&ours);
        if !left.iter().any(|l| l.held_output) || Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn reap() {
    use rustix::process::{WaitOptions, wait};
    while let Ok(Some(_)) = wait(WaitOptions::NOHANG) {}
}

fn own_link(fd: u32) -> Option<PathBuf> {
    fs::read_link(format!("/proc/self/fd/{fd}")).ok()
}

/// Every process of the sandbox but the keeper, with whether it holds one
/// of the keeper's own output streams (the program's stdout and stderr).
fn survivors(ours: &[Option<PathBuf>]) -> Vec<LeftBehind> {
    let mut out: Vec<LeftBehind> = tree::descendants()
        .into_iter()
        .map(|d| {
            let base = PathBuf::from(format!("/proc/{}", d.proc_pid));
            let name = fs::read_to_string(base.join("comm"))
                .map(|s| s.trim_end().to_owned())
                .unwrap_or_default();
            let held_output = fs::read_dir(base.join("fd")).is_ok_and(|fds| {
                fds.flatten().any(|fd| {
                    fs::read_link(fd.path()).is_ok_and(|l| ours.iter().flatten().any(|o| *o == l))
                })
            });
            LeftBehind {
                pid: d.pid,
                name,
                held_output,
            }
        })
        .collect();
    out.sort_by_key(|l| l.pid);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_round_trip() {
        let r = Report {
            ending: Reported::Signaled(6),
            left: vec![LeftBehind {
                pid: 3,
                name: "sleep 30".to_owned(),
                held_output: true,
            }],
        };
        assert_eq!(Report::parse(&r.render()), Some(r));
        let r = Report {
            ending: Reported::SpawnFailed(8, "Exec format error (os error 8)".to_owned()),
            left: Vec::new(),
        };
        assert_eq!(Report::parse(&r.render()), Some(r));
        let r = Report {
            ending: Reported::ConfineFailed("Landlock: no\nABI 3".to_owned()),
            left: Vec::new(),
        };
        assert_eq!(
            Report::parse(&r.render()).map(|r| r.ending),
            Some(Reported::ConfineFailed("Landlock: no ABI 3".to_owned()))
        );
        assert_eq!(Report::parse("nonsense"), None);
    }
}
