//! A Ruby uncaught exception: `FILE:LINE:in 'METHOD': message (TYPE)`
//! (the message may run over lines, the type closing the last), then
//! `\tfrom FILE:LINE:in 'METHOD'` for each caller. The first line is the
//! innermost frame; the own frame is the first outside Ruby's library and
//! installed gems.

use super::{Frame, Language, Raised, is_type_name, line_number, message};

pub(super) fn parse(lines: &[&str]) -> Option<Raised> {
    // The innermost frame's line: the one before the first `from`, or a
    // lone `FILE:LINE:in …: message (TYPE)` at the end.
    let first_from = lines.iter().position(|l| is_from(l));
    let last = first_from.unwrap_or(lines.len());
    let head = (0..last)
        .rev()
        .take(16)
        .find(|&i| location(lines[i]).is_some_and(|(_, rest)| rest.starts_with(":in ")))?;
    let (frame, rest) = location(lines[head])?;
    let (_, said) = rest.split_once(": ")?;
    // The message runs to the line closed by `(TYPE)`.
    let mut text = String::from(said);
    let mut i = head;
    let kind = loop {
        if let Some(open) = text.rfind(" (")
            && let Some(kind) = text[open + 2..].strip_suffix(')')
            && is_type_name(kind)
        {
            let kind = kind.to_owned();
            text.truncate(open);
            break kind;
        }
        i += 1;
        if i >= last.min(head + 16) {
            return None;
        }
        text.push('\n');
        text.push_str(lines[i]);
    };
    let frames = std::iter::once(frame).chain(
        lines[last..]
            .iter()
            .take_while(|l| is_from(l))
            .filter_map(|l| location(l.trim_start().strip_prefix("from ")?).map(|(f, _)| f)),
    );
    let own = frames.into_iter().find(|f| own(&f.file));
    Some(Raised {
        language: Language::Ruby,
        kind,
        message: message(&text),
        frame: own,
    })
}

fn is_from(line: &str) -> bool {
    line.trim_start().starts_with("from ") && line.starts_with(['\t', ' '])
}

/// `FILE:LINE` at the start of a line, and what follows it.
fn location(line: &str) -> Option<(Frame, &str)> {
    let colon = line.find(':')?;
    let (file, rest) = line.split_at(colon);
    let rest = &rest[1..];
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    if file.is_empty() || file.contains(' ') || digits == 0 {
        return None;
    }
    Some((
        Frame {
            file: file.to_owned(),
            line: line_number(rest)?,
        },
        &rest[digits..],
    ))
}

fn own(file: &str) -> bool {
    !(file.starts_with('<')
        || file.contains("/lib/ruby/")
        || file.contains("/gems/")
        || file.starts_with("internal:"))
}
