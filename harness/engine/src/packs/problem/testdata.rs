//! A test group's flags (`testdata.yaml`), each key inherited from the
//! parent group unless the group's own file sets it: the output
//! validator's flags (`output_validator_flags`, or the 2023-07 draft's
//! `output_validator_args`), `on_reject` (`break` or `continue`), the
//! default grader's flags (`grader_flags`: `worst_error` (the default),
//! `first_error`, `always_accept`, `accept_if_any_accepted`; `sum`,
//! `min`, `max`, `avg`; `ignore_sample`), `accept_score`, `reject_score`
//! and `range`; and the input validators' arguments
//! (`input_validator_flags`, the 2023-07 draft's `input_validator_args`:
//! words for every input validator, or a map of them by validator name).
//! As problemtools' default grader reads them, a group's
//! `grader_flags` is the whole of its grader's flags: a word it does not
//! say is the default, not the parent's.

use std::path::Path;

/// How a group's verdict follows from its children's (shared with
/// the graders of the default run and `mark`).
pub use crate::model::grader::VerdictRule;

/// How a group's score follows from its children's (shared with a
/// category's grader under the default run and `mark`).
pub use crate::model::grader::ScoreRule;

/// The input validators' arguments of a group: the same words for
/// every validator, or each validator's own by its name (its file's or
/// folder's name without extension: `validate` of `validate.py`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum InputFlags {
    /// The same words for each (none by default).
    All(Vec<String>),
    /// Each validator's own; one not named gets none.
    ByName(std::collections::BTreeMap<String, Vec<String>>),
}

impl InputFlags {
    /// The arguments of the validator named `name`.
    pub fn of(&self, name: &str) -> &[String] {
        match self {
            Self::All(words) => words,
            Self::ByName(map) => map.get(name).map_or(&[], Vec::as_slice),
        }
    }
}

/// A group's flags.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupFlags {
    /// The output validator's flags.
    pub validator_flags: Vec<String>,
    /// The input validators' arguments.
    pub input_flags: InputFlags,
    /// Whether the group stops at its first rejected case (`break`).
    pub on_reject_break: bool,
    /// How its verdict is made.
    pub verdict: VerdictRule,
    /// Accepted when any child is, whatever [`GroupFlags::verdict`] says.
    pub accept_if_any_accepted: bool,
    /// How its score is made.
    pub score: ScoreRule,
    /// Whether only the last child counts (the root's `secret`, its
    /// `sample` left out).
    pub ignore_sample: bool,
    /// A case's score when accepted.
    pub accept_score: f64,
    /// A case's score when rejected.
    pub reject_score: f64,
    /// The group score's bounds, if given.
    pub range: Option<(f64, f64)>,
}

impl GroupFlags {
    /// The group's grader, as the model reads one (`verify`'s grading and
    /// the suite's graders under the default run and `mark` alike).
    pub fn grader(&self) -> crate::model::grader::Grader {
        crate::model::grader::Grader {
            score: self.score,
            accept_score: self.accept_score,
            reject_score: self.reject_score,
            at_least: self.range.map(|(lo, _)| lo).filter(|x| x.is_finite()),
            at_most: self.range.map(|(_, hi)| hi).filter(|x| x.is_finite()),
            stop_at_failure: self.on_reject_break,
            last_only: self.ignore_sample,
            verdict: self.verdict,
            accept_if_any_accepted: self.accept_if_any_accepted,
        }
    }
}

impl Default for GroupFlags {
    fn default() -> Self {
        Self {
            validator_flags: Vec::new(),
            input_flags: InputFlags::All(Vec::new()),
            on_reject_break: true,
            verdict: VerdictRule::default(),
            accept_if_any_accepted: false,
            score: ScoreRule::default(),
            ignore_sample: false,
            accept_score: 1.0,
            reject_score: 0.0,
            range: None,
        }
    }
}

