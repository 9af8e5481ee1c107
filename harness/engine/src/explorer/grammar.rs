//! `explore.yaml`: how `diff` makes sessions for a pack that is a folder,
//! written by its author instead of a Rust explorer. It names values
//! (integer ranges, choices), argument lists, input files and stdin lines
//! as templates over those values (`{name}`), how long a session's stdin
//! is and how often a line is damaged byte by byte; each part may cite the
//! rules it exercises and an ambiguous ruling it touches. [`Grammar`] is
//! the file; [`GrammarExplorer`] draws sessions from it, shrinks them
//! ([`crate::explorer::plain`]) and classifies them by the rules of the parts
//! they were made of.
//!
//! One piece: the file's format, its checks (each fault placed on its
//! own key's line) and the explorer that draws from it are one concept;
//! their tests are the sibling `grammar/tests.rs`.
//!
//! ```yaml
//! category: play            # the suite.yaml category diff's cases go into
//! values:
//!   discs: {int: [1, 8]}    # in range mostly; sometimes 0, -1, an end ±1, huge
//!   peg: {choice: [A, B, C]}
//!   two: {choice: ["{peg} {peg}", "{peg}"]}   # a word may be a template
//!   key: {permutation: ABCDEFGHIJKLMNOPQRSTUVWXYZ}  # its letters shuffled
//! argv:                     # one alternative per session
//!   - {words: ["{discs}"], rules: [ARGS-2], weight: 4}   # 4 times as often
//!   - {words: [], rules: [ARGS-1]}
//! files:
//!   - {path: game.sav, chance: 0.5, text: "{discs}\n", rules: [FILE-1]}
//! stdin:
//!   length: [0, 12]         # lines per session (default [0, 8]; [0, 0] without lines)
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
use crate::model::key_line;
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
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stdin {
    /// The fewest and most lines of a session (default `[0, 8]` with line
    /// templates, `[0, 0]` without).
    #[serde(default)]
    pub length: Option<[usize; 2]>,
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

impl Stdin {
    /// The fewest and most lines of a session, as written or by default.
    pub fn length(&self) -> [usize; 2] {
        self.length.unwrap_or(if self.lines.is_empty() {
            [0, 0]
        } else {
            [0, 8]
        })
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

/// The most lines a session may ask for: a grammar is for finding bugs,
/// and the shrink loop pays for every line.
pub const MAX_LINES: usize = 1000;

impl Grammar {
    /// Parses `bytes`, the file shown to people as `file`; checks that
    /// every template names a known value, every chance is a probability,
    /// every range is in order, every file path stays in the program's
    /// folder and every list can be drawn from.
    ///
    /// # Errors
    /// [`ParseError`] naming the file and, where it can, the line.
    pub fn parse(file: &str, bytes: &[u8]) -> Result<Self, ParseError> {
        let grammar: Self = schema::parse(file, bytes)?;
        grammar.check().map_err(|(at, message)| ParseError {
            file: file.to_owned(),
            location: at.line(&String::from_utf8_lossy(bytes)).map(|l| (l, 1)),
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

    /// The first fault and where it is written.
    fn check(&self) -> Result<(), (At, String)> {
        for (name, value) in &self.values {
            let at = || At::keys(&[("values", 0), (name, 0)]);
            match value {
                Value::Int([lo, hi]) if lo > hi => {
                    return Err((
                        at(),
                        format!("value `{name}`: int range [{lo}, {hi}] is empty"),
                    ));
                }
                Value::Choice(words) if words.is_empty() => {
                    return Err((at(), format!("value `{name}`: choice has no words")));
                }
                _ => {}
            }
        }
        self.check_files()?;
        self.check_templates()?;
        let chances = [
            ("damage", self.stdin.damage),
            ("unterminated", self.stdin.unterminated),
        ];
        for (key, p) in chances {
            if !(0.0..=1.0).contains(&p) {
                return Err((
                    At::keys(&[("stdin", 0), (key, 0)]),
                    format!("{key} {p} is not a chance from 0 to 1"),
                ));
            }
        }
        let [lo, hi] = self.stdin.length();
        let length = || At::keys(&[("stdin", 0), ("length", 0)]);
        if lo > hi || hi > MAX_LINES {
            return Err((
                length(),
                format!("stdin length [{lo}, {hi}] must be in order and at most {MAX_LINES}"),
            ));
        }
        if hi > 0 && self.stdin.lines.is_empty() {
            return Err((
                length(),
                "stdin asks for lines but lists no `lines` templates".to_owned(),
            ));
        }
        let argv: Vec<_> = self.argv.iter().map(|a| (a.weight, &a.tags)).collect();
        drawable(&argv, "argv: every argument list").map_err(|m| (At::keys(&[("argv", 0)]), m))?;
        let lines: Vec<_> = self
            .stdin
            .lines
            .iter()
            .map(|l| (l.weight, &l.tags))
            .collect();
        drawable(&lines, "stdin: every line template")
            .map_err(|m| (At::keys(&[("stdin", 0), ("lines", 0)]), m))
    }

    /// Each file's path is one, in the program's folder, listed once; each
    /// chance is a probability.
    fn check_files(&self) -> Result<(), (At, String)> {
        let mut paths = BTreeSet::new();
        for (i, file) in self.files.iter().enumerate() {
            let at = |key| At::keys(&[("files", 0), ("path", i), (key, 0)]);
            if crate::exec::run::checked_relative(&file.path).is_err() {
                return Err((
                    at("path"),
                    format!(
                        "file path `{}` must be relative and stay in the program's folder",
                        file.path
                    ),
                ));
            }
            if !paths.insert(&file.path) {
                return Err((at("path"), format!("file `{}` is listed twice", file.path)));
            }
            if !(0.0..=1.0).contains(&file.chance) {
                return Err((
                    at("chance"),
                    format!(
                        "file `{}`: chance {} is not a chance from 0 to 1",
                        file.path, file.chance
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Every template names known values.
    fn check_templates(&self) -> Result<(), (At, String)> {
        let words = self.values.values().flat_map(|v| match v {
            Value::Choice(words) => words.as_slice(),
            Value::Int(_) | Value::Permutation(_) => &[],
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
                        At::Text(format!("{{{name}}}")),
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
        Ok(())
    }
}

/// Whether a list weighted by `items` can be drawn from: some weight above
/// 0, and some among the parts not marked ambiguous if there are such (a
/// run without `--ambiguous` draws only those). `what` names the list.
fn drawable(items: &[(u32, &Tags)], what: &str) -> Result<(), String> {
    let weighs = |ambiguous: bool| {
        items
            .iter()
            .filter(|(_, t)| ambiguous || t.ambiguous.is_none())
            .map(|&(w, _)| u64::from(w))
            .sum::<u64>()
    };
    let plain = items.iter().any(|(_, t)| t.ambiguous.is_none());
    if !items.is_empty() && weighs(true) == 0 {
        return Err(format!("{what} weighs 0, so none can be drawn"));
    }
    if plain && weighs(false) == 0 {
        return Err(format!(
            "{what} not marked ambiguous weighs 0, so none can be drawn without --ambiguous"
        ));
    }
    Ok(())
}

/// Where a fault is written.
enum At {
    /// The line a chain of keys reaches ([`key_line::line_of_path`]).
    Keys(Vec<(String, usize)>),
    /// The first line holding this text (a template's placeholder).
    Text(String),
}

impl At {
    fn keys(path: &[(&str, usize)]) -> Self {
        Self::Keys(path.iter().map(|&(k, n)| (k.to_owned(), n)).collect())
    }

    /// Its 1-based line in `text`.
    fn line(&self, text: &str) -> Option<usize> {
        match self {
            Self::Keys(path) => {
                let path: Vec<(&str, usize)> = path.iter().map(|(k, n)| (k.as_str(), *n)).collect();
                key_line::line_of_path(text, &path)
            }
            Self::Text(needle) => {
                let at = text.find(needle.as_str())?;
                Some(text[..at].matches('\n').count() + 1)
            }
        }
    }
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
            Source::Case(_) | Source::Derived => None,
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
        // `check` saw to it that a list with parts allowed has weight among
        // them: `pick` is `None` only for a list with none.
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
            let [lo, hi] = g.stdin.length();
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

    /// [`plain::shrink`]'s candidates the grammar could have drawn: at
    /// least `length`'s fewest lines, and every file it always places.
    fn shrink(&self, session: &PlainSession) -> Vec<PlainSession> {
        let g = &self.grammar;
        let [fewest, _] = g.stdin.length();
        let always = |s: &PlainSession| {
            g.files
                .iter()
                .enumerate()
                .all(|(i, f)| f.chance < 1.0 || s.files.iter().any(|p| p.source == Source::File(i)))
        };
        let had = always(session);
        plain::shrink(session)
            .into_iter()
            .filter(|s| s.lines.len() >= fewest.min(session.lines.len()) && (!had || always(s)))
            .collect()
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
mod tests;
