//! The run's budget against a program that hangs: the early verdict.
//!
//! A program that hangs on every case costs a whole timeout per case
//! (436 cases × 10 s ÷ 2 cores is 36 minutes) to say the same thing 436
//! times. So when the first [`EARLY_VERDICT_AFTER`] cases to finish all
//! timed out, the cases not yet started are not run: each is reported as a
//! failure that says why it was not run and how to run it anyway
//! ([`NO_EARLY_STOP`]), all of them one cause in the grouped report, and
//! `--score` charges them like any failure. Cases already running finish
//! and are judged as usual.
//!
//! The rule only looks at the *first* cases to finish: as soon as one of
//! them ends by itself (passed or failed, but not by the timeout), the
//! budget is disarmed for the rest of the run, so a program that times out
//! on a few cases and passes others is never cut short, whatever the order
//! of its timeouts. A case the harness could not run (an error) says nothing
//! about the program and is not counted either way.

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::bytes::quote;
use crate::exec::run::Ending;
use crate::judge::cause::{Cause, Edit, PartCause};
use crate::judge::failure::{CaseFailure, Difference, Notes};
use crate::judge::verdict::Verdict;
use crate::model::schema::Case;
use crate::model::suite::{CaseFile, Root};

/// Cases that must finish, all by the timeout, before the early verdict.
/// With the default 10 s timeout on 2 cores that is two waves of two
/// cases: the verdict comes after about 20 s (30 s with the cases already
/// started then), against 36 minutes for a suite of 436 cases.
pub const EARLY_VERDICT_AFTER: usize = 4;

/// The option that turns the early verdict off.
pub const NO_EARLY_STOP: &str = "--no-early-stop";

/// What one finished case says about whether the program hangs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// The harness killed it at the timeout.
    TimedOut,
    /// It ended by itself (exit, signal, output cap, a conversation judged).
    Ended,
    /// The case could not be run (a fault of the suite or the harness).
    Neutral,
}

impl Finish {
    /// What a case's verdict and ending (`None`: it did not run as one
    /// process, a conversation) say.
    pub fn of(verdict: &Verdict, ending: Option<&Ending>) -> Self {
        match (verdict, ending) {
            (Verdict::Error(_), _) => Self::Neutral,
            (_, Some(Ending::TimedOut { .. })) => Self::TimedOut,
            _ => Self::Ended,
        }
    }
}

/// Who is checked, for the command that runs a case anyway.
#[derive(Debug, Clone, Copy)]
pub struct Rerun<'a> {
    /// The harness's name.
    pub program: &'a str,
    /// The pack's name.
    pub spec: &'a str,
    /// `--bin` as given.
    pub bin: Option<&'a str>,
}

impl Rerun<'_> {
    /// The command that runs `file` despite the early verdict.
    pub fn command(&self, file: &CaseFile) -> String {
        let mut line = format!("{} --spec {}", self.program, self.spec);
        if let Some(bin) = self.bin {
            line.push_str(" --bin ");
            line.push_str(&quote::shell_quote(bin));
        }
        if let Root::Dir(dir) = &file.root {
            line.push_str(" --cases ");
            line.push_str(&quote::shell_quote_os(dir.as_os_str()));
        }
        line.push(' ');
        line.push_str(NO_EARLY_STOP);
        line.push_str(" --exact ");
        line.push_str(&quote::shell_quote(file.name()));
        line
    }
}

/// The early verdict's state, shared by every case of a run.
#[derive(Debug)]
pub struct EarlyStop {
    /// Timed-out cases that trip it; 0: never.
    after: usize,
    /// Whether its words may offer [`NO_EARLY_STOP`]: not to a student of
    /// a class `mark` marked, who runs no harness.
    offer: bool,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Cases finished so far, all timed out (while armed).
    timed_out: usize,
    /// A case ended by itself: the program does not hang everywhere.
    disarmed: bool,
    /// The verdict is in: cases not started are not run.
    stopped: bool,
    /// Cases not run because of it.
    not_run: usize,
}

