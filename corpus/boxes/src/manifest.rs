//! `manifest.yaml`: what a corpus folder holds, one entry per file with its
//! class and the complete expected outcome of `boxes H W P FILE` with empty
//! stdin. Serde types (kebab-case keys, unknown keys rejected), a reader
//! and a writer whose errors name the file. The format is documented in
//! `corpus/README.md`.
//!
//! One piece: `manifest.yaml`'s types, reader and writer are one
//! format: the raw serde form and the checked form convert into each
//! other both ways; about 110 lines are its tests.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

/// The manifest's file name inside a corpus folder.
pub const FILE_NAME: &str = "manifest.yaml";

/// The harness category of a faulty file.
pub const CATEGORY_FAULTY: &str = "file-errors";

/// The harness category of a valid control file.
pub const CATEGORY_CONTROL: &str = "load";

/// Reading or writing a manifest failed; every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// The file could not be read.
    #[error("reading {path}: {source}")]
    Read {
        /// The manifest's path.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The file could not be written.
    #[error("writing {path}: {source}")]
    Write {
        /// The manifest's path.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The YAML does not parse into a manifest (the message has the line
    /// and column).
    #[error("{path}: {source}")]
    Parse {
        /// The manifest's path.
        path: PathBuf,
        /// Why.
        #[source]
        source: yaml_serde::Error,
    },
    /// The manifest could not be serialized.
    #[error("serializing {path}: {source}")]
    Serialize {
        /// The manifest's path.
        path: PathBuf,
        /// Why.
        #[source]
        source: yaml_serde::Error,
    },
    /// The YAML parses but an entry breaks a rule of the format.
    #[error("{path}: entry {index} ({file}): {reason}")]
    Invalid {
        /// The manifest's path.
        path: PathBuf,
        /// 0-based index of the entry.
        index: usize,
        /// The entry's `file`.
        file: String,
        /// What is wrong.
        reason: String,
    },
}

/// The tool that wrote a manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Generator {
    /// `boxes-corpus`.
    pub name: String,
    /// Its crate version.
    pub version: String,
}

impl Generator {
    /// This crate.
    pub fn this() -> Self {
        Self {
            name: env!("CARGO_PKG_NAME").into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }
}

/// A whole manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Manifest {
    /// Who wrote it.
    pub generator: Generator,
    /// H, the first argument every entry is run with.
    pub height: usize,
    /// W, the second argument.
    pub width: usize,
    /// P, the third argument.
    pub players: usize,
    /// The seed the corpus was generated with.
    pub seed: u64,
    /// One entry per file, in generation order.
    pub entries: Vec<Entry>,
}

/// One file of the corpus and what `boxes H W P FILE` must do with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawEntry", into = "RawEntry")]
pub struct Entry {
    /// Path relative to the corpus folder, `/`-separated.
    pub file: String,
    /// Kebab-case class name (`cell-owner-signed`, `exhaustive-deletion`).
    pub class: String,
    /// What the file holds, one line.
    pub description: String,
    /// Rule IDs the expected outcome rests on.
    pub rules: Vec<String>,
    /// Whether a ruling marked (ambiguous) decides the outcome.
    pub ambiguous: bool,
    /// Whether the file is valid (a control) rather than faulty.
    pub control: bool,
    /// Expected exit status.
    pub status: u8,
    /// Expected stdout, byte for byte.
    pub stdout: Vec<u8>,
    /// Expected stderr, byte for byte.
    pub stderr: Vec<u8>,
}

impl Entry {
    /// The harness category: `file-errors` for faulty files, `load` for
    /// controls.
    pub const fn category(&self) -> &'static str {
        if self.control {
            CATEGORY_CONTROL
        } else {
            CATEGORY_FAULTY
        }
    }

    /// Where the file lies, given the corpus folder.
    pub fn path_in(&self, dir: &Path) -> PathBuf {
        self.file
            .split('/')
            .fold(dir.to_path_buf(), |p, part| p.join(part))
    }
}

/// The on-disk shape of an entry: each stream as text or as base64.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct RawEntry {
    file: String,
    class: String,
    description: String,
    rules: Vec<String>,
    ambiguous: bool,
    control: bool,
    status: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stdout: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stdout_base64: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stderr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stderr_base64: Option<String>,
}

