//! The files of a run: those placed in the sandbox first (paths checked to
//! stay inside it) and those found there afterwards, bounded.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::outcome::RunError;

/// `path` as a path inside the sandbox: relative, not empty, never `..`.
///
/// # Errors
/// [`RunError::BadPath`] naming it otherwise.
pub fn checked_relative(path: &str) -> Result<PathBuf, RunError> {
    let p = Path::new(path);
    let ok = !path.is_empty()
        && p.components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        });
    if ok {
        Ok(p.to_owned())
    } else {
        Err(RunError::BadPath(path.to_owned()))
    }
}

pub(super) fn place_files(
    root: &Path,
    files: &[(String, Vec<u8>)],
    executable: &[String],
) -> Result<(), RunError> {
    use std::os::unix::fs::PermissionsExt as _;
    for (path, bytes) in files {
        let full = root.join(checked_relative(path)?);
        if let Some(parent) = full.parent() {
            fs::create_dir_all(parent).map_err(RunError::Sandbox)?;
        }
        fs::write(&full, bytes).map_err(RunError::Sandbox)?;
        if executable.contains(path) {
            fs::set_permissions(&full, fs::Permissions::from_mode(0o755))
                .map_err(RunError::Sandbox)?;
        }
    }
    Ok(())
}

/// What the sandbox holds after a run.
pub(super) struct Survey {
    /// Every regular file, up to the cap, by relative path.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Every folder.
    pub dirs: BTreeSet<String>,
    /// The files the run created or changed.
    pub written: BTreeSet<String>,
    /// The files longer than the cap (kept cut to it).
    pub cut: BTreeSet<String>,
}

/// Lists what the sandbox holds after the run, and what the run wrote.
pub(super) fn survey(root: &Path, placed: &[(String, Vec<u8>)], cap: u64) -> Survey {
    let mut files = BTreeMap::new();
    let mut dirs = BTreeSet::new();
    let mut cut = BTreeSet::new();
    let mut pending = vec![(root.to_owned(), String::new())];
    while let Some((dir, prefix)) = pending.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = format!("{prefix}{name}");
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                dirs.insert(rel.clone());
                pending.push((entry.path(), format!("{rel}/")));
            } else {
                let mut bytes = Vec::new();
                if kind.is_file()
                    && let Ok(f) = fs::File::open(entry.path())
                {
                    // One byte past the cap tells a file cut short.
                    let _ = f.take(cap.saturating_add(1)).read_to_end(&mut bytes);
                    if bytes.len() as u64 > cap {
                        bytes.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
                        cut.insert(rel.clone());
                    }
                }
                files.insert(rel, bytes);
            }
        }
    }
    let before: BTreeMap<String, &Vec<u8>> =
        placed.iter().map(|(p, b)| (normalize(p), b)).collect();
    let written = files
        .iter()
        .filter(|(p, b)| before.get(*p).is_none_or(|old| *old != *b))
        .map(|(p, _)| p.clone())
        .collect();
    Survey {
        files,
        dirs,
        written,
        cut,
    }
}

/// A relative path in the form [`super::outcome::Outcome::files`] uses.
pub fn normalize(path: &str) -> String {
    Path::new(path)
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_paths_stay_inside() {
        assert!(checked_relative("a/b.txt").is_ok());
        assert!(checked_relative("../x").is_err());
        assert!(checked_relative("/etc/passwd").is_err());
        assert!(checked_relative("").is_err());
    }
}
