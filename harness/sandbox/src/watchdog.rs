//! The keeper's watch over a running program: it waits for the program
//! to end (and, for a resident keeper, for its caller to go), and every
//! [`TICK`] counts the sandbox's processes and its folders' bytes. At the
//! limit ([`crate::Limits`]: a fork bomb, a program filling its case
//! folder) it kills every process of the sandbox but itself and says why
//! on the program's stderr; the run then ends as killed by `SIGKILL`.
//!
//! In the middle of the sandbox's order (docs/architecture.md): it
//! watches a program and the processes below this one and knows nothing
//! of who started them. It imports the limits, the report's endings, the
//! process tree and this process's reaping; the keeper and the resident
//! keeper above it hand it a program to watch.

use std::fs;
use std::io::{self, Write as _};
use std::os::fd::BorrowedFd;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rustix::process::{Pid, PidfdFlags};

use crate::limits::Limits;
use crate::process::reap;
use crate::report::Reported;
use crate::tree;

/// How far the keeper raises its own priority above its programs', where
/// it may (root, or a user with room under `RLIMIT_NICE`): a fork bomb's
/// processes then cannot starve the keeper that counts them. As root the
/// kernel's own process limit (`RLIMIT_NPROC`) does not bind, and the
/// watch is what stops the bomb.
const KEEPER_BOOST: i32 = 10;

/// The priority the keeper had before it raised its own: its programs
/// get it back.
static PROGRAM_NICE: std::sync::OnceLock<i32> = std::sync::OnceLock::new();

/// Raises this keeper's priority, where it may, before it makes its
/// namespaces (inside them it no longer may).
pub(crate) fn raise_keeper() {
    if let Ok(nice) = rustix::process::getpriority_process(None)
        && rustix::process::setpriority_process(None, nice - KEEPER_BOOST).is_ok()
    {
        let _ = PROGRAM_NICE.set(nice);
    }
}

/// Gives a program the priority its keeper had before it raised its own.
pub(crate) fn lower_program(pid: Pid) {
    if let Some(&nice) = PROGRAM_NICE.get() {
        let _ = rustix::process::setpriority_process(Some(pid), nice);
    }
}

/// How long killing a sandbox's processes may take.
const KILL_LIMIT: Duration = Duration::from_secs(5);

/// How often the counts are taken while a program runs.
const TICK: Duration = Duration::from_millis(10);

/// Entries of the folders counted at most per tick: more is a limit hit
/// too (a program making files by the million).
const MAX_ENTRIES: usize = 100_000;

/// What the watch needs besides the program.
pub(crate) struct Watch<'a> {
    /// The limits to hold the sandbox to.
    pub limits: Limits,
    /// The folders whose bytes count.
    pub folders: Vec<PathBuf>,
    /// Where the reason of a kill is written (the program's stderr).
    pub stderr: Option<BorrowedFd<'a>>,
    /// Descriptors whose hanging up ends the watch with an error (the
    /// caller is gone): a resident keeper's socket; without namespaces,
    /// the pipe the outer keeper holds (the caller killed it).
    pub gone: Vec<BorrowedFd<'a>>,
}

/// Waits for `child` under `watch`.
pub(crate) fn wait(mut child: std::process::Child, watch: &Watch<'_>) -> io::Result<Reported> {
    use std::os::unix::process::ExitStatusExt as _;
    lower_program(Pid::from_child(&child));
    let pidfd = rustix::process::pidfd_open(Pid::from_child(&child), PidfdFlags::empty())?;
    loop {
        let mut fds = vec![rustix::event::PollFd::new(
            &pidfd,
            rustix::event::PollFlags::IN,
        )];
        for fd in &watch.gone {
            fds.push(rustix::event::PollFd::new(fd, rustix::event::PollFlags::IN));
        }
        let tick = rustix::event::Timespec {
            tv_sec: 0,
            tv_nsec: i64::from(TICK.subsec_nanos()),
        };
        match rustix::event::poll(&mut fds, Some(&tick)) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
        if fds.iter().skip(1).any(|s| !s.revents().is_empty()) {
            return Err(io::Error::other("the caller is gone"));
        }
        if !fds[0].revents().is_empty() {
            let s = child.wait()?;
            return Ok(match (s.code(), s.signal()) {
                (Some(c), _) => Reported::Exited(c),
                (None, Some(sig)) => Reported::Signaled(sig),
                (None, None) => Reported::Exited(-1),
            });
        }
        if let Some(why) = over_limit(watch) {
            if let Some(stderr) = watch.stderr {
                let mut err = fs::File::from(stderr.try_clone_to_owned()?);
                let _ = writeln!(err, "\nconformance: killed: {why}");
            }
            kill_all();
            let _ = child.wait();
            return Ok(Reported::Signaled(9));
        }
    }
}

/// Which limit the sandbox passed, in words.
fn over_limit(watch: &Watch<'_>) -> Option<String> {
    if let Some(max) = watch.limits.processes {
        let limit = usize::try_from(max).unwrap_or(usize::MAX);
        if tree::count_below(limit) > limit {
            return Some(format!(
                "it had more than {max} processes running at once (the process limit)"
            ));
        }
    }
    if let Some(max) = watch.limits.resident
        && tree::resident_below() > max
    {
        return Some(format!(
            "its processes held more than {} MiB of memory (the memory limit)",
            max >> 20
        ));
    }
    if let Some(max) = watch.limits.folder_bytes {
        let mut entries = 0usize;
        let used: u64 = watch
            .folders
            .iter()
            .map(|f| bytes_under(f, &mut entries))
            .sum();
        if used > max || entries > MAX_ENTRIES {
            return Some(format!(
                "its folders held more than {} MiB or {MAX_ENTRIES} files (the folder limit)",
                max >> 20
            ));
        }
    }
    None
}

