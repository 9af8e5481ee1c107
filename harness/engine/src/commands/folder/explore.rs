//! The explorer `diff` uses for a folder pack without a grammar: sessions
//! derived from the pack's own cases. Each session starts from one case
//! (its arguments, stdin lines and files) and varies it a few times:
//! numbers set to zero, negatives, their neighbours, boundaries seen
//! elsewhere in the suite and large values; stdin lines dropped, repeated,
//! swapped, spliced from another case of its category or damaged byte by
//! byte; arguments dropped, repeated or swapped. A mismatch is shrunk by
//! dropping lines and arguments and shortening numbers, and classified by
//! the category and rules of the case it came from.

use std::collections::BTreeSet;

use crate::commands::diff::explore::{Classification, Explorer, Label, Probe};
use crate::model::rng::SplitMix64;
use crate::model::schema::Case;
use crate::model::suite::{CaseFile, Root};

/// Variations applied to a case for one session, at most.
const MAX_STEPS: usize = 4;
/// Stdin lines a session holds at most (repeating and splicing stop there).
const MAX_LINES: usize = 2000;
/// Shrink candidates proposed for one session at most.
const MAX_CANDIDATES: usize = 400;

/// One case of the suite as sessions start from it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seed {
    args: Vec<String>,
    lines: Vec<Vec<u8>>,
    newline_end: bool,
    files: Vec<(String, Vec<u8>)>,
    category: String,
    rules: BTreeSet<String>,
    ambiguous: bool,
}

/// A session: a case's inputs, varied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The index of the case it started from.
    pub(super) seed: usize,
    pub(super) args: Vec<String>,
    pub(super) lines: Vec<Vec<u8>>,
    /// Whether the last stdin line ends with a newline.
    pub(super) newline_end: bool,
    pub(super) files: Vec<(String, Vec<u8>)>,
}

impl Session {
    /// The run the session describes.
    pub(super) fn probe(&self) -> Probe {
        let mut stdin = self.lines.join(&b'\n');
        if self.newline_end && !self.lines.is_empty() {
            stdin.push(b'\n');
        }
        Probe {
            args: self.args.clone(),
            stdin,
            files: self.files.clone(),
        }
    }

    /// Smaller sessions: halves of the stdin, then single lines from the
    /// end, then arguments dropped, then numbers shortened.
    pub(super) fn shrink(&self) -> Vec<Session> {
        let mut out = Vec::new();
        let lines = self.lines.len();
        if lines >= 2 {
            for (from, to) in [(lines / 2, lines), (0, lines / 2)] {
                let mut s = self.clone();
                s.lines.drain(from..to);
                out.push(s);
            }
        }
        for i in (0..lines).rev() {
            let mut s = self.clone();
            s.lines.remove(i);
            out.push(s);
        }
        for i in (0..self.args.len()).rev() {
            let mut s = self.clone();
            s.args.remove(i);
            out.push(s);
        }
        for i in 0..lines {
            for new in shorter_numbers(&self.lines[i]) {
                let mut s = self.clone();
                s.lines[i] = new;
                out.push(s);
            }
        }
        for i in 0..self.args.len() {
            for new in shorter_numbers(self.args[i].as_bytes()) {
                let mut s = self.clone();
                s.args[i] = String::from_utf8_lossy(&new).into_owned();
                out.push(s);
            }
        }
        out.truncate(MAX_CANDIDATES);
        out
    }
}

/// The explorer derived from a suite's cases.
#[derive(Debug, Clone, Default)]
pub struct Derived {
    seeds: Vec<Seed>,
    /// Every number the suite's inputs hold, and its neighbours: the
    /// boundaries a session tries.
    numbers: Vec<i64>,
}

