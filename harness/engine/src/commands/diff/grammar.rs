//! `explore.yaml`: how `diff` makes sessions for a pack that is a folder,
//! written by its author instead of a Rust explorer. It names values
//! (integer ranges, choices), argument lists, input files and stdin lines
//! as templates over those values (`{name}`), how long a session's stdin
//! is and how often a line is damaged byte by byte; each part may cite the
//! rules it exercises and an ambiguous ruling it touches. [`Grammar`] is
//! the file; [`GrammarExplorer`] draws sessions from it, shrinks them
//! ([`crate::commands::diff::plain`]) and classifies them by the rules of the parts
//! they were made of.
//!
//! ```yaml
//! category: play            # the suite.yaml category diff's cases go into
//! values:
//!   discs: {int: [1, 8]}    # in range mostly; sometimes 0, -1, an end ±1, huge
//!   peg: {choice: [A, B, C]}
//!   two: {choice: ["{peg} {peg}", "{peg}"]}   # a word may be a template
//! argv:                     # one alternative per session
//!   - {words: ["{discs}"], rules: [ARGS-2], weight: 4}   # 4 times as often
//!   - {words: [], rules: [ARGS-1]}
//! files:
//!   - {path: game.sav, chance: 0.5, text: "{discs}\n", rules: [FILE-1]}
//! stdin:
//!   length: [0, 12]         # lines per session
//!   lines:
//!     - {text: "{peg} {peg}", rules: [MOVE-1]}
//!     - {text: "q", rules: [END-2]}
//!   damage: 0.05            # chance a line has a byte deleted, added or changed
//!   unterminated: 0.05      # chance the last line has no newline
//! ```

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use super::explore::{Classification, Explorer, Label, Probe};
use super::plain::{self, PlainSession, Source};
use super::template::{Value, chance, fill, pick, placeholders};
use crate::model::rng::SplitMix64;
use crate::model::schema::{self, ParseError};

/// The file's name in a pack's folder.
pub const FILE: &str = "explore.yaml";

/// An `explore.yaml`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grammar {
    /// The `suite.yaml` category `diff`'s cases go into (default: the
    /// suite's first).
    #[serde(default)]
    pub category: Option<String>,
    /// Named values, used in templates as `{name}`.
    #[serde(default)]
    pub values: BTreeMap<String, Value>,
    /// The argument lists, one drawn per session; none: no arguments.
    #[serde(default)]
    pub argv: Vec<Argv>,
    /// Input files placed beside the program.
    #[serde(default)]
    pub files: Vec<FileTemplate>,
    /// Standard input.
    #[serde(default)]
    pub stdin: Stdin,
}

/// What every drawn part may cite.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tags {
    /// The rule IDs the part exercises.
    #[serde(default)]
    pub rules: Vec<String>,
    /// The ambiguous ruling it touches (drawn only under `--ambiguous`).
    #[serde(default)]
    pub ambiguous: Option<String>,
}

/// An argument list.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Argv {
    /// The words, each a template.
    pub words: Vec<String>,
    /// How often it is drawn against the others (default 1).
    #[serde(default = "one")]
    pub weight: u32,
    /// Its rules and ambiguity.
    #[serde(flatten)]
    pub tags: Tags,
}

/// An input file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileTemplate {
    /// Its path, relative to the program's folder.
    pub path: String,
    /// Its contents, a template.
    pub text: String,
    /// How often a session has it, 0 to 1 (default 1).
    #[serde(default = "always")]
    pub chance: f64,
    /// Its rules and ambiguity.
    #[serde(flatten)]
    pub tags: Tags,
}

/// Standard input: lines drawn from templates.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stdin {
    /// The fewest and most lines of a session.
    #[serde(default = "default_length")]
    pub length: [usize; 2],
    /// The line templates, one drawn per line.
    #[serde(default)]
    pub lines: Vec<LineTemplate>,
    /// The chance that a line is damaged, 0 to 1.
    #[serde(default)]
    pub damage: f64,
    /// The chance that the last line has no newline, 0 to 1.
    #[serde(default)]
    pub unterminated: f64,
}

