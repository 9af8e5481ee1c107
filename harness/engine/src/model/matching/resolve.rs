//! A `match:` declaration as written ([`MatchSpec`]) and its resolution
//! for one case: which declaration (the case's, a rule's, the suite's)
//! judges each stream, file and the status ([`Matching`]), and what
//! forgiving a departure charges.

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::Deserialize;

use super::status::StatusMatch;
use super::tolerance::{EVERY_FILE, Tolerance};

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
