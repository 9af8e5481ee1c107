//! A package's time limit, made one way for `verify`, the default run
//! and `mark`: `limits.time_limit` when the package fixes it, else the
//! slowest accepted case times the format's multiplier (legacy
//! `time_multiplier`, 2023-07 `time_multipliers.ac_to_time_limit`),
//! rounded to whole seconds as problemtools does; runs are killed at the
//! limit times the safety margin (`time_safety_margin`,
//! `time_limit_to_tle`). When no accepted submission could run the
//! limit is [`FALLBACK`], and says so.
//!
//! Under the default run and `mark` the accepted submissions are timed
//! once per command ([`crate::packs::problem::verify::derive_time_limit`]);
//! `mark` hands the limit to each submission's check through
//! [`LIMIT_ENV`], keyed by a hash of what the timing read (the package's
//! `problem.yaml`, `languages.yaml`, inputs and accepted sources), so a
//! class is timed once, not once per student.

use std::sync::Mutex;
use std::time::Duration;

use sha2::{Digest as _, Sha256};

use crate::packs::problem::package::{Problem, TimeRule};

/// The limit when the package fixes none and no accepted submission
/// could run (none, or no compiler for any): problemtools' own cap for
/// an accepted run is 300 s; a student's check needs less.
pub const FALLBACK: Duration = Duration::from_secs(10);

/// The variable a `mark` hands its checks the limit it derived in.
pub const LIMIT_ENV: &str = "CONFORMANCE_PROBLEM_TIME_LIMIT";

/// The slowest accepted case: its time, the submission and the case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slowest {
    /// The case's time (CPU where the sandbox measures it).
    pub time: Duration,
    /// The submission (`accepted/sum.py`).
    pub submission: String,
    /// The case (`secret/group1/2`).
    pub case: String,
}

/// Where a limit came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// `limits.time_limit`.
    Fixed,
    /// The slowest accepted case times the multiplier.
    Slowest(Slowest),
    /// No accepted submission ran: why.
    Fallback(String),
    /// Derived by the `mark` that started this check (its words).
    Inherited(String),
}

/// A package's time limit, where runs are killed, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeLimit {
    /// Longer is a timeout.
    pub limit: Duration,
    /// Where a run is killed.
    pub kill_after: Duration,
    /// Where it came from.
    pub origin: Origin,
}

/// The limit of a package whose rule is `rule`, the slowest accepted
/// case `slowest` (`Err`: why none ran).
pub fn of(rule: &TimeRule, slowest: Result<Slowest, String>) -> TimeLimit {
    let margin = rule.time_limit_to_tle;
    if let Some(f) = rule
        .fixed
        .filter(|t| t.is_finite() && *t > 0.0)
        .and_then(|t| Duration::try_from_secs_f64(t).ok())
    {
        return TimeLimit {
            limit: f,
            kill_after: f.mul_f64(margin.max(1.0)),
            origin: Origin::Fixed,
        };
    }
    match slowest {
        Ok(s) => {
            let exact = s.time.as_secs_f64() * rule.ac_to_time_limit;
            let limit = (exact + 0.5).floor().max(1.0);
            let kill = (exact * margin + 0.5).floor().max(limit + 1.0);
            TimeLimit {
                limit: Duration::from_secs_f64(limit),
                kill_after: Duration::from_secs_f64(kill),
                origin: Origin::Slowest(s),
            }
        }
        Err(why) => TimeLimit {
            limit: FALLBACK,
            kill_after: FALLBACK.mul_f64(margin.max(1.0)),
            origin: Origin::Fallback(why),
        },
    }
}

impl TimeLimit {
    /// The limit and where it came from, in words (`rule`, the
    /// package's multipliers).
    pub fn words(&self, rule: &TimeRule) -> String {
        let secs = |d: Duration| number(d.as_secs_f64());
        let (limit, kill) = (secs(self.limit), secs(self.kill_after));
        match &self.origin {
            Origin::Fixed => {
                format!("time limit {limit} s (limits.time_limit), timeouts killed at {kill} s")
            }
            Origin::Slowest(s) => format!(
                "time limit {limit} s: the slowest accepted case {:.3} s ({} on {}) × {}, \
                 timeouts killed at {kill} s (× {})",
                s.time.as_secs_f64(),
                s.submission,
                s.case,
                number(rule.ac_to_time_limit),
                number(rule.time_limit_to_tle)
            ),
            Origin::Fallback(why) => format!(
                "time limit {limit} s, the default: {why}, so none could derive one \
                 (docs/problem-packages.md)"
            ),
            Origin::Inherited(words) => words.clone(),
        }
    }
}