impl Default for Stdin {
    fn default() -> Self {
        Self {
            length: default_length(),
            lines: Vec::new(),
            damage: 0.0,
            unterminated: 0.0,
        }
    }
}

/// A stdin line.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineTemplate {
    /// The line without its newline, a template.
    pub text: String,
    /// How often it is drawn against the others (default 1).
    #[serde(default = "one")]
    pub weight: u32,
    /// Its rules and ambiguity.
    #[serde(flatten)]
    pub tags: Tags,
}

fn one() -> u32 {
    1
}

fn always() -> f64 {
    1.0
}

fn default_length() -> [usize; 2] {
    [0, 8]
}

/// The most lines a session may ask for: a grammar is for finding bugs,
/// and the shrink loop pays for every line.
pub const MAX_LINES: usize = 1000;

impl Grammar {
    /// Parses `bytes`, the file shown to people as `file`; checks that
    /// every template names a known value, every chance is a probability
    /// and every range is in order.
    ///
    /// # Errors
    /// [`ParseError`] naming the file and, where it can, the line.
    pub fn parse(file: &str, bytes: &[u8]) -> Result<Self, ParseError> {
        let grammar: Self = schema::parse(file, bytes)?;
        grammar.check().map_err(|(needle, message)| ParseError {
            file: file.to_owned(),
            location: line_of(bytes, &needle).map(|l| (l, 1)),
            message,
        })?;
        Ok(grammar)
    }

    /// Every rule ID its parts cite, in order, with repeats.
    pub fn cited_rules(&self) -> impl Iterator<Item = &str> {
        self.argv
            .iter()
            .map(|a| &a.tags)
            .chain(self.files.iter().map(|f| &f.tags))
            .chain(self.stdin.lines.iter().map(|l| &l.tags))
            .flat_map(|t| t.rules.iter().map(String::as_str))
    }

    /// The first fault and a piece of text to find its line by.
    fn check(&self) -> Result<(), (String, String)> {
        for (name, value) in &self.values {
            match value {
                Value::Int([lo, hi]) if lo > hi => {
                    return Err((
                        format!("{name}:"),
                        format!("value `{name}`: int range [{lo}, {hi}] is empty"),
                    ));
                }
                Value::Choice(words) if words.is_empty() => {
                    return Err((
                        format!("{name}:"),
                        format!("value `{name}`: choice has no words"),
                    ));
                }
                _ => {}
            }
        }
        let mut paths = BTreeSet::new();
        for file in &self.files {
            if !paths.insert(&file.path) {
                return Err((
                    format!("path: {}", file.path),
                    format!("file `{}` is listed twice", file.path),
                ));
            }
        }
        let words = self.values.values().flat_map(|v| match v {
            Value::Choice(words) => words.as_slice(),
            Value::Int(_) => &[],
        });
        let templates = self
            .argv
            .iter()
            .flat_map(|a| a.words.iter())
            .chain(words)
            .chain(self.files.iter().map(|f| &f.text))
            .chain(self.stdin.lines.iter().map(|l| &l.text));
        for template in templates {
            for name in placeholders(template) {
                if !self.values.contains_key(&name) {
                    let known: Vec<&str> = self.values.keys().map(String::as_str).collect();
                    return Err((
                        format!("{{{name}}}"),
                        format!(
                            "`{{{name}}}` names no value; values: {}",
                            if known.is_empty() {
                                "none".to_owned()
                            } else {
                                known.join(", ")
                            }
                        ),
                    ));
                }
            }
        }
        let chances = self.files.iter().map(|f| ("chance:", f.chance)).chain([
            ("damage:", self.stdin.damage),
            ("unterminated:", self.stdin.unterminated),
        ]);
        for (key, p) in chances {
            if !(0.0..=1.0).contains(&p) {
                return Err((
                    key.to_owned(),
                    format!(
                        "{} {p} is not a chance from 0 to 1",
                        key.trim_end_matches(':')
                    ),
                ));
            }
        }
        let [lo, hi] = self.stdin.length;
        if lo > hi || hi > MAX_LINES {
            return Err((
                "length:".to_owned(),
                format!("stdin length [{lo}, {hi}] must be in order and at most {MAX_LINES}"),
            ));
        }
        if hi > 0 && self.stdin.lines.is_empty() {
            return Err((
                "stdin:".to_owned(),
                "stdin asks for lines but lists no `lines` templates".to_owned(),
            ));
        }
        Ok(())
    }
}