/// Bytes on disk below `dir`, counting entries into `entries` (and
/// stopping past [`MAX_ENTRIES`]), leaving out what is mounted beneath it.
///
/// A mount beneath a watched folder is not the program's to fill: in a
/// mount namespace the private `/tmp` holds read-only binds of host
/// folders that lie beneath the host's `/tmp` (the harness's own folder,
/// a program's folder, a checker's validator), and the case folder,
/// watched on its own; `/dev` holds the device nodes. Counted, a harness
/// built under `/tmp` (a clean clone's `target/debug`: gigabytes, a
/// hundred thousand files) killed every checker it ran at the folder
/// limit. Only a mount's root is left out: a btrfs subvolume a program
/// makes, or an overlay's file, has a device of its own too, and counts.
fn bytes_under(dir: &Path, entries: &mut usize) -> u64 {
    match fs::metadata(dir) {
        Ok(root) => bytes_within(dir, root.dev(), entries),
        Err(_) => 0,
    }
}

/// [`bytes_under`] of `dir`, whose device is `dev`.
fn bytes_within(dir: &Path, dev: u64, entries: &mut usize) -> u64 {
    let Ok(list) = fs::read_dir(dir) else {
        return 0;
    };
    let mut total = 0;
    for entry in list.flatten() {
        let Ok(meta) = entry.metadata() else { continue };
        // A mount's root lies on another device; asked only then.
        if meta.dev() != dev && mount_root(&entry.path(), &meta) {
            continue;
        }
        *entries += 1;
        if *entries > MAX_ENTRIES {
            return total;
        }
        total += meta.blocks() * 512;
        if meta.is_dir() {
            total += bytes_within(&entry.path(), meta.dev(), entries);
        }
    }
    total
}

/// Whether `path` (`meta`, not followed) is the root of a mount. A
/// kernel that cannot say (before Linux 5.8): a folder on another device
/// is taken for one.
fn mount_root(path: &Path, meta: &fs::Metadata) -> bool {
    use rustix::fs::{AtFlags, StatxAttributes, StatxFlags};
    match rustix::fs::statx(
        rustix::fs::CWD,
        path,
        AtFlags::NO_AUTOMOUNT | AtFlags::SYMLINK_NOFOLLOW,
        StatxFlags::empty(),
    ) {
        Ok(st) if st.stx_attributes_mask.contains(StatxAttributes::MOUNT_ROOT) => {
            st.stx_attributes.contains(StatxAttributes::MOUNT_ROOT)
        }
        _ => meta.is_dir(),
    }
}

/// Set by a keeper that made no PID namespace (the `landlock` level):
/// `kill(-1)` would reach every process of its user, so it kills what
/// lies below it, found through `/proc` (being the subreaper, it is the
/// parent of every orphan of the run).
static NO_PID_NAMESPACE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Marks this keeper as one without a PID namespace (see [`kill_all`]).
pub(crate) fn without_pid_namespace() {
    NO_PID_NAMESPACE.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Kills every process of the namespace but this one (PID 1), or, with
/// no PID namespace, every process below this one, and reaps them, until
/// none is left alive: a fork bomb forks while it is being killed, so one
/// `kill(-1)` may miss a child born meanwhile, and a blocking wait for it
/// would wait for ever. Gives up after [`KILL_LIMIT`] (the keeper's own
/// end then kills the rest, in a PID namespace).
pub(crate) fn kill_all() {
    let deadline = std::time::Instant::now() + KILL_LIMIT;
    loop {
        if NO_PID_NAMESPACE.load(std::sync::atomic::Ordering::Relaxed) {
            for d in tree::descendants() {
                if let Ok(pid) = i32::try_from(d.proc_pid) {
                    let _ = nix::sys::signal::kill(
                        nix::unistd::Pid::from_raw(pid),
                        nix::sys::signal::Signal::SIGKILL,
                    );
                }
            }
        } else {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(-1),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
        reap();
        if tree::count_below(0) == 0 || std::time::Instant::now() >= deadline {
            reap();
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mounts_root_is_told_from_a_folder() {
        let meta = |p: &Path| fs::symlink_metadata(p).expect("metadata");
        // `/proc` is mounted everywhere this runs; a fresh folder is not.
        assert!(mount_root(Path::new("/proc"), &meta(Path::new("/proc"))));
        let dir = tempfile::tempdir().expect("dir");
        assert!(!mount_root(dir.path(), &meta(dir.path())));
    }

    #[test]
    fn a_folders_bytes_and_entries_are_counted_beneath_it() {
        let dir = tempfile::tempdir().expect("dir");
        fs::create_dir(dir.path().join("sub")).expect("mkdir");
        fs::write(dir.path().join("sub/data"), vec![b'x'; 1 << 20]).expect("write");
        let mut entries = 0;
        let bytes = bytes_under(dir.path(), &mut entries);
        assert_eq!(entries, 2);
        assert!(bytes >= 1 << 20, "{bytes}");
    }
}
