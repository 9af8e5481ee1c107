//! Writing a shrunk mismatch as a case of the suite's format
//! (`cases/README.md`): expected side from the reference (or `--against`),
//! category and rules inferred from the session, tags `found-by-diff` and,
//! when the session touches an ambiguous ruling, `ambiguous`. Bytes that a
//! YAML editor could mangle (multi-line output, trailing spaces, control
//! bytes) go to sidecar files beside the case.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use boxes_corpus::session::{Session, apply_move};
use boxes_reference::command::{self, Command};
use boxes_reference::gridfile::LoadErrorKind;
use boxes_reference::{Exit, State, args, gridfile};
use serde::Serialize;

use super::compare::{Difference, Part};
use crate::run::Outcome;
use crate::schema::AMBIGUOUS_TAG;

/// The tag every written case carries.
pub const FOUND_BY_DIFF: &str = "found-by-diff";

/// A case as written; keys and meaning as in `cases/README.md`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
struct CaseFile {
    summary: String,
    category: String,
    rules: Vec<String>,
    tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<String>,
    args: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stdin: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stdin_file: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    files: Vec<FileEntry>,
    status: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    stdout: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stdout_file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stderr: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stderr_file: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    output_files: Vec<FileEntry>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    absent_files: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
struct FileEntry {
    path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    base64: Option<String>,
}

/// Where a case went.
#[derive(Debug, Clone)]
pub struct Written {
    /// The case file.
    pub path: PathBuf,
    /// Its category.
    pub category: &'static str,
}

/// A marking category and the rules a session exercises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    /// The category of `cases/suite.yaml`.
    pub category: &'static str,
    /// Ruling IDs, sorted.
    pub rules: BTreeSet<&'static str>,
}

/// Writing the case failed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The expected side did not exit normally, so there is no status to
    /// expect.
    #[error("the expected side did not exit ({0}), so no case can expect it")]
    NoStatus(String),
    /// The case or a sidecar could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The case could not be serialized.
    #[error("cannot serialize the case: {0}")]
    Yaml(String),
}

/// What the written case says about where it came from.
#[derive(Debug, Clone)]
pub struct Provenance<'a> {
    /// The case's file stem.
    pub name: &'a str,
    /// The run's seed.
    pub seed: u64,
    /// The session's index in the run.
    pub index: u64,
    /// How the expected side is named (the reference or a path).
    pub expected_by: &'a str,
}

/// Writes `session` as `<out>/<category>/<name>.yaml` with sidecars,
/// expecting `expected`; `actual` adds the files the candidate wrongly
/// left as `absent-files`.
pub fn write(
    out: &Path,
    from: &Provenance<'_>,
    session: &Session,
    expected: &Outcome,
    actual: &Outcome,
    difference: &Difference,
) -> Result<Written, WriteError> {
    let status = expected
        .ending
        .status()
        .and_then(|s| u8::try_from(s).ok())
        .ok_or_else(|| WriteError::NoStatus(expected.ending.to_string()))?;
    let class = classify(session, status);
    let dir = out.join(class.category);
    fs::create_dir_all(&dir).map_err(|source| WriteError::Io {
        path: dir.clone(),
        source,
    })?;
    let name = from.name;
    let mut sidecars: Vec<(String, Vec<u8>)> = Vec::new();
    let mut rules: BTreeSet<&str> = class.rules.clone();
    rules.extend(session.labels.iter().map(|a| a.rule()));
    let mut tags = vec![FOUND_BY_DIFF.to_owned()];
    if session.is_ambiguous() {
        tags.push(AMBIGUOUS_TAG.to_owned());
        tags.extend(session.labels.iter().map(|a| a.name().to_owned()));
    }
    let mut case = CaseFile {
        summary: format!(
            "found by diff (seed {}, session {}): {} differs from {}",
            from.seed, from.index, difference.part, from.expected_by
        ),
        category: class.category.to_owned(),
        rules: rules.into_iter().map(str::to_owned).collect(),
        tags,
        hint: Some(hint(difference)),
        args: session.args.clone(),
        status,
        ..CaseFile::default()
    };
    let mut place = |bytes: Vec<u8>, extension: &str, inline: bool| {
        if bytes.is_empty() {
            (None, None)
        } else if inline && is_plain(&bytes) {
            (Some(String::from_utf8_lossy(&bytes).into_owned()), None)
        } else {
            let file = format!("{name}.{extension}");
            sidecars.push((file.clone(), bytes));
            (None, Some(file))
        }
    };
    (case.stdin, case.stdin_file) = place(session.stdin(), "stdin", true);
    // Grids span lines with trailing spaces: only a one-line stdout stays
    // inline (cases/README.md).
    let one_line = expected.stdout.split(|&c| c == b'\n').count() <= 2;
    (case.stdout, case.stdout_file) = place(expected.stdout.clone(), "stdout", one_line);
    (case.stderr, case.stderr_file) = place(expected.stderr.clone(), "stderr", true);
    case.files = session
        .files
        .iter()
        .map(|f| entry(&f.path, &f.bytes))
        .collect();
    let mut outputs: BTreeSet<&String> = expected.written.iter().collect();
    if let Part::File(path) = &difference.part
        && expected.files.contains_key(path)
    {
        outputs.insert(path);
    }
    case.output_files = outputs
        .into_iter()
        .filter_map(|p| expected.files.get(p).map(|b| entry(p, b)))
        .collect();
    case.absent_files = actual
        .files
        .keys()
        .filter(|p| !expected.files.contains_key(*p))
        .cloned()
        .collect();
    let yaml = yaml_serde::to_string(&case).map_err(|e| WriteError::Yaml(e.to_string()))?;
    let path = dir.join(format!("{name}.yaml"));
    let header = format!(
        "# Written by `boxes-harness diff --seed {}`; the expected side is {}.\n",
        from.seed, from.expected_by
    );
    for (file, bytes) in sidecars {
        let side = dir.join(file);
        fs::write(&side, bytes).map_err(|source| WriteError::Io { path: side, source })?;
    }
    fs::write(&path, header + &yaml).map_err(|source| WriteError::Io {
        path: path.clone(),
        source,
    })?;
    Ok(Written {
        path,
        category: class.category,
    })
}

