//! `match:`: how a case's outputs are judged where the rulings leave them
//! free (docs/matching.md). A declaration sits on a rule of `rules.yaml`,
//! on a case, or in `suite.yaml`; this module parses it (a misspelt
//! tolerance is an error at its line) and resolves, for one case, which
//! declaration judges each stream ([`Matching`]). How a tolerance compares
//! bytes is the judge's (`judge/tolerance.rs`); what `bless` records never
//! changes.
//!
//! Past 600 lines: each tolerance's parser (errors naming the line), its
//! JSON Schema and the resolution of one case's declarations belong
//! together; about a third of the file is their tests.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

/// How one stream (or output file) is compared.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Tolerance {
    /// Byte for byte: the default.
    #[default]
    Exact,
    /// Spacing and/or ASCII case ignored (`spacing`, `case`,
    /// `[spacing, case]`).
    Loose {
        /// Runs of spaces and tabs compare equal; spaces at line ends and a
        /// missing final newline are ignored.
        spacing: bool,
        /// ASCII letters compare ignoring case.
        case: bool,
    },
    /// The stream's lines against patterns with holes (`{..}`, `{...}`).
    Lines(Vec<String>),
    /// The stream's lines, one regular expression each.
    Regex(Vec<String>),
    /// Some bytes where the model printed some, none where none; a
    /// traceback (an uncaught exception, [`crate::judge::exception`]) is
    /// no message of the program's choice, and fails.
    Nonempty,
    /// [`Self::Nonempty`], a traceback accepted too
    /// (`nonempty-or-traceback`: a pack whose text lets a program stop
    /// on an uncaught exception).
    NonemptyOrTraceback,
    /// Not compared.
    Any,
    /// A checker program decides: a command line, or `builtin:NAME`.
    Checker(String),
}

/// The names a tolerance can be written as.
const NAMES: &str = "exact, spacing, case, nonempty, nonempty-or-traceback, any, a list such as [spacing, case], \
                     {lines: [...]}, {regex: [...]} or {checker: CMD}";

/// The hole standing for any text inside one line.
pub const HOLE: &str = "{..}";
/// The pattern line standing for any number of whole lines.
pub const LINES_HOLE: &str = "{...}";

/// The `files:` key standing for every output file without a key of its
/// own (a rule whose program saves under any name, as `diff`'s sessions
/// do).
pub const EVERY_FILE: &str = "*";

impl Tolerance {
    /// Whether this is byte-exact comparison.
    pub fn is_exact(&self) -> bool {
        matches!(self, Self::Exact)
    }

    /// How the tolerance compares, as a report says it after "compared".
    pub fn describe(&self) -> String {
        match self {
            Self::Exact => "exactly".to_owned(),
            Self::Loose {
                spacing: true,
                case: true,
            } => "ignoring spacing and case".to_owned(),
            Self::Loose { spacing: true, .. } => "ignoring spacing".to_owned(),
            Self::Loose { .. } => "ignoring case".to_owned(),
            Self::Lines(_) => "against line patterns".to_owned(),
            Self::Regex(_) => "against regular expressions".to_owned(),
            Self::Nonempty => "as nonempty (any text)".to_owned(),
            Self::NonemptyOrTraceback => "as nonempty (any text, a traceback too)".to_owned(),
            Self::Any => "not at all".to_owned(),
            Self::Checker(cmd) => format!("by checker `{cmd}`"),
        }
    }

    fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "exact" => Self::Exact,
            "spacing" => Self::Loose {
                spacing: true,
                case: false,
            },
            "case" => Self::Loose {
                spacing: false,
                case: true,
            },
            "nonempty" => Self::Nonempty,
            "nonempty-or-traceback" => Self::NonemptyOrTraceback,
            "any" => Self::Any,
            _ => return None,
        })
    }
}

impl fmt::Display for Tolerance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Exact => f.write_str("exact"),
            Self::Loose {
                spacing: true,
                case: true,
            } => f.write_str("[spacing, case]"),
            Self::Loose { spacing: true, .. } => f.write_str("spacing"),
            Self::Loose { .. } => f.write_str("case"),
            Self::Lines(l) => write!(f, "lines ({} patterns)", l.len()),
            Self::Regex(l) => write!(f, "regex ({} lines)", l.len()),
            Self::Nonempty => f.write_str("nonempty"),
            Self::NonemptyOrTraceback => f.write_str("nonempty-or-traceback"),
            Self::Any => f.write_str("any"),
            Self::Checker(c) => write!(f, "checker `{c}`"),
        }
    }
}

