//! The explorer `diff` uses for a folder pack without a grammar: sessions
//! derived from the pack's own cases. Each session starts from one case
//! (its arguments, stdin lines and files, as a [`PlainSession`] whose
//! argument list's source is [`Source::Case`]) and varies it a few times:
//! numbers set to zero, negatives, their neighbours, boundaries seen
//! elsewhere in the suite and large values; stdin lines dropped, repeated,
//! swapped, spliced from another case of its category or damaged byte by
//! byte ([`plain::damage`]); arguments dropped, repeated or swapped. A
//! mismatch is shrunk as any plain session is ([`plain::shrink`]: every
//! candidate strictly smaller) and classified by the category and rules of
//! the case it came from.
//!
//! One piece: the derived explorer: the seeds read from a pack's cases,
//! the variations drawn from them and the `Explorer` that classifies by
//! the seed's case are one explorer over the same `Seed`; about 125
//! lines are tests.

use std::collections::BTreeSet;

use crate::explorer::explore::{Classification, Explorer, Label, Probe};
use crate::explorer::plain::{self, Line, PlainSession, Source};
use crate::explorer::template::uniform;
use crate::model::rng::SplitMix64;
use crate::model::schema::Case;
use crate::model::suite::{CaseFile, Root};

/// Variations applied to a case for one session, at most.
const MAX_STEPS: usize = 4;
/// Stdin lines a session holds at most (repeating and splicing stop there).
const MAX_LINES: usize = 2000;

