//! What a folder of submissions holds: one entry per submission (a folder
//! or an archive), its id, a safe folder name for its outputs, and the
//! students a course export names for it (Gradescope's
//! `submission_metadata.yml`, GitHub Classroom's `assignment-user` clones).

use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Gradescope's export names each submission's students in this file.
pub const GRADESCOPE_METADATA: &str = "submission_metadata.yml";

/// One submission as found.
#[derive(Debug, Clone)]
pub struct Submission {
    /// The id as a person reads it: the entry's name without its archive
    /// extension, bytes that are not UTF-8 escaped (`\xNN`).
    pub id: String,
    /// The folder of its outputs: the id's bytes, anything but
    /// `[A-Za-z0-9._-]` percent-encoded, so every id gets a distinct,
    /// portable name.
    pub slug: String,
    /// Where its files are.
    pub source: Source,
    /// The students the export names for it.
    pub students: Vec<Student>,
}

/// The form a submission came in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A folder.
    Folder(PathBuf),
    /// A `.zip` archive.
    Zip(PathBuf),
    /// A `.tar` archive.
    Tar(PathBuf),
    /// A `.tar.gz` or `.tgz` archive.
    TarGz(PathBuf),
}

/// A student named by a course export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Student {
    /// Their name (a GitHub user name for Classroom).
    pub name: String,
    /// Their e-mail, when the export gives it.
    #[serde(default)]
    pub email: String,
    /// Their student id, when the export gives it.
    #[serde(default)]
    pub sid: String,
}

/// Escapes bytes that are not UTF-8 as `\xNN`; unlike
/// [`crate::bytes::visible::escape`] it keeps UTF-8 whole, since an id goes back
/// into a gradebook (`José`, not `Jos\xc3\xa9`).
pub fn readable(name: &OsStr) -> String {
    let mut out = String::new();
    for chunk in name.as_bytes().utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// The outputs' folder name for an id's bytes.
pub fn slug(name: &OsStr) -> String {
    let mut out = String::new();
    for &b in name.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    if out.starts_with('.') {
        out.replace_range(0..1, "%2E");
    }
    out
}

/// The entry's archive form and its name without the extension.
fn classify(path: &Path, name: &OsStr) -> Option<(Source, OsString)> {
    let bytes = name.as_bytes();
    let strip = |ext: &str| OsStr::from_bytes(&bytes[..bytes.len() - ext.len()]).to_owned();
    if path.is_dir() {
        return Some((Source::Folder(path.to_owned()), name.to_owned()));
    }
    let lower = String::from_utf8_lossy(bytes).to_ascii_lowercase();
    for (ext, make) in [
        (".tar.gz", Source::TarGz as fn(PathBuf) -> Source),
        (".tgz", Source::TarGz),
        (".tar", Source::Tar),
        (".zip", Source::Zip),
    ] {
        if lower.ends_with(ext) && bytes.len() > ext.len() {
            return Some((make(path.to_owned()), strip(ext)));
        }
    }
    None
}

/// Every submission under `root`, sorted by id (bytes), with what a
/// course export says of its students; entries that are neither a folder
/// nor an archive are returned apart, to be named.
pub fn discover(root: &Path, out: &Path) -> Result<(Vec<Submission>, Vec<String>), String> {
    // Gradescope's archive unpacks to one folder holding the export: that
    // folder is the one meant.
    let nested = std::fs::read_dir(root).ok().and_then(|entries| {
        let dirs: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| !e.file_name().as_bytes().starts_with(b"."))
            .map(|e| e.path())
            .collect();
        match dirs.as_slice() {
            [only] if only.join(GRADESCOPE_METADATA).is_file() => Some(only.clone()),
            _ => None,
        }
    });
    let root = nested.as_deref().unwrap_or(root);
    // The output folder may sit among the submissions (`mark . --out
    // marks`): it is not one of them.
    let out = std::fs::canonicalize(out).ok();
    let entries = std::fs::read_dir(root)
        .map_err(|e| format!("cannot read the submissions folder {}: {e}", root.display()))?;
    let mut found: Vec<(OsString, Source)> = Vec::new();
    let mut skipped = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", root.display()))?;
        let name = entry.file_name();
        if name.as_bytes().starts_with(b".")
            || name == GRADESCOPE_METADATA
            || name == "__MACOSX"
            || (out.is_some() && std::fs::canonicalize(entry.path()).ok() == out)
        {
            continue;
        }
        match classify(&entry.path(), &name) {
            Some((source, id)) => found.push((id, source)),
            None => skipped.push(readable(&name)),
        }
    }
    found.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    if let Some(pair) = found.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!(
            "two submissions have the id {} (a folder and an archive?)",
            readable(&pair[0].0)
        ));
    }
    let metadata = gradescope_students(root)?;
    let classroom = classroom_users(&found);
    let submissions = found
        .into_iter()
        .map(|(id, source)| {
            let students = metadata
                .iter()
                .find(|(k, _)| OsStr::new(k) == id)
                .map(|(_, s)| s.clone())
                .or_else(|| {
                    classroom.as_ref().and_then(|prefix| {
                        let user = id.as_bytes().strip_prefix(prefix.as_bytes())?;
                        Some(vec![Student {
                            name: readable(OsStr::from_bytes(user)),
                            email: String::new(),
                            sid: String::new(),
                        }])
                    })
                })
                .unwrap_or_default();
            Submission {
                id: readable(&id),
                slug: slug(&id),
                source,
                students,
            }
        })
        .collect();
    Ok((submissions, skipped))
}