impl Derived {
    /// The explorer for every case of `root` that runs once with expected
    /// bytes (conversation cases and unreadable ones are left out: a run
    /// of the suite reports those).
    pub fn from_suite(root: &Root) -> Self {
        let mut seeds = Vec::new();
        for rel in root.case_files().unwrap_or_default() {
            let file = CaseFile {
                root: root.clone(),
                rel,
            };
            if let Some(seed) = seed_of(&file) {
                seeds.push(seed);
            }
        }
        let mut numbers = BTreeSet::new();
        for seed in &seeds {
            let texts = seed
                .args
                .iter()
                .map(String::as_bytes)
                .chain(seed.lines.iter().map(Vec::as_slice));
            for text in texts {
                for (start, end) in number_spans(text) {
                    if let Some(n) = parse(&text[start..end]) {
                        numbers.extend([n.saturating_sub(1), n, n.saturating_add(1)]);
                    }
                }
            }
        }
        Self {
            seeds,
            numbers: numbers.into_iter().collect(),
        }
    }

    /// Whether no case can start a session.
    pub fn is_empty(&self) -> bool {
        self.seeds.is_empty()
    }

    fn session_of(&self, index: usize) -> Session {
        self.seeds.get(index).map_or_else(
            || Session {
                seed: 0,
                args: Vec::new(),
                lines: Vec::new(),
                newline_end: true,
                files: Vec::new(),
            },
            |s| Session {
                seed: index,
                args: s.args.clone(),
                lines: s.lines.clone(),
                newline_end: s.newline_end,
                files: s.files.clone(),
            },
        )
    }

    /// A value to put in place of `n`.
    fn number_for(&self, n: i64, digits: &[u8], rng: &mut SplitMix64) -> Vec<u8> {
        let choice = rng.below(12);
        let value = match choice {
            0 => 0,
            1 => -1,
            2 => n.saturating_neg(),
            3 => n.saturating_sub(1),
            4 => n.saturating_add(1),
            5 => n.saturating_mul(10),
            6 => i64::from(i32::MAX) + 1,
            7 => 99_999_999_999,
            8 => {
                // Leading zeros: the same value, written longer.
                let mut text = b"0".to_vec();
                text.extend_from_slice(digits);
                return text;
            }
            9 => return b"1e3".to_vec(),
            _ => match self.numbers.get(rng.below(self.numbers.len())) {
                Some(&b) => b,
                None => 1,
            },
        };
        value.to_string().into_bytes()
    }

    /// One variation of `session`.
    fn vary(&self, session: &mut Session, rng: &mut SplitMix64) {
        let lines = session.lines.len();
        match rng.below(13) {
            0 | 1 => {
                if let Some(i) = pick(rng, lines) {
                    let line = session.lines[i].clone();
                    if let Some(new) = self.renumber(&line, rng) {
                        session.lines[i] = new;
                    }
                }
            }
            2 | 3 => {
                if let Some(i) = pick(rng, session.args.len()) {
                    let arg = session.args[i].clone().into_bytes();
                    if let Some(new) = self.renumber(&arg, rng) {
                        session.args[i] = String::from_utf8_lossy(&new).into_owned();
                    }
                }
            }
            4 => {
                if let Some(i) = pick(rng, lines) {
                    session.lines.remove(i);
                }
            }
            5 => {
                if let Some(i) = pick(rng, lines).filter(|_| lines < MAX_LINES) {
                    let line = session.lines[i].clone();
                    session.lines.insert(i, line);
                }
            }
            6 => {
                if lines >= 2 {
                    let i = rng.below(lines - 1);
                    session.lines.swap(i, i + 1);
                }
            }
            7 | 8 => {
                if let Some(i) = pick(rng, lines) {
                    damage(&mut session.lines[i], rng);
                }
            }
            9 => {
                // Lines of another case of the same category, spliced in.
                let category = self.seeds.get(session.seed).map(|s| &s.category);
                let others: Vec<&Seed> = self
                    .seeds
                    .iter()
                    .filter(|s| Some(&s.category) == category && !s.lines.is_empty())
                    .collect();
                if let Some(other) = others.get(rng.below(others.len())) {
                    let from = rng.below(other.lines.len());
                    let at = rng.between(0, lines);
                    let take = (other.lines.len() - from).min(MAX_LINES.saturating_sub(lines));
                    let spliced = other.lines[from..from + take].iter().cloned();
                    session.lines.splice(at..at, spliced);
                }
            }
            10 => {
                if let Some(i) = pick(rng, session.args.len()) {
                    if rng.below(2) == 0 {
                        session.args.remove(i);
                    } else {
                        let arg = session.args[i].clone();
                        session.args.insert(i, arg);
                    }
                }
            }
            11 => {
                if session.args.len() >= 2 {
                    let i = rng.below(session.args.len() - 1);
                    session.args.swap(i, i + 1);
                }
            }
            _ => {
                // A file's line varied like a stdin line.
                if let Some(f) = pick(rng, session.files.len()) {
                    let mut flines: Vec<Vec<u8>> = session.files[f]
                        .1
                        .split(|&b| b == b'\n')
                        .map(<[u8]>::to_vec)
                        .collect();
                    if let Some(i) = pick(rng, flines.len()) {
                        match rng.below(3) {
                            0 => {
                                flines.remove(i);
                            }
                            1 => damage(&mut flines[i], rng),
                            _ => {
                                if let Some(new) = self.renumber(&flines[i], rng) {
                                    flines[i] = new;
                                }
                            }
                        }
                        session.files[f].1 = flines.join(&b'\n');
                    }
                }
            }
        }
    }