/// The hint shown when the case fails: where the difference was found.
fn hint(d: &Difference) -> String {
    match &d.part {
        Part::Status => "the exit status differs: compare how and where the program stops".into(),
        Part::Stdout => format!(
            "stdout first differs at line {}: check the display and the prompt for this input",
            d.line
        ),
        Part::Stderr => format!(
            "stderr first differs at line {}: check which message is printed, and on which stream",
            d.line
        ),
        Part::File(path) => format!(
            "the file `{path}` differs at line {}: check the save format (SAVE-2) and the save path",
            d.line
        ),
    }
}

/// Text that survives a YAML string unchanged in an editor: UTF-8,
/// printable, and no line with leading or trailing whitespace.
fn is_plain(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    text.bytes()
        .all(|b| b == b'\n' || (0x20..0x7f).contains(&b))
        && text
            .split('\n')
            .all(|l| !l.starts_with(' ') && !l.ends_with(' '))
}

/// A file entry: inline text when plain, else base64.
fn entry(path: &str, bytes: &[u8]) -> FileEntry {
    if is_plain(bytes) {
        FileEntry {
            path: path.to_owned(),
            text: Some(String::from_utf8_lossy(bytes).into_owned()),
            base64: None,
        }
    } else {
        FileEntry {
            path: path.to_owned(),
            text: None,
            base64: Some(base64::engine::general_purpose::STANDARD.encode(bytes)),
        }
    }
}

