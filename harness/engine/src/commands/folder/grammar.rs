//! `explore.yaml`: the grammar a folder pack may give `diff` instead of
//! the sessions derived from its cases. It says how to make each part of
//! a session: the arguments (one generator per position), the stdin lines
//! (how many, each from one of the generators, some damaged byte by
//! byte), and input files from templates. A generator is a choice among
//! strings, an integer range, or a template whose `{int:LO..HI}` and
//! `{choice:A|B}` slots are filled at random. Mismatches shrink as the
//! derived sessions do, and go into the category and rules it names.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::explore::{Session, damage};
use crate::commands::diff::explore::{Classification, Explorer, Label, Probe};
use crate::model::rng::SplitMix64;
use crate::model::schema::{self, ParseError};

/// The file's name inside a pack folder.
pub const FILE: &str = "explore.yaml";

/// Stdin lines a session may hold at most.
const MAX_LINES: u64 = 10_000;

/// A parsed `explore.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grammar {
    /// The `suite.yaml` category the cases `diff` writes go into.
    pub category: String,
    /// The rule IDs they cite.
    #[serde(default)]
    pub rules: Vec<String>,
    /// One generator per argument position.
    #[serde(default)]
    pub args: Vec<Generator>,
    /// The stdin lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdin: Option<Stdin>,
    /// Input files placed in the case folder.
    #[serde(default)]
    pub files: Vec<FileTemplate>,
}

/// How the stdin lines of a session are made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stdin {
    /// How many lines: `[LO, HI]`, inclusive.
    pub lines: [u64; 2],
    /// The generators a line is made from, one picked per line.
    pub line: Vec<Generator>,
    /// In a hundred lines, how many are damaged byte by byte (0 to 100).
    #[serde(default)]
    pub damage: u8,
}

/// An input file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileTemplate {
    /// Its path in the case folder.
    pub path: String,
    /// Its bytes, a template.
    pub template: String,
}

/// One way to make a string; written as a map with one key
/// (`{choice: [a, b]}`, `{int: [1, 9]}`, `{template: "..."}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "GeneratorKeys", into = "GeneratorKeys")]
pub enum Generator {
    /// One of these strings.
    Choice(Vec<String>),
    /// An integer in `[LO, HI]`.
    Int([i64; 2]),
    /// A template: `{int:LO..HI}` and `{choice:A|B}` filled in.
    Template(String),
}

/// A generator as written: exactly one of its keys.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GeneratorKeys {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    choice: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    int: Option<[i64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    template: Option<String>,
}

impl TryFrom<GeneratorKeys> for Generator {
    type Error = String;

    fn try_from(k: GeneratorKeys) -> Result<Self, String> {
        match (k.choice, k.int, k.template) {
            (Some(c), None, None) => Ok(Self::Choice(c)),
            (None, Some(i), None) => Ok(Self::Int(i)),
            (None, None, Some(t)) => Ok(Self::Template(t)),
            _ => Err("expected exactly one of `choice`, `int`, `template`".to_owned()),
        }
    }
}

impl From<Generator> for GeneratorKeys {
    fn from(g: Generator) -> Self {
        match g {
            Generator::Choice(c) => Self {
                choice: Some(c),
                ..Self::default()
            },
            Generator::Int(i) => Self {
                int: Some(i),
                ..Self::default()
            },
            Generator::Template(t) => Self {
                template: Some(t),
                ..Self::default()
            },
        }
    }
}

