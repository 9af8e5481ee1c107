//! Starting a keeper: the one way into a sandbox for callers (the
//! engine's runs, the codingame referee's bots). At the Landlock level the
//! keeper is an ordinary child started the cheap way (`posix_spawn`) and
//! makes its namespaces itself ([`crate::keeper`]); with a mount namespace
//! hakoniwa builds the sandbox around it.
//!
//! In the sandbox's order (docs/architecture.md) start spawns: above the
//! resident keeper it hands runs to and the zygote it asks for keepers,
//! below only the probe (which starts a keeper to try a level) and the
//! mode.
//!
//! One piece: both ways a keeper starts (exec'd or forked at the
//! Landlock levels, built by hakoniwa with a mount namespace) make the
//! same `Kept` from the same streams' ends, and what a mount namespace
//! shows (`mounted_view`) is part of starting one there.

use std::fs;
use std::io;
use std::os::fd::{AsFd as _, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};

use std::time::Duration;

use rustix::process::Pid;

use crate::level::Containment;
use crate::process::readable;
use crate::resident::Resident;
use crate::spec::{CONTROL_MOUNT, Confine, KEEPER_ENV, Layout, PRIVATE_TMP, Spec, bytes_path};
use crate::zygote;

/// Where one of the program's standard streams goes.
#[derive(Debug)]
pub enum Io {
    /// A pipe whose other end the caller gets in [`Kept`].
    Piped,
    /// This file (a terminal's side, `/dev/full`, ...).
    Fd(OwnedFd),
    /// The caller's own.
    Inherit,
}

/// The program's three standard streams.
#[derive(Debug)]
pub struct Streams {
    /// Standard input.
    pub stdin: Io,
    /// Standard output.
    pub stdout: Io,
    /// Standard error.
    pub stderr: Io,
}

impl Streams {
    /// All three piped to the caller.
    pub fn piped() -> Self {
        Self {
            stdin: Io::Piped,
            stdout: Io::Piped,
            stderr: Io::Piped,
        }
    }
}

/// A started sandbox: the caller's ends of the piped streams and the
/// process outside the namespaces whose death kills everything inside.
pub struct Kept {
    /// Writes to the program's stdin, if piped.
    pub stdin: Option<fs::File>,
    /// Reads the program's stdout, if piped.
    pub stdout: Option<fs::File>,
    /// Reads the program's stderr, if piped.
    pub stderr: Option<fs::File>,
    pid: Pid,
    handle: Handle,
}

/// The process outside the namespaces.
pub(crate) enum Handle {
    /// A resident keeper's: it outlives the run, whose end is its
    /// output's closing.
    Resident,
    /// A keeper the zygote forked (not the caller's child): its pidfd.
    Forked(OwnedFd),
    /// The keeper itself, which forks PID 1 (Landlock level).
    Spawned(std::process::Child),
    /// hakoniwa's process, whose child is the keeper (mount namespace).
    Hakoniwa(Box<hakoniwa::Child>),
}

impl Kept {
    pub(crate) fn new(
        stdin: Option<fs::File>,
        stdout: Option<fs::File>,
        stderr: Option<fs::File>,
        pid: Pid,
        handle: Handle,
    ) -> Self {
        Self {
            stdin,
            stdout,
            stderr,
            pid,
            handle,
        }
    }

    /// The process outside the namespaces: killing it kills the sandbox.
    pub fn pid(&self) -> Pid {
        self.pid
    }

