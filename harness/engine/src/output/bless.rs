//! `--bless`: rewriting a case's expected fields from what the reference did,
//! keeping every other byte of the case file (comments, key order, quoting).
//!
//! The expected keys form seven groups (`reference-ms`, `status`,
//! `stdout*`, `stderr*`, `output-files`, `reads`, the model's count of
//! stdin lines from the counting runs, and `trace`, the model's record of
//! its stdout's rules in a sidecar `<name>.trace`). A group whose value is already right is left as
//! written; a group that changes is found as top-level spans of the text,
//! removed, and its new text takes the place of the first span (a group the
//! case lacks goes next to its neighbours in that order).
//! Multi-line output goes to a sidecar `<name>.stdout` / `<name>.stderr`
//! (or the sidecar the case already names; raw bytes, so trailing spaces
//! and bytes above 127 survive editors);
//! a single line goes inline, or to `*-base64` when it is not UTF-8.
//!
//! One piece: rewriting a case file's expected groups is one edit of
//! its text: finding each group's spans, writing its sidecars and
//! replacing them must agree on the same lines, or the file would lose
//! bytes.

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

use crate::exec::run::Outcome;
use crate::model::schema::Case;
use crate::model::suite::{CaseFile, Root};
use crate::output::writer::{file_content, quote, stream_entry};

/// Why a case could not be blessed.
#[derive(Debug, thiserror::Error)]
pub enum BlessError {
    /// The case is not a file on disk.
    #[error("{0}: only case files on disk can be blessed")]
    NotOnDisk(String),
    /// The reference did not exit normally.
    #[error("{file}: the reference did not exit normally ({ending}); nothing written")]
    Abnormal {
        /// The case file.
        file: String,
        /// How it ended.
        ending: String,
    },
    /// A listed output file was not written by the reference.
    #[error("{file}: output file `{path}` was not written by the reference")]
    NoOutputFile {
        /// The case file.
        file: String,
        /// The path.
        path: String,
    },
    /// Reading or writing failed.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Whether the case file was changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blessed {
    /// Rewritten.
    Changed,
    /// Already right.
    Unchanged,
}

/// What only a folder pack's model gives, kept with its expectations so
/// that `run` and `mark` never run it again.
#[derive(Debug, Default)]
pub struct FromModel {
    /// Its read count, where the case judges reads.
    pub reads: Option<crate::model::schema::CaseReads>,
    /// Its trace of stdout.
    pub trace: Taken,
}

/// A model's trace as a bless took it.
#[derive(Debug, Default)]
pub enum Taken {
    /// Not taken (a built-in reference, which runs at no cost): the
    /// case's `trace:` stays as written.
    #[default]
    Skipped,
    /// The model wrote no trace: `trace: none`.
    NoTrace,
    /// The bytes of the record it wrote: kept in `NAME.trace`.
    Record(Vec<u8>),
}