/// The 1-based line of the first occurrence of `needle` in `bytes`.
fn line_of(bytes: &[u8], needle: &str) -> Option<usize> {
    let text = String::from_utf8_lossy(bytes);
    let at = text.find(needle)?;
    Some(text[..at].matches('\n').count() + 1)
}

/// `diff`'s explorer for a grammar.
#[derive(Debug, Clone)]
pub struct GrammarExplorer {
    grammar: Grammar,
    category: String,
}

impl GrammarExplorer {
    /// The explorer of `grammar`, whose cases go into its category or else
    /// `default_category` (the suite's first).
    pub fn new(grammar: Grammar, default_category: &str) -> Self {
        let category = grammar
            .category
            .clone()
            .unwrap_or_else(|| default_category.to_owned());
        Self { grammar, category }
    }

    fn tags(&self, source: Source) -> Option<&Tags> {
        match source {
            Source::Argv(i) => self.grammar.argv.get(i).map(|a| &a.tags),
            Source::File(i) => self.grammar.files.get(i).map(|f| &f.tags),
            Source::Line(i) => self.grammar.stdin.lines.get(i).map(|l| &l.tags),
            Source::Derived => None,
        }
    }
}

/// The indices of `items` a session may draw: all, or without the
/// ambiguous ones.
fn allowed<T>(items: &[T], tags: impl Fn(&T) -> &Tags, ambiguous: bool) -> Vec<usize> {
    (0..items.len())
        .filter(|&i| ambiguous || tags(&items[i]).ambiguous.is_none())
        .collect()
}

impl Explorer for GrammarExplorer {
    type Session = PlainSession;

    fn generate(&self, seed: u64, index: u64, ambiguous: bool) -> PlainSession {
        let g = &self.grammar;
        let mut rng = SplitMix64::new(seed).fork(index);
        let mut session = PlainSession::default();
        let argv = allowed(&g.argv, |a| &a.tags, ambiguous);
        if let Some(i) = pick(&argv, |i| g.argv[i].weight, &mut rng) {
            session.args = g.argv[i]
                .words
                .iter()
                .map(|w| fill(w, &g.values, &mut rng))
                .collect();
            session.argv_source = Source::Argv(i);
        }
        for i in allowed(&g.files, |f| &f.tags, ambiguous) {
            let file = &g.files[i];
            if chance(file.chance, &mut rng) {
                let text = fill(&file.text, &g.values, &mut rng);
                session.files.push(plain::File {
                    path: file.path.clone(),
                    bytes: text.into_bytes(),
                    source: Source::File(i),
                });
            }
        }
        let lines = allowed(&g.stdin.lines, |l| &l.tags, ambiguous);
        if !lines.is_empty() {
            let [lo, hi] = g.stdin.length;
            for _ in 0..rng.between(lo, hi) {
                let Some(i) = pick(&lines, |i| g.stdin.lines[i].weight, &mut rng) else {
                    break;
                };
                let mut bytes = fill(&g.stdin.lines[i].text, &g.values, &mut rng).into_bytes();
                if chance(g.stdin.damage, &mut rng) {
                    plain::damage(&mut bytes, &mut rng);
                }
                session.lines.push(plain::Line {
                    bytes,
                    source: Source::Line(i),
                });
            }
        }
        session.unterminated = !session.lines.is_empty() && chance(g.stdin.unterminated, &mut rng);
        session
    }

    fn probe(&self, session: &PlainSession) -> Probe {
        session.probe()
    }