/// Parses `explore.yaml` (shown as `file`), checking what serde cannot:
/// ranges in order, choices not empty, templates whose slots parse.
pub fn parse(file: &str, bytes: &[u8]) -> Result<Grammar, ParseError> {
    let grammar: Grammar = schema::parse(file, bytes)?;
    let fail = |message: String| ParseError {
        file: file.to_owned(),
        location: None,
        message,
    };
    let mut generators: Vec<&Generator> = grammar.args.iter().collect();
    if let Some(stdin) = &grammar.stdin {
        let [lo, hi] = stdin.lines;
        if lo > hi || hi > MAX_LINES {
            return Err(fail(format!(
                "stdin: lines: expected [LO, HI] with LO <= HI <= {MAX_LINES}, not [{lo}, {hi}]"
            )));
        }
        if stdin.line.is_empty() && hi > 0 {
            return Err(fail(
                "stdin: line: expected at least one generator".to_owned(),
            ));
        }
        if stdin.damage > 100 {
            return Err(fail(
                "stdin: damage: expected 0 to 100 (lines in a hundred)".to_owned(),
            ));
        }
        generators.extend(&stdin.line);
    }
    for g in generators {
        check(g).map_err(fail)?;
    }
    for f in &grammar.files {
        template(&f.template, &mut SplitMix64::new(0))
            .map_err(|e| fail(format!("files: {}: {e}", f.path)))?;
    }
    Ok(grammar)
}

fn check(g: &Generator) -> Result<(), String> {
    match g {
        Generator::Choice(c) if c.is_empty() => Err("choice: expected at least one string".into()),
        Generator::Int([lo, hi]) if lo > hi => Err(format!(
            "int: expected [LO, HI] with LO <= HI, not [{lo}, {hi}]"
        )),
        Generator::Template(t) => template(t, &mut SplitMix64::new(0)).map(drop),
        _ => Ok(()),
    }
}

/// An integer in `[lo, hi]`.
fn int_in(lo: i64, hi: i64, rng: &mut SplitMix64) -> i64 {
    let span = u64::try_from(i128::from(hi) - i128::from(lo)).unwrap_or(u64::MAX);
    let offset = if span == u64::MAX {
        rng.next_u64()
    } else {
        rng.next_u64() % (span + 1)
    };
    i64::try_from(i128::from(lo) + i128::from(offset)).unwrap_or(hi)
}

