//! Writing a shrunk mismatch as a case of the suite's format
//! (`cases/README.md`): expected side from the reference (or `--against`),
//! category and rules from the pack's explorer, tags `found-by-diff` and,
//! when the session touches an ambiguous ruling, `ambiguous`. Streams and
//! files are spelled by the one case writer ([`crate::output::writer`]), the same
//! policy `bless` follows.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::compare::{Difference, Part};
use super::explore::{Classification, Label, Probe};
use crate::exec::run::Outcome;
use crate::model::schema::AMBIGUOUS_TAG;
use crate::output::writer::Draft;

/// The tag every written case carries.
pub const FOUND_BY_DIFF: &str = "found-by-diff";

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
    let mut rules: BTreeSet<String> = class.rules.clone();
    rules.extend(found.labels.iter().map(|a| a.rule.clone()));
    let mut tags = vec![FOUND_BY_DIFF.to_owned()];
    if !found.labels.is_empty() {
        tags.push(AMBIGUOUS_TAG.to_owned());
        tags.extend(found.labels.iter().map(|a| a.name.clone()));
    }
    let mut case = Draft::new(
        from.name,
        &format!(
            "Written by `{} diff --seed {}`; the expected side is {}.",
            from.program, from.seed, from.expected_by
        ),
    );
    let summary = format!(
        "found by diff (seed {}, session {}): {} differs from {}",
        from.seed, from.index, difference.part, from.expected_by
    );
    case.text("summary", &summary);
    case.text("category", &class.category);
    case.list("rules", &rules.into_iter().collect::<Vec<_>>());
    case.list("tags", &tags);
    case.text("hint", &hint(difference));
    case.list("args", &found.probe.args);
    case.stream("stdin", &found.probe.stdin);
    let given: Vec<(&str, &[u8])> = found
        .probe
        .files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    case.files("files", &given);
    // The case's time limit then derives from the expected side's time,
    // its CPU time where /proc tells it, as `bless` records it: wall time
    // grows with the machine's load, and a finding written under load
    // must be the one written idle (issue 53).
    case.number(
        "reference-ms",
        crate::exec::run::recorded_reference_ms(expected.activity.cpu.unwrap_or(expected.elapsed)),
    );
    case.number("status", status);
    case.stream("stdout", &expected.stdout);
    case.stream("stderr", &expected.stderr);
    let mut outputs: BTreeSet<&String> = expected.written.iter().collect();
    if let Part::File(path) = &difference.part
        && expected.files.contains_key(path)
    {
        outputs.insert(path);
    }
    let outputs: Vec<(&str, &[u8])> = outputs
        .into_iter()
        .filter_map(|p| expected.files.get(p).map(|b| (p.as_str(), b.as_slice())))
        .collect();
    case.files("output-files", &outputs);
    let absent: Vec<String> = actual
        .files
        .keys()
        .filter(|p| !expected.files.contains_key(*p))
        .cloned()
        .collect();
    if !absent.is_empty() {
        case.list("absent-files", &absent);
    }
    let path = case.write(&dir).map_err(|e| WriteError::Io {
        path: e.path,
        source: e.source,
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
        Part::Memory { kind, place } if place.is_empty() => {
            format!("a memory error ({kind}): run it with the same --memcheck to see the report")
        }
        Part::Memory { kind, place } => format!(
            "a memory error ({kind}) in {place}: run it with the same --memcheck to see the report"
        ),
    }
}