impl EarlyStop {
    /// An early verdict after [`EARLY_VERDICT_AFTER`] timed-out cases, or
    /// none when `enabled` is false (`--no-early-stop`, blessing).
    pub fn new(enabled: bool) -> Self {
        Self::after(if enabled { EARLY_VERDICT_AFTER } else { 0 })
    }

    /// An early verdict after `after` timed-out cases (0: never).
    pub fn after(after: usize) -> Self {
        Self {
            after,
            offer: true,
            state: Mutex::new(State::default()),
        }
    }

    /// The same, its words offering no option (a marked student's report).
    #[must_use]
    pub fn offering(mut self, offer: bool) -> Self {
        self.offer = offer;
        self
    }

    /// How the words end: the option, or nothing a student cannot use.
    fn anyway(&self) -> String {
        if self.offer {
            format!("; {NO_EARLY_STOP} runs every case")
        } else {
            String::new()
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts a finished case.
    pub fn record(&self, finish: Finish) {
        let mut s = self.lock();
        if s.disarmed || s.stopped || self.after == 0 {
            return;
        }
        match finish {
            Finish::Neutral => {}
            Finish::Ended => s.disarmed = true,
            Finish::TimedOut => {
                s.timed_out += 1;
                s.stopped = s.timed_out >= self.after;
            }
        }
    }

    /// Whether a case about to start may run; `false` counts it as not run.
    pub fn admit(&self) -> bool {
        let mut s = self.lock();
        if s.stopped {
            s.not_run += 1;
        }
        !s.stopped
    }

    /// Whether the early verdict was reached (the program hangs).
    pub fn fired(&self) -> bool {
        self.lock().stopped
    }

    /// The cases not run because of the early verdict.
    pub fn not_run(&self) -> usize {
        self.lock().not_run
    }

    /// Why a case was not run, one line: what the libtest line and the
    /// report show.
    pub fn reason(&self) -> String {
        format!(
            "not run: early verdict, the first {} cases to finish all timed out (the program \
             hangs, or never ends at end of input), so this one would only time out again{}",
            self.after,
            self.anyway()
        )
    }

    /// The failure of a case that was not run; its notes' `reproduce` is
    /// the command that runs it anyway.
    pub fn failure(&self, notes: Notes) -> CaseFailure {
        let reason = self.reason();
        let cause = Cause {
            parts: vec![PartCause {
                place: None,
                part: "run".to_owned(),
                edit: Edit::NotRun(format!(
                    "early verdict after the first {} cases timed out",
                    self.after
                )),
            }],
        };
        CaseFailure {
            differences: vec![Difference::NotRun {
                reason: reason.clone(),
            }],
            quoted: cause.clone(),
            cause,
            input: None,
            summary: notes.summary,
            rules: notes.rules,
            hint: notes.hint,
            reproduce: notes.reproduce,
            rebless: notes.rebless,
            stdin_lines: 0,
            weight: 0,
            label: None,
            later: Vec::new(),
            later_differences: Vec::new(),
            judged: Vec::new(),
            decided: None,
        }
    }

    /// The verdict on a case that was not run.
    pub fn verdict(&self, rerun: &Rerun<'_>, file: &CaseFile, case: Option<&Case>) -> Verdict {
        let notes = Notes {
            summary: case.map(|c| c.summary.clone()).unwrap_or_default(),
            rules: case.map(|c| c.rules.clone()).unwrap_or_default(),
            reproduce: if self.offer {
                rerun.command(file)
            } else {
                "not run (the early verdict): the cases that ran show the hang, each with its \
                 own reproduce line"
                    .to_owned()
            },
            ..Notes::default()
        };
        Verdict::Failed(Box::new(self.failure(notes)))
    }

    /// The note printed after the run when cases were not run, `None`
    /// otherwise.
    pub fn summary(&self) -> Option<String> {
        let not_run = self.not_run();
        (not_run > 0).then(|| {
            let anyway = if self.offer {
                format!(" {NO_EARLY_STOP} runs every case, each up to its full timeout.")
            } else {
                String::new()
            };
            format!(
                "early verdict: the first {} cases to finish all timed out, so the program \
                 hangs (or never ends at end of input); the other {not_run} case(s) were not \
                 run and count as failed{}.{anyway}",
                self.after,
                if self.offer { ", in --score too" } else { "" }
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_finished_cases_all_timing_out_stop_the_rest() {
        let stop = EarlyStop::after(3);
        for _ in 0..2 {
            stop.record(Finish::TimedOut);
            assert!(stop.admit());
        }
        stop.record(Finish::Neutral);
        assert!(stop.admit(), "an error says nothing about the program");
        stop.record(Finish::TimedOut);
        assert!(!stop.admit());
        assert!(!stop.admit());
        assert_eq!(stop.not_run(), 2);
        let summary = stop.summary().unwrap();
        assert!(summary.contains("the first 3 cases to finish all timed out"));
        assert!(summary.contains("the other 2 case(s) were not run"));
        assert!(summary.contains(NO_EARLY_STOP));
    }

    #[test]
    fn one_case_ending_by_itself_disarms_it_for_good() {
        let stop = EarlyStop::after(2);
        stop.record(Finish::TimedOut);
        stop.record(Finish::Ended);
        for _ in 0..10 {
            stop.record(Finish::TimedOut);
            assert!(stop.admit());
        }
        assert_eq!(stop.not_run(), 0);
        assert_eq!(stop.summary(), None);
    }

    #[test]
    fn turned_off_it_never_stops() {
        let stop = EarlyStop::new(false);
        for _ in 0..100 {
            stop.record(Finish::TimedOut);
        }
        assert!(stop.admit());
    }

    #[test]
    fn a_case_not_run_is_one_cause_saying_why_and_how_to_run_it() {
        let stop = EarlyStop::new(true);
        let notes = Notes {
            reproduce: "checker --no-early-stop --exact a/b".to_owned(),
            ..Notes::default()
        };
        let a = stop.failure(notes.clone());
        let b = stop.failure(Notes::default());
        assert_eq!(a.cause, b.cause);
        assert_eq!(
            a.cause.to_string(),
            "run: not run (early verdict after the first 4 cases timed out)"
        );
        assert!(a.headline().starts_with("not run: early verdict"));
        assert!(a.headline().contains(NO_EARLY_STOP));
        let text = a.render(crate::bytes::visible::Style { colour: false });
        assert!(
            text.contains("checker --no-early-stop --exact a/b"),
            "{text}"
        );
    }

    #[test]
    fn the_rerun_command_names_the_program_its_cases_and_the_option() {
        let rerun = Rerun {
            program: "checker",
            spec: "game",
            bin: Some("./my prog"),
        };
        let file = CaseFile {
            root: Root::Dir("/tmp/my cases".into()),
            rel: "c/hang-1.yaml".to_owned(),
        };
        assert_eq!(
            rerun.command(&file),
            "checker --spec game --bin './my prog' --cases '/tmp/my cases' \
             --no-early-stop --exact c/hang-1"
        );
    }

    #[test]
    fn timeouts_count_errors_do_not() {
        let timed_out = Ending::TimedOut {
            after: std::time::Duration::from_secs(1),
            awaiting_prompt: None,
        };
        let failed = EarlyStop::new(true).failure(Notes::default());
        let failed = Verdict::Failed(Box::new(failed));
        assert_eq!(Finish::of(&failed, Some(&timed_out)), Finish::TimedOut);
        assert_eq!(Finish::of(&failed, Some(&Ending::Exited(1))), Finish::Ended);
        assert_eq!(Finish::of(&Verdict::Passed, None), Finish::Ended);
        assert_eq!(
            Finish::of(&Verdict::Error("x".into()), Some(&timed_out)),
            Finish::Neutral
        );
    }

    #[test]
    fn a_marked_students_early_verdict_offers_no_option() {
        let stop = EarlyStop::after(1).offering(false);
        stop.record(Finish::TimedOut);
        assert!(!stop.admit());
        let summary = stop.summary().unwrap_or_default();
        assert!(
            summary.contains("were not run and count as failed."),
            "{summary}"
        );
        assert!(!summary.contains("--"), "{summary}");
        assert!(!stop.reason().contains("--"), "{}", stop.reason());
    }
}
