//! A Python traceback: `Traceback (most recent call last):`, its frames
//! (`  File "PATH", line N, in NAME` and the source line under each),
//! then `TYPE: message`. The last traceback is the one that ended the
//! program (a chained one comes after "During handling of the above
//! exception"). A `SyntaxError` has no header: its one frame, the line
//! quoted, a caret, then the type.

use super::{Frame, Language, Raised, line_number, type_line};

const HEADER: &str = "Traceback (most recent call last):";

pub(super) fn parse(lines: &[&str]) -> Option<Raised> {
    let header = lines.iter().rposition(|l| l.trim_start() == HEADER);
    let start = match header {
        Some(h) => h + 1,
        // No header: a compile error, its frame first.
        None => lines.iter().rposition(|l| frame(l).is_some())?,
    };
    let mut frames: Vec<Frame> = Vec::new();
    for line in lines.get(start..).unwrap_or_default() {
        if let Some(f) = frame(line) {
            frames.push(f);
            continue;
        }
        // Source lines, carets and an exception group's bars are indented.
        if line.starts_with(' ') || line.starts_with('\t') || line.is_empty() {
            continue;
        }
        let (kind, message) = type_line(line, |k| header.is_some() || k.ends_with("Error"))?;
        return Some(Raised {
            language: Language::Python,
            kind,
            message,
            frame: frames.iter().rev().find(|f| own(&f.file)).cloned(),
        });
    }
    None
}

/// `  File "PATH", line N, in NAME` (or without `, in NAME`).
fn frame(line: &str) -> Option<Frame> {
    let rest = line.trim_start().strip_prefix("File \"")?;
    let (file, rest) = rest.rsplit_once("\", line ")?;
    Some(Frame {
        file: file.to_owned(),
        line: line_number(rest)?,
    })
}

/// Whether a frame's file is the program's, not Python's library's.
fn own(file: &str) -> bool {
    !(file.starts_with('<')
        || file.contains("/lib/python")
        || file.contains("site-packages")
        || file.contains("dist-packages")
        || file.contains("/.pyenv/"))
}
