//! Where cases come from: the suite embedded in the binary at build time, or
//! folders and files on disk; finding case files, `suite.yaml` and
//! `rules.yaml`, and the suite's content hash shown in the run's header.
//!
//! One piece: every way to find cases (a folder, a file, the embedded
//! suite) and the files beside them (`suite.yaml`, `rules.yaml`, found
//! upwards) goes through the one `Root`, as does the content hash of
//! the header.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::model::embedded::EmbeddedSuite;
use crate::model::schema::{self, ParseError, Rules, Suite};

/// A tree of case files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Root {
    /// A pack's suite, embedded at build time.
    Embedded(&'static EmbeddedSuite),
    /// A folder on disk.
    Dir(PathBuf),
}

impl Root {
    /// Reads a file of the tree by its `/`-separated relative path.
    pub fn read(&self, rel: &str) -> io::Result<Vec<u8>> {
        match self {
            Root::Embedded(suite) => suite.get(rel).map(<[u8]>::to_vec).ok_or_else(|| {
                io::Error::new(io::ErrorKind::NotFound, "not in the embedded suite")
            }),
            Root::Dir(dir) => read_regular(&dir.join(rel)),
        }
    }

    /// The path of a file on disk, for the embedded suite the source file
    /// it was built from.
    pub fn disk_path(&self, rel: &str) -> PathBuf {
        match self {
            Root::Embedded(suite) => Path::new(suite.source_dir).join(rel),
            Root::Dir(dir) => dir.join(rel),
        }
    }

    /// The tree's folder inside its pack's folder, `/`-separated (`tests`),
    /// empty when it is the pack's folder or in no pack: for a folder on
    /// disk, the nearest folder at or above it holding `pack.yaml`.
    pub fn in_pack(&self) -> String {
        match self {
            Root::Embedded(suite) => suite.in_pack.to_owned(),
            Root::Dir(dir) => {
                let start = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
                start
                    .ancestors()
                    .find(|d| d.join("pack.yaml").is_file())
                    .and_then(|pack| start.strip_prefix(pack).ok())
                    .map(slash_joined)
                    .unwrap_or_default()
            }
        }
    }

    /// How a file of the tree is named to people.
    pub fn display(&self, rel: &str) -> String {
        match self {
            Root::Embedded(suite) => format!("{}/{rel}", suite.display),
            Root::Dir(dir) => dir.join(rel).display().to_string(),
        }
    }