    /// A pidfd of the outer process, readable once it ended, where there
    /// is one (it is not the caller's child: the caller cannot wait for it).
    pub fn pidfd(&self) -> Option<BorrowedFd<'_>> {
        match &self.handle {
            Handle::Forked(pidfd) => Some(pidfd.as_fd()),
            Handle::Spawned(_) | Handle::Hakoniwa(_) | Handle::Resident => None,
        }
    }

    /// Waits for the outer process to end; returns how it ended, for
    /// messages (the run's own ending is in the keeper's report).
    pub fn wait(&mut self) -> io::Result<String> {
        match &mut self.handle {
            Handle::Resident => Ok("resident keeper".to_owned()),
            Handle::Forked(pidfd) => {
                while !readable(&*pidfd, None)? {}
                Ok("keeper ended".to_owned())
            }
            Handle::Spawned(child) => child.wait().map(|s| format!("keeper {s}")),
            Handle::Hakoniwa(child) => child.wait().map(|s| s.reason).map_err(io::Error::other),
        }
    }

    /// [`Kept::wait`] without blocking: `None` while it runs.
    pub fn try_wait(&mut self) -> io::Result<Option<String>> {
        match &mut self.handle {
            Handle::Resident => Ok(Some("resident keeper".to_owned())),
            Handle::Forked(pidfd) => {
                Ok(readable(&*pidfd, Some(Duration::ZERO))?.then(|| "keeper ended".to_owned()))
            }
            Handle::Spawned(child) => Ok(child.try_wait()?.map(|s| format!("keeper {s}"))),
            Handle::Hakoniwa(child) => child
                .try_wait()
                .map(|s| s.map(|s| s.reason))
                .map_err(io::Error::other),
        }
    }
}

/// Starts a keeper for `spec` in namespaces, as `containment` says.
/// `shown`: folders shown read-only in a mount namespace besides the
/// standard ones (the program's, a working directory of the caller's);
/// Landlock leaves the whole file system readable anyway.
pub fn start(
    layout: &Layout,
    spec: &Spec,
    containment: &Containment,
    shown: &[&Path],
    streams: Streams,
) -> Result<Kept, String> {
    start_with(layout, spec, containment, shown, streams, None)
}

/// [`start`], in `resident`'s sandbox where it can take the run (the
/// Landlock level; `layout` must be the one it was started for).
pub fn start_with(
    layout: &Layout,
    spec: &Spec,
    containment: &Containment,
    shown: &[&Path],
    streams: Streams,
    resident: Option<&mut Resident>,
) -> Result<Kept, String> {
    match containment {
        Containment::ProcessGroup(why) => Err(format!("no sandbox to start: {why}")),
        Containment::Namespaces { landlock: true, .. } | Containment::Landlock(_) => {
            start_confined(layout, spec, containment, streams, resident)
        }
        Containment::Namespaces {
            network,
            landlock: false,
        } => start_mounted(layout, spec, *network, shown, streams),
    }
}

/// The Landlock levels (`pid`, and `landlock` without namespaces): a keeper forked by the zygote when a session shares
/// one ([`crate::zygote`]), else this executable started as a child.
fn start_confined(
    layout: &Layout,
    spec: &Spec,
    containment: &Containment,
    streams: Streams,
    resident: Option<&mut Resident>,
) -> Result<Kept, String> {
    let mut spec = spec.clone();
    spec.confine = Some(Confine::of(layout));
    spec.no_namespaces = containment.without_namespaces();
    let (theirs, [stdin, stdout, stderr]) =
        ends(streams).map_err(|e| format!("cannot make the program's streams: {e}"))?;
    // A resident keeper that cannot take the run is broken: the run falls
    // back to a keeper of its own.
    if let Some(pid) = resident.and_then(|r| r.run(&spec, &theirs).ok()) {
        return Ok(Kept::new(stdin, stdout, stderr, pid, Handle::Resident));
    }
    let [their_in, their_out, their_err] = theirs;
    if let Some(forked) = zygote::fork_keeper(
        &spec,
        [their_in.as_fd(), their_out.as_fd(), their_err.as_fd()],
    ) {
        return Ok(Kept {
            stdin,
            stdout,
            stderr,
            pid: forked.pid,
            handle: Handle::Forked(forked.pidfd),
        });
    }
    spec.caller = std::process::id();
    let exe = crate::process::own_exe().map_err(|e| format!("no own executable: {e}"))?;
    let json = serde_json::to_string(&spec).map_err(|e| e.to_string())?;
    let mut cmd = std::process::Command::new(exe);
    cmd.env_clear()
        .env(KEEPER_ENV, json)
        .current_dir(&layout.work)
        .stdin(their_in)
        .stdout(their_out)
        .stderr(their_err);
    let spawned = cmd.spawn();
    // The command holds the program's ends: they must close now, or
    // reading ours never ends.
    drop(cmd);
    let child = spawned.map_err(|e| format!("cannot start the keeper: {e}"))?;
    Ok(Kept {
        stdin,
        stdout,
        stderr,
        pid: Pid::from_child(&child),
        handle: Handle::Spawned(child),
    })
}

