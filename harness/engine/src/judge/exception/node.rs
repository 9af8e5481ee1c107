//! A Node.js uncaught error: a header naming where it was thrown
//! (`/path/app.js:3`, the source line and a caret), a blank line, then
//! `TYPE: message` and its stack (`    at NAME (PATH:LINE:COLUMN)` or
//! `    at PATH:LINE:COLUMN`), perhaps an object of its properties, and
//! `Node.js vX`. The type line is the last one before the stack whose
//! first frame follows it; the own frame is the first outside Node's
//! internals (`node:`) and installed packages (`node_modules`).

use super::{Frame, Language, Raised, line_number, type_line};

pub(super) fn parse(lines: &[&str]) -> Option<Raised> {
    // The stack's first frame, and the type line before it (a message may
    // run over lines: `Require stack:` and its list).
    let first_at = lines.iter().rposition(|l| is_at(l))?;
    let mut top = first_at;
    while top > 0 && is_at(lines[top - 1]) {
        top -= 1;
    }
    let type_at = (0..top).rev().take(16).find(|&i| {
        type_line(lines[i], |k| {
            k.ends_with("Error") || k.ends_with("Exception")
        })
        .is_some()
    })?;
    let (kind, message) = type_line(lines[type_at], |_| true)?;
    let frame = lines[top..]
        .iter()
        .take_while(|l| is_at(l))
        .find_map(|l| own_frame(l));
    Some(Raised {
        language: Language::Node,
        kind,
        message,
        frame,
    })
}

fn is_at(line: &str) -> bool {
    line.starts_with("    at ")
}

/// The file and line of a frame outside Node and its packages.
fn own_frame(line: &str) -> Option<Frame> {
    let at = line.trim_start().strip_prefix("at ")?;
    // `NAME (LOCATION)` or `LOCATION`; a location ends `:LINE:COLUMN`.
    let location = match at.rsplit_once(" (") {
        Some((_, l)) => l.strip_suffix(')')?,
        None => at,
    };
    let location = location.trim_end_matches(" {");
    let (rest, _column) = location.rsplit_once(':')?;
    let (file, line) = rest.rsplit_once(':')?;
    if file.starts_with("node:") || file.contains("node_modules") || file.starts_with("internal/") {
        return None;
    }
    let file = file.strip_prefix("file://").unwrap_or(file);
    Some(Frame {
        file: file.to_owned(),
        line: line_number(line)?,
    })
}
