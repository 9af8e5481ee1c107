//! A set of files held in memory: relative `/`-separated paths to bytes,
//! with which of them are executable. A submission read by `mark`, a
//! folder pack's model sources and what a contained build left are all
//! one; it is written into a run's folder, hashed for a cache key, and
//! bounded in size and count as it is filled.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use sha2::{Digest as _, Sha256};

/// Bytes a submission may hold in all.
pub const MAX_BYTES: u64 = 64 << 20;
/// Files a submission may hold.
pub const MAX_FILES: usize = 10_000;

/// A submission's files: relative `/`-separated path → bytes, and the
/// paths of those that are executable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Files(pub BTreeMap<String, Vec<u8>>, pub BTreeSet<String>);

impl Files {
    /// What a build in a sandbox holding `sources` left (`files`): the
    /// sandbox does not tell modes, so what the build made and what was
    /// executable before are executable.
    pub fn after_build(sources: &Files, files: BTreeMap<String, Vec<u8>>) -> Self {
        let executable = files
            .keys()
            .filter(|p| !sources.0.contains_key(*p) || sources.1.contains(*p))
            .cloned()
            .collect();
        Self(files, executable)
    }

    /// Writes every file below `dir` (made, with its folders, when
    /// missing), the executable ones with mode 755, the others 644.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<()> {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::create_dir_all(dir)?;
        for (rel, bytes) in &self.0 {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&path, bytes)?;
            let mode = if self.1.contains(rel) { 0o755 } else { 0o644 };
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))?;
        }
        Ok(())
    }

    /// The SHA-256 of every path and its bytes, in path order.
    pub fn hash(&self) -> String {
        let mut h = Sha256::new();
        for (path, bytes) in &self.0 {
            h.update((path.len() as u64).to_le_bytes());
            h.update(path.as_bytes());
            h.update((bytes.len() as u64).to_le_bytes());
            h.update(bytes);
        }
        // Only where there are any, so that a submission without
        // executable files hashes as it always did.
        for path in &self.1 {
            h.update(b"\0x");
            h.update(path.as_bytes());
        }
        crate::model::suite::hex(&h.finalize())
    }

    /// The names at the top level.
    pub fn top_names(&self) -> impl Iterator<Item = &str> {
        self.0
            .keys()
            .filter(|p| !p.contains('/'))
            .map(String::as_str)
    }

    pub fn add(
        &mut self,
        path: &str,
        bytes: Vec<u8>,
        mode: Option<u32>,
        total: &mut u64,
    ) -> Result<(), String> {
        *total += bytes.len() as u64;
        if *total > MAX_BYTES {
            return Err(format!("more than {} MiB of files", MAX_BYTES >> 20));
        }
        if self.0.len() >= MAX_FILES {
            return Err(format!("more than {MAX_FILES} files"));
        }
        self.0.insert(path.to_owned(), bytes);
        if mode.is_some_and(|m| m & 0o111 != 0) {
            self.1.insert(path.to_owned());
        }
        Ok(())
    }

    /// Everything inside one top-level folder, when that is all there is
    /// (an archive of `alice/…`), taken out of it, again and again: a
    /// folder and the same tree zipped (with or without its own folder)
    /// give the same files. The one rule for every form a submission
    /// comes in.
    pub fn unwrap_single_folder(mut self) -> Self {
        loop {
            let mut tops = self.0.keys().map(|p| p.split_once('/').map(|(top, _)| top));
            let Some(Some(first)) = tops.next() else {
                return self;
            };
            let first = first.to_owned();
            if !tops.all(|t| t == Some(first.as_str())) {
                return self;
            }
            let cut = first.len() + 1;
            let strip = |p: &str| p.get(cut..).unwrap_or_default().to_owned();
            self = Files(
                self.0.into_iter().map(|(p, b)| (strip(&p), b)).collect(),
                self.1.iter().map(|p| strip(p)).collect(),
            );
        }
    }
}