/// The program's end of each stream, and the caller's end of each pipe.
pub(crate) type Ends = ([OwnedFd; 3], [Option<fs::File>; 3]);

pub(crate) fn ends(streams: Streams) -> io::Result<Ends> {
    let end = |io: Io,
               inherited: BorrowedFd<'static>,
               read: bool|
     -> io::Result<(OwnedFd, Option<fs::File>)> {
        Ok(match io {
            Io::Fd(fd) => (fd, None),
            Io::Inherit => (inherited.try_clone_to_owned()?, None),
            Io::Piped => {
                let (reader, writer) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
                if read {
                    (reader, Some(fs::File::from(writer)))
                } else {
                    (writer, Some(fs::File::from(reader)))
                }
            }
        })
    };
    let (their_in, our_in) = end(streams.stdin, rustix::stdio::stdin(), true)?;
    let (their_out, our_out) = end(streams.stdout, rustix::stdio::stdout(), false)?;
    let (their_err, our_err) = end(streams.stderr, rustix::stdio::stderr(), false)?;
    Ok(([their_in, their_out, their_err], [our_in, our_out, our_err]))
}

fn file(end: impl Into<OwnedFd>) -> fs::File {
    fs::File::from(end.into())
}

/// A mount namespace (and with `network` false, IPC and network ones),
/// built by hakoniwa around the keeper.
fn start_mounted(
    layout: &Layout,
    spec: &Spec,
    network: bool,
    shown: &[&Path],
    streams: Streams,
) -> Result<Kept, String> {
    // The executable by its path, not `/proc/self/exe` ([`own_exe`]): a
    // bind mount's source must lie in the mount namespace hakoniwa's child
    // has just left, which the link's file does not (EINVAL). So at this
    // opt-in level a binary replaced mid-run is what the keeper runs.
    //
    // [`own_exe`]: crate::process::own_exe
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
    let view = mounted_view(&exe, spec, shown);
    for path in &view.bound {
        let p = text(path)?;
        c.bindmount_ro(&p, &p);
    }
    for dir in &view.empty {
        c.dir(&text(dir)?, 0o555);
    }
    // The keeper runs from a file of its own outside every readable
    // path: a program under test never reads the harness, wherever the
    // harness lives (its folder may lie beneath `/tmp`, which the program
    // reads whole, being its private one).
    c.bindmount_ro(&text(&exe)?, KEEPER_MOUNT);
    c.tmpfsmount(PRIVATE_TMP);
    c.devfsmount("/dev");
    let work = text(&layout.work)?;
    c.bindmount_rw(&work, &work);
    c.bindmount_rw(&text(&layout.control)?, CONTROL_MOUNT);
    let json = serde_json::to_string(spec).map_err(|e| e.to_string())?;
    let mut cmd = c.command(KEEPER_MOUNT);
    let hakoniwa_io = |io: Io| match io {
        Io::Piped => hakoniwa::Stdio::piped(),
        Io::Fd(f) => hakoniwa::Stdio::from(f),
        Io::Inherit => hakoniwa::Stdio::inherit(),
    };
    cmd.env(KEEPER_ENV, &json)
        .current_dir(&work)
        .stdin(hakoniwa_io(streams.stdin))
        .stdout(hakoniwa_io(streams.stdout))
        .stderr(hakoniwa_io(streams.stderr));
    let spawned = cmd.spawn();
    drop(cmd);
    let mut child = spawned.map_err(|e| e.to_string())?;
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap_or(0))
        .ok_or_else(|| "the sandbox has no process id".to_owned())?;
    Ok(Kept {
        stdin: child.stdin.take().map(file),
        stdout: child.stdout.take().map(file),
        stderr: child.stderr.take().map(file),
        pid,
        handle: Handle::Hakoniwa(Box::new(child)),
    })
}

/// Where the keeper's executable is shown in a mount namespace: a file
/// of its own, outside every path a program under test may read.
const KEEPER_MOUNT: &str = "/run/conformance-keeper";

/// What a mount namespace shows of the host besides its standard folders.
#[derive(Debug, Default, PartialEq, Eq)]
struct MountedView {
    /// Bound read-only at their own paths.
    bound: Vec<PathBuf>,
    /// Made as empty folders (a working folder that must exist, beneath
    /// the private `/tmp` that a program reads whole).
    empty: Vec<PathBuf>,
}

