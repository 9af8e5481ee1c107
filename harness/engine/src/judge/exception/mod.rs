//! An uncaught exception in what a program printed: a Python traceback,
//! a Java `Exception in thread "main"` (with its `Caused by`), a Node.js
//! stack, a Ruby backtrace. Each is parsed into what a cause names
//! ([`Raised`]): the exception's type, its message and the program's own
//! innermost frame (file and line; the submission's folder already shown
//! as `./` by [`crate::judge::mask`]). A C program's crash is a signal
//! ([`crate::exec::run::Ending::Signaled`]), not text: not here.
//!
//! Parsing is advice for a report, on bytes the program chose: any bytes
//! parse without a panic (proptested), only the last [`WINDOW`] bytes
//! are read, and a text that is not one of these forms is `None`.
//!
//! The forms, one file each: `python`, `java`, `node`, `ruby`.

mod java;
mod node;
mod python;
mod ruby;

use std::fmt;

/// Bytes at the end of a stream read for an exception: a traceback is
/// the last thing a program prints, and a flood before it costs nothing.
pub const WINDOW: usize = 64 * 1024;

/// Characters of a message kept.
const MESSAGE_CHARS: usize = 160;

/// The language whose runtime printed the exception.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    /// A Python traceback (or a `SyntaxError` before any ran).
    Python,
    /// A Java uncaught exception (or a main class that cannot load).
    Java,
    /// A Node.js uncaught error.
    Node,
    /// A Ruby uncaught exception.
    Ruby,
}

/// A frame of the program's own code: where it was when it raised.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Frame {
    /// The file as the runtime printed it (after masking: `./fuel.py`;
    /// Java prints the source file's name alone: `Main.java`).
    pub file: String,
    /// Its line, 1-based.
    pub line: u32,
}

impl fmt::Display for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// An uncaught exception, as its runtime reported it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Raised {
    /// Whose runtime.
    pub language: Language,
    /// The exception's type as a program names it: `FileNotFoundError`,
    /// `FileNotFoundException` (Java's without its package),
    /// `TypeError`, `Errno::ENOENT`.
    pub kind: String,
    /// Its message's first line (empty when it has none), cut short.
    pub message: String,
    /// The program's own innermost frame, when the report names one
    /// outside the language's library.
    pub frame: Option<Frame>,
}

impl Raised {
    /// `FileNotFoundError (`./scourgify.py:7`)`: the type and, when
    /// known, the program's own line.
    pub fn headline(&self) -> String {
        match &self.frame {
            Some(frame) => format!("{} (`{frame}`)", self.kind),
            None => self.kind.clone(),
        }
    }
}

impl fmt::Display for Raised {
    /// `FileNotFoundError (`./s.py:8`): [Errno 2] No such file …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.headline())?;
        if !self.message.is_empty() {
            write!(f, ": {}", self.message)?;
        }
        Ok(())
    }
}

/// The uncaught exception `bytes` (a stream, usually stderr) end with,
/// when they hold one of the forms this module knows.
pub fn parse(bytes: &[u8]) -> Option<Raised> {
    let tail = &bytes[bytes.len().saturating_sub(WINDOW)..];
    let text = String::from_utf8_lossy(tail);
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    python::parse(&lines)
        .or_else(|| java::parse(&lines))
        .or_else(|| node::parse(&lines))
        .or_else(|| ruby::parse(&lines))
}

/// Whether `bytes` hold an uncaught exception: what `nonempty` refuses
/// as a message of the program's choice.
pub fn is_traceback(bytes: &[u8]) -> bool {
    parse(bytes).is_some()
}

/// A message's first line, cut to [`MESSAGE_CHARS`] characters.
fn message(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default().trim();
    if line.chars().count() > MESSAGE_CHARS {
        let mut cut: String = line.chars().take(MESSAGE_CHARS).collect();
        cut.push('…');
        cut
    } else {
        line.to_owned()
    }
}

/// Whether `name` reads as a type name: dotted identifiers (`::` for
/// Ruby), starting with a letter or `_`.
fn is_type_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 200
        && name
            .split(['.', '$'])
            .flat_map(|p| p.split("::"))
            .all(|part| {
                part.chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
}

/// `TYPE: message` or `TYPE` alone: the line naming an exception, when
/// its type passes `named` (a language's own test of a type name).
fn type_line(line: &str, named: impl Fn(&str) -> bool) -> Option<(String, String)> {
    let (kind, rest) = match line.split_once(": ") {
        Some((k, rest)) => (k, rest),
        None => (line.strip_suffix(':').unwrap_or(line), ""),
    };
    (is_type_name(kind) && named(kind)).then(|| (kind.to_owned(), message(rest)))
}

/// A line number as a frame gives it.
fn line_number(text: &str) -> Option<u32> {
    let digits: &str = &text[..text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len())];
    digits.parse().ok().filter(|&n| n > 0)
}

#[cfg(test)]
mod tests;
