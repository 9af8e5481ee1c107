//! What a keeper is given: a run's folders ([`Layout`], with the names
//! of the keeper's files in its control folder) and the program with its
//! confinement, limits and reads ([`Spec`]), as the JSON the keeper reads
//! from its environment ([`KEEPER_ENV`]), with the places a mount
//! namespace shows them at. Paths travel as bytes ([`path_bytes`],
//! [`bytes_path`]).
//!
//! Low in the sandbox's order (docs/architecture.md): what both sides of
//! a sandbox agree on, above the levels, limits, policy and reads it
//! names, below everything that starts, keeps or reports a run.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::unix::ffi::{OsStrExt as _, OsStringExt as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::level::Containment;
use crate::limits::Limits;
use crate::{policy, reads};

/// The environment variable that turns a harness binary into a keeper; its
/// value is the JSON [`Spec`] of the program to run.
pub const KEEPER_ENV: &str = "CONFORMANCE_KEEPER";

/// Where the keeper finds its status folder inside the sandbox; it
/// detaches the mount once the file is open, so the program never sees it.
pub(crate) const CONTROL_MOUNT: &str = "/run/conformance-control";

/// In a mount namespace, the program's private temporary folder (a tmpfs
/// that vanishes with the run): it may write there and read it back.
pub(crate) const PRIVATE_TMP: &str = "/tmp";

/// The keeper's report, in the control folder.
pub(crate) const STATUS_FILE: &str = "status";
/// Made by the keeper once the program has started (its `exec` done), so
/// that a caller timing the program can leave the sandbox's start-up out.
pub(crate) const STARTED_FILE: &str = "started";

/// A run's folders: the case folder the program works in, and the status
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
            for name in [STATUS_FILE, STARTED_FILE] {
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
    pub(crate) program: Vec<u8>,
    pub(crate) args: Vec<Vec<u8>>,
    pub(crate) env: Vec<(Vec<u8>, Vec<u8>)>,
    pub(crate) cwd: Vec<u8>,
    /// How long processes left behind may keep the output open after the
    /// program exited, milliseconds.
    pub(crate) grace_ms: u64,
    /// At the Landlock level: where the keeper writes and what the
    /// program may write (absent: a mount namespace, whose control folder
    /// is mounted at [`CONTROL_MOUNT`]).
    #[serde(default)]
    pub(crate) confine: Option<Confine>,
    /// Set by the keeper on itself, and so inherited by the program.
    #[serde(default)]
    pub(crate) limits: Limits,
    /// A program under test: what it may read besides the system and the
    /// run's folders ([`reads`]); `None`: a program of ours (the built-in
    /// reference), whose reads are not narrowed.
    #[serde(default)]
    pub(crate) reads: Option<Reads>,
    /// The keeper leaves the host's network reachable (`--allow-network`);
    /// otherwise it refuses every socket ([`network`]).
    #[serde(default)]
    pub(crate) network: bool,
    /// The process that started the keeper (Landlock level): the keeper
    /// checks it is still its parent once it asked to die with it.
    #[serde(default)]
    pub(crate) caller: u32,
    /// A resident keeper: serves run after run over its stdin, a socket
    /// ([`resident`]).
    #[serde(default)]
    pub(crate) resident: bool,
    /// The keeper lets go of the program's streams once it has started it
    /// (its own fds 0-2 become `/dev/null`), so that the program's output
    /// ends when the program, and what it left running, close it: a
    /// caller that reads the output as a conversation sees the end there.
    #[serde(default)]
    pub(crate) release_streams: bool,
    /// The `landlock` level: the keeper makes no namespace; it leads a
    /// process group of its own and is the subreaper of what the program
    /// starts, and kills that itself.
    #[serde(default)]
    pub(crate) no_namespaces: bool,
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
pub(crate) struct Confine {
    /// The control folder, as the host names it.
    pub(crate) control: Vec<u8>,
    /// The folders the program may write beneath.
    pub(crate) writable: Vec<Vec<u8>>,
}

impl Confine {
    /// The Landlock rules' part of a spec for the folders of `layout`.
    pub(crate) fn of(layout: &Layout) -> Self {
        Self {
            control: path_bytes(&layout.control),
            writable: std::iter::once(&layout.work)
                .chain(&layout.tmp)
                .map(|p| path_bytes(p))
                .collect(),
        }
    }
}

/// `OsStr` bytes of a path, as a [`Spec`] carries them.
pub(crate) fn path_bytes(p: &Path) -> Vec<u8> {
    p.as_os_str().as_bytes().to_vec()
}

/// The path a [`Spec`] carries as `bytes`.
pub(crate) fn bytes_path(bytes: &[u8]) -> PathBuf {
    PathBuf::from(OsString::from_vec(bytes.to_vec()))
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

    /// The same, run in `cwd` (shown read-only in a mount namespace, see [`start`](crate::start()))
    /// instead of the case folder.
    #[must_use]
    pub fn in_dir(mut self, cwd: &Path) -> Self {
        self.cwd = cwd.as_os_str().as_bytes().to_vec();
        self
    }

    pub(crate) fn probe(layout: &Layout) -> Self {
        Self::new(layout, Path::new(""), &[], &[], Duration::ZERO)
    }
}