    /// `text` with one of its numbers replaced, if it holds one.
    fn renumber(&self, text: &[u8], rng: &mut SplitMix64) -> Option<Vec<u8>> {
        let spans = number_spans(text);
        let &(start, end) = spans.get(rng.below(spans.len()))?;
        let n = parse(&text[start..end]).unwrap_or(0);
        let digits = text[start..end]
            .strip_prefix(b"-")
            .unwrap_or(&text[start..end]);
        let mut out = text[..start].to_vec();
        out.extend(self.number_for(n, digits, rng));
        out.extend_from_slice(&text[end..]);
        Some(out)
    }
}

/// A uniform index below `n`, or `None` when there is none.
fn pick(rng: &mut SplitMix64, n: usize) -> Option<usize> {
    (n > 0).then(|| rng.below(n))
}

/// One byte-level damage of a line: a byte dropped, changed or added, the
/// line cut short, or padded with spaces.
pub(super) fn damage(line: &mut Vec<u8>, rng: &mut SplitMix64) {
    const BYTES: &[u8] = b" \t,-+0123456789abcdefxyzXYZ.;:#\r";
    let byte = BYTES[rng.below(BYTES.len())];
    let at = rng.between(0, line.len());
    match rng.below(5) {
        0 if at < line.len() => {
            line.remove(at);
        }
        1 if at < line.len() => line[at] = byte,
        2 => line.truncate(at),
        3 => {
            line.insert(0, b' ');
            line.push(b' ');
        }
        _ => line.insert(at, byte),
    }
}

/// Where the integers of `text` are: runs of ASCII digits, with a `-`
/// just before them.
fn number_spans(text: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_digit() {
            let start = if i > 0 && text[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            let mut end = i;
            while end < text.len() && text[end].is_ascii_digit() {
                end += 1;
            }
            spans.push((start, end));
            i = end;
        } else {
            i += 1;
        }
    }
    spans
}

