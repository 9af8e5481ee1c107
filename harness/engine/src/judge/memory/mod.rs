//! Memory errors read from what a program printed on stderr: the reports
//! of AddressSanitizer, LeakSanitizer, MemorySanitizer,
//! UndefinedBehaviorSanitizer and valgrind's memcheck, each error by its
//! kind (`heap-buffer-overflow`, `double-free`, `leak`, ...), what it did
//! in words (`a write of 1 byte past a 5-byte block`) and the program's
//! own frame (the first one in the program's source, never the C
//! library's or the sanitizer's). [`parse`] also gives the report's first
//! lines, bounded, and stderr without the report, so that the program's
//! own stderr still compares byte for byte.
//!
//! Any bytes parse: what is not a report is the program's.

mod sanitizer;
#[cfg(test)]
mod tests;
mod valgrind;

use std::fmt;

/// Lines of a report a failure quotes.
pub const QUOTED_LINES: usize = 16;
/// Characters of one quoted line.
const LINE_CHARS: usize = 200;
/// Errors kept from one run (a valgrind run in a loop reports thousands).
const ERRORS_KEPT: usize = 32;

/// One memory error.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MemoryError {
    /// Its kind, in the sanitizers' words: `heap-buffer-overflow`,
    /// `stack-buffer-overflow`, `heap-use-after-free`, `double-free`,
    /// `uninitialised-value`, `leak`, `out-of-bounds-index`, ...
    pub kind: String,
    /// What happened, in words (`a write of 1 byte past a 5-byte
    /// block`); empty where the report says no more than its kind.
    pub what: String,
    /// The program's own frame: where in its source it happened.
    pub frame: Option<Frame>,
    /// Which tool saw it.
    pub tool: Tool,
    /// The first lines of its report ([`QUOTED_LINES`], each cut).
    pub lines: Vec<String>,
}

/// Which tool reported an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tool {
    /// AddressSanitizer, LeakSanitizer, MemorySanitizer, ThreadSanitizer.
    Sanitizer,
    /// UndefinedBehaviorSanitizer: the program goes on after it.
    Undefined,
    /// valgrind's memcheck.
    Valgrind,
}

/// A place in the program's source.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Frame {
    /// The function.
    pub function: String,
    /// The source file's name (its folder left out: a marked
    /// submission's folder differs from one to the next), when known.
    pub file: Option<String>,
    /// The line, when known.
    pub line: Option<u32>,
}

impl fmt::Display for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.function.is_empty() {
            // UndefinedBehaviorSanitizer without a stack names a line only.
            return match (&self.file, self.line) {
                (Some(file), Some(line)) => write!(f, "{file}:{line}"),
                (Some(file), None) => f.write_str(file),
                _ => f.write_str("an unknown place"),
            };
        }
        write!(f, "`{}`", self.function)?;
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, " ({file}:{line})"),
            (Some(file), None) => write!(f, " ({file})"),
            _ => Ok(()),
        }
    }
}

impl MemoryError {
    /// Whether it is a leak (charged only when asked).
    pub fn is_leak(&self) -> bool {
        self.kind == "leak"
    }

    /// Its kind and place, without what it did: what makes two errors
    /// the same bug (`heap-buffer-overflow in `shout` (x.c:11)`).
    pub fn key(&self) -> String {
        match &self.frame {
            Some(frame) => format!("{} in {frame}", self.kind),
            None => self.kind.clone(),
        }
    }
}

impl fmt::Display for MemoryError {
    /// `stack-buffer-overflow: a write of 1 byte past the 26-byte array
    /// `key` in `encipher` (substitution.c:41)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kind)?;
        if !self.what.is_empty() {
            write!(f, ": {}", self.what)?;
        }
        match &self.frame {
            Some(frame) if self.what.is_empty() => write!(f, ": in {frame}"),
            Some(frame) => write!(f, " in {frame}"),
            None => Ok(()),
        }
    }
}

/// What a run's stderr holds of memory errors.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// The errors, in the order reported (at most [`ERRORS_KEPT`]).
    pub errors: Vec<MemoryError>,
    /// stderr without the report's lines: what the program itself wrote.
    pub rest: Vec<u8>,
}

impl Report {
    /// The error a failure is named by: the first error of a sanitizer
    /// or valgrind, else the first of UndefinedBehaviorSanitizer (which
    /// often reports the same bug a line earlier, as an index out of
    /// bounds); leaks only with `leaks`.
    pub fn first(&self, leaks: bool) -> Option<&MemoryError> {
        let counted = |e: &&MemoryError| leaks || !e.is_leak();
        self.errors
            .iter()
            .filter(counted)
            .find(|e| e.tool != Tool::Undefined)
            .or_else(|| self.errors.iter().find(counted))
    }
}

