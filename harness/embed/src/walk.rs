//! Listing a case tree: every file below a folder with its `/`-separated
//! relative path, hidden files and folders skipped (an editor's swap file is
//! not a case). Shared by every pack's `build.rs`, which embeds its suite
//! ([`crate::suite`]), and by the engine's `suite`, which reads a suite from
//! disk, so both see the same files.
//!
//! Only regular files (or links to them) are listed: a FIFO, socket or
//! device in a case folder would block or misbehave when read, so it is
//! skipped with a warning on stderr and never opened.

use std::io;
use std::path::{Path, PathBuf};

/// Every regular file below `dir`: its relative path and its full path,
/// unsorted.
pub fn files(dir: &Path) -> io::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    let entries = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .filter_entry(|e| !e.file_name().to_string_lossy().starts_with('.'));
    for entry in entries {
        let entry = entry.map_err(io::Error::other)?;
        if entry.file_type().is_dir() {
            continue;
        }
        // `metadata` follows a link: a link to a FIFO is as bad as one.
        // It never opens the file, so a FIFO cannot block here.
        if !std::fs::metadata(entry.path()).is_ok_and(|m| m.is_file()) {
            eprintln!(
                "warning: skipping {}: not a regular file (a FIFO, socket, \
                 device or broken link is never read as part of a suite)",
                entry.path().display()
            );
            continue;
        }
        if let Ok(rel) = entry.path().strip_prefix(dir) {
            out.push((
                rel.to_string_lossy().into_owned(),
                entry.path().to_path_buf(),
            ));
        }
    }
    Ok(out)
}
