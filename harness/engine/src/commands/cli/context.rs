//! The state every trial of a run shares ([`Context`]): the program, the
//! pack's driver and settings, the overrides, the style, where failures
//! and results go, and the early verdict; built once from the command line.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use libtest_mimic::FormatSetting;

use crate::bytes::visible::Style;
use crate::exec::driver::{CaseDriver, DriveSettings};
use crate::exec::run::{Later, Target};
use crate::judge::budget::EarlyStop;
use crate::judge::checker::Checkers;
use crate::judge::verdict::CaseResult;
use crate::model::case::Overrides;
use crate::packs::pack::Pack;

use super::args::Cli;
use super::told::SpentRun;

pub(super) struct Context {
    pub(super) target: Target,
    /// The pack's reference, which traced runs place a failure by (the
    /// target itself when it is the reference), made when a case first
    /// needs it ([`Context::reference`]).
    reference: Option<Later>,
    /// The pack's name and `--bin` as given, for the command that re-runs
    /// one conversation case.
    pub(super) spec: &'static str,
    pub(super) bin: Option<String>,
    pub(super) driver: Option<Arc<dyn CaseDriver>>,
    pub(super) settings: DriveSettings,
    pub(super) overrides: Overrides,
    pub(super) style: Style,
    pub(super) bless: bool,
    pub(super) program: &'static str,
    /// `--keep-failed`.
    pub(super) keep_failed: Option<PathBuf>,
    /// `--reproduce-as`: the program as the student names it.
    pub(super) reproduce_as: Option<String>,
    /// Whose outputs: a student's (no `--marker`) show a secret case
    /// redacted (`output::secret`) and give it no kit.
    pub(super) audience: crate::output::secret::Audience,
    /// Each failure's full report goes into its libtest message (JSON
    /// output); otherwise the message is one line and the full reports
    /// come grouped by cause after the run.
    pub(super) full_messages: bool,
    pub(super) results: Mutex<Vec<CaseResult>>,
    /// The early verdict on a program that hangs.
    pub(super) budget: EarlyStop,
    /// Timeouts charged without a second run, for telling their causes'
    /// worked examples slow or stuck after the run.
    pub(super) spent: Mutex<Vec<SpentRun>>,
    /// What each cause's confirmation told, shared by the cause's cases
    /// (one confirmation per cause: `settle.rs`).
    pub(super) causes: super::told::Causes,
    /// `--memcheck`.
    pub(super) memcheck: Option<crate::exec::memcheck::Memcheck>,
    /// The pack's `match:` checkers.
    pub(super) checkers: Checkers,
    /// `--strict`: tolerances forgive nothing (what they would have is
    /// listed).
    pub(super) strict: bool,
    /// Runs of the program whose own code ran, and the cases whose runs
    /// never started, decided once every case has run (`unstarted.rs`).
    pub(super) started: std::sync::atomic::AtomicUsize,
    pub(super) unstarted: Mutex<Vec<super::pending::Unstarted>>,
}

/// The state every trial shares.
pub(super) fn context(
    cli: &Cli,
    pack: &dyn Pack,
    program: &'static str,
    target: Target,
    timeout: Option<Duration>,
) -> Result<Context, String> {
    if let Some(memcheck) = &cli.memcheck {
        memcheck.check(&target)?;
    }
    // Not made here: a check of a blessed pack never runs the model.
    let reference = if target.is_reference() {
        Some(Later::ready(Some(target.clone())))
    } else if pack.reference_in_checks() {
        Some(pack.reference_later())
    } else {
        None
    };
    let checkers = crate::packs::pack::checkers(pack).with_model(reference.clone());
    Ok(Context {
        target,
        reference,
        spec: pack.spec(),
        // A student's report names their program as they build it.
        bin: cli
            .reproduce_as
            .clone()
            .or_else(|| cli.bin.as_ref().map(|b| b.to_string_lossy().into_owned())),
        driver: pack.driver(),
        settings: DriveSettings {
            time_factor: time_factor(cli, pack)?,
            timeout,
        },
        overrides: Overrides {
            timeout,
            // Not asked for when --timeout replaces it: a problem package
            // would time its accepted submissions for nothing.
            default_timeout: timeout.is_none().then(|| pack.default_timeout()).flatten(),
        },
        style: Style {
            colour: cli.libtest.colour(),
        },
        bless: cli.bless,
        program,
        keep_failed: cli.keep_failed.clone(),
        reproduce_as: cli.reproduce_as.clone(),
        audience: if cli.marker {
            crate::output::secret::Audience::Marker
        } else {
            crate::output::secret::Audience::Student
        },
        full_messages: matches!(cli.test.format, Some(FormatSetting::Json)),
        results: Mutex::new(Vec::new()),
        budget: EarlyStop::new(!cli.bless && !cli.no_early_stop)
            .offering(cli.reproduce_as.is_none()),
        spent: Mutex::new(Vec::new()),
        causes: super::told::Causes::default(),
        memcheck: cli.memcheck,
        checkers,
        strict: cli.strict,
        started: std::sync::atomic::AtomicUsize::new(0),
        unstarted: Mutex::new(Vec::new()),
    })
}