fn stream(name: &str, text: Option<String>, b64: Option<String>) -> Result<Vec<u8>, String> {
    match (text, b64) {
        (Some(_), Some(_)) => Err(format!("both `{name}` and `{name}-base64` are given")),
        (Some(t), None) => Ok(t.into_bytes()),
        (None, Some(b)) => STANDARD
            .decode(b.as_bytes())
            .map_err(|e| format!("`{name}-base64` is not base64: {e}")),
        (None, None) => Ok(Vec::new()),
    }
}

/// Text when the bytes are UTF-8, base64 otherwise.
fn split_stream(bytes: Vec<u8>) -> (Option<String>, Option<String>) {
    match String::from_utf8(bytes) {
        Ok(text) => (Some(text), None),
        Err(e) => (None, Some(STANDARD.encode(e.into_bytes()))),
    }
}

impl TryFrom<RawEntry> for Entry {
    type Error = String;

    fn try_from(raw: RawEntry) -> Result<Self, Self::Error> {
        Ok(Self {
            stdout: stream("stdout", raw.stdout, raw.stdout_base64)?,
            stderr: stream("stderr", raw.stderr, raw.stderr_base64)?,
            file: raw.file,
            class: raw.class,
            description: raw.description,
            rules: raw.rules,
            ambiguous: raw.ambiguous,
            control: raw.control,
            status: raw.status,
        })
    }
}

impl From<Entry> for RawEntry {
    fn from(e: Entry) -> Self {
        let (stdout, stdout_base64) = split_stream(e.stdout);
        let (stderr, stderr_base64) = split_stream(e.stderr);
        Self {
            file: e.file,
            class: e.class,
            description: e.description,
            rules: e.rules,
            ambiguous: e.ambiguous,
            control: e.control,
            status: e.status,
            stdout,
            stdout_base64,
            stderr,
            stderr_base64,
        }
    }
}

/// Why an entry's `file` is not a safe relative path, if it is not.
fn unsafe_path(file: &str) -> Option<&'static str> {
    if file.is_empty() {
        return Some("`file` is empty");
    }
    if file.contains('\\') {
        return Some("`file` must use `/` separators");
    }
    let path = Path::new(file);
    if path
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Some("`file` must be a relative path inside the corpus folder");
    }
    None
}

impl Manifest {
    /// Reads `DIR/manifest.yaml` (or the file itself when `dir` names a
    /// file) and checks every entry's path stays inside the folder.
    pub fn read(dir: &Path) -> Result<Self, ManifestError> {
        let path = if dir.is_file() {
            dir.to_path_buf()
        } else {
            dir.join(FILE_NAME)
        };
        let bytes = fs::read(&path).map_err(|source| ManifestError::Read {
            path: path.clone(),
            source,
        })?;
        Self::parse(&bytes, &path)
    }

    /// Parses manifest bytes; `path` only names the source in errors.
    pub fn parse(bytes: &[u8], path: &Path) -> Result<Self, ManifestError> {
        let manifest: Self =
            yaml_serde::from_slice(bytes).map_err(|source| ManifestError::Parse {
                path: path.to_path_buf(),
                source,
            })?;
        for (index, e) in manifest.entries.iter().enumerate() {
            let invalid = |reason: &str| ManifestError::Invalid {
                path: path.to_path_buf(),
                index,
                file: e.file.clone(),
                reason: reason.into(),
            };
            if let Some(reason) = unsafe_path(&e.file) {
                return Err(invalid(reason));
            }
            if e.rules.is_empty() {
                return Err(invalid("`rules` is empty"));
            }
        }
        Ok(manifest)
    }