/// Checks one `lines:` pattern: `{...}` stands alone on its line.
fn check_pattern(line: &str) -> Result<(), String> {
    if line != LINES_HOLE && line.contains(LINES_HOLE) {
        return Err(format!(
            "lines pattern `{line}`: `{LINES_HOLE}` (any number of lines) must be a whole line; \
             `{HOLE}` is any text inside one line"
        ));
    }
    if line.contains('\n') {
        return Err(format!(
            "lines pattern `{line:?}` holds a newline: one line each"
        ));
    }
    Ok(())
}

/// Compiles one line's regular expression as the judge does, to refuse a
/// bad one where it is written.
pub fn check_regex(re: &str) -> Result<(), String> {
    regex_automata::meta::Regex::builder()
        .syntax(
            regex_automata::util::syntax::Config::new()
                .unicode(false)
                .utf8(false),
        )
        .build(re)
        .map(drop)
        .map_err(|e| format!("regex `{re}`: {e}"))
}

impl<'de> Deserialize<'de> for Tolerance {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Tolerance;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a tolerance: {NAMES}")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Tolerance, E> {
                Tolerance::from_name(v).ok_or_else(|| {
                    E::custom(format!("unknown tolerance `{v}`: expected one of {NAMES}"))
                })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tolerance, A::Error> {
                let (mut spacing, mut case) = (false, false);
                while let Some(name) = seq.next_element::<String>()? {
                    match name.as_str() {
                        "spacing" => spacing = true,
                        "case" => case = true,
                        other => {
                            return Err(de::Error::custom(format!(
                                "`{other}` cannot be combined: a list combines spacing and case"
                            )));
                        }
                    }
                }
                if !spacing && !case {
                    return Err(de::Error::custom(
                        "an empty list of tolerances: write exact, or [spacing, case]",
                    ));
                }
                Ok(Tolerance::Loose { spacing, case })
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tolerance, A::Error> {
                let Some(key) = map.next_key::<String>()? else {
                    return Err(de::Error::custom(format!(
                        "an empty mapping: expected {NAMES}"
                    )));
                };
                let out = match key.as_str() {
                    "lines" => {
                        let lines: Vec<String> = map.next_value()?;
                        for l in &lines {
                            check_pattern(l).map_err(de::Error::custom)?;
                        }
                        Tolerance::Lines(lines)
                    }
                    "regex" => {
                        let lines: Vec<String> = map.next_value()?;
                        for l in &lines {
                            check_regex(l).map_err(de::Error::custom)?;
                        }
                        Tolerance::Regex(lines)
                    }
                    "checker" => {
                        let cmd: String = map.next_value()?;
                        if cmd.trim().is_empty() {
                            return Err(de::Error::custom("`checker` names no command"));
                        }
                        Tolerance::Checker(cmd)
                    }
                    other => {
                        return Err(de::Error::custom(format!(
                            "unknown tolerance `{other}`: expected one of {NAMES}"
                        )));
                    }
                };
                if let Some(extra) = map.next_key::<String>()? {
                    return Err(de::Error::custom(format!(
                        "`{extra}` beside `{key}`: one tolerance a stream"
                    )));
                }
                Ok(out)
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for Tolerance {
    fn schema_name() -> Cow<'static, str> {
        "Tolerance".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "How a stream is compared (docs/matching.md).",
            "oneOf": [
                {"enum": ["exact", "spacing", "case", "nonempty", "nonempty-or-traceback", "any"]},
                {"type": "array", "items": {"enum": ["spacing", "case"]}, "minItems": 1},
                {"type": "object", "additionalProperties": false, "required": ["lines"],
                 "properties": {"lines": {"type": "array", "items": {"type": "string"}}}},
                {"type": "object", "additionalProperties": false, "required": ["regex"],
                 "properties": {"regex": {"type": "array", "items": {"type": "string"}}}},
                {"type": "object", "additionalProperties": false, "required": ["checker"],
                 "properties": {"checker": {"type": "string"}}}
            ]
        })
    }
}

/// How the exit status is compared.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum StatusMatch {
    /// The model's status: the default.
    #[default]
    Exact,
    /// Any status but 0.
    Nonzero,
    /// One of these.
    OneOf(Vec<u8>),
}