/// One case of the suite as sessions start from it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seed {
    /// Its inputs, every part's source the case.
    session: PlainSession,
    category: String,
    rules: BTreeSet<String>,
    ambiguous: bool,
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
            if let Some(seed) = seed_of(&file, seeds.len()) {
                seeds.push(seed);
            }
        }
        let mut numbers = BTreeSet::new();
        for seed in &seeds {
            let texts = seed
                .session
                .args
                .iter()
                .map(String::as_bytes)
                .chain(seed.session.lines.iter().map(|l| l.bytes.as_slice()));
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

    /// How many cases can start a session.
    pub fn len(&self) -> usize {
        self.seeds.len()
    }

    /// The session of case `index` (in the suite's order) as it is.
    pub fn case_session(&self, index: usize) -> PlainSession {
        self.session_of(index)
    }

    /// A session started from one of the cases `starts` and varied.
    pub fn varied_from(&self, starts: &[usize], rng: &mut SplitMix64) -> PlainSession {
        let start = uniform(starts.len(), rng).map_or(0, |i| starts[i]);
        let mut session = self.session_of(start);
        for _ in 0..rng.between(1, MAX_STEPS) {
            self.vary(&mut session, rng);
        }
        session
    }

    fn session_of(&self, index: usize) -> PlainSession {
        self.seeds
            .get(index)
            .map(|s| s.session.clone())
            .unwrap_or_default()
    }

    /// The case `session` started from.
    fn seed(&self, session: &PlainSession) -> Option<&Seed> {
        match session.argv_source {
            Source::Case(i) => self.seeds.get(i),
            _ => None,
        }
    }

    /// A value to put in place of `number` (its text, sign included).
    fn number_for(&self, number: &[u8], rng: &mut SplitMix64) -> Vec<u8> {
        let n = parse(number).unwrap_or(0);
        let value = match rng.below(12) {
            0 => 0,
            1 => -1,
            2 => n.saturating_neg(),
            3 => n.saturating_sub(1),
            4 => n.saturating_add(1),
            5 => n.saturating_mul(10),
            6 => i64::from(i32::MAX) + 1,
            7 => 99_999_999_999,
            8 => {
                // Leading zeros: the same value, written longer, its sign
                // kept.
                let (sign, digits) = match number.strip_prefix(b"-") {
                    Some(digits) => (&b"-"[..], digits),
                    None => (&b""[..], number),
                };
                return [sign, b"0", digits].concat();
            }
            9 => return b"1e3".to_vec(),
            _ => uniform(self.numbers.len(), rng).map_or(1, |i| self.numbers[i]),
        };
        value.to_string().into_bytes()
    }

    /// One variation of `session`.
    fn vary(&self, session: &mut PlainSession, rng: &mut SplitMix64) {
        let lines = session.lines.len();
        match rng.below(13) {
            0 | 1 => {
                if let Some(i) = uniform(lines, rng)
                    && let Some(new) = self.renumber(&session.lines[i].bytes, rng)
                {
                    session.lines[i].bytes = new;
                }
            }
            2 | 3 => {
                if let Some(i) = uniform(session.args.len(), rng)
                    && let Some(new) = self.renumber(session.args[i].as_bytes(), rng)
                {
                    session.args[i] = String::from_utf8_lossy(&new).into_owned();
                }
            }
            4 => {
                if let Some(i) = uniform(lines, rng) {
                    session.lines.remove(i);
                }
            }
            5 => {
                if let Some(i) = uniform(lines, rng).filter(|_| lines < MAX_LINES) {
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
                if let Some(i) = uniform(lines, rng) {
                    plain::damage(&mut session.lines[i].bytes, rng);
                }
            }
            9 => self.splice(session, rng),
            10 => {
                if let Some(i) = uniform(session.args.len(), rng) {
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
            _ => self.vary_file(session, rng),
        }
        if session.lines.is_empty() {
            session.unterminated = false;
        }
    }

    /// Lines of another case of the same category, spliced in.
    fn splice(&self, session: &mut PlainSession, rng: &mut SplitMix64) {
        let lines = session.lines.len();
        let category = self.seed(session).map(|s| &s.category);
        let others: Vec<&Seed> = self
            .seeds
            .iter()
            .filter(|s| Some(&s.category) == category && !s.session.lines.is_empty())
            .collect();
        if let Some(other) = uniform(others.len(), rng).map(|i| &others[i].session.lines) {
            let from = rng.below(other.len());
            let at = rng.between(0, lines);
            let take = (other.len() - from).min(MAX_LINES.saturating_sub(lines));
            let spliced = other[from..from + take].iter().cloned();
            session.lines.splice(at..at, spliced);
        }
    }

    /// A file's line varied like a stdin line.
    fn vary_file(&self, session: &mut PlainSession, rng: &mut SplitMix64) {
        let Some(f) = uniform(session.files.len(), rng) else {
            return;
        };
        let file = &mut session.files[f];
        let mut flines: Vec<Vec<u8>> = file
            .bytes
            .split(|&b| b == b'\n')
            .map(<[u8]>::to_vec)
            .collect();
        if let Some(i) = uniform(flines.len(), rng) {
            match rng.below(3) {
                0 => {
                    flines.remove(i);
                }
                1 => plain::damage(&mut flines[i], rng),
                _ => {
                    if let Some(new) = self.renumber(&flines[i], rng) {
                        flines[i] = new;
                    }
                }
            }
            file.bytes = flines.join(&b'\n');
        }
    }

    /// `text` with one of its numbers replaced, if it holds one.
    fn renumber(&self, text: &[u8], rng: &mut SplitMix64) -> Option<Vec<u8>> {
        let spans = number_spans(text);
        let (start, end) = spans[uniform(spans.len(), rng)?];
        let mut out = text[..start].to_vec();
        out.extend(self.number_for(&text[start..end], rng));
        out.extend_from_slice(&text[end..]);
        Some(out)
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

/// The seed a case file gives, if it runs once with expected bytes; its
/// parts' source is case number `index`.
fn seed_of(file: &CaseFile, index: usize) -> Option<Seed> {
    let case: Case = crate::model::case::load(file).ok()?;
    if case.script.is_some() {
        return None;
    }
    let source = Source::Case(index);
    let stdin = crate::model::case::stdin(&case, file).ok()?;
    let files = case
        .files
        .iter()
        .map(|f| {
            crate::model::case::file_entry(file, "files", f).map(|(path, bytes)| plain::File {
                path,
                bytes,
                source,
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    let body = stdin.strip_suffix(b"\n").unwrap_or(&stdin);
    let lines = if stdin.is_empty() {
        Vec::new()
    } else {
        body.split(|&b| b == b'\n')
            .map(|l| Line {
                bytes: l.to_vec(),
                source,
            })
            .collect()
    };
    Some(Seed {
        session: PlainSession {
            args: case.args,
            argv_source: source,
            files,
            lines,
            unterminated: !stdin.is_empty() && !stdin.ends_with(b"\n"),
        },
        ambiguous: case.tags.iter().any(|t| t == "ambiguous"),
        category: case.category,
        rules: case.rules.into_iter().collect(),
    })
}

impl Explorer for Derived {
    type Session = PlainSession;

    fn generate(&self, seed: u64, index: u64, ambiguous: bool) -> PlainSession {
        let mut rng = SplitMix64::new(seed).fork(index);
        let starts: Vec<usize> = (0..self.seeds.len())
            .filter(|&i| ambiguous || !self.seeds[i].ambiguous)
            .collect();
        self.varied_from(&starts, &mut rng)
    }

    fn probe(&self, session: &PlainSession) -> Probe {
        session.probe()
    }

    fn shrink(&self, session: &PlainSession) -> Vec<PlainSession> {
        plain::shrink(session)
    }

    fn classify(&self, session: &PlainSession, _status: u8) -> Classification {
        let seed = self.seed(session);
        Classification {
            category: seed.map(|s| s.category.clone()).unwrap_or_default(),
            rules: seed.map(|s| s.rules.clone()).unwrap_or_default(),
        }
    }

    fn labels(&self, session: &PlainSession) -> Vec<Label> {
        self.seed(session)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn derived() -> Derived {
        Derived {
            seeds: vec![Seed {
                session: PlainSession {
                    args: vec!["h".into(), "10".into(), "20".into()],
                    argv_source: Source::Case(0),
                    lines: [&b"3 4"[..], b"save x"]
                        .map(|b| Line {
                            bytes: b.to_vec(),
                            source: Source::Case(0),
                        })
                        .to_vec(),
                    unterminated: false,
                    files: vec![plain::File {
                        path: "f".into(),
                        bytes: b"1 2\n".to_vec(),
                        source: Source::Case(0),
                    }],
                },
                category: "play".into(),
                rules: ["PLAY-1".to_owned()].into_iter().collect(),
                ambiguous: false,
            }],
            numbers: vec![0, 10, 20],
        }
    }

    #[test]
    fn a_number_written_longer_keeps_its_sign() {
        let d = derived();
        let mut rng = SplitMix64::new(5);
        let drawn: BTreeSet<Vec<u8>> = (0..500).map(|_| d.number_for(b"-5", &mut rng)).collect();
        assert!(drawn.contains(&b"-05"[..]), "{drawn:?}");
        assert!(!drawn.contains(&b"05"[..]), "{drawn:?}");
    }

    #[test]
    fn numbers_are_found_with_their_sign() {
        assert_eq!(number_spans(b"a -12 b3"), vec![(2, 5), (7, 8)]);
        assert_eq!(number_spans(b"none"), vec![]);
    }

    #[test]
    fn sessions_are_the_same_for_the_same_seed_and_vary_the_case() {
        let d = derived();
        let a: Vec<PlainSession> = (0..50).map(|i| d.generate(7, i, false)).collect();
        let b: Vec<PlainSession> = (0..50).map(|i| d.generate(7, i, false)).collect();
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
        assert!(
            c.iter()
                .any(|x| x.lines.len() == 1 && x.lines[0].bytes == b"3 4")
        );
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

    /// How big a session's run is: its bytes, then the sum of its digits
    /// (a digit one less is smaller too). Strictly decreasing, it cannot
    /// decrease forever.
    fn size(p: &Probe) -> (usize, usize) {
        let texts = p
            .args
            .iter()
            .map(String::as_bytes)
            .chain([p.stdin.as_slice()])
            .chain(p.files.iter().flat_map(|(path, b)| [path.as_bytes(), b]));
        texts.fold((0, 0), |(bytes, digits), t| {
            let sum = t
                .iter()
                .filter(|b| b.is_ascii_digit())
                .map(|b| usize::from(b - b'0'))
                .sum::<usize>();
            (bytes + t.len() + 1, digits + sum)
        })
    }

    #[test]
    fn every_shrink_candidate_is_strictly_smaller() {
        let d = derived();
        let mut s = d.session_of(0);
        // Shrinking towards the last candidate (numbers made smaller) ends.
        for _ in 0..100 {
            let candidates = d.shrink(&s);
            let Some(last) = candidates.last() else {
                return;
            };
            for c in &candidates {
                assert!(size(&d.probe(c)) < size(&d.probe(&s)), "{c:?} from {s:?}");
            }
            s = last.clone();
        }
        panic!("shrinking never ends: {s:?}");
    }
}
