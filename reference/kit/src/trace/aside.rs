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
                hex => super::unhex(hex)?,
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

#[cfg(test)]
mod tests {
    use super::super::{Context, Counted, parse, parse_record, record, wrote_aside};
    use super::*;
    use std::io::Write as _;

    const SAVE: Context = Context::new("SAVE-1,SAVE-2,SAVE-4", "save the game");

    #[test]
    fn asides_keep_their_channel_offset_and_context_and_read_back() {
        let ((), record) = record(|| {
            let mut out = Counted(Vec::new());
            let _ = out.write_all(b"A> ");
            wrote_aside(Channel::File, b"sub/out", SAVE);
            wrote_aside(Channel::Stderr, b"Unable to save game\n", SAVE);
            wrote_aside(Channel::File, &[b'x'; ASIDE_KEPT + 1], SAVE);
        });
        assert_eq!(record.asides.len(), 2, "a path past the bound is not kept");
        let text = super::super::render(&record);
        let read = parse_record(&text);
        assert_eq!(read.asides, record.asides);
        assert_eq!(read.asides[0].at, 3);
        assert_eq!(read.asides[0].bytes, b"sub/out");
        assert_eq!(read.asides[1].channel, Channel::Stderr);
        assert_eq!(read.asides[1].rules, ["SAVE-1", "SAVE-2", "SAVE-4"]);
        assert_eq!(read.asides[1].what, "save the game");
        assert_eq!(parse(&text), record.spans, "spans read past asides");
        assert!(read.rulings.is_empty());
        assert!(parse_asides("> file 3 zz A-1\tbad hex\n> disk 0 - A-1\tx\n").is_empty());
    }
}