/// `text` with its slots filled; an error names a slot that does not parse.
fn template(text: &str, rng: &mut SplitMix64) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("template `{text}`: a `{{` without its `}}`"))?;
        let slot = &after[..close];
        if let Some(range) = slot.strip_prefix("int:") {
            let (lo, hi) = range
                .split_once("..")
                .and_then(|(a, b)| {
                    Some((a.trim().parse::<i64>().ok()?, b.trim().parse::<i64>().ok()?))
                })
                .filter(|(a, b)| a <= b)
                .ok_or_else(|| {
                    format!("template `{text}`: `{{{slot}}}`: expected {{int:LO..HI}}")
                })?;
            out.push_str(&int_in(lo, hi, rng).to_string());
        } else if let Some(choices) = slot.strip_prefix("choice:") {
            let choices: Vec<&str> = choices.split('|').collect();
            out.push_str(choices[rng.below(choices.len())]);
        } else {
            return Err(format!(
                "template `{text}`: `{{{slot}}}`: expected {{int:LO..HI}} or {{choice:A|B}}"
            ));
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

impl Generator {
    fn make(&self, rng: &mut SplitMix64) -> String {
        match self {
            Generator::Choice(c) => c.get(rng.below(c.len())).cloned().unwrap_or_default(),
            Generator::Int([lo, hi]) => int_in(*lo, *hi, rng).to_string(),
            // Checked when the file was parsed.
            Generator::Template(t) => template(t, rng).unwrap_or_default(),
        }
    }
}

impl Explorer for Grammar {
    type Session = Session;

    fn generate(&self, seed: u64, index: u64, _ambiguous: bool) -> Session {
        let mut rng = SplitMix64::new(seed).fork(index);
        let args = self.args.iter().map(|g| g.make(&mut rng)).collect();
        let mut lines = Vec::new();
        if let Some(stdin) = &self.stdin {
            let [lo, hi] = stdin.lines;
            let n = int_in(
                i64::try_from(lo).unwrap_or(0),
                i64::try_from(hi).unwrap_or(0),
                &mut rng,
            );
            for _ in 0..n {
                let g = &stdin.line[rng.below(stdin.line.len())];
                let mut line = g.make(&mut rng).into_bytes();
                if rng.below(100) < usize::from(stdin.damage) {
                    damage(&mut line, &mut rng);
                }
                lines.push(line);
            }
        }
        let files = self
            .files
            .iter()
            .map(|f| {
                let bytes = template(&f.template, &mut rng).unwrap_or_default();
                (f.path.clone(), bytes.into_bytes())
            })
            .collect();
        Session {
            seed: 0,
            args,
            lines,
            newline_end: true,
            files,
        }
    }

    fn probe(&self, session: &Session) -> Probe {
        session.probe()
    }

    fn shrink(&self, session: &Session) -> Vec<Session> {
        session.shrink()
    }

    fn classify(&self, _session: &Session, _status: u8) -> Classification {
        Classification {
            category: self.category.clone(),
            rules: self.rules.iter().cloned().collect::<BTreeSet<_>>(),
        }
    }

    fn labels(&self, _session: &Session) -> Vec<Label> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const HANOI: &str = "category: moves\nrules: [MOVE-1]\nargs:\n  - {int: [1, 8]}\n  - \
                         {choice: [a, b]}\nstdin:\n  lines: [0, 5]\n  line:\n    - {template: \
                         \"{int:1..3} {int:1..3}\"}\n    - {choice: [q]}\n  damage: 10\nfiles:\n  \
                         - {path: start, template: \"{int:1..8}\\n\"}\n";

    #[test]
    fn sessions_follow_the_grammar() {
        let g = parse("explore.yaml", HANOI.as_bytes()).expect("parses");
        for i in 0..100 {
            let s = g.generate(3, i, false);
            assert_eq!(s, g.generate(3, i, false));
            let n: i64 = s.args[0].parse().expect("a number");
            assert!((1..=8).contains(&n));
            assert!(["a", "b"].contains(&s.args[1].as_str()));
            assert!(s.lines.len() <= 5);
            assert_eq!(s.files[0].0, "start");
        }
        assert_eq!(g.classify(&g.generate(3, 0, false), 0).category, "moves");
    }

    #[test]
    fn bad_grammars_are_refused_naming_what_was_expected() {
        let e = parse("e.yaml", b"category: c\nargs:\n  - {range: [1, 2]}\n").expect_err("refused");
        assert_eq!(e.location.map(|l| l.0), Some(3));
        let e = parse("e.yaml", b"category: c\nargs:\n  - {int: [5, 1]}\n").expect_err("refused");
        assert!(e.message.contains("LO <= HI"), "{e}");
        let e = parse(
            "e.yaml",
            b"category: c\nargs:\n  - {template: \"{num:1..2}\"}\n",
        )
        .expect_err("refused");
        assert!(e.message.contains("{int:LO..HI}"), "{e}");
        let e = parse(
            "e.yaml",
            b"category: c\nstdin:\n  lines: [0, 2]\n  line: []\n",
        )
        .expect_err("refused");
        assert!(e.message.contains("at least one"), "{e}");
    }

    proptest! {
        #[test]
        fn a_grammar_written_and_parsed_back_is_the_same(
            lo in -1000i64..1000, span in 0i64..1000, choices in proptest::collection::vec("[a-z ]{1,5}", 1..4),
            lines in 0u64..50, damage in 0u8..=100,
        ) {
            let g = Grammar {
                category: "c".into(),
                rules: vec!["R-1".into()],
                args: vec![Generator::Int([lo, lo + span]), Generator::Choice(choices.clone())],
                stdin: Some(Stdin {
                    lines: [0, lines],
                    line: vec![Generator::Template(format!("{{int:{lo}..{}}} x", lo + span))],
                    damage,
                }),
                files: vec![FileTemplate { path: "f".into(), template: "{choice:a|b}\n".into() }],
            };
            let text = yaml_serde::to_string(&g).expect("serializes");
            prop_assert_eq!(parse("explore.yaml", text.as_bytes()).ok(), Some(g));
        }
    }
}
