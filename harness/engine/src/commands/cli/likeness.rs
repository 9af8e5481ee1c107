//! Which registered pack a program looks like. A program of one pack run
//! against another's suite (the `--spec` forgotten) fails nearly every
//! case, and its causes say nothing of the real mistake; so when most
//! cases failed, the program's answers to the first cases of each
//! registered pack are compared with that pack's expectations, and a pack
//! that fits far better is named before the causes ("this looks like a
//! NAME program: --spec NAME?"). The engine names no pack: it iterates the
//! registered ones.

use std::time::Duration;

use crate::exec::run::Target;
use crate::model::case::{self, Overrides};
use crate::model::suite::{CaseFile, Root};
use crate::packs::pack::Pack;

/// Cases of each pack a program is tried on.
const PROBE: usize = 10;

/// The time each of them gets: a program that waits for other input
/// than it is given must not cost a case's full limit (and its first
/// timeout ends the probe of that pack).
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// Passes a better pack needs over the pack asked for, of [`PROBE`].
const MARGIN: usize = 3;

/// How many of `pack`'s first cases `target` passes, of how many ran.
fn fit(pack: &dyn Pack, target: &Target) -> (usize, usize) {
    let root = Root::Embedded(pack.suite());
    let Ok(files) = root.case_files() else {
        return (0, 0);
    };
    let (mut passed, mut ran) = (0, 0);
    for rel in files {
        if ran == PROBE {
            break;
        }
        let file = CaseFile {
            root: root.clone(),
            rel,
        };
        let Ok(case) = case::load(&file) else {
            continue;
        };
        if case.is_ambiguous() {
            continue;
        }
        let overrides = Overrides {
            timeout: Some(PROBE_TIMEOUT),
            default_timeout: None,
        };
        let (Ok(inv), Ok(expected)) = (
            case::invocation(&case, &file, target, overrides),
            case::expectation(&case, &file),
        ) else {
            continue;
        };
        let Ok(outcome) = crate::exec::run::run(&inv) else {
            continue;
        };
        ran += 1;
        // A program that waits for other input than this pack gives would
        // wait out every case: one timeout ends the probe of this pack.
        if matches!(outcome.ending, crate::exec::run::Ending::TimedOut { .. }) {
            break;
        }
        if crate::judge::compare::compare_owned(&expected, outcome).is_empty() {
            passed += 1;
        }
    }
    (passed, ran)
}

/// The note naming the pack `target` looks like, when the run on
/// `current` failed most of its `total` cases and another registered pack
/// (one run case by case, not by a driver) fits far better.
///
/// A run of fewer than [`PROBE`] cases (`--exact`, a filter) says nothing
/// of the pack: a handful of failures is a bug, not a forgotten `--spec`.
/// The packs are probed at once, each on its own thread, so a program that
/// waits out every probe costs one [`PROBE_TIMEOUT`], not one per pack;
/// the pack asked for is probed only when another one fits.
pub(super) fn note(
    packs: &[&dyn Pack],
    current: &dyn Pack,
    target: &Target,
    failed: usize,
    total: usize,
) -> Option<String> {
    if target.is_reference() || total < PROBE || failed * 2 <= total {
        return None;
    }
    let others: Vec<&dyn Pack> = packs
        .iter()
        .copied()
        .filter(|p| p.name() != current.name() && p.driver().is_none())
        .collect();
    let fits: Vec<(usize, usize)> = std::thread::scope(|scope| {
        let running: Vec<_> = others
            .iter()
            .map(|p| scope.spawn(move || fit(*p, target)))
            .collect();
        running
            .into_iter()
            .map(|h| h.join().unwrap_or((0, 0)))
            .collect()
    });
    let candidates: Vec<(&str, (usize, usize))> = others
        .iter()
        .zip(fits)
        .map(|(p, f)| (p.name(), f))
        .filter(|(_, (passed, ran))| *ran > 0 && passed * 2 > *ran && *passed >= MARGIN)
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let own = fit(current, target).0;
    candidates
        .into_iter()
        .filter(|(_, (passed, _))| *passed >= own + MARGIN)
        .max_by_key(|(_, (passed, _))| *passed)
        .map(|(name, (passed, ran))| {
            format!(
                "this looks like a {name} program: --spec {name}? (it passes {passed} of the \
                 first {ran} {name} cases, {own} of the first {PROBE} {} cases)",
                current.name()
            )
        })
}
