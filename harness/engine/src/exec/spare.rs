//! Run folders kept for the next run. On some file systems making and
//! removing folders is the dearest part of a run: ext4 without a journal
//! searches, for each new inode, one not freed in the last seconds, and
//! with `discard` a removal waits for the disk. Measured on the CI
//! machine: 0.5 ms of CPU and 0.9-2.5 ms of wall time for the three
//! folders and two files of a contained run, against 0.1 ms on tmpfs.
//!
//! While a [`Scope`] lives (the engine's commands hold one), a finished
//! run's folder is emptied ([`Layout::recycle`]) and kept for the next
//! run, unless the run ended badly (timed out, cut at the cap, or left
//! processes behind: something might still write into it). A kept folder
//! stays registered with the interrupt handler, which removes it with the
//! rest; the last scope to end removes every kept folder.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::exec::interrupt::{Interrupted, Ticket};
use conformance_sandbox::{Containment, Layout};

/// At most this many folders wait (one per worker thread is enough).
const MOST_KEPT: usize = 64;

/// A run's folder, registered with the interrupt handler.
pub(crate) struct Folder {
    /// The run's folders inside `dir`.
    pub layout: Layout,
    /// At the Landlock level, the keeper that stays with these folders
    /// (made by the first run that may keep the folder).
    pub resident: Option<conformance_sandbox::resident::Resident>,
    /// The registration: how to kill the run, where its folder is.
    pub ticket: Ticket,
    /// Removes the folder when dropped.
    _dir: tempfile::TempDir,
}

static KEPT: Mutex<Vec<Folder>> = Mutex::new(Vec::new());
static SCOPES: AtomicUsize = AtomicUsize::new(0);

/// While one lives, finished runs' folders are kept for later runs, and
/// contained runs share the sandbox's zygote ([`conformance_sandbox::zygote`]).
#[derive(Debug)]
#[must_use = "folders are kept only while the scope lives"]
pub struct Scope {
    /// Stops the zygote when the last scope ends (after the folders).
    _zygote: conformance_sandbox::zygote::Session,
}

impl Scope {
    /// Starts keeping folders (scopes nest).
    pub fn enter() -> Self {
        SCOPES.fetch_add(1, Ordering::SeqCst);
        Self {
            _zygote: conformance_sandbox::zygote::Session::enter(),
        }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        if SCOPES.fetch_sub(1, Ordering::SeqCst) == 1 {
            let kept = std::mem::take(&mut *KEPT.lock().unwrap_or_else(PoisonError::into_inner));
            drop(kept);
        }
    }
}

/// Whether finished runs' folders are kept (a [`Scope`] lives): only then
/// is a folder worth a resident keeper.
pub(crate) fn active() -> bool {
    SCOPES.load(Ordering::SeqCst) > 0
}

/// A folder for a run contained as `containment` says, whose program reads
/// `reads`: a kept one (one whose resident keeper reads the same, if there
/// is one: a keeper's read rules bind all its programs), or a new one made
/// under the interrupt registry's lock.
pub(crate) fn take(
    containment: &Containment,
    reads: Option<&conformance_sandbox::Reads>,
) -> Result<std::io::Result<Folder>, Interrupted> {
    let kept = {
        let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
        let same = kept
            .iter()
            .rposition(|f| f.resident.as_ref().is_some_and(|r| r.reads() == reads));
        match same {
            Some(i) => Some(kept.swap_remove(i)),
            None => kept.pop(),
        }
    };
    if let Some(folder) = kept {
        if crate::exec::interrupt::interrupted() {
            return Err(Interrupted);
        }
        return Ok(Ok(folder));
    }
    let made = Ticket::register(|| {
        let dir = tempfile::Builder::new()
            .prefix("conformance-case-")
            .tempdir()?;
        // Only the folders the level needs: every folder more is a `mkdir`
        // and an `rmdir` per case.
        let layout = Layout::for_containment(dir.path(), containment)?;
        let path: PathBuf = dir.path().to_owned();
        Ok(((dir, layout), path))
    })?;
    Ok(made.map(|(ticket, (dir, layout))| Folder {
        layout,
        resident: None,
        ticket,
        _dir: dir,
    }))
}

/// Hands back the folder of a run whose processes are all dead; `reuse`
/// says whether the run ended cleanly enough to reuse it.
pub(crate) fn give_back(mut folder: Folder, reuse: bool) {
    folder.ticket.idle();
    if folder
        .resident
        .as_ref()
        .is_some_and(conformance_sandbox::resident::Resident::broken)
    {
        folder.resident = None;
    }
    if !reuse || SCOPES.load(Ordering::SeqCst) == 0 || folder.layout.recycle().is_err() {
        return;
    }
    let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if kept.len() < MOST_KEPT && SCOPES.load(Ordering::SeqCst) > 0 {
        kept.push(folder);
    }
}