/// The flags of the group whose `testdata.yaml` is `path` (if it exists)
/// over its parent's.
pub fn read(path: &Path, inherited: &GroupFlags) -> Result<GroupFlags, String> {
    let mut flags = inherited.clone();
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(flags);
    };
    let shown = path.display();
    if text.trim().is_empty() {
        return Ok(flags);
    }
    let value: yaml_serde::Value =
        yaml_serde::from_str(&text).map_err(|e| format!("{shown}: {e}"))?;
    let yaml_serde::Value::Mapping(map) = value else {
        return Err(format!("{shown}: a map of flags is expected"));
    };
    for (key, v) in &map {
        let key = key.as_str().unwrap_or_default();
        let text = match v {
            yaml_serde::Value::String(s) => s.clone(),
            yaml_serde::Value::Number(n) => n.to_string(),
            yaml_serde::Value::Sequence(items) => items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_owned))
                .collect::<Vec<_>>()
                .join(" "),
            _ => String::new(),
        };
        let number = |t: &str| {
            t.trim()
                .parse::<f64>()
                .map_err(|_| format!("{shown}: {key}: `{t}` is no number"))
        };
        match key {
            "output_validator_flags" | "output_validator_args" => {
                flags.validator_flags = text.split_whitespace().map(str::to_owned).collect();
            }
            "on_reject" => {
                flags.on_reject_break = match text.as_str() {
                    "break" => true,
                    "continue" => false,
                    other => {
                        return Err(format!("{shown}: on_reject: `{other}` (break or continue)"));
                    }
                };
            }
            "grader_flags" => {
                grader_flags(&text, &mut flags).map_err(|e| format!("{shown}: {e}"))?;
            }
            "accept_score" => flags.accept_score = number(&text)?,
            "reject_score" => flags.reject_score = number(&text)?,
            "range" => {
                let mut parts = text.split_whitespace().map(|p| match p {
                    "-inf" => Ok(f64::NEG_INFINITY),
                    "inf" | "+inf" => Ok(f64::INFINITY),
                    p => number(p),
                });
                match (parts.next(), parts.next(), parts.next()) {
                    (Some(lo), Some(hi), None) => flags.range = Some((lo?, hi?)),
                    _ => return Err(format!("{shown}: range: `{text}` (two numbers: min max)")),
                }
            }
            "input_validator_flags" | "input_validator_args" => {
                flags.input_flags = input_flags(v).map_err(|e| format!("{shown}: {key}: {e}"))?;
            }
            // Read by tools this harness does not run.
            "grading"
            | "grader"
            | "output_visualizer_args"
            | "full_feedback"
            | "scoring"
            | "static_validation" => {}
            other => return Err(format!("{shown}: no flag `{other}` in testdata.yaml")),
        }
    }
    Ok(flags)
}