/// Infers the marking category and the rules of a session whose expected
/// exit status is `status`.
pub fn classify(session: &Session, status: u8) -> Classification {
    let rules = |ids: &[&'static str]| ids.iter().copied().collect::<BTreeSet<_>>();
    let config = match args::parse(&session.os_args()) {
        Ok(config) => config,
        Err(Exit::Dimensions) => {
            return Classification {
                category: "args-dims",
                rules: rules(&["ARGS-2", "ARGS-3", "ARGS-5", "ARGS-7"]),
            };
        }
        Err(Exit::PlayerCount) => {
            return Classification {
                category: "args-players",
                rules: rules(&["ARGS-2", "ARGS-4", "ARGS-5", "ARGS-7"]),
            };
        }
        Err(_) => {
            return Classification {
                category: "args-count",
                rules: rules(&["ARGS-1", "ARGS-7"]),
            };
        }
    };
    if status == Exit::GridFileOpen.code() {
        return Classification {
            category: "args-file",
            rules: rules(&["ARGS-5", "ARGS-6", "ARGS-7"]),
        };
    }
    if status == Exit::GridFileContents.code() {
        let mut found = rules(&["FILE-6", "ARGS-7"]);
        let broken = config.file.as_ref().and_then(|p| {
            let path = p.to_str()?;
            let file = session.files.iter().find(|f| f.path == path)?;
            gridfile::load_bytes(&file.bytes, config.height, config.width, config.players).err()
        });
        if let Some(error) = broken {
            found.insert(file_rule(error.kind));
        }
        return Classification {
            category: "file-errors",
            rules: found,
        };
    }
    game(session, &config, status)
}

/// The category and rules of a session that gets to play (ARGS and FILE
/// checks passed).
fn game(session: &Session, config: &args::Config, status: u8) -> Classification {
    let rules = |ids: &[&'static str]| ids.iter().copied().collect::<BTreeSet<_>>();
    let loaded = config.file.as_ref().and_then(|p| {
        let path = p.to_str()?;
        let file = session.files.iter().find(|f| f.path == path)?;
        gridfile::load_bytes(&file.bytes, config.height, config.width, config.players).ok()
    });
    let is_loaded = config.file.is_some();
    let mut state =
        loaded.unwrap_or_else(|| State::new(config.height, config.width, config.players));
    let mut found = rules(&["DISP-1", "DISP-3", "TURN-1"]);
    let (mut moves, mut invalid, mut saves) = (0, 0, 0);
    for line in &session.lines {
        if state.grid.open_edges() == 0 {
            break;
        }
        match command::parse(line) {
            Command::Save(_) => saves += 1,
            Command::Move(edge) if apply_move(&mut state, edge) => moves += 1,
            Command::Move(_) => {
                invalid += 1;
                found.insert("TURN-3");
            }
            Command::Invalid => invalid += 1,
        }
    }
    if is_loaded {
        found.extend(["FILE-1", "FILE-7"]);
    }
    if invalid > 0 {
        found.extend(["TURN-2", "TURN-4"]);
    }
    if moves > 0 {
        found.insert("TURN-5");
    }
    if saves > 0 {
        found.extend(["SAVE-1", "SAVE-2", "SAVE-3"]);
    }
    if status == Exit::Normal.code() {
        found.insert("END-1");
    }
    if status == Exit::EndOfInput.code() {
        found.insert("EOF-1");
    }
    let category = if saves > 0 {
        "save"
    } else if is_loaded && status == Exit::Normal.code() {
        "end-detect"
    } else if is_loaded {
        "load"
    } else if status == Exit::Normal.code() {
        "full-games"
    } else if session.lines.is_empty() {
        "initial-display"
    } else if moves == 0 {
        "reject-illegal"
    } else if moves == 1 {
        "single-move"
    } else {
        "full-games"
    };
    Classification {
        category,
        rules: found,
    }
}

/// The FILE rule a load error breaks.
fn file_rule(kind: LoadErrorKind) -> &'static str {
    match kind {
        LoadErrorKind::Empty | LoadErrorKind::Unreadable => "FILE-6",
        LoadErrorKind::MissingLines { .. }
        | LoadErrorKind::EdgeByte(_)
        | LoadErrorKind::EdgeRowShort
        | LoadErrorKind::EdgeRowLong => "FILE-1",
        LoadErrorKind::NextPlayerByte(_)
        | LoadErrorKind::NextPlayerEmpty
        | LoadErrorKind::NextPlayerRange => "FILE-2",
        LoadErrorKind::CellByte(_)
        | LoadErrorKind::EmptyField
        | LoadErrorKind::TooFewFields
        | LoadErrorKind::TooManyFields
        | LoadErrorKind::OwnerRange => "FILE-3",
        LoadErrorKind::OwnerOnOpenCell { .. } => "FILE-4",
        LoadErrorKind::ExtraLine => "FILE-5",
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn categories_follow_what_the_session_does() {
        let cat = |args: &[&str], lines: &[&str], status| {
            classify(&Session::new_game(args, lines), status).category
        };
        assert_eq!(cat(&["2"], &[], 1), "args-count");
        assert_eq!(cat(&["1", "2", "2"], &[], 2), "args-dims");
        assert_eq!(cat(&["2", "2", "1"], &[], 3), "args-players");
        assert_eq!(cat(&["2", "2", "2", "nope"], &[], 4), "args-file");
        assert_eq!(cat(&["2", "2", "2"], &[], 6), "initial-display");
        assert_eq!(cat(&["2", "2", "2"], &["9 9 h", "x"], 6), "reject-illegal");
        assert_eq!(cat(&["2", "2", "2"], &["0 0 h"], 6), "single-move");
        assert_eq!(cat(&["2", "2", "2"], &["0 0 h", "w s"], 6), "save");
        let mut broken = Session::new_game(&["2", "2", "2", "g"], &[]);
        broken.files.push(boxes_corpus::session::InputFile {
            path: "g".into(),
            bytes: b"3\n".to_vec(),
        });
        let class = classify(&broken, 5);
        assert_eq!(class.category, "file-errors");
        assert!(class.rules.contains("FILE-2"), "{:?}", class.rules);
        let rules = classify(&Session::new_game(&["2", "2", "2"], &["0 0 h", "9 0 h"]), 6).rules;
        assert!(rules.contains("TURN-3") && rules.contains("EOF-1") && rules.contains("TURN-5"));
    }

    #[test]
    fn plain_text_excludes_what_editors_mangle() {
        assert!(is_plain(b"0 0 h\nw save.txt\n"));
        assert!(!is_plain(b"0 0 h \n"));
        assert!(!is_plain(b"0 0 h\r\n"));
        assert!(!is_plain(b"\xff"));
    }
}
