//! What a JDK says of itself, read from its files rather than by
//! starting a JVM (a start costs as much as a case): its version, from
//! the `release` file beside its `bin/` (a report's header), and what
//! identifies a class-data archive it made (the archive cache's key,
//! [`crate::exec::cache::Archives`]).

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::Path;

use super::jvm::{Archive, Placed, is_java, start_options};

/// What identifies a class-data archive (hex of a SHA-256): the JDK
/// (the launcher's resolved path, its runtime image, its JVM and its
/// `release` file, by path, size and time), the words of the run that
/// makes it ([`super::jvm::dumping`]'s, after the quick start's options) and every
/// file of the class-path folder, by path and bytes. An archive kept
/// under this key was made by the same JDK from the same classes with
/// the same options; anything else makes another key. `None` when the
/// launcher cannot be resolved.
pub fn archive_key(java: &Path, words: &[OsString], files: &Placed) -> Option<String> {
    use sha2::Digest as _;
    use std::os::unix::ffi::OsStrExt as _;
    let java = std::fs::canonicalize(java).ok()?;
    let home = java.parent()?.parent()?.to_owned();
    let mut hasher = sha2::Sha256::new();
    hasher.update(b"conformance class-data archive 1\0");
    for part in [
        java.clone(),
        home.join("lib/modules"),
        home.join("lib/server/libjvm.so"),
        home.join("release"),
    ] {
        hasher.update(part.as_os_str().as_bytes());
        hasher.update([0]);
        if let Ok(meta) = std::fs::metadata(&part) {
            hasher.update(meta.len().to_le_bytes());
            let at = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .unwrap_or_default();
            hasher.update(at.as_nanos().to_le_bytes());
        }
    }
    let options = start_options(&java, words, &Archive::Make);
    hasher.update(((options.len() + words.len()) as u64).to_le_bytes());
    for word in options.iter().chain(words) {
        hasher.update(word.as_bytes());
        hasher.update([0]);
    }
    for (path, bytes) in files {
        hasher.update(path.as_bytes());
        hasher.update([0]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
    let mut key = String::new();
    for b in &hasher.finalize()[..16] {
        let _ = write!(key, "{b:02x}");
    }
    Some(key)
}

/// Bytes of a JDK's `release` file read at most.
const RELEASE_CAP: u64 = 64 << 10;

/// The version of the JDK whose launcher is `java`, from the `release`
/// file every JDK since 9 keeps beside its `bin/` (the launcher's path
/// resolved: `/usr/bin/java` is a link into the JDK), in the words of
/// `java --version`'s first line (`Java 17.0.15 2025-04-15`, with the
/// build's full version when it says one): a report's header names the
/// JDK without starting a JVM for it. `None` when `java` is not a JDK's
/// launcher or the file does not say.
pub fn release_version(java: &Path) -> Option<String> {
    use std::io::Read as _;
    if !is_java(java) {
        return None;
    }
    let home = std::fs::canonicalize(java)
        .ok()?
        .parent()?
        .parent()?
        .to_owned();
    let mut text = String::new();
    std::fs::File::open(home.join("release"))
        .ok()?
        .take(RELEASE_CAP)
        .read_to_string(&mut text)
        .ok()?;
    let value = |key: &str| {
        text.lines().find_map(|line| {
            let v = line.strip_prefix(key)?.strip_prefix('=')?.trim();
            let v = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(v);
            (!v.is_empty()).then(|| v.chars().take(60).collect::<String>())
        })
    };
    let version = value("JAVA_VERSION")?;
    let mut said = format!("Java {version}");
    if let Some(date) = value("JAVA_VERSION_DATE") {
        said.push(' ');
        said.push_str(&date);
    }
    if let Some(full) = value("JAVA_RUNTIME_VERSION").filter(|f| *f != version) {
        let _ = write!(said, ", build {full}");
    }
    Some(said)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_key_changes_with_the_classes_and_the_options() {
        let java = Path::new("/bin/sh");
        let words: Vec<OsString> = vec!["-cp".into(), ".".into(), "Main".into()];
        let files: Placed = vec![("Main.class".to_owned(), b"one".to_vec())];
        let key = archive_key(java, &words, &files).expect("a key");
        assert_eq!(
            archive_key(java, &words, &files),
            Some(key.clone()),
            "stable"
        );
        let changed: Placed = vec![("Main.class".to_owned(), b"two".to_vec())];
        assert_ne!(archive_key(java, &words, &changed), Some(key.clone()));
        let mut other = words.clone();
        other.insert(0, "-Xmx64m".into());
        assert_ne!(archive_key(java, &other, &files), Some(key.clone()));
        assert_ne!(
            archive_key(Path::new("/bin/cat"), &words, &files),
            Some(key)
        );
    }

    #[test]
    fn a_jdk_says_its_version_in_its_release_file() {
        let dir = tempfile::tempdir().expect("a folder");
        let jdk = dir.path().join("jdk");
        std::fs::create_dir_all(jdk.join("bin")).expect("bin");
        std::fs::write(jdk.join("bin/java"), b"").expect("a launcher");
        std::os::unix::fs::symlink(jdk.join("bin/java"), dir.path().join("java")).expect("a link");
        assert_eq!(
            release_version(&dir.path().join("java")),
            None,
            "no release file"
        );
        std::fs::write(
            jdk.join("release"),
            "IMPLEMENTOR=\"Debian\"\nJAVA_RUNTIME_VERSION=\"17.0.15+6-Debian-1deb12u1\"\n\
             JAVA_VERSION=\"17.0.15\"\nJAVA_VERSION_DATE=\"2025-04-15\"\n",
        )
        .expect("a release file");
        assert_eq!(
            release_version(&dir.path().join("java")).as_deref(),
            Some("Java 17.0.15 2025-04-15, build 17.0.15+6-Debian-1deb12u1"),
            "read through the link, beside the JDK's bin/"
        );
        assert_eq!(
            release_version(&jdk.join("bin/javac")),
            None,
            "not a launcher"
        );
    }
}