    /// Every case file of the tree (`*.yaml` inside a subfolder), sorted.
    pub fn case_files(&self) -> io::Result<Vec<String>> {
        let mut all = match self {
            Root::Embedded(suite) => suite.files.iter().map(|(p, _)| (*p).to_owned()).collect(),
            Root::Dir(dir) => walk(dir)?,
        };
        all.retain(|p| {
            // A sidecar kept from beside the suite (`../sample/x.yaml`) is
            // no case.
            p.contains('/')
                && !p.starts_with("../")
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
            Root::Embedded(suite) => Ok(suite.files.iter().map(|(p, _)| (*p).to_owned()).collect()),
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
    Ok(conformance_embed::walk::files(dir)?
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

    /// The tree path of a sidecar named relative to the case's folder,
    /// `..` and `.` resolved (`c/../sample/in.csv` is `sample/in.csv`;
    /// above the suite, inside its pack, `../sample/in.csv`); a name that
    /// leaves the pack is kept as written (and [`Self::sidecar_in_tree`]
    /// refuses it).
    pub fn sidecar(&self, name: &str) -> String {
        self.sidecar_in_tree(name)
            .unwrap_or_else(|_| match self.rel.rsplit_once('/') {
                Some((dir, _)) => format!("{dir}/{name}"),
                None => name.to_owned(),
            })
    }

    /// [`Self::sidecar`], refused when the name is absolute or climbs
    /// above the pack's folder: a sidecar is anywhere inside it (the
    /// suite's folder or beside it, `../sample/in.csv` from a suite in
    /// `tests/`), read the same by `bless` (from the folder) and by a run
    /// (from the pack read once), never from outside it.
    pub fn sidecar_in_tree(&self, name: &str) -> io::Result<String> {
        let outside = || {
            io::Error::new(
                io::ErrorKind::PermissionDenied,
                "outside the pack's folder: a sidecar is read from inside the pack's folder \
                 only, the one holding pack.yaml (else the suite's) (copy it in, or name it \
                 from the case's folder, `../sample/in.csv`)",
            )
        };
        if name.starts_with('/') {
            return Err(outside());
        }
        let dir = self.rel.rsplit_once('/').map_or("", |(dir, _)| dir);
        // Only a name climbing above the suite needs to know the pack.
        let climbs = name.split('/').filter(|p| *p == "..").count()
            > dir.split('/').filter(|p| !p.is_empty()).count();
        let in_pack = if climbs {
            self.root.in_pack()
        } else {
            String::new()
        };
        resolve_sidecar(&in_pack, dir, name).ok_or_else(outside)
    }

    /// The case file as named to people.
    pub fn display(&self) -> String {
        self.root.display(&self.rel)
    }
}

/// The tree path of sidecar `name` written in a case of folder `dir`
/// (`/`-separated, in a tree that is folder `in_pack` of its pack's
/// folder): `..` and `.` resolved, a path above the tree (inside the
/// pack) starting with `../`; `None` when it leaves the pack's folder.
pub fn resolve_sidecar(in_pack: &str, dir: &str, name: &str) -> Option<String> {
    let prefix: Vec<&str> = in_pack.split('/').filter(|p| !p.is_empty()).collect();
    let mut parts: Vec<&str> = prefix.clone();
    parts.extend(dir.split('/').filter(|p| !p.is_empty()));
    for part in name.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    let common = prefix
        .iter()
        .zip(&parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut out: Vec<&str> = vec![".."; prefix.len() - common];
    out.extend(&parts[common..]);
    Some(out.join("/"))
}

/// What `--cases PATH` names.
#[derive(Debug, Clone)]
pub enum Selection {
    /// A whole tree.
    Tree(Root),
    /// Some case files of a tree: one file, or one category folder.
    Files(Vec<CaseFile>),
}

fn is_case_file(name: &str) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml"))
        && !matches!(name, "suite.yaml" | "rules.yaml")
}

/// Resolves a `--cases` argument: a folder or one case file.
pub fn select(path: &Path) -> io::Result<Selection> {
    let meta = fs::metadata(path)?;
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
/// parent folders; else the copy in `fallback`, the suite of the pack the
/// run checks (`--spec`).
fn find_upwards(
    root: &Root,
    fallback: &'static EmbeddedSuite,
    name: &str,
) -> Option<(String, Vec<u8>)> {
    match root {
        Root::Dir(dir) => {
            let start = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
            for d in start.ancestors() {
                let p = d.join(name);
                if let Ok(bytes) = read_regular(&p) {
                    return Some((p.display().to_string(), bytes));
                }
            }
        }
        Root::Embedded(suite) => {
            if let Some(bytes) = suite.get(name) {
                return Some((root.display(name), bytes.to_vec()));
            }
        }
    }
    let embedded = Root::Embedded(fallback);
    fallback
        .get(name)
        .map(|b| (embedded.display(name), b.to_vec()))
}

/// The `suite.yaml` governing a tree (`fallback`: see [`find_upwards`]).
pub fn suite_for(root: &Root, fallback: &'static EmbeddedSuite) -> Result<Suite, ParseError> {
    let (file, bytes) = find_upwards(root, fallback, "suite.yaml").ok_or_else(|| ParseError {
        file: "suite.yaml".to_owned(),
        location: None,
        message: "no suite.yaml found".to_owned(),
    })?;
    schema::parse(&file, &bytes)
}

/// The `suite.yaml` governing a tree with the `match:` of every rule of
/// its `rules.yaml` attached ([`Suite::rule_matching`]); a tree without
/// `rules.yaml` has none.
pub fn suite_with_rules(
    root: &Root,
    fallback: &'static EmbeddedSuite,
) -> Result<Suite, ParseError> {
    let mut suite = suite_for(root, fallback)?;
    if let Some((file, bytes)) = find_upwards(root, fallback, "rules.yaml") {
        let rules: Rules = schema::parse(&file, &bytes)?;
        for r in &rules.rules {
            if !r.readings.is_empty() && r.ambiguous == schema::Ambiguity::No {
                return Err(ParseError {
                    file,
                    location: readings_line(&bytes, &r.id).map(|l| (l, 1)),
                    message: format!(
                        "rule {} names readings but is not marked ambiguous: only an ambiguous \
                         rule has other readings",
                        r.id
                    ),
                });
            }
        }
        suite.reads_off = rules
            .rules
            .iter()
            .filter(|r| r.reads.is_some())
            .map(|r| r.id.clone())
            .collect();
        suite.rule_readings = rules
            .rules
            .iter()
            .filter(|r| !r.readings.is_empty())
            .map(|r| (r.id.clone(), r.readings.clone()))
            .collect();
        suite.rule_matching = rules
            .rules
            .into_iter()
            .filter_map(|r| r.matching.map(|m| (r.id, m)))
            .collect();
    }
    Ok(suite)
}

/// The line of the `readings:` of rule `id` in a `rules.yaml` text.
fn readings_line(bytes: &[u8], id: &str) -> Option<usize> {
    let text = String::from_utf8_lossy(bytes);
    let at = text.lines().position(|l| {
        l.trim_start().trim_start_matches("- ").trim_start() == format!("id: {id}")
    })?;
    crate::model::key_line::key_lines(&text, "readings").find(|&l| l > at)
}

/// The `rules.yaml` governing a tree (`fallback`: see [`find_upwards`]).
pub fn rules_for(root: &Root, fallback: &'static EmbeddedSuite) -> Result<Rules, ParseError> {
    rules_if_any(root, fallback)?
        .map(|(_, rules)| rules)
        .ok_or_else(|| ParseError {
            file: "rules.yaml".to_owned(),
            location: None,
            message: "no rules.yaml found".to_owned(),
        })
}

/// The `rules.yaml` governing a tree and its name as shown to people,
/// `None` when there is none (a suite may have no rules file).
pub fn rules_if_any(
    root: &Root,
    fallback: &'static EmbeddedSuite,
) -> Result<Option<(String, Rules)>, ParseError> {
    let Some((file, bytes)) = find_upwards(root, fallback, "rules.yaml") else {
        return Ok(None);
    };
    let rules = schema::parse(&file, &bytes)?;
    Ok(Some((file, rules)))
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
    hex(&hasher.finalize()[..6])
}

/// Bytes in lowercase hexadecimal, as content hashes are shown.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 * bytes.len());
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// A relative path's components joined by `/`, as case files write a
/// suite's folder inside its pack's (`tests`, `a/b`).
pub(crate) fn slash_joined(inside: &std::path::Path) -> String {
    inside
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    static EMPTY: EmbeddedSuite = EmbeddedSuite {
        files: &[],
        source_dir: "/nonexistent",
        display: "cases/none",
        at_run_time: false,
        in_pack: "",
    };

    #[test]
    fn case_file_names() {
        let f = CaseFile {
            root: Root::Embedded(&EMPTY),
            rel: "load/a/b.yaml".to_owned(),
        };
        assert_eq!(f.name(), "load/a/b");
        assert_eq!(f.stem(), "b");
        assert_eq!(f.folder(), Some("a"));
        assert_eq!(f.sidecar("b.stdout"), "load/a/b.stdout");
        assert_eq!(f.sidecar("../../sample/in.csv"), "sample/in.csv");
        assert_eq!(f.sidecar("./x/../y"), "load/a/y");
        assert!(f.sidecar_in_tree("../../../up.csv").is_err());
        assert!(f.sidecar_in_tree("/etc/passwd").is_err());
        assert_eq!(f.display(), "cases/none/load/a/b.yaml");
    }

    #[test]
    fn a_sidecar_climbs_to_the_pack_and_no_further() {
        // A suite in `tests/` of its pack: `sample/` beside it is inside.
        assert_eq!(
            resolve_sidecar("tests", "c", "../../sample/in.csv").as_deref(),
            Some("../sample/in.csv")
        );
        assert_eq!(
            resolve_sidecar("tests", "c", "../../tests/c/in.csv").as_deref(),
            Some("c/in.csv")
        );
        assert_eq!(
            resolve_sidecar("a/b", "c", "../../x.csv").as_deref(),
            Some("../x.csv")
        );
        assert_eq!(
            resolve_sidecar("a/b", "c", "../../../x.csv").as_deref(),
            Some("../../x.csv")
        );
        assert_eq!(resolve_sidecar("tests", "c", "../../../up.csv"), None);
        assert_eq!(resolve_sidecar("", "c", "../../up.csv"), None);
        assert_eq!(
            resolve_sidecar("", "c", "../sample/in.csv").as_deref(),
            Some("sample/in.csv")
        );
    }

    proptest::proptest! {
        /// Whatever a case writes, a resolved sidecar climbs no higher
        /// than the pack's folder, climbs only at its start, and holds no
        /// `.`; the same name resolves the same from the pack's folder.
        #[test]
        fn a_resolved_sidecar_never_leaves_the_pack(
            parts in proptest::collection::vec(
                proptest::sample::select(vec!["..", ".", "", "a", "tests", "c"]), 0..8),
            deep in proptest::bool::ANY,
        ) {
            let name = parts.join("/");
            let in_pack = if deep { "tests/x" } else { "tests" };
            if let Some(p) = resolve_sidecar(in_pack, "c", &name) {
                let words: Vec<&str> = p.split('/').collect();
                let up = words.iter().take_while(|w| **w == "..").count();
                proptest::prop_assert!(up <= in_pack.split('/').count(), "{p}");
                proptest::prop_assert!(words[up..].iter().all(|w| *w != ".." && *w != "."), "{p}");
                // From the pack's folder, the same file.
                let whole = resolve_sidecar("", &format!("{in_pack}/c"), &name);
                proptest::prop_assert!(whole.is_some(), "{p}");
            }
        }
    }
}
