//! What a mark depends on, each part hashed apart (the harness, the
//! suite, the model, the pack, the environment, the options, the
//! submission): a kept mark is re-used only when every part is the same,
//! and a re-mark says which changed ("the model changed"). A mark's
//! `inputs` is the hash of them all; its `depends` keeps each part's, so
//! that the next run can name the difference.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use sha2::{Digest as _, Sha256};

use crate::model::suite;
use crate::packs::pack::Dependency;

/// Bytes of a dependency's files read to hash at most; past it, a file
/// counts by its length and time (a pack holding a data set is still
/// hashed in bounded time).
const READ_CAP: u64 = 256 << 20;

/// Files of one dependency looked at, at most.
const FILES_CAP: usize = 100_000;

/// Each part's hash, by its name to people.
pub type Parts = BTreeMap<String, String>;

/// A hasher over length-prefixed parts (no two sequences collide).
struct Hasher(Sha256);

impl Hasher {
    fn new() -> Self {
        Self(Sha256::new())
    }

    fn part(&mut self, bytes: &[u8]) {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    fn finish(self) -> String {
        suite::hex(&self.0.finalize())
    }
}

/// This harness: its version and the bytes of the file it runs from (a
/// rebuild judges otherwise, whatever its version says), hashed once a
/// process. Contents, not a path or a time: on a cluster the binary is
/// copied or replaced (`mv`) while slices run, and an identical binary
/// must not re-mark finished work; the file read is the one this process
/// runs ([`conformance_sandbox::own_exe`]), even once its path names
/// another.
pub fn harness() -> String {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| {
        let mut h = Hasher::new();
        h.part(env!("CARGO_PKG_VERSION").as_bytes());
        match conformance_sandbox::own_exe().and_then(|exe| file_hash(&exe)) {
            Ok(bytes) => h.part(bytes.as_bytes()),
            // Unreadable: every run then differs from the last, so a mark
            // is re-made rather than wrongly kept.
            Err(e) => h.part(format!("unreadable: {e} {}", std::process::id()).as_bytes()),
        }
        h.finish()
    })
    .clone()
}

/// The hash of a file's bytes, read in blocks (the harness's binary is
/// tens of megabytes).
fn file_hash(path: &Path) -> std::io::Result<String> {
    use std::io::Read as _;
    let mut file = std::fs::File::open(path)?;
    let mut sha = Sha256::new();
    let mut block = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut block)?;
        if n == 0 {
            break;
        }
        sha.update(&block[..n]);
    }
    Ok(suite::hex(&sha.finalize()))
}

/// A file by its path, length and modification time.
fn identity(h: &mut Hasher, path: &Path) {
    h.part(path.as_os_str().as_encoded_bytes());
    if let Ok(meta) = std::fs::metadata(path) {
        h.part(&meta.len().to_le_bytes());
        let nanos = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        h.part(&nanos.to_le_bytes());
    }
}

/// The program a command word names on `PATH`, resolved through links.
fn on_path(word: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(word))
        .find(|p| p.is_file())
        .map(|p| std::fs::canonicalize(&p).unwrap_or(p))
}

/// The hash of a dependency's content: every file below its paths (dot
/// files and anything under `leave_out` aside, in path order, read up to
/// [`READ_CAP`] in all), and its commands' programs.
pub fn dependency(dep: &Dependency, leave_out: &[PathBuf]) -> String {
    let mut h = Hasher::new();
    let mut read = 0u64;
    for root in &dep.paths {
        h.part(root.as_os_str().as_encoded_bytes());
        let walk = walkdir::WalkDir::new(root)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| {
                (e.depth() == 0 || !e.file_name().as_encoded_bytes().starts_with(b"."))
                    && !leave_out.iter().any(|l| e.path().starts_with(l))
            })
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .take(FILES_CAP);
        for entry in walk {
            let rel = entry.path().strip_prefix(root).unwrap_or(entry.path());
            h.part(rel.as_os_str().as_encoded_bytes());
            let len = entry.metadata().map_or(0, |m| m.len());
            if read.saturating_add(len) <= READ_CAP
                && let Ok(bytes) = std::fs::read(entry.path())
            {
                read += bytes.len() as u64;
                h.part(&bytes);
            } else {
                identity(&mut h, entry.path());
            }
        }
    }
    for word in &dep.commands {
        h.part(word.as_bytes());
        if let Some(program) = on_path(word) {
            identity(&mut h, &program);
        }
    }
    h.finish()
}

