//! Asides: what a reference writes besides stdout (a file it saves, a
//! message on stderr), each under the context it obeys, so that a program
//! that never writes that file or message is blamed on the rules of what
//! the reference was doing ("does not save the game (SAVE-1, SAVE-2,
//! SAVE-4)"), whichever file or message it misses. One bug (never saving)
//! is then one cause, not one a file, a message and a kind of difference.
//!
//! A record line `> file|stderr AT HEX RULES\tWHAT`: the stdout offset
//! when it happened, the path (or the stderr bytes) in hex, the rule IDs
//! comma-separated and the context's words. [`super::parse`] and
//! [`super::parse_rulings`] skip these lines, so an older reader is
//! unharmed.

use std::fmt::Write as _;

/// Where an aside goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Channel {
    /// A file, named by the path the program opened (relative to its
    /// working directory, as given).
    File,
    /// Bytes on stderr.
    Stderr,
}

impl Channel {
    const fn word(self) -> &'static str {
        match self {
            Self::File => "file",
            Self::Stderr => "stderr",
        }
    }
}

/// Something the reference wrote besides stdout, in a context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aside {
    /// A file or stderr.
    pub channel: Channel,
    /// The stdout offset when it was written.
    pub at: u64,
    /// The file's path, or the bytes written on stderr.
    pub bytes: Vec<u8>,
    /// Rule IDs of the context.
    pub rules: Vec<String>,
    /// The context's words (`save the game`).
    pub what: String,
}

/// Bytes of a path or message an aside keeps: a longer one is not
/// recorded (a record is bounded; a path that long names no file).
pub const ASIDE_KEPT: usize = 4096;

/// Appends `aside`'s record line to `text`.
pub(super) fn render(aside: &Aside, text: &mut String) {
    let mut hex = String::with_capacity(aside.bytes.len() * 2 + 1);
    for b in &aside.bytes {
        let _ = write!(hex, "{b:02x}");
    }
    if hex.is_empty() {
        hex.push('-');
    }
    let _ = writeln!(
        text,
        "> {} {} {hex} {}\t{}",
        aside.channel.word(),
        aside.at,
        aside.rules.join(","),
        aside.what.replace(['\n', '\t'], " ")
    );
}

/// The asides of a record; a malformed line is skipped.
pub fn parse_asides(text: &str) -> Vec<Aside> {
    text.lines()
        .filter_map(|line| {
            let (head, what) = line.strip_prefix("> ")?.split_once('\t')?;
            let mut words = head.split(' ');
            let channel = match words.next()? {
                "file" => Channel::File,
                "stderr" => Channel::Stderr,
                _ => return None,
            };
            let at = words.next()?.parse().ok()?;
            let bytes = match words.next()? {
                "-" => Vec::new(),
                hex => unhex(hex)?,
            };
            let rules = words.next()?.split(',').filter(|r| !r.is_empty());
            Some(Aside {
                channel,
                at,
                bytes,
                rules: rules.map(str::to_owned).collect(),
                what: what.to_owned(),
            })
        })
        .collect()
}

/// Bytes from their hex digits (the log writes every line so: no byte
/// of it can break a log line); `None` for an odd count or a non-digit.
pub(super) fn unhex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}