/// Rewrites the expected fields of `file` (whose parsed content is `case`)
/// from the reference's `outcome`; `took` is the reference's time on the
/// case (its CPU time where known), recorded as `reference-ms`.
pub fn bless(
    file: &CaseFile,
    case: &Case,
    outcome: &Outcome,
    took: std::time::Duration,
    readings: &[(String, Outcome)],
    from_model: &FromModel,
) -> Result<Blessed, BlessError> {
    let Root::Dir(_) = &file.root else {
        return Err(BlessError::NotOnDisk(file.display()));
    };
    let io = |source| BlessError::Io {
        file: file.display(),
        source,
    };
    let path = file.root.disk_path(&file.rel);
    let old = fs::read(&path).map_err(io)?;
    let Some(status) = outcome.ending.status() else {
        return Err(BlessError::Abnormal {
            file: file.display(),
            ending: outcome.ending.to_string(),
        });
    };

    // What the case expects now, to leave alone every group of keys whose
    // value is already right (its formatting is the author's).
    let current = crate::model::case::expectation(case, file).ok();
    let mut groups: Vec<Group> = Vec::new();
    let mut sidecars: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut stale: Vec<PathBuf> = Vec::new();
    // The reference's time, from which the case's default time limit
    // derives. Kept as written while it gives the same limit (every run
    // under 50 ms gives 1 s), so that re-blessing on a busier machine
    // rewrites nothing.
    let ms = crate::exec::run::recorded_reference_ms(took);
    let limit = |ms| crate::exec::run::limit_from_reference(std::time::Duration::from_millis(ms));
    let same_limit = case.reference_ms.is_some_and(|old| limit(old) == limit(ms));
    groups.push(Group {
        keys: &["reference-ms"],
        text: (!same_limit).then(|| format!("reference-ms: {ms}\n")),
    });
    let status_ok = current
        .as_ref()
        .is_some_and(|c| c.ending.status() == Some(status));
    groups.push(Group {
        keys: &["status"],
        text: (!status_ok).then(|| format!("status: {status}\n")),
    });
    for (key, keys, bytes, old_sidecar) in [
        (
            "stdout",
            &["stdout", "stdout-file", "stdout-base64"],
            &outcome.stdout,
            &case.stdout_file,
        ),
        (
            "stderr",
            &["stderr", "stderr-file", "stderr-base64"],
            &outcome.stderr,
            &case.stderr_file,
        ),
    ] {
        let old_bytes = current.as_ref().map(|c| match key {
            "stdout" => &c.stdout,
            _ => &c.stderr,
        });
        if old_bytes == Some(bytes) {
            groups.push(Group { keys, text: None });
            continue;
        }
        // A sidecar the case already names keeps its name; only our own
        // default name is deleted when no longer needed (another name may
        // be shared).
        let default = format!("{}.{key}", file.stem());
        let ours = old_sidecar.clone().unwrap_or_else(|| default.clone());
        let sidecar_path = file.root.disk_path(&file.sidecar(&ours));
        let mut text = String::new();
        if stream_entry(&mut text, key, bytes, &ours) {
            sidecars.push((sidecar_path, bytes.clone()));
        } else if old_sidecar.as_deref() == Some(default.as_str()) {
            stale.push(sidecar_path);
        }
        groups.push(Group {
            keys,
            text: Some(text),
        });
    }
    groups.push(output_files(
        file,
        case,
        current.as_ref(),
        outcome,
        &mut sidecars,
    )?);
    groups.push(readings_group(file, current.as_ref(), readings)?);
    groups.extend(model_groups(
        file,
        case,
        outcome,
        from_model,
        &mut sidecars,
        &mut stale,
    ));

    let text = String::from_utf8_lossy(&old);
    let new = replace_expected(&text, &groups);
    for (p, bytes) in &sidecars {
        if fs::read(p).ok().as_deref() != Some(bytes.as_slice()) {
            fs::write(p, bytes).map_err(io)?;
        }
    }
    for p in &stale {
        let _ = fs::remove_file(p);
    }
    if new.as_bytes() == old.as_slice() {
        return Ok(Blessed::Unchanged);
    }
    fs::write(&path, new).map_err(io)?;
    Ok(Blessed::Changed)
}

/// The `reads` group: the model's read count, where it was taken (an
/// author's `reads: off` stays).
fn reads_group(case: &Case, reads: Option<crate::model::schema::CaseReads>) -> Group {
    let text = reads
        .filter(|r| case.reads != Some(*r) && case.reads.is_none_or(|c| !c.is_off()))
        .map(|r| match r {
            crate::model::schema::CaseReads::Count(n) => format!("reads: {n}\n"),
            crate::model::schema::CaseReads::Not(crate::model::schema::ReadsNot::Uncertain) => {
                "reads: uncertain\n".to_owned()
            }
            crate::model::schema::CaseReads::Not(_) => "reads: varies\n".to_owned(),
        });
    Group {
        keys: &["reads"],
        text,
    }
}

/// The groups only a model's runs give: `reads` and `trace`.
fn model_groups(
    file: &CaseFile,
    case: &Case,
    outcome: &Outcome,
    from_model: &FromModel,
    sidecars: &mut Vec<(PathBuf, Vec<u8>)>,
    stale: &mut Vec<PathBuf>,
) -> [Group; 2] {
    [
        reads_group(case, from_model.reads),
        trace_group(
            file,
            case,
            &outcome.stdout,
            &from_model.trace,
            sidecars,
            stale,
        ),
    ]
}

/// The `trace` group: `none`, or the sidecar holding the model's record
/// of `stdout` (its default name `NAME.trace`, or the one the case names).
fn trace_group(
    file: &CaseFile,
    case: &Case,
    stdout: &[u8],
    taken: &Taken,
    sidecars: &mut Vec<(PathBuf, Vec<u8>)>,
    stale: &mut Vec<PathBuf>,
) -> Group {
    use crate::judge::provenance::NO_TRACE;
    let default = format!("{}.trace", file.stem());
    let named = case.trace.clone().filter(|n| n != NO_TRACE);
    let value = match taken {
        Taken::Skipped => {
            return Group {
                keys: &["trace"],
                text: None,
            };
        }
        Taken::NoTrace => {
            if named.as_deref() == Some(default.as_str()) {
                stale.push(file.root.disk_path(&file.sidecar(&default)));
            }
            NO_TRACE.to_owned()
        }
        Taken::Record(record) => {
            let name = named.unwrap_or(default);
            let text = crate::judge::provenance::kept_text(record, stdout);
            sidecars.push((file.root.disk_path(&file.sidecar(&name)), text));
            name
        }
    };
    Group {
        keys: &["trace"],
        text: (case.trace.as_deref() != Some(value.as_str()))
            .then(|| format!("trace: {}\n", quote(&value))),
    }
}

