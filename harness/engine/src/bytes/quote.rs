//! Words and bytes quoted for a POSIX shell or `printf`, so that a line a
//! person pastes gives the program exactly the bytes the harness gave it.

use std::fmt::Write as _;

/// A word safe to paste into a POSIX shell.
pub fn shell_quote(text: &str) -> String {
    let safe = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_./:=,+-@%".contains(&b));
    if safe {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// A `printf` format string that prints exactly `bytes`.
pub fn printf_format(bytes: &[u8]) -> String {
    let mut out = String::from("'");
    for &b in bytes {
        match b {
            b'\'' => out.push_str(r"'\''"),
            b'\\' => out.push_str(r"\\"),
            b'%' => out.push_str("%%"),
            b'\n' => out.push_str(r"\n"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('\'');
    out
}

/// A word safe to paste into bash, from bytes: `'…'` for UTF-8, `$'…'`
/// with `\xNN` escapes otherwise.
pub fn shell_quote_bytes(bytes: &[u8]) -> String {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return shell_quote(text);
    }
    let mut out = String::from("$'");
    for &b in bytes {
        match b {
            b'\'' => out.push_str("\\'"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    out.push('\'');
    out
}

/// [`shell_quote_bytes`] of an OS string (a path, an argument).
pub fn shell_quote_os(text: &std::ffi::OsStr) -> String {
    use std::os::unix::ffi::OsStrExt;
    shell_quote_bytes(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_escapes() {
        assert_eq!(printf_format(b"a'%\\\n\0"), r"'a'\''%%\\\n\000'");
        assert_eq!(shell_quote("2"), "2");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote_bytes(b"a\xffb'"), "$'a\\xffb\\''");
    }
}
