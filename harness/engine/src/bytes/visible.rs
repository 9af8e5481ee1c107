//! Bytes made visible to a person: the marks for whitespace and bytes that
//! cannot be shown ([`LEGEND`]), escaping, where two byte strings part, and
//! terminal colour. Every report of a difference, at every layer, shows
//! bytes through here, so that they read the same everywhere.

use std::fmt::Write as _;

/// The legend of the visible-whitespace marks.
pub const LEGEND: &str = "`·` trailing space, `→` tab, `␍` carriage return, `␀` NUL, \
                          `\\xNN` other byte, `⊘` no newline at end";

/// Terminal colours, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// Whether to emit ANSI colours.
    pub colour: bool,
}

impl Style {
    /// `text` in the ANSI style `code`, when colour is on.
    pub fn paint(self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}

/// Whether colour is wanted on stdout: a terminal, and no `NO_COLOR`.
pub fn colour_wanted() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
}

/// One line of output made readable: the bytes that are easy to miss or
/// cannot be shown get a visible mark (see [`LEGEND`]).
pub fn visible_line(line: &[u8]) -> String {
    let (body, newline) = match line.strip_suffix(b"\n") {
        Some(body) => (body, true),
        None => (line, false),
    };
    let trailing = body.iter().rev().take_while(|&&b| b == b' ').count();
    let (main, spaces) = body.split_at(body.len() - trailing);
    let mut out = String::new();
    for chunk in main.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\t' => out.push('→'),
                '\r' => out.push('␍'),
                '\0' => out.push('␀'),
                c if c.is_control() => {
                    let _ = write!(out, "\\x{:02x}", u32::from(c));
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out.extend(std::iter::repeat_n('·', spaces.len()));
    if !newline {
        out.push('⊘');
    }
    out
}

/// Where two byte strings first differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (bytes).
    pub column: usize,
    /// 0-based offset.
    pub byte: usize,
}

/// Locates the first byte where `a` and `b` differ (the end of the shorter
/// when one is a prefix of the other); lines end at `\n` only.
pub fn locate(a: &[u8], b: &[u8]) -> Location {
    let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let before = &a[..at];
    let line = before.split(|&c| c == b'\n').count();
    let column = at
        - before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    Location {
        line,
        column,
        byte: at,
    }
}

/// The bytes from `offset` to the end of their line (its `\n` included).
pub fn rest_of_line(bytes: &[u8], offset: usize) -> &[u8] {
    let rest = bytes.get(offset..).unwrap_or_default();
    let end = rest
        .iter()
        .position(|&b| b == b'\n')
        .map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

/// Bytes as one line of JSON-friendly text: printable ASCII as is, `\n`,
/// `\r`, `\t`, `\\` and `\xNN` escaped; the one escaping scheme of
/// machine output.
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            b'\\' => out.push_str("\\\\"),
            0x20..0x7f => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_visible() {
        assert_eq!(visible_line(b"+-+ \n"), "+-+·");
        assert_eq!(visible_line(b"a\tb\r\n"), "a→b␍");
        assert_eq!(visible_line(b"A> "), "A>·⊘");
        assert_eq!(visible_line(b"\xff\x01x\n"), "\\xff\\x01x");
    }

    #[test]
    fn first_difference_is_located() {
        let at = locate(b"ab\ncd", b"ab\ncx");
        assert_eq!((at.line, at.column, at.byte), (2, 2, 4));
    }
}