/// The `output-files` group: the listed paths with the reference's bytes.
fn output_files(
    file: &CaseFile,
    case: &Case,
    current: Option<&crate::model::case::Expectation>,
    outcome: &Outcome,
    sidecars: &mut Vec<(PathBuf, Vec<u8>)>,
) -> Result<Group, BlessError> {
    let mut files_text = String::new();
    let mut files_same = true;
    if !case.output_files.is_empty() {
        files_text.push_str("output-files:\n");
        for spec in &case.output_files {
            let key = crate::exec::run::normalize(&spec.path);
            let bytes = outcome
                .files
                .get(&key)
                .ok_or_else(|| BlessError::NoOutputFile {
                    file: file.display(),
                    path: spec.path.clone(),
                })?;
            files_same &= current.and_then(|c| c.output_files.get(&key)) == Some(bytes);
            let _ = writeln!(files_text, "  - path: {}", quote(&spec.path));
            // A sidecar the entry already names keeps holding the bytes.
            if let Some(name) = &spec.file {
                let _ = writeln!(files_text, "    file: {}", quote(name));
                sidecars.push((file.root.disk_path(&file.sidecar(name)), bytes.clone()));
            } else {
                file_content(&mut files_text, bytes);
            }
        }
    }
    Ok(Group {
        keys: &["output-files"],
        text: (!files_same).then_some(files_text),
    })
}

/// The `readings` group: what the model does under each other reading of
/// an ambiguous rule the case cites, inline (a reading's output is short
/// by nature: it differs where the rulings leave a point open).
fn readings_group(
    file: &CaseFile,
    current: Option<&crate::model::case::Expectation>,
    readings: &[(String, Outcome)],
) -> Result<Group, BlessError> {
    let mut text = String::new();
    let mut same = current.is_some_and(|c| c.alternatives.len() == readings.len());
    if !readings.is_empty() {
        text.push_str("readings:\n");
    }
    for (name, outcome) in readings {
        let Some(status) = outcome.ending.status() else {
            return Err(BlessError::Abnormal {
                file: file.display(),
                ending: format!("under the reading `{name}`: {}", outcome.ending),
            });
        };
        same &= current.is_some_and(|c| {
            c.alternatives.iter().any(|a| {
                a.reading == *name
                    && a.ending.status() == Some(status)
                    && a.stdout == outcome.stdout
                    && a.stderr == outcome.stderr
            })
        });
        let _ = writeln!(text, "  {}:", quote(name));
        let _ = writeln!(text, "    status: {status}");
        for (key, bytes) in [("stdout", &outcome.stdout), ("stderr", &outcome.stderr)] {
            if let Ok(t) = std::str::from_utf8(bytes) {
                let _ = writeln!(text, "    {key}: {}", quote(t));
            } else {
                use base64::Engine as _;
                let b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
                let _ = writeln!(text, "    {key}-base64: {b64}");
            }
        }
    }
    Ok(Group {
        keys: &["readings"],
        text: (!same).then_some(text),
    })
}

/// The top-level key a line starts, if any.
fn top_level_key(line: &str) -> Option<&str> {
    let first = line.chars().next()?;
    if matches!(
        first,
        ' ' | '\t' | '#' | '-' | '\n' | '\r' | '.' | '{' | '['
    ) {
        return None;
    }
    let (key, rest) = line.split_once(':')?;
    let key = key.trim_end();
    let ok = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && (rest.is_empty() || rest.starts_with([' ', '\n', '\r', '\t']));
    ok.then_some(key)
}

/// Some expected keys of a case (`stdout`, `stdout-file`, `stdout-base64`)
/// and, when they need rewriting, the YAML that replaces them.
struct Group {
    keys: &'static [&'static str],
    text: Option<String>,
}

