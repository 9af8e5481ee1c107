//! Listing a case tree: every file below a folder with its `/`-separated
//! relative path, hidden files and folders skipped (an editor's swap file is
//! not a case). Shared by `build.rs`, which embeds the suite, and by
//! `suite`, which reads a suite from disk, so both see the same files.

use std::io;
use std::path::{Path, PathBuf};

/// Every file below `dir`: its relative path and its full path, unsorted.
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
        if let Ok(rel) = entry.path().strip_prefix(dir) {
            out.push((
                rel.to_string_lossy().into_owned(),
                entry.path().to_path_buf(),
            ));
        }
    }
    Ok(out)
}