impl Context {
    /// Notes a run of the program (or a conversation with it): its own
    /// code ran, or it never started (`no_start`; then `later` is kept
    /// for `unstarted.rs` to decide once every case has run).
    pub(super) fn note_start(
        &self,
        no_start: Option<&crate::exec::run::NoStart>,
        later: impl FnOnce() -> super::pending::Unstarted,
    ) {
        if no_start.is_none() {
            self.started
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        } else {
            self.unstarted
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(later());
        }
    }

    /// Who reads this run's report: a student of a marked class
    /// (`--reproduce-as`, which only `mark` passes) or whoever ran it.
    pub(super) fn reader(&self) -> crate::output::report::Reader {
        if self.reproduce_as.is_some() {
            crate::output::report::Reader::Marked
        } else {
            crate::output::report::Reader::Own
        }
    }

    /// The pack's reference, made now if no case needed it before;
    /// `None` when it cannot run.
    pub(super) fn reference(&self) -> Option<&Target> {
        self.reference.as_ref().and_then(Later::get)
    }

    /// The pack's reference, not made until it is needed.
    pub(super) fn reference_later(&self) -> Option<&Later> {
        self.reference.as_ref()
    }
}

/// `--time-factor`, else `NAME_TIME_FACTOR`, else 1.
pub(super) fn time_factor(cli: &Cli, pack: &dyn Pack) -> Result<f64, String> {
    let name = format!("{}_TIME_FACTOR", pack.name().to_ascii_uppercase());
    let (factor, from) = match (cli.time_factor, std::env::var(&name)) {
        (Some(f), _) => (f, "--time-factor".to_owned()),
        (None, Ok(text)) if !text.is_empty() => (
            text.parse::<f64>()
                .map_err(|_| format!("{name}={text}: not a number"))?,
            name,
        ),
        _ => return Ok(1.0),
    };
    if factor.is_finite() && factor > 0.0 && factor < 1e6 {
        Ok(factor)
    } else {
        Err(format!("{from} must be a positive number, not {factor}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A check of a folder pack builds its model only when a case needs
    /// it: this model's build line would fail, and the context is made
    /// without trying it.
    #[test]
    fn a_check_does_not_build_the_model_before_a_case_needs_it() {
        let dir = tempfile::tempdir().expect("a folder");
        let write = |name: &str, text: &str| {
            std::fs::write(dir.path().join(name), text).expect("a pack file");
        };
        write(
            "pack.yaml",
            "name: lazy\nmodel:\n  build: exit 3\n  command: sh model.sh\n",
        );
        write("model.sh", "echo hi\n");
        write(
            "suite.yaml",
            "name: lazy\ncategories:\n  - {name: c, marks: 1}\n",
        );
        write(
            "rules.yaml",
            "rules:\n  - {id: T-1, summary: the rule, ambiguous: no}\n",
        );
        let pack = crate::packs::folder::FolderPack::load(&dir.path().to_string_lossy())
            .expect("the pack");
        let target = Target::command("true").expect("a program");
        let ctx = context(&Cli::default(), &pack, "test", target, None).expect("the context");
        let later = ctx.reference_later().expect("a folder pack's model");
        assert!(!later.is_made(), "built before any case needed it");
        assert!(
            ctx.reference().is_none(),
            "its build fails when it is needed"
        );
        assert!(later.is_made());
    }
}