/// Replaces each group that has new text: its keys' spans go, the text
/// takes the place of the first of them (or goes at the end). Groups
/// without new text, and every other byte, stay.
fn replace_expected(text: &str, groups: &[Group]) -> String {
    // Lines with their byte offsets.
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        lines.push((at, line));
        at += line.len();
    }
    // Spans of top-level keys: [start line, end line).
    let mut spans: Vec<(&str, usize, usize)> = Vec::new();
    for (i, (_, line)) in lines.iter().enumerate() {
        if let Some(key) = top_level_key(line) {
            if let Some(last) = spans.last_mut() {
                last.2 = i;
            }
            spans.push((key, i, lines.len()));
        } else if (line.starts_with("---") || line.starts_with("..."))
            && let Some(last) = spans.last_mut()
            && last.2 == lines.len()
        {
            last.2 = i;
        }
    }
    // Blank and column-0 comment lines ending a span belong to the gap
    // after it, not to the value.
    for span in &mut spans {
        while span.2 > span.1 + 1 {
            let line = lines[span.2 - 1].1;
            if line.trim().is_empty() || line.starts_with('#') {
                span.2 -= 1;
            } else {
                break;
            }
        }
    }
    // Each group's spans, in document order.
    let group_spans: Vec<Vec<(usize, usize)>> = groups
        .iter()
        .map(|g| {
            spans
                .iter()
                .filter(|(k, _, _)| g.keys.contains(k))
                .map(|&(_, s, e)| (s, e))
                .collect()
        })
        .collect();
    // Spans to drop, with the text that takes the first one's place; and
    // insertions (before line N) for groups the case does not have yet:
    // after the group before them, else before the group after them, else
    // at the end.
    let mut drop: Vec<(usize, usize, Option<&str>)> = Vec::new();
    let mut inserts: Vec<(usize, &str)> = Vec::new();
    for (gi, group) in groups.iter().enumerate() {
        let Some(new) = &group.text else { continue };
        if let Some((&(first_start, first_end), rest)) = group_spans[gi].split_first() {
            drop.push((first_start, first_end, Some(new.as_str())));
            drop.extend(rest.iter().map(|&(s, e)| (s, e, None)));
            continue;
        }
        let after = group_spans[..gi]
            .iter()
            .rev()
            .find_map(|v| v.iter().map(|&(_, e)| e).max());
        let before = || {
            group_spans[gi + 1..]
                .iter()
                .find_map(|v| v.iter().map(|&(s, _)| s).min())
        };
        let at = after.or_else(before).unwrap_or(lines.len());
        inserts.push((at, new.as_str()));
    }
    let mut out = String::with_capacity(text.len() + 256);
    let mut i = 0;
    loop {
        for (_, new) in inserts.iter().filter(|(at, _)| *at == i) {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(new);
        }
        if i >= lines.len() {
            break;
        }
        if let Some(&(_, end, new)) = drop.iter().find(|(s, _, _)| *s == i) {
            out.push_str(new.unwrap_or_default());
            i = end;
            continue;
        }
        out.push_str(lines[i].1);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(keys: &'static [&'static str], text: &str) -> Group {
        Group {
            keys,
            text: Some(text.to_owned()),
        }
    }

    #[test]
    fn groups_without_new_text_stay() {
        let text = "stdout: |\n  a\nstatus: 2\n";
        let new = replace_expected(
            text,
            &[
                Group {
                    keys: &["stdout"],
                    text: None,
                },
                group(&["status"], "status: 3\n"),
            ],
        );
        assert_eq!(new, "stdout: |\n  a\nstatus: 3\n");
    }

    #[test]
    fn replaces_only_expected_keys() {
        let text = "# a comment\nsummary: s   # keep\nargs: [\"1\"]\nstatus: 9\nstdout: |\n  old\n  more\n\n# trailing comment\nhint: h\n";
        let new = replace_expected(
            text,
            &[
                group(&["status"], "status: 1\n"),
                group(&["stdout", "stdout-file"], ""),
                group(&["stderr"], "stderr: \"x\\n\"\n"),
            ],
        );
        assert_eq!(
            new,
            "# a comment\nsummary: s   # keep\nargs: [\"1\"]\nstatus: 1\nstderr: \"x\\n\"\n\n# trailing comment\nhint: h\n"
        );
    }

    #[test]
    fn appends_when_no_expected_key() {
        let new = replace_expected("summary: s\nargs: []", &[group(&["status"], "status: 0\n")]);
        assert_eq!(new, "summary: s\nargs: []\nstatus: 0\n");
    }

    #[test]
    fn indentless_sequences_belong_to_their_key() {
        let text = "output-files:\n- path: a\n  text: b\nabsent-files:\n- c\n";
        let new = replace_expected(
            text,
            &[
                group(&["status"], "status: 0\n"),
                group(&["output-files"], ""),
            ],
        );
        assert_eq!(new, "status: 0\nabsent-files:\n- c\n");
    }
}
