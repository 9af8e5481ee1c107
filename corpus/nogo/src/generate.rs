//! Writing a corpus folder: every sample as a case file of the suite's
//! format (`cases/schema.json`), its save file beside it, and the nogo
//! suite's `suite.yaml` at the top so the folder runs on its own with
//! `boxes-harness --cases DIR`. Each file is classified by the reference
//! loader and its expected outcome computed by the reference program
//! in-process: there is no second parser.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs;
use std::io::{self, Cursor};
use std::path::{Path, PathBuf};

use nogo_reference::savefile::load_bytes;
use nogo_reference::{Exit, run};

use crate::samples::{self, Sample, Spec};

/// The nogo suite's categories and marks, copied into every corpus.
pub const SUITE_YAML: &str = include_str!("../../../cases/nogo/suite.yaml");

/// The name of the save file in every case's sandbox.
pub const GAME: &str = "game";

/// Why a corpus could not be written.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// H or W outside 4..=1000.
    #[error("height and width must be 4 to 1000, not {0} x {1}")]
    Size(usize, usize),
    /// The output folder exists and is not empty.
    #[error("{0} is not empty")]
    NotEmpty(PathBuf),
    /// A write failed.
    #[error("writing {0}: {1}")]
    Io(PathBuf, #[source] io::Error),
    /// The reference loader disagrees with a sample's class: a bug here.
    #[error("{0}: the reference loader says {1}")]
    Misclassified(String, String),
}

/// One written case: the sample and what the reference did with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The labelled file.
    pub sample: Sample,
    /// `file-errors` or `load`.
    pub category: &'static str,
    /// The case's name (`<class>--<variant>`).
    pub name: String,
    /// Rules the outcome rests on.
    pub rules: Vec<&'static str>,
    /// Whether an ambiguous ruling decides the outcome.
    pub ambiguous: bool,
    /// Expected exit status of `nogo h h game` with empty stdin.
    pub status: u8,
    /// Expected stdout.
    pub stdout: Vec<u8>,
    /// Expected stderr.
    pub stderr: Vec<u8>,
}

/// Checks `sample` against the reference loader: a faulty file must fail
/// with an error its class accepts, a control must load.
pub fn classify(sample: &Sample) -> Result<(), GenerateError> {
    let name = format!("{}--{}", sample.class.name(), sample.variant);
    match (load_bytes(&sample.bytes), sample.class.is_control()) {
        (Ok(_), true) => Ok(()),
        (Err(e), false) if sample.class.accepts(e.kind) => Ok(()),
        (Ok(_), false) => Err(GenerateError::Misclassified(name, "it loads".into())),
        (Err(e), _) => Err(GenerateError::Misclassified(name, e.to_string())),
    }
}

/// Runs the reference on the file at `path` as `nogo h h path` with empty
/// stdin: (status, stdout, stderr).
pub fn outcome(path: &Path) -> (u8, Vec<u8>, Vec<u8>) {
    let args: Vec<OsString> = vec!["h".into(), "h".into(), path.as_os_str().to_owned()];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let exit: Exit = run(&args, Cursor::new(Vec::new()), &mut out, &mut err);
    (exit.code(), out, err)
}

/// Writes the corpus for `spec` into `dir` (created if missing, refused if
/// not empty) and returns its entries.
pub fn generate(spec: &Spec, dir: &Path) -> Result<Vec<Entry>, GenerateError> {
    let (h, w) = (spec.height, spec.width);
    if !(4..=1000).contains(&h) || !(4..=1000).contains(&w) {
        return Err(GenerateError::Size(h, w));
    }
    let io = |p: &Path| {
        let p = p.to_path_buf();
        move |e| GenerateError::Io(p, e)
    };
    if fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some()) {
        return Err(GenerateError::NotEmpty(dir.to_path_buf()));
    }
    fs::create_dir_all(dir).map_err(io(dir))?;
    let suite = dir.join("suite.yaml");
    fs::write(&suite, SUITE_YAML).map_err(io(&suite))?;
    let mut entries = Vec::new();
    for sample in samples::build(spec) {
        classify(&sample)?;
        let class = sample.class;
        let category = if class.is_control() {
            "load"
        } else {
            "file-errors"
        };
        let folder = dir.join(category);
        fs::create_dir_all(&folder).map_err(io(&folder))?;
        let name = format!("{}--{}", class.name(), sample.variant);
        let game = folder.join(format!("{name}.game"));
        fs::write(&game, &sample.bytes).map_err(io(&game))?;
        let (status, stdout, stderr) = outcome(&game);
        let mut rules: Vec<&'static str> = class.rules().to_vec();
        let outcome_rules: &[&str] = if class.is_control() {
            &["FILE-7", "GRID-1", "TURN-1", "EOF-1"]
        } else {
            &["FILE-6", "ARGS-6"]
        };
        for r in outcome_rules {
            if !rules.contains(r) {
                rules.push(r);
            }
        }
        let entry = Entry {
            sample,
            category,
            name,
            rules,
            ambiguous: class.ambiguous(),
            status,
            stdout,
            stderr,
        };
        let yaml = folder.join(format!("{}.yaml", entry.name));
        fs::write(&yaml, case_yaml(&entry, &folder).map_err(io(&folder))?).map_err(io(&yaml))?;
        entries.push(entry);
    }
    Ok(entries)
}

/// The case file of `entry`; writes its `.stdout` sidecar into `folder`
/// when stdout has more than one line.
fn case_yaml(entry: &Entry, folder: &Path) -> io::Result<String> {
    let class = entry.sample.class;
    let summary = format!("{}: {}", class.description(), entry.sample.detail);
    let tags = if entry.ambiguous {
        "[ambiguous, corpus]"
    } else {
        "[corpus]"
    };
    let hint = if class.is_control() {
        "A valid save file loads: the grid, then the next player's prompt, then end of input."
    } else {
        "Any defect in the save file is 'Incorrect file contents' on stderr, exit 5, and \
         nothing on stdout."
    };
    let mut lines = vec![
        "# Written by nogo-corpus; expected outcome from the reference.".to_owned(),
        format!("summary: {}", quote(summary.as_bytes())),
        format!("category: {}", entry.category),
        format!("rules: [{}]", entry.rules.join(", ")),
        format!("tags: {tags}"),
        format!("hint: {}", quote(hint.as_bytes())),
        format!("args: [\"h\", \"h\", \"{GAME}\"]"),
        "files:".to_owned(),
        format!(
            "  - {{path: \"{GAME}\", file: {}}}",
            quote(format!("{}.game", entry.name).as_bytes())
        ),
        format!("status: {}", entry.status),
    ];
    if !entry.stdout.is_empty() {
        let name = format!("{}.stdout", entry.name);
        fs::write(folder.join(&name), &entry.stdout)?;
        lines.push(format!("stdout-file: {}", quote(name.as_bytes())));
    }
    if !entry.stderr.is_empty() {
        lines.push(format!("stderr: {}", quote(&entry.stderr)));
    }
    lines.push(String::new());
    Ok(lines.join("\n"))
}

/// A YAML double-quoted scalar; bytes above 127 are written as `\xNN`
/// escapes of their Latin-1 characters, which only summaries could hold.
pub fn quote(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'\\' => s.push_str("\\\\"),
            b'"' => s.push_str("\\\""),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'\r' => s.push_str("\\r"),
            0 => s.push_str("\\0"),
            0x20..=0x7e => s.push(char::from(b)),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s.push('"');
    s
}