impl StatusMatch {
    /// Whether exit status `code` is accepted where the model exited with
    /// `expected`.
    pub fn accepts(&self, expected: i32, code: i32) -> bool {
        match self {
            Self::Exact => expected == code,
            Self::Nonzero => code != 0,
            Self::OneOf(list) => list.iter().any(|&s| i32::from(s) == code),
        }
    }
}

impl fmt::Display for StatusMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Exact => f.write_str("exact"),
            Self::Nonzero => f.write_str("nonzero"),
            Self::OneOf(l) => write!(
                f,
                "one of {}",
                l.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

impl<'de> Deserialize<'de> for StatusMatch {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StatusMatch;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("exact, nonzero or a list of exit statuses")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<StatusMatch, E> {
                match v {
                    "exact" => Ok(StatusMatch::Exact),
                    "nonzero" => Ok(StatusMatch::Nonzero),
                    _ => Err(E::custom(format!(
                        "unknown status tolerance `{v}`: expected exact, nonzero or a list of \
                         statuses such as [1, 2]"
                    ))),
                }
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StatusMatch, A::Error> {
                let mut out = Vec::new();
                while let Some(s) = seq.next_element::<u8>()? {
                    out.push(s);
                }
                if out.is_empty() {
                    return Err(de::Error::custom("an empty list of statuses"));
                }
                Ok(StatusMatch::OneOf(out))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for StatusMatch {
    fn schema_name() -> Cow<'static, str> {
        "StatusMatch".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "How the exit status is compared.",
            "oneOf": [
                {"enum": ["exact", "nonzero"]},
                {"type": "array", "minItems": 1,
                 "items": {"type": "integer", "minimum": 0, "maximum": 255}}
            ]
        })
    }
}

/// A `match:` declaration as written.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchSpec {
    /// How stdout is compared.
    #[serde(default)]
    pub stdout: Option<Tolerance>,
    /// How stderr is compared.
    #[serde(default)]
    pub stderr: Option<Tolerance>,
    /// How the exit status is compared.
    #[serde(default)]
    pub status: Option<StatusMatch>,
    /// How each output file is compared, by its path.
    #[serde(default)]
    pub files: BTreeMap<String, Tolerance>,
    /// Marks taken once per submission and rule when this declaration
    /// forgave a departure.
    #[serde(default)]
    #[schemars(range(min = 0))]
    pub deduct: Option<f64>,
}

/// Where a tolerance was declared, as a report names it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Origin {
    /// Nowhere: exact.
    #[default]
    Default,
    /// The case's own `match:`.
    Case,
    /// `suite.yaml`'s.
    Suite,
    /// The rules that declared it (all agreeing).
    Rules(Vec<String>),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Default => f.write_str("default"),
            Self::Case => f.write_str("case"),
            Self::Suite => f.write_str("suite"),
            Self::Rules(r) => f.write_str(&r.join(", ")),
        }
    }
}

/// Marks a declaration with `deduct:` takes when it forgives.
#[derive(Debug, Clone, PartialEq)]
pub struct Charge {
    /// The rule whose `match:` declared it, or `case` / `suite`.
    pub by: String,
    /// Marks.
    pub marks: f64,
}

/// The tolerance that judges one part of a case, and where it came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Judging {
    /// How.
    pub tolerance: Tolerance,
    /// Declared where.
    pub origin: Origin,
    /// What forgiving a departure costs.
    pub charges: Vec<Charge>,
}

impl Judging {
    /// "ignoring spacing (IO-1)": how, and by whose declaration.
    pub fn describe(&self) -> String {
        match &self.origin {
            Origin::Default => self.tolerance.describe(),
            o => format!("{} ({o})", self.tolerance.describe()),
        }
    }
}

/// The status tolerance of a case, and where it came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StatusJudging {
    /// How.
    pub status: StatusMatch,
    /// Declared where.
    pub origin: Origin,
    /// What forgiving a departure costs.
    pub charges: Vec<Charge>,
}