    fn shrink(&self, session: &PlainSession) -> Vec<PlainSession> {
        plain::shrink(session)
    }

    fn classify(&self, session: &PlainSession, _status: u8) -> Classification {
        let rules: BTreeSet<String> = session
            .sources()
            .filter_map(|s| self.tags(s))
            .flat_map(|t| t.rules.iter().cloned())
            .collect();
        Classification {
            category: self.category.clone(),
            rules,
        }
    }

    fn labels(&self, session: &PlainSession) -> Vec<Label> {
        let mut labels: Vec<Label> = session
            .sources()
            .filter_map(|s| self.tags(s))
            .filter_map(|t| {
                Some(Label {
                    name: t.ambiguous.clone()?,
                    rule: t.rules.first().cloned().unwrap_or_default(),
                })
            })
            .collect();
        labels.sort();
        labels.dedup();
        labels
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "category: play
values:
  discs: {int: [1, 8]}
  peg: {choice: [A, B, C]}
argv:
  - {words: ['{discs}'], rules: [ARGS-2]}
  - {words: [], rules: [ARGS-1], ambiguous: no-args}
files:
  - {path: game.sav, chance: 0.5, text: \"{discs}\\n\", rules: [FILE-1]}
stdin:
  length: [1, 6]
  lines:
    - {text: '{peg} {peg}', rules: [MOVE-1]}
    - {text: 'q', rules: [END-2]}
  damage: 0.2
  unterminated: 0.1
";

    fn explorer() -> GrammarExplorer {
        let g = Grammar::parse("explore.yaml", EXAMPLE.as_bytes()).expect("parses");
        GrammarExplorer::new(g, "first")
    }

    #[test]
    fn sessions_are_drawn_from_the_grammar_deterministically() {
        let e = explorer();
        for index in 0..200 {
            let s = e.generate(7, index, false);
            assert_eq!(s, e.generate(7, index, false));
            assert_eq!(s.args.len(), 1, "the ambiguous argv is not drawn: {s:?}");
            assert!((1..=6).contains(&s.lines.len()));
            let class = e.classify(&s, 0);
            assert_eq!(class.category, "play");
            assert!(class.rules.contains("ARGS-2"));
            assert!(e.labels(&s).is_empty());
        }
        let with: Vec<_> = (0..200).map(|i| e.generate(7, i, true)).collect();
        assert!(with.iter().any(|s| s.args.is_empty()));
        assert!(with.iter().any(|s| s.files.len() == 1));
        assert!(with.iter().any(|s| s.files.is_empty()));
        let bare = with.iter().find(|s| s.args.is_empty()).expect("one");
        assert_eq!(
            e.labels(bare),
            [Label {
                name: "no-args".to_owned(),
                rule: "ARGS-1".to_owned()
            }]
        );
    }

    #[test]
    fn faults_name_the_file_and_line() {
        let bad = "values:\n  n: {int: [1, 2]}\nstdin:\n  lines:\n    - {text: '{m}'}\n";
        let e = Grammar::parse("p/explore.yaml", bad.as_bytes()).expect_err("unknown value");
        assert_eq!(e.location, Some((5, 1)));
        assert!(
            e.to_string()
                .starts_with("p/explore.yaml:5:1: `{m}` names no value; values: n")
        );
        let e = Grammar::parse("explore.yaml", b"argv:\n  - {word: [a]}\n").expect_err("key");
        assert_eq!(e.location.map(|l| l.0), Some(2), "{e}");
        let e = Grammar::parse(
            "explore.yaml",
            b"stdin:\n  damage: 2\n  lines: [{text: a}]\n",
        )
        .expect_err("chance");
        assert!(
            e.to_string().contains(":2:1: damage 2 is not a chance"),
            "{e}"
        );
        let e =
            Grammar::parse("explore.yaml", b"values:\n  n: {int: [5, 1]}\n").expect_err("range");
        assert!(
            e.to_string()
                .contains(":2:1: value `n`: int range [5, 1] is empty"),
            "{e}"
        );
    }
}