fn parse(text: &[u8]) -> Option<i64> {
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// The seed a case file gives, if it runs once with expected bytes.
fn seed_of(file: &CaseFile) -> Option<Seed> {
    let case: Case = crate::model::case::load(file).ok()?;
    if case.script.is_some() {
        return None;
    }
    let stdin = crate::model::case::stdin(&case, file).ok()?;
    let files = case
        .files
        .iter()
        .map(|f| crate::model::case::file_entry(file, "files", f))
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    let newline_end = stdin.is_empty() || stdin.ends_with(b"\n");
    let body = stdin.strip_suffix(b"\n").unwrap_or(&stdin);
    let lines = if stdin.is_empty() {
        Vec::new()
    } else {
        body.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
    };
    Some(Seed {
        args: case.args,
        lines,
        newline_end,
        files,
        ambiguous: case.tags.iter().any(|t| t == "ambiguous"),
        category: case.category,
        rules: case.rules.into_iter().collect(),
    })
}

impl Explorer for Derived {
    type Session = Session;

    fn generate(&self, seed: u64, index: u64, ambiguous: bool) -> Session {
        let mut rng = SplitMix64::new(seed).fork(index);
        let starts: Vec<usize> = (0..self.seeds.len())
            .filter(|&i| ambiguous || !self.seeds[i].ambiguous)
            .collect();
        let start = starts
            .get(rng.below(starts.len()))
            .copied()
            .unwrap_or_default();
        let mut session = self.session_of(start);
        for _ in 0..rng.between(1, MAX_STEPS) {
            self.vary(&mut session, &mut rng);
        }
        session
    }

    fn probe(&self, session: &Session) -> Probe {
        session.probe()
    }

    fn shrink(&self, session: &Session) -> Vec<Session> {
        session.shrink()
    }

    fn classify(&self, session: &Session, _status: u8) -> Classification {
        let seed = self.seeds.get(session.seed);
        Classification {
            category: seed.map(|s| s.category.clone()).unwrap_or_default(),
            rules: seed.map(|s| s.rules.clone()).unwrap_or_default(),
        }
    }

    fn labels(&self, session: &Session) -> Vec<Label> {
        self.seeds
            .get(session.seed)
            .filter(|s| s.ambiguous)
            .and_then(|s| s.rules.iter().next())
            .map(|rule| Label {
                name: "ambiguous".to_owned(),
                rule: rule.clone(),
            })
            .into_iter()
            .collect()
    }
}

/// `text` with one number shortened each: its last digit dropped, or the
/// number replaced by 0 or 1.
fn shorter_numbers(text: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for (start, end) in number_spans(text) {
        let number = &text[start..end];
        let mut replace = |with: &[u8]| {
            if with != number {
                let mut t = text[..start].to_vec();
                t.extend_from_slice(with);
                t.extend_from_slice(&text[end..]);
                out.push(t);
            }
        };
        let digits = number.iter().filter(|b| b.is_ascii_digit()).count();
        if digits > 1 {
            replace(&number[..number.len() - 1]);
        }
        replace(b"0");
        replace(b"1");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn derived() -> Derived {
        Derived {
            seeds: vec![Seed {
                args: vec!["h".into(), "10".into(), "20".into()],
                lines: vec![b"3 4".to_vec(), b"save x".to_vec()],
                newline_end: true,
                files: vec![("f".into(), b"1 2\n".to_vec())],
                category: "play".into(),
                rules: ["PLAY-1".to_owned()].into_iter().collect(),
                ambiguous: false,
            }],
            numbers: vec![0, 10, 20],
        }
    }

    #[test]
    fn numbers_are_found_with_their_sign() {
        assert_eq!(number_spans(b"a -12 b3"), vec![(2, 5), (7, 8)]);
        assert_eq!(number_spans(b"none"), vec![]);
    }

    #[test]
    fn sessions_are_the_same_for_the_same_seed_and_vary_the_case() {
        let d = derived();
        let a: Vec<Session> = (0..50).map(|i| d.generate(7, i, false)).collect();
        let b: Vec<Session> = (0..50).map(|i| d.generate(7, i, false)).collect();
        assert_eq!(a, b);
        let original = d.session_of(0);
        assert!(a.iter().any(|s| *s != original));
        assert!(a.iter().any(|s| s.args != original.args));
        assert!(a.iter().any(|s| s.lines != original.lines));
    }

    #[test]
    fn the_probe_writes_lines_back() {
        let d = derived();
        let p = d.probe(&d.session_of(0));
        assert_eq!(p.stdin, b"3 4\nsave x\n");
        assert_eq!(p.args, ["h", "10", "20"]);
    }

    #[test]
    fn shrinking_drops_lines_and_arguments_and_shortens_numbers() {
        let d = derived();
        let s = d.session_of(0);
        let c = d.shrink(&s);
        assert!(c.iter().any(|x| x.lines == [b"3 4".to_vec()]));
        assert!(c.iter().any(|x| x.args == ["h", "10"]));
        assert!(c.iter().any(|x| x.args == ["h", "1", "20"]));
        assert!(c.iter().all(|x| *x != s));
    }

    #[test]
    fn a_session_is_classified_by_its_case() {
        let d = derived();
        let c = d.classify(&d.generate(1, 1, false), 0);
        assert_eq!(c.category, "play");
        assert!(c.rules.contains("PLAY-1"));
    }
}