/// Every tolerance that judges one case.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Matching {
    /// Stdout as a whole (what judges it without spans).
    pub stdout: Judging,
    /// Stderr.
    pub stderr: Judging,
    /// The exit status.
    pub status: StatusJudging,
    /// Each output file with a tolerance.
    pub files: BTreeMap<String, Judging>,
    /// Stdout by span: set when the case declares no stdout tolerance of
    /// its own and some rule does. Each rule's tolerance then judges the
    /// bytes its spans produced, [`Self::span_default`] the rest.
    pub by_rule: BTreeMap<String, Judging>,
    /// What judges stdout bytes no rule with a tolerance produced.
    pub span_default: Judging,
}

impl Matching {
    /// Every checker command a part of the case may run.
    pub fn checkers(&self) -> impl Iterator<Item = &str> {
        [&self.stdout, &self.stderr, &self.span_default]
            .into_iter()
            .chain(self.files.values())
            .chain(self.by_rule.values())
            .filter_map(|j| match &j.tolerance {
                Tolerance::Checker(c) => Some(c.as_str()),
                _ => None,
            })
    }

    /// Whether some tolerance frees stdout's bytes (whole or by span):
    /// then how many stdin lines the program reads is compared instead
    /// (docs/matching.md, "Free text still counts reads").
    pub fn frees_stdout(&self) -> bool {
        !self.stdout.tolerance.is_exact()
            || !self.span_default.tolerance.is_exact()
            || self.by_rule.values().any(|j| !j.tolerance.is_exact())
    }

    /// Whether every part compares exactly (nothing to forgive).
    pub fn is_exact(&self) -> bool {
        self.stdout.tolerance.is_exact()
            && self.stderr.tolerance.is_exact()
            && self.status.status == StatusMatch::Exact
            && self.files.values().all(|j| j.tolerance.is_exact())
            && self.by_rule.is_empty()
    }
}

/// One stream's declaration in `spec`.
fn stream_of<'a>(spec: &'a MatchSpec, part: &Part<'_>) -> Option<&'a Tolerance> {
    match part {
        Part::Stdout => spec.stdout.as_ref(),
        Part::Stderr => spec.stderr.as_ref(),
        // A file's own key first, else `*` (every output file).
        Part::File(p) => spec
            .files
            .iter()
            .find(|(k, _)| crate::exec::run::normalize(k) == *p)
            .or_else(|| spec.files.get_key_value(EVERY_FILE))
            .map(|(_, t)| t),
    }
}

enum Part<'p> {
    Stdout,
    Stderr,
    File(&'p str),
}

fn charge(spec: &MatchSpec, by: &str) -> Vec<Charge> {
    spec.deduct
        .filter(|m| *m > 0.0)
        .map(|marks| Charge {
            by: by.to_owned(),
            marks,
        })
        .into_iter()
        .collect()
}

/// Resolves one part: the case's declaration, else the cited rules' when
/// every rule declaring one declares the same (rules declaring none do not
/// vote), else the suite's, else exact. Rules that disagree leave the part
/// exact: no rule's looser reading is taken for another's.
fn resolve_part(
    case: Option<&MatchSpec>,
    rules: &[(&str, &MatchSpec)],
    suite: Option<&MatchSpec>,
    part: &Part<'_>,
) -> Judging {
    if let Some(spec) = case
        && let Some(t) = stream_of(spec, part)
    {
        return Judging {
            tolerance: t.clone(),
            origin: Origin::Case,
            charges: charge(spec, "case"),
        };
    }
    let voting: Vec<(&str, &MatchSpec, &Tolerance)> = rules
        .iter()
        .filter_map(|(id, spec)| stream_of(spec, part).map(|t| (*id, *spec, t)))
        .collect();
    if let Some((_, _, first)) = voting.first() {
        if voting.iter().all(|(_, _, t)| t == first) {
            return Judging {
                tolerance: (*first).clone(),
                origin: Origin::Rules(voting.iter().map(|(id, _, _)| (*id).to_owned()).collect()),
                charges: voting
                    .iter()
                    .flat_map(|(id, spec, _)| charge(spec, id))
                    .collect(),
            };
        }
        return Judging::default();
    }
    match suite.and_then(|s| stream_of(s, part).map(|t| (s, t))) {
        Some((spec, t)) => Judging {
            tolerance: t.clone(),
            origin: Origin::Suite,
            charges: charge(spec, "suite"),
        },
        None => Judging::default(),
    }
}

