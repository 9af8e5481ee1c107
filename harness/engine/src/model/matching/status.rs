//! How the exit status is compared (`status:` of a `match:`): its parser
//! and its JSON Schema.

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};

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
