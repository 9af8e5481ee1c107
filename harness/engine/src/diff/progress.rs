//! What a person sees while `diff` runs: a progress bar on stderr (only on
//! a terminal) with sessions per second and mismatches found, each
//! mismatch's report on stdout as it is found, and a summary at the end.

use std::fmt::Write as FmtWrite;
use std::io::IsTerminal as _;
use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::explore::Context;
use super::{DiffCli, Report};
use crate::report::shell_quote;

/// The progress bar, hidden when stderr is not a terminal.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar counting to `total` sessions, or a spinner when the run is
    /// timed.
    pub fn new(total: Option<u64>) -> Self {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(total, target);
        let template = if total.is_some() {
            "{elapsed_precise} [{wide_bar}] {pos}/{len} sessions, {rate}, {msg}"
        } else {
            "{elapsed_precise} {spinner} {pos} sessions, {rate}, {msg}"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            // indicatif's own {per_sec} prints four decimals; whole sessions
            // per second read better and match the end summary.
            let style = style.with_key("rate", |state: &ProgressState, w: &mut dyn FmtWrite| {
                let _ = write!(w, "{:.0}/s", state.per_sec());
            });
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message("0 mismatches");
        bar.enable_steady_tick(Duration::from_millis(200));
        Self { bar }
    }

    /// One more session done; `mismatching` sessions so far, `distinct` of
    /// them written.
    pub fn tick(&self, mismatching: u64, distinct: usize) {
        self.bar.inc(1);
        if mismatching > 0 {
            self.bar
                .set_message(format!("{mismatching} mismatching, {distinct} distinct"));
        }
    }

    /// Prints `text` on stdout without tearing the bar.
    pub fn println(&self, text: &str) {
        self.bar.suspend(|| print!("{text}"));
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The end summary on stdout: sessions, mismatches, time, seed, and the
/// command that runs the same sessions again.
pub fn summary(report: &Report, seed: u64, cli: &DiffCli, bin: &Path, context: &Context<'_>) {
    let secs = report.elapsed.as_secs_f64();
    #[expect(
        clippy::cast_precision_loss,
        reason = "a session count is far below 2^52"
    )]
    let rate = if secs > 0.0 {
        report.sessions as f64 / secs
    } else {
        0.0
    };
    let mut again = format!(
        "{} diff{} --bin {} --seed {seed} --sessions {}",
        context.program,
        context.spec_arg(),
        shell_quote(&bin.display().to_string()),
        report.sessions
    );
    if let Some(against) = &cli.against {
        let _ = write!(
            again,
            " --against {}",
            shell_quote(&against.display().to_string())
        );
    }
    if cli.ambiguous {
        again.push_str(" --ambiguous");
    }
    println!(
        "diff: {} sessions, {} mismatching, {} distinct mismatch(es) written to {}, {secs:.1} s \
         ({rate:.0} sessions/s), seed {seed}",
        report.sessions,
        report.mismatching,
        report.findings.len(),
        cli.out.display()
    );
    if report.unshrunk > 0 {
        println!(
            "  {} mismatching session(s) not shrunk: the {} shrinks before them only found \
             known mismatches",
            report.unshrunk,
            super::REPEATS_BEFORE_SKIPPING
        );
    }
    println!("  again: {again}");
}