/// GitHub Classroom names each clone `ASSIGNMENT-USER`: when every entry
/// is a git clone and they share such a prefix, the prefix.
fn classroom_users(found: &[(OsString, Source)]) -> Option<String> {
    let clones = found.iter().all(|(_, s)| match s {
        Source::Folder(p) => p.join(".git").exists(),
        _ => false,
    });
    if !clones || found.len() < 2 {
        return None;
    }
    let names: Vec<&str> = found.iter().filter_map(|(n, _)| n.to_str()).collect();
    let first = names.first()?;
    let mut prefix_len = first.len();
    for n in &names {
        prefix_len = prefix_len.min(
            first
                .bytes()
                .zip(n.bytes())
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    let cut = first.get(..prefix_len)?.rfind('-')? + 1;
    let prefix = first.get(..cut)?.to_owned();
    names
        .iter()
        .all(|n| n.len() > prefix.len())
        .then_some(prefix)
}

/// The students of each submission in Gradescope's export metadata:
/// `submission_NNN: {":submitters": [{":name", ":email", ":sid"}]}`.
fn gradescope_students(root: &Path) -> Result<Vec<(String, Vec<Student>)>, String> {
    let path = root.join(GRADESCOPE_METADATA);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    let doc: yaml_serde::Value = yaml_serde::from_str(&text)
        .map_err(|e| format!("{}: not Gradescope's metadata: {e}", path.display()))?;
    let Some(map) = doc.as_mapping() else {
        return Err(format!("{}: not a mapping of submissions", path.display()));
    };
    let field = |v: &yaml_serde::Value, key: &str| -> String {
        [key, key.trim_start_matches(':')]
            .iter()
            .find_map(|k| v.get(*k))
            .map(|x| match x {
                yaml_serde::Value::String(s) => s.clone(),
                yaml_serde::Value::Number(n) => n.to_string(),
                _ => String::new(),
            })
            .unwrap_or_default()
    };
    let mut out = Vec::new();
    for (key, value) in map {
        let Some(key) = key.as_str() else { continue };
        let submitters = [":submitters", "submitters"]
            .iter()
            .find_map(|k| value.get(*k))
            .and_then(yaml_serde::Value::as_sequence)
            .cloned()
            .unwrap_or_default();
        let students = submitters
            .iter()
            .map(|s| Student {
                name: field(s, ":name"),
                email: field(s, ":email"),
                sid: field(s, ":sid"),
            })
            .collect();
        out.push((key.to_owned(), students));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_distinct_and_portable() {
        assert_eq!(slug(OsStr::new("alice")), "alice");
        assert_eq!(slug(OsStr::new("a b/c")), "a%20b%2Fc");
        assert_eq!(slug(OsStr::from_bytes(b"\xff.x")), "%FF.x");
        assert_eq!(slug(OsStr::new(".hidden")), "%2Ehidden");
        assert_eq!(readable(OsStr::from_bytes(b"ab\xffc")), "ab\\xffc");
    }

    #[test]
    fn archives_and_folders_are_found_and_other_files_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("bob")).unwrap();
        std::fs::write(dir.path().join("alice.zip"), b"").unwrap();
        std::fs::write(dir.path().join("carol.tar.gz"), b"").unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"").unwrap();
        std::fs::write(dir.path().join(".DS_Store"), b"").unwrap();
        let (subs, skipped) = discover(dir.path(), Path::new("/nonexistent")).unwrap();
        let ids: Vec<&str> = subs.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["alice", "bob", "carol"]);
        assert!(matches!(subs[2].source, Source::TarGz(_)));
        assert_eq!(skipped, ["notes.txt"]);
    }

    #[test]
    fn gradescope_metadata_names_the_students() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("submission_101")).unwrap();
        std::fs::write(
            dir.path().join(GRADESCOPE_METADATA),
            "submission_101:\n  :submitters:\n  - :name: Ada Lovelace\n    :sid: '42'\n    \
             :email: ada@example.org\n  :created_at: 2026-01-01\n",
        )
        .unwrap();
        let (subs, _) = discover(dir.path(), Path::new("/nonexistent")).unwrap();
        assert_eq!(
            subs[0].students,
            [Student {
                name: "Ada Lovelace".into(),
                email: "ada@example.org".into(),
                sid: "42".into()
            }]
        );
    }

    #[test]
    fn a_gradescope_export_inside_its_folder_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let export = dir.path().join("assignment_9_export");
        std::fs::create_dir_all(export.join("submission_1")).unwrap();
        std::fs::create_dir_all(export.join("submission_2")).unwrap();
        std::fs::write(
            export.join(GRADESCOPE_METADATA),
            "submission_1:\n  :submitters: []\n",
        )
        .unwrap();
        let (subs, _) = discover(dir.path(), Path::new("/nonexistent")).unwrap();
        let ids: Vec<&str> = subs.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["submission_1", "submission_2"]);
    }

    #[test]
    fn classroom_clones_give_user_names() {
        let dir = tempfile::tempdir().unwrap();
        for user in ["octocat", "hubot"] {
            std::fs::create_dir_all(dir.path().join(format!("assignment-{user}/.git"))).unwrap();
        }
        let (subs, _) = discover(dir.path(), Path::new("/nonexistent")).unwrap();
        let names: Vec<&str> = subs.iter().map(|s| s.students[0].name.as_str()).collect();
        assert_eq!(names, ["hubot", "octocat"]);
    }
}