    /// The YAML text.
    pub fn to_yaml(&self, path: &Path) -> Result<String, ManifestError> {
        yaml_serde::to_string(self).map_err(|source| ManifestError::Serialize {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Writes `DIR/manifest.yaml`.
    pub fn write(&self, dir: &Path) -> Result<PathBuf, ManifestError> {
        let path = dir.join(FILE_NAME);
        let text = self.to_yaml(&path)?;
        fs::write(&path, text).map_err(|source| ManifestError::Write {
            path: path.clone(),
            source,
        })?;
        Ok(path)
    }

    /// The arguments of `boxes H W P FILE` for a file at `file`, without
    /// the program name.
    pub fn args(&self, file: impl Into<OsString>) -> Vec<OsString> {
        crate::spec::boxes_args(self.height, self.width, self.players, file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn sample() -> Manifest {
        Manifest {
            generator: Generator::this(),
            height: 2,
            width: 2,
            players: 100,
            seed: 7,
            entries: vec![
                Entry {
                    file: "empty-file/empty.grid".into(),
                    class: "empty-file".into(),
                    description: "the file has no bytes at all: zero bytes".into(),
                    rules: vec!["FILE-6".into(), "ARGS-7".into()],
                    ambiguous: false,
                    control: false,
                    status: 5,
                    stdout: Vec::new(),
                    stderr: b"Error reading grid contents\n".to_vec(),
                },
                Entry {
                    file: "valid-highest-player/next-player.grid".into(),
                    class: "valid-highest-player".into(),
                    description: "d".into(),
                    rules: vec!["FILE-2".into()],
                    ambiguous: true,
                    control: true,
                    status: 6,
                    // Trailing spaces, a DEL and a byte above 127.
                    stdout: b"+-+ +\n|\x7f  \n+ + +\n\xa4> ".to_vec(),
                    stderr: b"End of user input\n".to_vec(),
                },
            ],
        }
    }

    #[test]
    fn round_trips_through_yaml_with_raw_bytes() {
        let m = sample();
        let path = Path::new("m.yaml");
        let text = m.to_yaml(path).expect("serializes");
        assert!(text.contains("stdout-base64:"), "{text}");
        assert!(
            text.contains("stderr: |") || text.contains("stderr: \"Error"),
            "{text}"
        );
        let back = Manifest::parse(text.as_bytes(), path).expect("parses");
        assert_eq!(back, m);
    }

    #[test]
    fn write_then_read_from_a_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let m = sample();
        let path = m.write(dir.path()).expect("writes");
        assert_eq!(path, dir.path().join(FILE_NAME));
        assert_eq!(Manifest::read(dir.path()).expect("reads"), m);
        assert_eq!(Manifest::read(&path).expect("reads the file"), m);
    }

    #[test]
    fn errors_name_the_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let missing = Manifest::read(dir.path()).expect_err("no manifest");
        assert!(missing.to_string().contains("manifest.yaml"), "{missing}");
        let p = dir.path().join(FILE_NAME);
        fs::write(&p, "generator: [").expect("write");
        let bad = Manifest::read(dir.path()).expect_err("bad yaml");
        assert!(bad.to_string().contains("manifest.yaml"), "{bad}");
    }

    #[test]
    fn rejects_unknown_keys_double_streams_and_escaping_paths() {
        let m = sample();
        let path = Path::new("x/manifest.yaml");
        let text = m.to_yaml(path).expect("serializes");
        let unknown = text.replacen("class: empty-file", "class: empty-file\n  colour: red", 1);
        let e = Manifest::parse(unknown.as_bytes(), path).expect_err("unknown key");
        assert!(e.to_string().contains("colour"), "{e}");
        let both = text.replacen("status: 5", "status: 5\n  stdout-base64: QQ==", 1);
        let e = Manifest::parse(both.as_bytes(), path).expect_err("two stdouts");
        assert!(e.to_string().contains("both"), "{e}");
        let escape = text.replacen("file: empty-file/empty.grid", "file: ../etc/passwd", 1);
        let e = Manifest::parse(escape.as_bytes(), path).expect_err("escaping path");
        assert!(e.to_string().contains("x/manifest.yaml"), "{e}");
        assert!(e.to_string().contains("../etc/passwd"), "{e}");
    }

    #[test]
    fn streams_default_to_empty_and_categories() {
        let text = "generator: {name: boxes-corpus, version: 0.1.0}\nheight: 2\nwidth: 3\n\
                    players: 2\nseed: 0\nentries:\n- file: a/b.grid\n  class: a\n  \
                    description: d\n  rules: [FILE-1]\n  ambiguous: false\n  control: true\n  \
                    status: 6\n";
        let m = Manifest::parse(text.as_bytes(), Path::new("m")).expect("parses");
        let e = &m.entries[0];
        assert!(e.stdout.is_empty() && e.stderr.is_empty());
        assert_eq!(e.category(), "load");
        assert_eq!(
            e.path_in(Path::new("/c")),
            PathBuf::from("/c").join("a").join("b.grid")
        );
        assert_eq!(
            m.args("f"),
            ["2", "3", "2", "f"].map(OsString::from).to_vec()
        );
    }
}
