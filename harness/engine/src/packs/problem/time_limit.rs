//! A problem package's time limit under `run`, `mark` and an
//! interactive case's driver: `limits.time_limit` when the package
//! fixes one, else the limit `verify` derives from the accepted
//! submissions, worked out once per command when a run first asks (a
//! `mark`'s checks inherit their `mark`'s) and said on stderr with where
//! it came from. Below both the pack ([`super::as_pack`]) and its
//! conversation driver ([`super::conversation`]), which share one.

use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use crate::packs::problem::limit;
use crate::packs::problem::package::{Problem, TimeRule};

/// A package's time limit: fixed, or derived once when first asked.
#[derive(Debug)]
pub struct TimeLimit {
    spec: &'static str,
    fixed: Option<Duration>,
    derived: OnceLock<Duration>,
}

impl TimeLimit {
    /// The limit of the package at `spec`, whose `problem.yaml` says
    /// `time`.
    pub fn of(spec: &'static str, time: &TimeRule) -> Self {
        let fixed = match limit::of(time, Err(String::new())) {
            t if t.origin == limit::Origin::Fixed => Some(t.limit),
            _ => None,
        };
        Self {
            spec,
            fixed,
            derived: OnceLock::new(),
        }
    }

    /// `limits.time_limit`, when the package fixes it.
    #[cfg(test)]
    pub fn fixed(&self) -> Option<Duration> {
        self.fixed
    }

    /// The limit: the fixed one, or the derived one (derived at the
    /// first call).
    pub fn get(&self) -> Duration {
        self.fixed
            .unwrap_or_else(|| *self.derived.get_or_init(|| derive(self.spec)))
    }
}

/// The limit of the package at `spec` derived from its accepted
/// submissions (or inherited from the `mark` that started this check),
/// said on stderr with where it came from; a package whose accepted
/// submissions cannot be timed gets [`limit::FALLBACK`], said so.
fn derive(spec: &str) -> Duration {
    let problem = match Problem::load(Path::new(spec)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!(
                "--spec {spec}: time limit {} s, the default: {e}",
                limit::FALLBACK.as_secs()
            );
            return limit::FALLBACK;
        }
    };
    let key = limit::key(&problem);
    if let Some(inherited) = limit::inherited(&key) {
        limit::remember(&key, &inherited, &problem.time);
        return inherited.limit;
    }
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let derived = crate::packs::problem::verify::derive_time_limit(&problem, workers)
        .unwrap_or_else(|e| {
            limit::of(
                &problem.time,
                Err(format!("its accepted submissions could not be timed ({e})")),
            )
        });
    eprintln!("--spec {spec}: {}", derived.words(&problem.time));
    limit::remember(&key, &derived, &problem.time);
    derived.limit
}
