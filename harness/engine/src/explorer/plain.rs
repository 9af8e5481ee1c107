//! A session in plain terms, for explorers that know no game: arguments,
//! input files and stdin lines, each remembering the part of its source
//! (a grammar's alternative, file or line template) it was drawn from so
//! that it can be classified by that part's rules. Owns the byte-level
//! damage of a line and the shrink candidates of such a session: fewer
//! lines, files and arguments, shorter numbers, a terminated last line.

use super::explore::Probe;
use crate::model::rng::SplitMix64;

/// Where a part of a session came from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Source {
    /// The explorer's argument list number `i`.
    Argv(usize),
    /// Its input file number `i`.
    File(usize),
    /// Its stdin line template number `i`.
    Line(usize),
    /// The suite's case number `i` (an explorer derived from the cases).
    Case(usize),
    /// Nothing the explorer can cite.
    #[default]
    Derived,
}

/// A stdin line without its newline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Where it came from.
    pub source: Source,
}

/// An input file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// Its path relative to the program's folder.
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Where it came from.
    pub source: Source,
}

/// Arguments, files and stdin lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlainSession {
    /// The arguments after the program's name.
    pub args: Vec<String>,
    /// Where the argument list came from.
    pub argv_source: Source,
    /// Input files.
    pub files: Vec<File>,
    /// Stdin lines.
    pub lines: Vec<Line>,
    /// Whether the last line lacks its newline.
    pub unterminated: bool,
}

impl PlainSession {
    /// The run it describes.
    pub fn probe(&self) -> Probe {
        let mut stdin = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            stdin.extend_from_slice(&line.bytes);
            if !(self.unterminated && i + 1 == self.lines.len()) {
                stdin.push(b'\n');
            }
        }
        Probe {
            args: self.args.clone(),
            stdin,
            files: self
                .files
                .iter()
                .map(|f| (f.path.clone(), f.bytes.clone()))
                .collect(),
        }
    }

    /// Every part's source, arguments first.
    pub fn sources(&self) -> impl Iterator<Item = Source> + '_ {
        std::iter::once(self.argv_source)
            .chain(self.files.iter().map(|f| f.source))
            .chain(self.lines.iter().map(|l| l.source))
    }
}

/// Damages `bytes` once, as a typist or a broken file would: a byte
/// deleted, doubled, replaced by another or by a control byte, or the line
/// cut short.
pub fn damage(bytes: &mut Vec<u8>, rng: &mut SplitMix64) {
    const ODD: [u8; 8] = [b' ', b'\t', b'\r', 0, b'-', b'x', b'9', 0x7f];
    let at = rng.below(bytes.len().max(1));
    match (rng.below(5), bytes.is_empty()) {
        (_, true) => bytes.push(ODD[rng.below(ODD.len())]),
        (0, _) => {
            bytes.remove(at);
        }
        (1, _) => bytes.insert(at, bytes[at]),
        (2, _) => {
            let k = rng.below(ODD.len());
            // Never the byte it replaces: a damaged line differs.
            bytes[at] = if ODD[k] == bytes[at] {
                ODD[(k + 1) % ODD.len()]
            } else {
                ODD[k]
            };
        }
        (3, _) => bytes.insert(at, ODD[rng.below(ODD.len())]),
        _ => bytes.truncate(at),
    }
}

/// Smaller sessions, the most reducing first: half the lines, each line
/// (from the end), each file, each argument, each number smaller (a digit
/// shorter, or a digit one less), and a newline on the last line. Every
/// candidate is strictly smaller, so shrinking ends; at most
/// [`shrink::BUDGET`](super::shrink::BUDGET) of them, as the shrink loop
/// never tries more (a session of a thousand lines would otherwise be
/// copied a thousand times).
pub fn shrink(session: &PlainSession) -> Vec<PlainSession> {
    let mut out = Vec::new();
    shrink_into(session, &mut out);
    out.truncate(super::shrink::BUDGET);
    out
}

/// The candidates of a session of `n` lines with fewer lines, the most
/// reducing first: the first half (when there are more than two), then
/// each line gone, from the end. `lines` reaches a candidate's lines: any
/// session type of lines shrinks this way, a pack's own included.
pub fn fewer_lines<'a, S: Clone, L: 'a>(
    session: &'a S,
    n: usize,
    lines: fn(&mut S) -> &mut Vec<L>,
) -> impl Iterator<Item = S> + 'a {
    let half = (n > 2).then(|| {
        let mut half = session.clone();
        lines(&mut half).truncate(n / 2);
        half
    });
    half.into_iter().chain((0..n).rev().map(move |i| {
        let mut one = session.clone();
        lines(&mut one).remove(i);
        one
    }))
}