/// A number as people write it: `2`, `1.5`.
pub fn number(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// What the timing of `problem` read, hashed: its `problem.yaml`,
/// `languages.yaml`, every case's input and the accepted submissions'
/// files.
pub fn key(problem: &Problem) -> String {
    let mut hash = Sha256::new();
    let mut add = |name: &str, bytes: &[u8]| {
        hash.update((name.len() as u64).to_le_bytes());
        hash.update(name.as_bytes());
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    for file in ["problem.yaml", "languages.yaml"] {
        add(
            file,
            &std::fs::read(problem.dir.join(file)).unwrap_or_default(),
        );
    }
    for (_, case) in problem.root.all_cases() {
        add(&case.name, &case.input);
    }
    for sub in problem
        .submissions
        .iter()
        .filter(|s| s.folder == "accepted")
    {
        for entry in walkdir::WalkDir::new(&sub.path)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
        {
            let name = entry
                .path()
                .strip_prefix(&problem.dir)
                .unwrap_or(entry.path());
            add(
                &name.to_string_lossy(),
                &std::fs::read(entry.path()).unwrap_or_default(),
            );
        }
    }
    format!("{:x}", hash.finalize())
}

/// The limits this process derived, as `KEY\tLIMIT\tKILL\tWORDS` lines.
static DERIVED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Records `limit` (derived for the package hashed `key`) for the
/// harnesses this process starts.
pub fn remember(key: &str, limit: &TimeLimit, rule: &TimeRule) {
    let line = format!(
        "{key}\t{}\t{}\t{}",
        limit.limit.as_secs_f64(),
        limit.kill_after.as_secs_f64(),
        limit.words(rule).replace(['\t', '\n'], " ")
    );
    if let Ok(mut d) = DERIVED.lock() {
        d.retain(|l| l.split('\t').next() != Some(key));
        d.push(line);
    }
}

/// The variable naming the limits this process derived, for a harness
/// it starts; `None` when it derived none.
pub fn child_env() -> Option<(&'static str, String)> {
    let d = DERIVED.lock().ok()?;
    (!d.is_empty()).then(|| (LIMIT_ENV, d.join("\n")))
}

/// The limit a parent harness derived for the package hashed `key`.
pub fn inherited(key: &str) -> Option<TimeLimit> {
    let listed = std::env::var(LIMIT_ENV).ok()?;
    parse_inherited(&listed, key)
}

fn parse_inherited(listed: &str, key: &str) -> Option<TimeLimit> {
    listed.lines().find_map(|l| {
        let mut parts = l.splitn(4, '\t');
        if parts.next()? != key {
            return None;
        }
        let secs = |p: Option<&str>| {
            p?.parse::<f64>()
                .ok()
                .and_then(|s| Duration::try_from_secs_f64(s).ok())
                .filter(|d| !d.is_zero())
        };
        let limit = secs(parts.next())?;
        let kill_after = secs(parts.next())?;
        Some(TimeLimit {
            limit,
            kill_after,
            origin: Origin::Inherited(parts.next()?.to_owned()),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(fixed: Option<f64>) -> TimeRule {
        TimeRule {
            fixed,
            ac_to_time_limit: 5.0,
            time_limit_to_tle: 2.0,
        }
    }

    fn slowest(ms: u64) -> Result<Slowest, String> {
        let time = Duration::from_millis(ms);
        // As `verify` hands it: none when no accepted case ran.
        (!time.is_zero())
            .then(|| Slowest {
                time,
                submission: "accepted/a.py".into(),
                case: "secret/1".into(),
            })
            .ok_or_else(|| "no accepted submission".to_owned())
    }

    #[test]
    fn numbers_drop_trailing_zeros() {
        assert_eq!(number(2.0), "2");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(0.125), "0.125");
    }

    #[test]
    fn the_slowest_accepted_case_times_the_multiplier_rounded() {
        let t = of(&rule(None), slowest(140));
        assert_eq!(t.limit, Duration::from_secs(1));
        assert_eq!(t.kill_after, Duration::from_secs(2));
        let t = of(&rule(None), slowest(700));
        assert_eq!(
            (t.limit, t.kill_after),
            (Duration::from_secs(4), Duration::from_secs(7))
        );
        assert!(
            t.words(&rule(None))
                .contains("the slowest accepted case 0.700 s (accepted/a.py on secret/1) × 5"),
            "{}",
            t.words(&rule(None))
        );
    }

    #[test]
    fn a_fixed_limit_wins_and_none_ran_is_the_default_said() {
        let t = of(&rule(Some(1.5)), slowest(700));
        assert_eq!(
            (t.limit, t.origin.clone()),
            (Duration::from_millis(1500), Origin::Fixed)
        );
        let t = of(&rule(None), Err("no accepted submission".into()));
        assert_eq!(t.limit, FALLBACK);
        assert!(
            t.words(&rule(None))
                .contains("the default: no accepted submission")
        );
    }

    #[test]
    fn an_inherited_limit_is_read_for_its_key_only() {
        let r = rule(None);
        let t = of(&r, slowest(700));
        let line = format!("k1\t4\t7\t{}", t.words(&r));
        let got = parse_inherited(&format!("k0\t1\t2\tx\n{line}"), "k1").expect("found");
        assert_eq!((got.limit, got.kill_after), (t.limit, t.kill_after));
        assert_eq!(got.words(&r), t.words(&r));
        assert!(parse_inherited(&line, "k2").is_none());
        assert!(parse_inherited("k1\t0\t7\tx", "k1").is_none());
    }
}
