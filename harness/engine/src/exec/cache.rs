//! What the harness keeps between commands, and where: the cache folder
//! (`CONFORMANCE_CACHE`, else `$XDG_CACHE_HOME/conformance`, else
//! `~/.cache/conformance`) holds a folder pack's installed requirements
//! and Java programs' class-data archives ([`Archives`]), each kept by a
//! hash of everything it was made from, so a kept file is never used for
//! anything else.

use std::path::{Path, PathBuf};

/// The cache folder: `CONFORMANCE_CACHE`, else
/// `$XDG_CACHE_HOME/conformance`, else `~/.cache/conformance`.
pub fn root() -> PathBuf {
    if let Some(dir) = std::env::var_os("CONFORMANCE_CACHE").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("conformance")
}

/// The variable that turns the archive cache off (`off`): each command
/// then makes its own, as before the cache.
pub const ARCHIVES_OFF_ENV: &str = "CONFORMANCE_JVM_CACHE";

/// Archives kept at most: past this, the least recently used go (an
/// archive is a few hundred KiB; a class marked twice needs one each).
pub const ARCHIVES_KEPT: usize = 256;

/// Java class-data archives kept between commands, one per key
/// ([`crate::exec::run::jvm::archive_key`]): a program checked again
/// unchanged, on the same JDK with the same options, starts from the
/// archive its first check made, with no run to make it.
#[derive(Debug, Clone)]
pub struct Archives {
    dir: PathBuf,
}

impl Archives {
    /// The cache's archives, `None` when `CONFORMANCE_JVM_CACHE=off`.
    pub fn get() -> Option<Self> {
        let off = std::env::var(ARCHIVES_OFF_ENV).is_ok_and(|v| v == "off" || v == "0");
        (!off).then(|| Self::in_folder(root().join("jvm")))
    }

    /// Archives kept in `dir`.
    pub fn in_folder(dir: PathBuf) -> Self {
        Self { dir }
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.jsa"))
    }

    /// The archive kept for `key`, marked used now.
    pub fn load(&self, key: &str) -> Option<Vec<u8>> {
        let path = self.path(key);
        let bytes = std::fs::read(&path).ok().filter(|b| !b.is_empty())?;
        if let Ok(f) = std::fs::File::options().append(true).open(&path) {
            let _ = f.set_modified(std::time::SystemTime::now());
        }
        Some(bytes)
    }

    /// Keeps `bytes` for `key` (written whole, then renamed into place: a
    /// command beside it never reads half of one), then the least
    /// recently used beyond [`ARCHIVES_KEPT`] go. A cache that cannot be
    /// written is no error: the archive is made again next time.
    pub fn store(&self, key: &str, bytes: &[u8]) {
        if std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let Ok(mut file) = tempfile::NamedTempFile::new_in(&self.dir) else {
            return;
        };
        if std::io::Write::write_all(&mut file, bytes).is_err() {
            return;
        }
        if file.persist(self.path(key)).is_ok() {
            prune(&self.dir, ARCHIVES_KEPT);
        }
    }
}

/// Removes the least recently modified archives of `dir` beyond `keep`.
fn prune(dir: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut kept: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsa"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if kept.len() <= keep {
        return;
    }
    kept.sort();
    for (_, path) in &kept[..kept.len() - keep] {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_is_kept_by_its_key_and_the_oldest_go() {
        let dir = tempfile::tempdir().expect("a folder");
        let archives = Archives::in_folder(dir.path().join("jvm"));
        assert_eq!(archives.load("k1"), None);
        archives.store("k1", b"one");
        assert_eq!(archives.load("k1").as_deref(), Some(&b"one"[..]));
        assert_eq!(archives.load("k2"), None, "another key");
        for i in 0..4 {
            let path = dir.path().join("jvm").join(format!("old{i}.jsa"));
            std::fs::write(&path, b"x").expect("an old archive");
            let then = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(i);
            std::fs::File::options()
                .append(true)
                .open(&path)
                .and_then(|f| f.set_modified(then))
                .expect("aged");
        }
        prune(&dir.path().join("jvm"), 2);
        let mut left: Vec<String> = std::fs::read_dir(dir.path().join("jvm"))
            .expect("listed")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["k1.jsa", "old3.jsa"], "the newest two stay");
    }
}
