//! Comparing two runs of the same session byte for byte: the ending
//! (status, signal, timeout), stdout, stderr and every file the sandbox
//! holds afterwards. A difference is located by part and first differing
//! line, which is also what makes two mismatches "the same".

use std::fmt::{self, Write as _};

use crate::exec::run::Outcome;

/// Where two runs differ.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    /// How the program ended: exit status, signal or timeout.
    Status,
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
    /// A file in the sandbox afterwards, by relative path.
    File(String),
    /// A memory error under `--memcheck`, by kind and the program's own
    /// frame.
    Memory {
        /// `heap-buffer-overflow`, ...
        kind: String,
        /// The program's frame, empty when unknown.
        place: String,
    },
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Status => write!(f, "status"),
            Self::Stdout => write!(f, "stdout"),
            Self::Stderr => write!(f, "stderr"),
            Self::File(path) => write!(f, "file `{path}`"),
            Self::Memory { kind, .. } => write!(f, "memory ({kind})"),
        }
    }
}

/// The first difference in one part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The part that differs.
    pub part: Part,
    /// 1-based line of the first differing byte (1 for the status).
    pub line: usize,
    /// 0-based offset of the first differing byte in the part.
    pub offset: usize,
    /// The expected side's line there (the ending for the status; `None`
    /// when the part or the line is missing).
    pub expected: Option<Vec<u8>>,
    /// The candidate's line there.
    pub actual: Option<Vec<u8>>,
}

/// What identifies a mismatch across sessions: the part and the line of
/// its first difference (after shrinking).
pub type Key = (Part, usize);

impl Difference {
    /// The deduplication key.
    pub fn key(&self) -> Key {
        (self.part.clone(), self.line)
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |side: &Option<Vec<u8>>| match side {
            Some(bytes) => format!("\"{}\"", visible(bytes)),
            None => "(nothing)".to_owned(),
        };
        if let Part::Memory { .. } = self.part {
            let error = self.actual.as_deref().unwrap_or_default();
            write!(f, "memory error: {}", String::from_utf8_lossy(error))
        } else if self.part == Part::Status {
            write!(
                f,
                "status differs: expected {}, got {}",
                show(&self.expected),
                show(&self.actual)
            )
        } else {
            write!(
                f,
                "{} differs at line {} (byte {}):\n    expected {}\n    actual   {}",
                self.part,
                self.line,
                self.offset,
                show(&self.expected),
                show(&self.actual)
            )
        }
    }
}

/// Every part in which `actual` differs from `expected`, in the order
/// status, stdout, stderr, files by path.
pub fn compare(expected: &Outcome, actual: &Outcome) -> Vec<Difference> {
    let mut found = Vec::new();
    if expected.ending != actual.ending {
        found.push(Difference {
            part: Part::Status,
            line: 1,
            offset: 0,
            expected: Some(expected.ending.to_string().into_bytes()),
            actual: Some(actual.ending.to_string().into_bytes()),
        });
    }
    for (part, e, a) in [
        (Part::Stdout, &expected.stdout, &actual.stdout),
        (Part::Stderr, &expected.stderr, &actual.stderr),
    ] {
        if let Some(d) = first_difference(part, Some(e), Some(a)) {
            found.push(d);
        }
    }
    let paths: std::collections::BTreeSet<&String> =
        expected.files.keys().chain(actual.files.keys()).collect();
    for path in paths {
        let part = Part::File(path.clone());
        let (e, a) = (expected.files.get(path), actual.files.get(path));
        if let Some(d) = first_difference(part, e.map(Vec::as_slice), a.map(Vec::as_slice)) {
            found.push(d);
        }
    }
    found
}

/// Locates the first differing byte of two optional byte strings.
fn first_difference(part: Part, e: Option<&[u8]>, a: Option<&[u8]>) -> Option<Difference> {
    if e == a {
        return None;
    }
    let (eb, ab) = (e.unwrap_or_default(), a.unwrap_or_default());
    // The one first-difference locator, shared with the case reports.
    let at = crate::bytes::visible::locate(eb, ab);
    let (offset, line) = (at.byte, at.line);
    let line_start = at.byte + 1 - at.column;
    let line_of = |side: Option<&[u8]>| {
        side.and_then(|bytes| {
            let rest = bytes.get(line_start..)?;
            if rest.is_empty() && line_start > 0 {
                return None;
            }
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(rest.len(), |i| i + 1);
            Some(rest[..end].to_vec())
        })
    };
    Some(Difference {
        part,
        line,
        offset,
        expected: line_of(e),
        actual: line_of(a),
    })
}

/// Bytes as a reader can see them: printable ASCII as is, everything else
/// escaped (`\n`, `\r`, `\t`, `\xNN`), long lines cut with `…`.
pub fn visible(bytes: &[u8]) -> String {
    const SHOWN: usize = 120;
    let mut out = String::new();
    for &b in bytes.iter().take(SHOWN) {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    if bytes.len() > SHOWN {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::time::Duration;

    use super::*;
    use crate::exec::run::Ending;

    fn outcome(status: i32, stdout: &[u8], files: &[(&str, &[u8])]) -> Outcome {
        Outcome {
            ending: Ending::Exited(status),
            stdout: stdout.to_vec(),
            stderr: Vec::new(),
            files: files
                .iter()
                .map(|(p, b)| ((*p).to_owned(), b.to_vec()))
                .collect::<BTreeMap<_, _>>(),
            dirs: BTreeSet::new(),
            written: BTreeSet::new(),
            cut: BTreeSet::new(),
            folder: std::path::PathBuf::new(),
            left_process: false,
            left_behind: Vec::new(),
            dropped: crate::exec::run::Dropped::default(),
            elapsed: Duration::ZERO,
            reads: None,
            stdin_taken: Some(0),
            no_start: None,
            activity: crate::exec::run::Activity::default(),
        }
    }

    #[test]
    fn equal_runs_have_no_difference() {
        let a = outcome(6, b"+-+\nA> ", &[("s", b"1\n")]);
        assert!(compare(&a, &a.clone()).is_empty());
    }

    #[test]
    fn a_trailing_space_is_found_on_its_line() {
        let e = outcome(6, b"+ +\n| |\n+ +\n", &[]);
        let a = outcome(6, b"+ +\n| |\n+\n", &[]);
        let d = compare(&e, &a);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].key(), (Part::Stdout, 3));
        assert_eq!(d[0].offset, 9);
        assert_eq!(d[0].expected.as_deref(), Some(&b"+ +\n"[..]));
        assert_eq!(d[0].actual.as_deref(), Some(&b"+\n"[..]));
        assert!(d[0].to_string().contains("\"+ +\\n\""));
    }

    #[test]
    fn status_missing_output_and_extra_files_all_count() {
        let e = outcome(0, b"A\n", &[("save.txt", b"1\n")]);
        let a = outcome(6, b"A\nB\n", &[("other", b"")]);
        let parts: Vec<Part> = compare(&e, &a).into_iter().map(|d| d.part).collect();
        assert_eq!(
            parts,
            [
                Part::Status,
                Part::Stdout,
                Part::File("other".into()),
                Part::File("save.txt".into())
            ]
        );
        let d = &compare(&e, &a)[1];
        assert_eq!((d.line, d.expected.clone()), (2, None));
        assert_eq!(d.actual.as_deref(), Some(&b"B\n"[..]));
    }

    #[test]
    fn visible_escapes_what_cannot_be_seen() {
        assert_eq!(visible(b"a \t\r\n\x00\xff"), "a \\t\\r\\n\\x00\\xff");
    }
}
