//! Writing a shrunk mismatch as a case of the suite's format
//! (`cases/README.md`): expected side from the reference (or `--against`),
//! category and rules from the pack's explorer, tags `found-by-diff` and,
//! when the session touches an ambiguous ruling, `ambiguous`. Bytes that a
//! YAML editor could mangle (multi-line output, trailing spaces, control
//! bytes) go to sidecar files beside the case.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde::Serialize;

use super::compare::{Difference, Part};
use super::explore::{Classification, Label, Probe};
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
    pub category: String,
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
    /// The program name in the header's command.
    pub program: &'a str,
}

/// A shrunk session as the writer sees it: its run, the pack's
/// classification and the ambiguous rulings it touches.
#[derive(Debug, Clone)]
pub struct Found<'a> {
    /// The run.
    pub probe: &'a Probe,
    /// Category and rules.
    pub class: &'a Classification,
    /// Ambiguous rulings touched.
    pub labels: &'a [Label],
}

/// Writes `found` as `<out>/<category>/<name>.yaml` with sidecars,
/// expecting `expected`; `actual` adds the files the candidate wrongly
/// left as `absent-files`.
pub fn write(
    out: &Path,
    from: &Provenance<'_>,
    found: Option<Found<'_>>,
    expected: &Outcome,
    actual: &Outcome,
    difference: &Difference,
) -> Result<Written, WriteError> {
    let status = expected
        .ending
        .status()
        .and_then(|s| u8::try_from(s).ok())
        .ok_or_else(|| WriteError::NoStatus(expected.ending.to_string()))?;
    // The status is there when the explorer could classify the session.
    let Some(found) = found else {
        return Err(WriteError::NoStatus(expected.ending.to_string()));
    };
    let class = found.class;
    let dir = out.join(&class.category);
    fs::create_dir_all(&dir).map_err(|source| WriteError::Io {
        path: dir.clone(),
        source,
    })?;
    let name = from.name;
    let mut sidecars: Vec<(String, Vec<u8>)> = Vec::new();
    let mut rules: BTreeSet<String> = class.rules.clone();
    rules.extend(found.labels.iter().map(|a| a.rule.clone()));
    let mut tags = vec![FOUND_BY_DIFF.to_owned()];
    if !found.labels.is_empty() {
        tags.push(AMBIGUOUS_TAG.to_owned());
        tags.extend(found.labels.iter().map(|a| a.name.clone()));
    }
    let mut case = CaseFile {
        summary: format!(
            "found by diff (seed {}, session {}): {} differs from {}",
            from.seed, from.index, difference.part, from.expected_by
        ),
        category: class.category.clone(),
        rules: rules.into_iter().collect(),
        tags,
        hint: Some(hint(difference)),
        args: found.probe.args.clone(),
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
    (case.stdin, case.stdin_file) = place(found.probe.stdin.clone(), "stdin", true);
    // Grids span lines with trailing spaces: only a one-line stdout stays
    // inline (cases/README.md).
    let one_line = expected.stdout.split(|&c| c == b'\n').count() <= 2;
    (case.stdout, case.stdout_file) = place(expected.stdout.clone(), "stdout", one_line);
    (case.stderr, case.stderr_file) = place(expected.stderr.clone(), "stderr", true);
    case.files = found
        .probe
        .files
        .iter()
        .map(|(path, bytes)| entry(path, bytes))
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
        "# Written by `{} diff --seed {}`; the expected side is {}.\n",
        from.program, from.seed, from.expected_by
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
        category: class.category.clone(),
    })
}

/// The hint shown when the case fails: where the difference was found.
fn hint(d: &Difference) -> String {
    match &d.part {
        Part::Status => "the exit status differs: compare how and where the program stops".into(),
        Part::Stdout => format!(
            "stdout first differs at line {}: check the output for this input",
            d.line
        ),
        Part::Stderr => format!(
            "stderr first differs at line {}: check which message is printed, and on which stream",
            d.line
        ),
        Part::File(path) => format!(
            "the file `{path}` differs at line {}: check what is written there, and where",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_excludes_what_editors_mangle() {
        assert!(is_plain(b"0 0 h\nw save.txt\n"));
        assert!(!is_plain(b"0 0 h \n"));
        assert!(!is_plain(b"0 0 h\r\n"));
        assert!(!is_plain(b"\xff"));
    }
}