/// The tolerances of a case citing `cited`, from its own `match:`, the
/// rules' (`rules`: every rule of `rules.yaml` with one) and the suite's.
pub fn resolve(
    case: Option<&MatchSpec>,
    cited: &[String],
    rules: &BTreeMap<String, MatchSpec>,
    suite: Option<&MatchSpec>,
    output_files: impl Iterator<Item = String>,
) -> Matching {
    let cited_specs: Vec<(&str, &MatchSpec)> = cited
        .iter()
        .filter_map(|id| rules.get(id).map(|s| (id.as_str(), s)))
        .collect();
    let status = if let Some((spec, s)) = case.and_then(|c| c.status.as_ref().map(|s| (c, s))) {
        StatusJudging {
            status: s.clone(),
            origin: Origin::Case,
            charges: charge(spec, "case"),
        }
    } else {
        let voting: Vec<(&str, &MatchSpec, &StatusMatch)> = cited_specs
            .iter()
            .filter_map(|(id, spec)| spec.status.as_ref().map(|s| (*id, *spec, s)))
            .collect();
        match (
            voting.first(),
            suite.and_then(|s| s.status.as_ref().map(|t| (s, t))),
        ) {
            (Some((_, _, first)), _) if voting.iter().all(|(_, _, s)| s == first) => {
                StatusJudging {
                    status: (*first).clone(),
                    origin: Origin::Rules(
                        voting.iter().map(|(id, _, _)| (*id).to_owned()).collect(),
                    ),
                    charges: voting.iter().flat_map(|(id, s, _)| charge(s, id)).collect(),
                }
            }
            (None, Some((spec, s))) => StatusJudging {
                status: s.clone(),
                origin: Origin::Suite,
                charges: charge(spec, "suite"),
            },
            // Disagreeing rules compare exactly, as nothing declared does.
            (Some(_) | None, _) => StatusJudging::default(),
        }
    };
    let files = output_files
        .filter_map(|p| {
            let j = resolve_part(case, &cited_specs, suite, &Part::File(&p));
            (!j.tolerance.is_exact()).then_some((p, j))
        })
        .collect();
    let stdout = resolve_part(case, &cited_specs, suite, &Part::Stdout);
    // Spans apply a rule's tolerance to its own bytes whatever the case
    // cites; a case's own declaration covers the whole stream.
    let case_declares = case.is_some_and(|c| c.stdout.is_some());
    let by_rule: BTreeMap<String, Judging> = if case_declares {
        BTreeMap::new()
    } else {
        rules
            .iter()
            .filter_map(|(id, spec)| {
                spec.stdout.as_ref().map(|t| {
                    (
                        id.clone(),
                        Judging {
                            tolerance: t.clone(),
                            origin: Origin::Rules(vec![id.clone()]),
                            charges: charge(spec, id),
                        },
                    )
                })
            })
            .collect()
    };
    let span_default = resolve_part(None, &[], suite, &Part::Stdout);
    Matching {
        stdout,
        stderr: resolve_part(case, &cited_specs, suite, &Part::Stderr),
        status,
        files,
        by_rule,
        span_default,
    }
}