/// The hash of all the parts (what a mark's `inputs` holds).
pub fn combined(parts: &Parts) -> String {
    let mut h = Hasher::new();
    for (name, hash) in parts {
        h.part(name.as_bytes());
        h.part(hash.as_bytes());
    }
    h.finish()
}

/// Why a kept mark is stale, from its parts and the new ones: `the
/// model changed`, `the model and the suite changed`; a mark that kept
/// no parts was made by an older harness.
pub fn why(old: &Parts, new: &Parts) -> String {
    if old.is_empty() {
        return "marked by an older harness".to_owned();
    }
    let changed: Vec<&str> = new
        .iter()
        .filter(|(name, hash)| old.get(*name) != Some(*hash))
        .map(|(name, _)| name.as_str())
        .chain(
            old.keys()
                .filter(|name| !new.contains_key(*name))
                .map(String::as_str),
        )
        .collect();
    match changed.as_slice() {
        [] => "the same inputs".to_owned(),
        [one] => format!("{one} changed"),
        [most @ .., last] => format!("{} and {last} changed", most.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(items: &[(&str, &str)]) -> Parts {
        items
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    #[test]
    fn the_reason_names_each_part_that_changed() {
        let old = parts(&[
            ("the model", "1"),
            ("the suite", "2"),
            ("the submission", "3"),
        ]);
        let new = parts(&[
            ("the model", "9"),
            ("the suite", "2"),
            ("the submission", "3"),
        ]);
        assert_eq!(why(&old, &new), "the model changed");
        let both = parts(&[
            ("the model", "9"),
            ("the suite", "8"),
            ("the submission", "3"),
        ]);
        assert_eq!(why(&old, &both), "the model and the suite changed");
        assert_eq!(why(&Parts::new(), &new), "marked by an older harness");
    }

    #[test]
    fn an_executables_hash_is_its_bytes_not_its_path_or_time() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::write(&a, b"\x7fELF one").expect("write");
        std::fs::write(&b, b"\x7fELF one").expect("write");
        let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1);
        std::fs::File::options()
            .write(true)
            .open(&b)
            .and_then(|f| f.set_modified(old))
            .expect("set time");
        assert_eq!(file_hash(&a).ok(), file_hash(&b).ok());
        std::fs::write(&b, b"\x7fELF two").expect("write");
        assert_ne!(file_hash(&a).ok(), file_hash(&b).ok());
        // Once a process, and the same again.
        assert_eq!(harness(), harness());
    }

    #[test]
    fn a_folders_hash_follows_its_content_and_leaves_out_what_it_is_told() {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("marks");
        std::fs::create_dir_all(&out).expect("mkdir");
        std::fs::write(dir.path().join("model.py"), "print(1)\n").expect("write");
        let dep = Dependency {
            name: "the model",
            paths: vec![dir.path().to_owned()],
            commands: vec!["sh".to_owned()],
        };
        let before = dependency(&dep, std::slice::from_ref(&out));
        std::fs::write(out.join("marks.csv"), "x").expect("write");
        std::fs::write(dir.path().join(".hidden"), "x").expect("write");
        assert_eq!(dependency(&dep, std::slice::from_ref(&out)), before);
        std::fs::write(dir.path().join("model.py"), "print(2)\n").expect("write");
        assert_ne!(dependency(&dep, &[out]), before);
    }
}
