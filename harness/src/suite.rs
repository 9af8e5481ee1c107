//! Where cases come from: the suite embedded in the binary at build time, or
//! folders and files on disk; finding case files, `suite.yaml` and
//! `rules.yaml`, and the suite's content hash shown in the run's header.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::schema::{self, ParseError, Rules, Suite};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded_suite.rs"));
}

/// The source folder the embedded suite was built from (it may be gone).
pub const SOURCE_CASES_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../cases/boxes");

/// A tree of case files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Root {
    /// The suite embedded at build time.
    Embedded,
    /// A folder on disk.
    Dir(PathBuf),
}

impl Root {
    /// Reads a file of the tree by its `/`-separated relative path.
    pub fn read(&self, rel: &str) -> io::Result<Vec<u8>> {
        match self {
            Root::Embedded => embedded::FILES
                .binary_search_by(|(p, _)| (*p).cmp(rel))
                .map(|i| embedded::FILES[i].1.to_vec())
                .map_err(|_| io::Error::new(io::ErrorKind::NotFound, "not in the embedded suite")),
            Root::Dir(dir) => read_regular(&dir.join(rel)),
        }
    }

    /// The path of a file on disk, for the embedded suite the source file
    /// it was built from.
    pub fn disk_path(&self, rel: &str) -> PathBuf {
        match self {
            Root::Embedded => Path::new(SOURCE_CASES_DIR).join(rel),
            Root::Dir(dir) => dir.join(rel),
        }
    }

    /// How a file of the tree is named to people.
    pub fn display(&self, rel: &str) -> String {
        match self {
            Root::Embedded => format!("cases/{rel}"),
            Root::Dir(dir) => dir.join(rel).display().to_string(),
        }
    }

    /// Every case file of the tree (`*.yaml` inside a subfolder), sorted.
    pub fn case_files(&self) -> io::Result<Vec<String>> {
        let mut all = match self {
            Root::Embedded => embedded::FILES
                .iter()
                .map(|(p, _)| (*p).to_owned())
                .collect(),
            Root::Dir(dir) => walk(dir)?,
        };
        all.retain(|p| {
            p.contains('/')
                && Path::new(p)
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("yaml"))
        });
        all.sort();
        Ok(all)
    }

    /// Every file of the tree, sorted, for hashing.
    fn all_files(&self) -> io::Result<Vec<String>> {
        match self {
            Root::Embedded => Ok(embedded::FILES
                .iter()
                .map(|(p, _)| (*p).to_owned())
                .collect()),
            Root::Dir(dir) => {
                let mut out = walk(dir)?;
                out.sort();
                Ok(out)
            }
        }
    }
}

/// Reads a regular file; anything else (a FIFO would block the harness
/// before the first case) is refused without being opened.
fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    if !fs::metadata(path)?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (FIFO, socket or device): never read",
        ));
    }
    fs::read(path)
}

fn walk(dir: &Path) -> io::Result<Vec<String>> {
    Ok(crate::walk::files(dir)?
        .into_iter()
        .map(|(rel, _)| rel)
        .collect())
}

/// One case file within a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseFile {
    /// The tree.
    pub root: Root,
    /// Its `/`-separated path in the tree (`args-count/no-args.yaml`).
    pub rel: String,
}

impl CaseFile {
    /// The case's name: its path without `.yaml` (`args-count/no-args`).
    pub fn name(&self) -> &str {
        self.rel.strip_suffix(".yaml").unwrap_or(&self.rel)
    }

    /// The file's stem (`no-args`).
    pub fn stem(&self) -> &str {
        let name = self.name();
        name.rsplit('/').next().unwrap_or(name)
    }

    /// The name of the folder holding the file.
    pub fn folder(&self) -> Option<&str> {
        let (dir, _) = self.rel.rsplit_once('/')?;
        Some(dir.rsplit('/').next().unwrap_or(dir))
    }

    /// The tree path of a sidecar named relative to the case's folder.
    pub fn sidecar(&self, name: &str) -> String {
        match self.rel.rsplit_once('/') {
            Some((dir, _)) => format!("{dir}/{name}"),
            None => name.to_owned(),
        }
    }

    /// The case file as named to people.
    pub fn display(&self) -> String {
        self.root.display(&self.rel)
    }
}

/// What `--cases PATH` names.
#[derive(Debug, Clone)]
pub enum Selection {
    /// A whole tree.
    Tree(Root),
    /// Some case files of a tree: one file, or one category folder.
    Files(Vec<CaseFile>),
    /// A corpus folder written by `boxes-corpus` (it has a
    /// `manifest.yaml`): every manifest entry is a case.
    Corpus(PathBuf),
}

fn is_case_file(name: &str) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml"))
        && !matches!(name, "suite.yaml" | "rules.yaml" | "manifest.yaml")
}