/// What to show of the host for `spec`, run by the harness `exe`.
/// A program of ours (the reference), or one whose reads are not
/// narrowed, sees the harness's folder and the `shown` ones. A program
/// under test sees the paths it may read, and the `shown` folders; but a
/// `shown` folder beneath the private `/tmp` that is not its own (a
/// folder holding the harness, the caller's working folder) is shown
/// empty: the program may read all of `/tmp`, so what is mounted there
/// is readable whatever its read rules say.
fn mounted_view(exe: &Path, spec: &Spec, shown: &[&Path]) -> MountedView {
    let real = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
    let mut view = MountedView::default();
    let own: Vec<PathBuf> = match &spec.reads {
        None => {
            let folders = exe.parent().into_iter().chain(shown.iter().copied());
            view.bound = outermost(folders.map(real).collect());
            return view;
        }
        Some(reads) => reads.iter().map(|r| real(&bytes_path(r))).collect(),
    };
    let (inside_tmp, outside): (Vec<PathBuf>, Vec<PathBuf>) = shown
        .iter()
        .map(|p| real(p))
        .filter(|p| !own.iter().any(|o| p.starts_with(o)))
        .partition(|p| p.starts_with(PRIVATE_TMP));
    view.bound = outermost(own.into_iter().chain(outside).collect());
    view.empty = inside_tmp
        .into_iter()
        .filter(|p| !view.bound.iter().any(|b| p.starts_with(b)))
        .collect();
    view
}

/// `paths` that exist, without the root, the standard folders (shown anyway) and any
/// path beneath another, sorted.
fn outermost(mut paths: Vec<PathBuf>) -> Vec<PathBuf> {
    // A path that is gone (an `--allow-read` removed since) shows nothing.
    paths.retain(|p| p.parent().is_some() && !is_standard(p) && p.exists());
    paths.sort();
    paths.dedup();
    let mut out: Vec<PathBuf> = Vec::new();
    for p in paths {
        if !out.iter().any(|o| p.starts_with(o)) {
            out.push(p);
        }
    }
    out
}

fn is_standard(dir: &Path) -> bool {
    ["/bin", "/etc", "/lib", "/lib64", "/lib32", "/sbin", "/usr"]
        .iter()
        .any(|s| dir.starts_with(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A spec reading `reads` (`None`: a program of ours).
    fn spec(reads: Option<&[&str]>) -> Spec {
        let layout = Layout::group(Path::new("/nowhere"));
        Spec::new(&layout, Path::new("/bin/true"), &[], &[], Duration::ZERO)
            .with_reads(reads.map(|r| r.iter().map(|p| p.as_bytes().to_vec()).collect()))
    }

    #[test]
    fn a_program_under_test_never_sees_the_harness_beneath_tmp() {
        let clone = tempfile::Builder::new()
            .prefix("clone-")
            .tempdir_in("/tmp")
            .unwrap();
        let debug = fs::canonicalize(clone.path()).unwrap().join("target/debug");
        fs::create_dir_all(&debug).unwrap();
        let (exe, prog) = (debug.join("boxes-harness"), debug.join("prog"));
        fs::write(&exe, b"x").unwrap();
        fs::write(&prog, b"x").unwrap();
        let prog_text = prog.to_str().unwrap();
        // The program beside the harness reads its file alone: that file is
        // shown, its folder is there but empty.
        let view = mounted_view(&exe, &spec(Some(&[prog_text])), &[&debug]);
        assert_eq!(view.bound, [prog]);
        assert_eq!(view.empty, std::slice::from_ref(&debug));
        // The reference (ours) sees the harness's folder.
        let view = mounted_view(&exe, &spec(None), &[&debug]);
        assert_eq!(view.bound, [debug]);
        assert!(view.empty.is_empty());
        // A folder of its own beneath /tmp is shown whole.
        let own = fs::canonicalize(clone.path()).unwrap().join("own");
        fs::create_dir(&own).unwrap();
        let view = mounted_view(&exe, &spec(Some(&[own.to_str().unwrap()])), &[&own]);
        assert_eq!(view.bound, [own]);
        assert!(view.empty.is_empty());
    }
}