fn shrink_into(session: &PlainSession, out: &mut Vec<PlainSession>) {
    let full = |out: &Vec<PlainSession>| out.len() >= super::shrink::BUDGET;
    for mut one in fewer_lines(session, session.lines.len(), |s| &mut s.lines) {
        if full(out) {
            return;
        }
        if one.lines.is_empty() {
            one.unterminated = false;
        }
        out.push(one);
    }
    for i in (0..session.files.len()).rev() {
        let mut one = session.clone();
        one.files.remove(i);
        out.push(one);
    }
    for i in (0..session.args.len()).rev() {
        let mut one = session.clone();
        one.args.remove(i);
        out.push(one);
    }
    for (i, arg) in session.args.iter().enumerate() {
        if let Some(short) = shorter_number(arg.as_bytes()) {
            let mut one = session.clone();
            one.args[i] = String::from_utf8_lossy(&short).into_owned();
            out.push(one);
        }
    }
    for (i, line) in session.lines.iter().enumerate() {
        if full(out) {
            return;
        }
        if let Some(short) = shorter_number(&line.bytes) {
            let mut one = session.clone();
            one.lines[i].bytes = short;
            out.push(one);
        }
    }
    for (i, file) in session.files.iter().enumerate() {
        if let Some(short) = shorter_number(&file.bytes) {
            let mut one = session.clone();
            one.files[i].bytes = short;
            out.push(one);
        }
    }
    if session.unterminated {
        let mut ended = session.clone();
        ended.unterminated = false;
        out.push(ended);
    }
}

/// `bytes` with its first number above 1 made smaller: a digit shorter
/// (`1234` → `123`), or a single digit one less (`8` → `7`), if it has one.
pub fn shorter_number(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let end = bytes[i..]
                .iter()
                .position(|b| !b.is_ascii_digit())
                .map_or(bytes.len(), |p| i + p);
            let mut short = bytes.to_vec();
            if end - i >= 2 {
                short.remove(end - 1);
                return Some(short);
            }
            if bytes[i] > b'1' {
                short[i] -= 1;
                return Some(short);
            }
            i = end;
        } else {
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        Line {
            bytes: text.as_bytes().to_vec(),
            source: Source::Line(0),
        }
    }

    #[test]
    fn a_probe_joins_lines_and_honours_an_unterminated_end() {
        let mut s = PlainSession {
            args: vec!["3".to_owned()],
            lines: vec![line("a"), line("b")],
            ..PlainSession::default()
        };
        assert_eq!(s.probe().stdin, b"a\nb\n");
        s.unterminated = true;
        assert_eq!(s.probe().stdin, b"a\nb");
        assert_eq!(s.probe().args, ["3"]);
    }

    #[test]
    fn shrinking_proposes_smaller_sessions_only() {
        let s = PlainSession {
            args: vec!["1000".to_owned(), "x".to_owned()],
            files: vec![File {
                path: "f".to_owned(),
                bytes: b"12 5\n".to_vec(),
                source: Source::File(0),
            }],
            lines: vec![line("10 20"), line("q"), line("q")],
            unterminated: true,
            ..PlainSession::default()
        };
        let size = |s: &PlainSession| {
            s.args.iter().map(String::len).sum::<usize>()
                + s.files.iter().map(|f| f.bytes.len() + 1).sum::<usize>()
                + s.probe().stdin.len()
        };
        let smaller = shrink(&s);
        assert_eq!(smaller[0].lines.len(), 1, "half the lines first");
        for c in &smaller {
            assert!(c != &s);
            assert!(
                size(c) < size(&s) || (!c.unterminated && s.unterminated),
                "{c:?}"
            );
        }
        assert!(smaller.iter().any(|c| c.args[0] == "100"));
        assert!(
            smaller
                .iter()
                .any(|c| c.files.first().is_some_and(|f| f.bytes == b"1 5\n"))
        );
    }

    #[test]
    fn numbers_shorten_by_a_digit() {
        assert_eq!(shorter_number(b"a 1 123"), Some(b"a 1 12".to_vec()));
        assert_eq!(shorter_number(b"a 5 123"), Some(b"a 4 123".to_vec()));
        assert_eq!(shorter_number(b"1 x 0"), None);
    }

    #[test]
    fn damage_changes_a_line() {
        let mut rng = SplitMix64::new(1);
        for _ in 0..100 {
            let mut b = b"A B".to_vec();
            damage(&mut b, &mut rng);
            assert_ne!(b, b"A B");
        }
        let mut empty = Vec::new();
        damage(&mut empty, &mut rng);
        assert_eq!(empty.len(), 1);
    }
}