/// Words from a string (split at whitespace) or a list of strings.
fn words(v: &yaml_serde::Value) -> Option<Vec<String>> {
    match v {
        yaml_serde::Value::String(s) => Some(s.split_whitespace().map(str::to_owned).collect()),
        yaml_serde::Value::Number(n) => Some(vec![n.to_string()]),
        yaml_serde::Value::Sequence(items) => items
            .iter()
            .map(|i| match i {
                yaml_serde::Value::String(s) => Some(s.clone()),
                yaml_serde::Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// `input_validator_flags` / `input_validator_args`: words for every
/// input validator, or a map of words by validator name.
fn input_flags(v: &yaml_serde::Value) -> Result<InputFlags, String> {
    if let yaml_serde::Value::Mapping(map) = v {
        let mut by_name = std::collections::BTreeMap::new();
        for (name, args) in map {
            let name = name
                .as_str()
                .ok_or("a validator's name must be text")?
                .to_owned();
            let args = words(args).ok_or_else(|| {
                format!("`{name}`: its arguments are a string or a list of strings")
            })?;
            by_name.insert(name, args);
        }
        return Ok(InputFlags::ByName(by_name));
    }
    words(v)
        .map(InputFlags::All)
        .ok_or_else(|| "a string, a list of strings or a map of them by validator".to_owned())
}

/// `grader_flags`: each word sets one rule; the rest keep the parent's.
fn grader_flags(text: &str, flags: &mut GroupFlags) -> Result<(), String> {
    // problemtools' default grader starts from its defaults for every
    // group that gives grader_flags.
    flags.verdict = VerdictRule::WorstError;
    flags.accept_if_any_accepted = false;
    flags.score = ScoreRule::Sum;
    flags.ignore_sample = false;
    for word in text.split_whitespace() {
        match word {
            "first_error" => flags.verdict = VerdictRule::FirstError,
            "worst_error" | "no_errors" => flags.verdict = VerdictRule::WorstError,
            "always_accept" => flags.verdict = VerdictRule::AlwaysAccept,
            "accept_if_any_accepted" => flags.accept_if_any_accepted = true,
            "sum" => flags.score = ScoreRule::Sum,
            "min" => flags.score = ScoreRule::Min,
            "max" => flags.score = ScoreRule::Max,
            "avg" => flags.score = ScoreRule::Avg,
            "ignore_sample" => flags.ignore_sample = true,
            other => return Err(format!("grader_flags: no flag `{other}`")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str, parent: &GroupFlags) -> Result<GroupFlags, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let path = dir.path().join("testdata.yaml");
        std::fs::write(&path, text).map_err(|e| e.to_string())?;
        read(&path, parent)
    }

    #[test]
    fn flags_inherit_key_by_key() {
        let parent = read_text(
            "on_reject: continue\noutput_validator_flags: float_tolerance 1e-6\n",
            &GroupFlags::default(),
        )
        .expect("parent");
        let child = read_text("accept_score: 25\ngrader_flags: min\n", &parent).expect("child");
        assert!(!child.on_reject_break);
        assert_eq!(child.validator_flags, ["float_tolerance", "1e-6"]);
        assert!((child.accept_score - 25.0).abs() < f64::EPSILON);
        assert_eq!(child.score, ScoreRule::Min);
        assert_eq!(
            read_text("range: 0 100\n", &parent).expect("range").range,
            Some((0.0, 100.0))
        );
    }

    #[test]
    fn input_validator_flags_are_words_or_words_by_validator_in_both_namings() {
        let d = GroupFlags::default();
        let legacy = read_text("input_validator_flags: max 10\n", &d).expect("legacy");
        assert_eq!(legacy.input_flags.of("any"), ["max", "10"]);
        let draft = read_text("input_validator_args: [max, 10]\n", &d).expect("draft");
        assert_eq!(draft.input_flags, legacy.input_flags);
        let map = read_text(
            "input_validator_args:\n  bounds: [--max, 10]\n  shape: square\n",
            &d,
        )
        .expect("a map");
        assert_eq!(map.input_flags.of("bounds"), ["--max", "10"]);
        assert_eq!(map.input_flags.of("shape"), ["square"]);
        assert!(map.input_flags.of("other").is_empty());
        // Inherited by a group that does not set them.
        let child = read_text("accept_score: 2\n", &legacy).expect("child");
        assert_eq!(child.input_flags.of("v"), ["max", "10"]);
        assert!(read_text("input_validator_args: {v: {a: 1}}\n", &d).is_err());
    }

    #[test]
    fn unknown_keys_and_words_are_refused() {
        let d = GroupFlags::default();
        assert!(
            read_text("on_rejet: continue\n", &d)
                .unwrap_err()
                .contains("on_rejet")
        );
        assert!(
            read_text("grader_flags: median\n", &d)
                .unwrap_err()
                .contains("median")
        );
        assert!(read_text("on_reject: stop\n", &d).is_err());
        assert!(read_text("accept_score: many\n", &d).is_err());
    }
}