/// One line of stderr, as the parsers see it.
pub(super) struct Line<'a> {
    /// Its text (lossy), without the newline.
    text: std::borrow::Cow<'a, str>,
    /// Its bytes with the newline, as the program wrote them.
    raw: &'a [u8],
}

/// Reads every memory error of `stderr`.
pub fn parse(stderr: &[u8]) -> Report {
    let lines: Vec<Line<'_>> = stderr
        .split_inclusive(|&b| b == b'\n')
        .map(|raw| Line {
            text: String::from_utf8_lossy(raw.strip_suffix(b"\n").unwrap_or(raw)),
            raw,
        })
        .collect();
    let mut report = Report::default();
    let mut taken = vec![false; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        let found = sanitizer::at(&lines, i).or_else(|| valgrind::at(&lines, i));
        match found {
            Some((end, errors)) => {
                let end = end.clamp(i + 1, lines.len());
                for t in taken.iter_mut().take(end).skip(i) {
                    *t = true;
                }
                let quoted: Vec<String> = lines[i..end]
                    .iter()
                    .take(QUOTED_LINES)
                    .map(|l| cut(&l.text))
                    .collect();
                let room = ERRORS_KEPT.saturating_sub(report.errors.len());
                report
                    .errors
                    .extend(errors.into_iter().take(room).map(|mut e| {
                        e.lines.clone_from(&quoted);
                        e
                    }));
                i = end;
            }
            None => i += 1,
        }
    }
    for (line, taken) in lines.iter().zip(taken) {
        if !taken {
            report.rest.extend_from_slice(line.raw);
        }
    }
    report
}

/// A line cut to [`LINE_CHARS`].
fn cut(text: &str) -> String {
    let mut out: String = text.chars().take(LINE_CHARS).collect();
    if text.chars().count() > LINE_CHARS {
        out.push('…');
    }
    out
}

/// The decimal number that starts `text`, if any.
pub(super) fn number(text: &str) -> Option<u64> {
    let digits: String = text
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// `N byte` or `N bytes`.
pub(super) fn bytes(n: u64) -> String {
    if n == 1 {
        "1 byte".to_owned()
    } else {
        format!("{n} bytes")
    }
}

/// A frame's location (`/x/y.c:11`, `/x/y.c:11:5`, `y.c:11`): the file
/// and line, when it names a source file of the program itself (an
/// absolute path outside the sanitizer's and the C library's sources).
pub(super) fn own_location(location: &str) -> Option<(String, u32)> {
    let split = |s: &str| -> Option<(String, u32)> {
        let (rest, n) = s.rsplit_once(':')?;
        Some((rest.to_owned(), n.parse().ok()?))
    };
    let (rest, n) = split(location.trim())?;
    let (file, line) = split(&rest).unwrap_or((rest, n));
    let runtime = [
        "libsanitizer",
        "compiler-rt",
        "/sysdeps/",
        "/csu/",
        "vg_replace",
    ];
    if !file.starts_with('/') || runtime.iter().any(|r| file.contains(r)) {
        return None;
    }
    let name = file.rsplit('/').next().unwrap_or(&file);
    Some((name.to_owned(), line))
}

/// Whether a function is the runtime's, never the program's.
pub(super) fn runtime_function(function: &str) -> bool {
    function.starts_with("__") || function == "_start"
}

/// The program's own frame among `frames` (function, location), the
/// innermost first: the first in a source file of the program; else the
/// first function of neither the runtime nor a shared library (a program
/// built without `-g`), without a line.
pub(super) fn own_frame(frames: &[(String, String)]) -> Option<Frame> {
    frames
        .iter()
        .filter(|(function, _)| !runtime_function(function))
        .find_map(|(function, location)| {
            let (file, line) = own_location(location)?;
            Some(Frame {
                function: function.clone(),
                file: Some(file),
                line: Some(line),
            })
        })
        .or_else(|| {
            let library = [
                "libsanitizer",
                ".so",
                "/lib/",
                "/lib64/",
                "../",
                "vgpreload",
            ];
            frames
                .iter()
                .find(|(function, location)| {
                    !runtime_function(function)
                        && !function.is_empty()
                        && !library.iter().any(|l| location.contains(l))
                })
                .map(|(function, _)| Frame {
                    function: function.clone(),
                    file: None,
                    line: None,
                })
        })
}
