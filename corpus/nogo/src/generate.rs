//! Writing a corpus folder: every sample as a case file of the suite's
//! format (`cases/schema.json`) written through the engine's one case
//! writer ([`conformance_engine::writer`]), its save file beside it, and the nogo
//! suite's `suite.yaml` at the top so the folder runs on its own with
//! `boxes-harness --cases DIR`. Each file is classified by the reference
//! loader and its expected outcome computed by the reference program
//! in-process: there is no second parser.

use std::ffi::OsString;
use std::fs;
use std::io::{self, Cursor};
use std::path::{Path, PathBuf};

use conformance_engine::schema::AMBIGUOUS_TAG;
use conformance_engine::writer::{Draft, SidecarFile};
use nogo_reference::savefile::load_bytes;
use nogo_reference::{Exit, ExitTable, run};

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
    /// A case file could not be written.
    #[error(transparent)]
    Case(#[from] conformance_engine::writer::WriteError),
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
        case(&entry).write(&folder)?;
        entries.push(entry);
    }
    Ok(entries)
}

/// The case of `entry`, through the engine's one case writer: its save
/// file (already in the folder) placed as [`GAME`], a multi-line stdout in
/// a `.stdout` sidecar.
fn case(entry: &Entry) -> Draft {
    let class = entry.sample.class;
    let summary = format!("{}: {}", class.description(), entry.sample.detail);
    let mut tags = Vec::new();
    if entry.ambiguous {
        tags.push(AMBIGUOUS_TAG.to_owned());
    }
    tags.push("corpus".to_owned());
    let hint = if class.is_control() {
        "A valid save file loads: the grid, then the next player's prompt, then end of input."
    } else {
        "Any defect in the save file is 'Incorrect file contents' on stderr, exit 5, and \
         nothing on stdout."
    };
    let mut case = Draft::new(
        &entry.name,
        "Written by nogo-corpus; expected outcome from the reference.",
    );
    case.text("summary", &summary);
    case.text("category", entry.category);
    let rules: Vec<String> = entry.rules.iter().map(|r| (*r).to_owned()).collect();
    case.list("rules", &rules);
    case.list("tags", &tags);
    case.text("hint", hint);
    case.list("args", &["h".to_owned(), "h".to_owned(), GAME.to_owned()]);
    case.file_sidecars(
        "files",
        &[SidecarFile {
            path: GAME,
            sidecar: &format!("{}.game", entry.name),
        }],
    );
    case.reference_in_process();
    case.number("status", entry.status);
    case.stream("stdout", &entry.stdout);
    case.stream("stderr", &entry.stderr);
    case
}
