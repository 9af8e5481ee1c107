//! A tolerance as declared (`spacing`, `case`, `nonempty`, `any`, a
//! pattern, regexes, a checker): its parser, whose errors name the line,
//! and its JSON Schema. How it compares bytes is the judge's.

use std::borrow::Cow;
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
    /// Numeric tokens compared by value within tolerances, the rest of
    /// the text exactly or ignoring spacing and/or case
    /// (`{numbers: {absolute: 1e-6, relative: 1e-9, text: spacing}}`).
    Numbers(NumberTolerance),
}

/// How numbers compare under [`Tolerance::Numbers`]: Kattis's default
/// validator's `float_absolute_tolerance` and `float_relative_tolerance`
/// (a number matches if within either; one not given is 0, so only an
/// equal value passes by it).
#[derive(Debug, Clone, Copy, Default)]
pub struct NumberTolerance {
    /// The largest difference accepted, in the number's units.
    pub absolute: f64,
    /// The largest difference accepted, as a fraction of the expected
    /// value.
    pub relative: f64,
    /// Whether the rest of the text ignores spacing.
    pub spacing: bool,
    /// Whether the rest of the text ignores ASCII case.
    pub case: bool,
}

// The parser refuses NaN: the bits are the value.
impl PartialEq for NumberTolerance {
    fn eq(&self, other: &Self) -> bool {
        self.absolute.to_bits() == other.absolute.to_bits()
            && self.relative.to_bits() == other.relative.to_bits()
            && self.spacing == other.spacing
            && self.case == other.case
    }
}

impl Eq for NumberTolerance {}

impl NumberTolerance {
    /// `absolute 1e-6 or relative 1e-6`: as a cause says it.
    pub fn describe(&self) -> String {
        // A tolerance not given (0) passes only an equal value: unsaid.
        let mut out = match (self.absolute > 0.0, self.relative > 0.0) {
            (true, false) => format!("absolute {:e}", self.absolute),
            (false, true) => format!("relative {:e}", self.relative),
            _ => format!(
                "absolute {:e} or relative {:e}",
                self.absolute, self.relative
            ),
        };
        match (self.spacing, self.case) {
            (true, true) => out.push_str(", the rest ignoring spacing and case"),
            (true, false) => out.push_str(", the rest ignoring spacing"),
            (false, true) => out.push_str(", the rest ignoring case"),
            (false, false) => {}
        }
        out
    }
}

/// `numbers:` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NumbersSpec {
    #[serde(default)]
    absolute: Option<f64>,
    #[serde(default)]
    relative: Option<f64>,
    #[serde(default)]
    text: Option<Tolerance>,
}

impl NumbersSpec {
    fn resolve(self) -> Result<NumberTolerance, String> {
        if self.absolute.is_none() && self.relative.is_none() {
            return Err("`numbers` names no tolerance: give `absolute`, `relative` or both".into());
        }
        let check = |name: &str, v: Option<f64>| match v {
            Some(x) if !(x.is_finite() && x >= 0.0) => Err(format!(
                "`numbers`: `{name}` is {x}: a tolerance is a number 0 or more"
            )),
            _ => Ok(v.unwrap_or(0.0)),
        };
        let (spacing, case) = match self.text {
            None | Some(Tolerance::Exact) => (false, false),
            Some(Tolerance::Loose { spacing, case }) => (spacing, case),
            Some(other) => {
                return Err(format!(
                    "`numbers`: `text: {other}`: the rest of the text is compared exact, spacing, \
                     case or [spacing, case]"
                ));
            }
        };
        Ok(NumberTolerance {
            absolute: check("absolute", self.absolute)?,
            relative: check("relative", self.relative)?,
            spacing,
            case,
        })
    }
}

/// The names a tolerance can be written as.
const NAMES: &str = "exact, spacing, case, nonempty, nonempty-or-traceback, any, a list such as [spacing, case], \
                     {lines: [...]}, {regex: [...]}, {numbers: {absolute: X, relative: Y}} or \
                     {checker: CMD}";

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
            Self::Numbers(n) => format!("with numbers within {}", n.describe()),
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
            Self::Numbers(n) => write!(f, "numbers ({})", n.describe()),
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
                    "numbers" => {
                        let spec: NumbersSpec = map.next_value()?;
                        Tolerance::Numbers(spec.resolve().map_err(de::Error::custom)?)
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
                {"type": "object", "additionalProperties": false, "required": ["numbers"],
                 "properties": {"numbers": {"type": "object", "additionalProperties": false,
                   "properties": {"absolute": {"type": "number", "minimum": 0},
                                  "relative": {"type": "number", "minimum": 0},
                                  "text": {"enum": ["exact", "spacing", "case"]}}}}},
                {"type": "object", "additionalProperties": false, "required": ["checker"],
                 "properties": {"checker": {"type": "string"}}}
            ]
        })
    }
}
