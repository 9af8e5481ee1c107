//! Excerpts of a failure, each bounded: a line escaped and cut around
//! where it differs, what was not kept counted, the stdin line being
//! answered ([`InputNote`]), and any text cut to a size ([`bound`]).

use std::fmt::{self, Write as _};

use crate::bytes::visible::{self};

/// Bytes of one diff line shown; the rest is counted.
pub(super) const MAX_LINE: usize = 200;

/// The stdin line the program had just read when its output departed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputNote {
    /// 1-based stdin line (0: before reading any).
    pub line: usize,
    /// The line's bytes, escaped, without its newline.
    pub text: String,
    /// The first line of what the expected side printed in answer, from
    /// the first difference on.
    pub expected: String,
    /// The same of the actual side.
    pub actual: String,
    /// Whether what the expected side printed there is a prompt and
    /// nothing else: it was waiting for the next line.
    pub expected_prompt: bool,
}

/// `text` cut to at most `max` bytes (on a character boundary) with a
/// note of what was left out.
pub fn bound(mut text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let mut cut = max.saturating_sub(80);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let left = text.len() - cut;
    text.truncate(cut);
    let _ = writeln!(text, "\n… report cut: {left} more bytes not shown");
    text
}

impl fmt::Display for InputNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "before reading any stdin: ")?;
        } else {
            write!(f, "after stdin line {} `{}`: ", self.line, self.text)?;
        }
        // A prompt and nothing else: the expected side was waiting for the
        // next line.
        if self.expected_prompt {
            write!(f, "expected the prompt `{}`", self.expected)?;
        } else {
            write!(f, "expected `{}`", self.expected)?;
        }
        write!(f, ", got `{}`", self.actual)
    }
}

/// The stdin line answered at the first difference: as many lines were
/// read as prompts (`prompt`, [`crate::exec::terminal::PROMPT`] for most packs) the expected side
/// printed before it.
pub fn input_note(stdin: &[u8], expected: &[u8], actual: &[u8], prompt: &[u8]) -> InputNote {
    let at = visible::locate(expected, actual).byte;
    let line = if prompt.is_empty() {
        0
    } else {
        expected[..at]
            .windows(prompt.len())
            .filter(|w| *w == prompt)
            .count()
    };
    let text = match line.checked_sub(1) {
        Some(i) => stdin.split_inclusive(|&b| b == b'\n').nth(i).map_or_else(
            || "(past the end of stdin)".to_owned(),
            |l| cut_escaped(l.strip_suffix(b"\n").unwrap_or(l)),
        ),
        None => String::new(),
    };
    let expected_rest = visible::rest_of_line(expected, at);
    InputNote {
        line,
        text,
        expected: answer(expected, at),
        actual: answer(actual, at),
        expected_prompt: !prompt.is_empty()
            && expected_rest.ends_with(prompt)
            && !expected_rest.contains(&b'\n'),
    }
}

/// The rest of the line from `at`, escaped and cut; `(nothing)` at the end.
pub(super) fn answer(bytes: &[u8], at: usize) -> String {
    let rest = visible::rest_of_line(bytes, at);
    if rest.is_empty() {
        "(nothing: the output ends here)".to_owned()
    } else {
        cut_escaped(rest)
    }
}

/// Bytes escaped for one line, cut to [`MAX_LINE`] with the count left out.
pub(super) fn cut_escaped(bytes: &[u8]) -> String {
    if bytes.len() <= MAX_LINE {
        return visible::escape(bytes);
    }
    format!(
        "{}…[{} more bytes]",
        visible::escape(&bytes[..MAX_LINE]),
        bytes.len() - MAX_LINE
    )
}

/// The actual rest of the line, as [`cut_escaped`]; when it runs to the
/// end of the bytes kept, those not kept count among the bytes left out.
pub(super) fn cut_rest(rest: &[u8], dropped: usize) -> String {
    // A rest without its newline runs to the end of what was kept.
    if dropped == 0 || rest.last() == Some(&b'\n') {
        return cut_escaped(rest);
    }
    let shown = &rest[..rest.len().min(MAX_LINE)];
    format!(
        "{}{}",
        visible::escape(shown),
        not_kept((rest.len() - shown.len()).saturating_add(dropped))
    )
}

/// One diff line made visible, cut around `focus` (the byte where the
/// first difference falls, if on this line) with the bytes left out
/// counted.
pub(super) fn visible_cut(line: &[u8], focus: Option<usize>) -> String {
    if line.len() <= MAX_LINE {
        return visible::visible_line(line);
    }
    let (mut out, end) = window(line, focus);
    if end < line.len() {
        let _ = write!(out, "…[{} bytes]", line.len() - end);
    }
    out
}

/// The [`MAX_LINE`] bytes of `line` shown around `focus`, made visible
/// after the count of the bytes left out before them, and where they end:
/// what follows is the caller's to count.
fn window(line: &[u8], focus: Option<usize>) -> (String, usize) {
    let start = focus.map_or(0, |f| f.saturating_sub(MAX_LINE / 3));
    let start = start.min(line.len());
    let end = (start + MAX_LINE).min(line.len());
    let mut out = String::new();
    if start > 0 {
        let _ = write!(out, "…[{start} bytes]");
    }
    let shown = visible::visible_line(&line[start..end]);
    out.push_str(shown.strip_suffix('⊘').unwrap_or(&shown));
    (out, end)
}

/// [`visible_cut`] for an actual line; the last line kept, when bytes were
/// read after it and not kept, is shown cut with the count of everything
/// after what is shown.
pub(super) fn visible_kept(line: &[u8], focus: Option<usize>, dropped: usize) -> String {
    // Only the last line of the bytes kept can lack its newline.
    if dropped == 0 || line.last() == Some(&b'\n') {
        return visible_cut(line, focus);
    }
    let (mut out, end) = window(line, focus);
    let _ = write!(
        out,
        "{}",
        not_kept((line.len() - end).saturating_add(dropped))
    );
    out
}

/// The note closing a line cut at the end of the bytes kept.
pub(super) fn not_kept(bytes: usize) -> String {
    format!("…[{bytes} more bytes: the rest of the output, not kept]")
}