/// Every non-exact declaration of a suite, for the run's header: `who:
/// part tolerance`, in the order suite, then rules by ID.
pub fn declared(suite: Option<&MatchSpec>, rules: &BTreeMap<String, MatchSpec>) -> Vec<String> {
    let mut out = Vec::new();
    let mut one = |who: &str, spec: &MatchSpec| {
        let mut parts = Vec::new();
        if let Some(t) = spec.stdout.as_ref().filter(|t| !t.is_exact()) {
            parts.push(format!("stdout {t}"));
        }
        if let Some(t) = spec.stderr.as_ref().filter(|t| !t.is_exact()) {
            parts.push(format!("stderr {t}"));
        }
        if let Some(s) = spec.status.as_ref().filter(|s| **s != StatusMatch::Exact) {
            parts.push(format!("status {s}"));
        }
        for (p, t) in spec.files.iter().filter(|(_, t)| !t.is_exact()) {
            parts.push(format!("file {p} {t}"));
        }
        if !parts.is_empty() {
            out.push(format!("{who}: {}", parts.join(", ")));
        }
    };
    if let Some(s) = suite {
        one("suite", s);
    }
    for (id, spec) in rules {
        one(id, spec);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // yaml_serde itself, not `schema::parse`: the schema imports this
    // module, and the layer check refuses a circle even in tests.
    fn spec(text: &str) -> Result<MatchSpec, yaml_serde::Error> {
        yaml_serde::from_str(text)
    }

    #[test]
    fn every_form_parses() {
        let m = spec(
            "stdout: [spacing, case]\nstderr: nonempty\nstatus: [1, 2]\nfiles:\n  a.txt: \
             {checker: \"builtin:x\"}\ndeduct: 0.25\n",
        )
        .unwrap();
        assert_eq!(
            m.stdout,
            Some(Tolerance::Loose {
                spacing: true,
                case: true
            })
        );
        assert_eq!(m.stderr, Some(Tolerance::Nonempty));
        assert_eq!(m.status, Some(StatusMatch::OneOf(vec![1, 2])));
        assert_eq!(m.files["a.txt"], Tolerance::Checker("builtin:x".into()));
        assert_eq!(m.deduct, Some(0.25));
        let l = spec("stdout: {lines: [\"Usage: {..}\", \"{...}\"]}\nstatus: nonzero\n").unwrap();
        assert!(matches!(l.stdout, Some(Tolerance::Lines(ref v)) if v.len() == 2));
        assert_eq!(l.status, Some(StatusMatch::Nonzero));
    }

    #[test]
    fn a_misspelt_tolerance_names_its_line() {
        let e = spec("stderr: any\nstdout: spacng\n").unwrap_err();
        assert_eq!(e.location().map(|l| l.line()), Some(2), "{e}");
        assert!(e.to_string().contains("unknown tolerance `spacng`"), "{e}");
        let e = spec("stdot: spacing\n").unwrap_err();
        assert_eq!(e.location().map(|l| l.line()), Some(1), "{e}");
        assert!(spec("stdout: {regex: [\"(\"]}\n").is_err());
        assert!(spec("stdout: {lines: [\"a {...}\"]}\n").is_err());
        assert!(spec("status: sometimes\n").is_err());
        assert!(spec("stdout: [spacing, any]\n").is_err());
    }

    fn rules(list: &[(&str, &str)]) -> BTreeMap<String, MatchSpec> {
        list.iter()
            .map(|(id, t)| ((*id).to_owned(), spec(t).unwrap()))
            .collect()
    }

    #[test]
    fn the_key_star_judges_every_file_without_a_key_of_its_own() {
        let r = rules(&[("S-1", "files:\n  \"*\": any\n  own.txt: nonempty\n")]);
        let files = ["a.txt".to_owned(), "own.txt".to_owned()];
        let m = resolve(None, &["S-1".to_owned()], &r, None, files.into_iter());
        assert_eq!(m.files["a.txt"].tolerance, Tolerance::Any);
        assert_eq!(m.files["own.txt"].tolerance, Tolerance::Nonempty);
        assert_eq!(m.files["a.txt"].describe(), "not at all (S-1)");
    }

    #[test]
    fn the_case_overrides_the_rules_which_override_the_suite() {
        let r = rules(&[("A-1", "stdout: spacing\n"), ("B-1", "stdout: case\n")]);
        let suite = spec("stdout: nonempty\nstderr: any\n").unwrap();
        let cited = |ids: &[&str]| ids.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let m = resolve(None, &cited(&["A-1"]), &r, Some(&suite), std::iter::empty());
        assert_eq!(m.stdout.describe(), "ignoring spacing (A-1)");
        assert_eq!(m.stderr.origin, Origin::Suite);
        // Disagreeing rules leave the stream exact.
        let m = resolve(
            None,
            &cited(&["A-1", "B-1"]),
            &r,
            Some(&suite),
            std::iter::empty(),
        );
        assert!(m.stdout.tolerance.is_exact());
        // A rule declaring nothing does not vote.
        let m = resolve(None, &cited(&["A-1", "C-1"]), &r, None, std::iter::empty());
        assert_eq!(m.stdout.origin, Origin::Rules(vec!["A-1".into()]));
        let own = spec("stdout: any\n").unwrap();
        let m = resolve(
            Some(&own),
            &cited(&["A-1"]),
            &r,
            Some(&suite),
            std::iter::empty(),
        );
        assert_eq!(m.stdout.tolerance, Tolerance::Any);
        assert!(m.by_rule.is_empty(), "the case's own covers the stream");
        let m = resolve(None, &[], &r, None, std::iter::empty());
        assert!(m.stdout.tolerance.is_exact());
        assert_eq!(m.by_rule.len(), 2, "spans may name any rule");
    }
}