/// Resolves a `--cases` argument: a folder or one case file.
pub fn select(path: &Path) -> io::Result<Selection> {
    let meta = fs::metadata(path)?;
    if meta.is_dir() && path.join(boxes_corpus::manifest::FILE_NAME).is_file() {
        return Ok(Selection::Corpus(path.to_owned()));
    }
    if meta.is_file()
        && path.file_name() == Some(std::ffi::OsStr::new(boxes_corpus::manifest::FILE_NAME))
    {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
        return Ok(Selection::Corpus(dir.unwrap_or(Path::new(".")).to_owned()));
    }
    if meta.is_dir() {
        // A category folder (case files right inside, no suite.yaml) is
        // taken as those cases of the tree above it.
        let mut direct = Vec::new();
        for entry in fs::read_dir(path)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type()?.is_file() && is_case_file(&name) {
                direct.push(name);
            }
        }
        let folder = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        if direct.is_empty()
            || path.join("suite.yaml").exists()
            || folder.is_none()
            || parent.is_none()
        {
            return Ok(Selection::Tree(Root::Dir(path.to_owned())));
        }
        let (Some(folder), Some(parent)) = (folder, parent) else {
            return Ok(Selection::Tree(Root::Dir(path.to_owned())));
        };
        direct.sort();
        let root = Root::Dir(parent.to_owned());
        return Ok(Selection::Files(
            direct
                .into_iter()
                .map(|name| CaseFile {
                    root: root.clone(),
                    rel: format!("{folder}/{name}"),
                })
                .collect(),
        ));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parent = path.parent().unwrap_or(Path::new(""));
    let folder = parent.file_name().map(|n| n.to_string_lossy().into_owned());
    let (root, rel) = match (folder, parent.parent()) {
        (Some(folder), Some(grand)) => (grand.to_owned(), format!("{folder}/{name}")),
        _ => (parent.to_owned(), name),
    };
    let root = if root.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        root
    };
    Ok(Selection::Files(vec![CaseFile {
        root: Root::Dir(root),
        rel,
    }]))
}

/// Reads a YAML file named `name` from the tree or, looking upwards, from its
/// parent folders; the embedded suite's copy when none has one.
fn find_upwards(root: &Root, name: &str) -> Option<(String, Vec<u8>)> {
    if let Root::Dir(dir) = root {
        let start = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
        for d in start.ancestors() {
            let p = d.join(name);
            if let Ok(bytes) = read_regular(&p) {
                return Some((p.display().to_string(), bytes));
            }
        }
    }
    Root::Embedded
        .read(name)
        .ok()
        .map(|b| (format!("cases/{name}"), b))
}

/// The `suite.yaml` governing a tree.
pub fn suite_for(root: &Root) -> Result<Suite, ParseError> {
    let (file, bytes) = find_upwards(root, "suite.yaml").ok_or_else(|| ParseError {
        file: "suite.yaml".to_owned(),
        location: None,
        message: "no suite.yaml found".to_owned(),
    })?;
    schema::parse(&file, &bytes)
}

/// The `rules.yaml` governing a tree.
pub fn rules_for(root: &Root) -> Result<Rules, ParseError> {
    let (file, bytes) = find_upwards(root, "rules.yaml").ok_or_else(|| ParseError {
        file: "rules.yaml".to_owned(),
        location: None,
        message: "no rules.yaml found".to_owned(),
    })?;
    schema::parse(&file, &bytes)
}

/// The first 12 hex digits of a SHA-256 over every file of the trees
/// (path and bytes), so two runs can tell whether they used the same suite.
pub fn content_hash(roots: &[Root]) -> String {
    let mut hasher = Sha256::new();
    for root in roots {
        for rel in root.all_files().unwrap_or_default() {
            let bytes = root.read(&rel).unwrap_or_default();
            hasher.update(rel.as_bytes());
            hasher.update([0]);
            hasher.update((bytes.len() as u64).to_le_bytes());
            hasher.update(&bytes);
        }
    }
    let digest = hasher.finalize();
    let mut out = String::new();
    for b in &digest[..6] {
        let _ = write!(out, "{b:02x}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_suite_has_suite_yaml() {
        let suite = suite_for(&Root::Embedded).unwrap();
        assert!(suite.categories.iter().any(|c| c.name == "full-games"));
        let total: f64 = suite.categories.iter().map(|c| c.marks).sum();
        assert!((total - 42.0).abs() < 1e-9, "{total}");
    }

    #[test]
    fn case_file_names() {
        let f = CaseFile {
            root: Root::Embedded,
            rel: "load/a/b.yaml".to_owned(),
        };
        assert_eq!(f.name(), "load/a/b");
        assert_eq!(f.stem(), "b");
        assert_eq!(f.folder(), Some("a"));
        assert_eq!(f.sidecar("b.stdout"), "load/a/b.stdout");
    }
}
