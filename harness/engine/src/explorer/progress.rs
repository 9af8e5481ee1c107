//! What a person sees while `diff` runs: a progress bar on stderr on a
//! terminal, or else a plain progress line on stderr every few seconds
//! (so a log shows the run is alive even while a session hangs), each
//! mismatch's report on stdout as it is found, and a summary at the end.

use std::fmt::Write as FmtWrite;
use std::io::IsTerminal as _;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::args::DiffCli;
use super::explore::Context;
use super::found::Report;
use crate::bytes::quote::shell_quote;

/// How often a plain progress line is printed when stderr is not a
/// terminal.
pub const PLAIN_EVERY: Duration = Duration::from_secs(3);

/// The progress bar, hidden when stderr is not a terminal (plain lines
/// then, from [`Progress::plain_lines`]).
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    plain: bool,
    total: Option<u64>,
    done: AtomicU64,
    mismatching: AtomicU64,
    distinct: AtomicUsize,
    finished: AtomicBool,
    started: Instant,
}

impl Progress {
    /// A bar counting to `total` sessions, or a spinner when the run is
    /// timed.
    pub fn new(total: Option<u64>) -> Self {
        let plain = !std::io::stderr().is_terminal();
        let target = if plain {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
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
        if !plain {
            bar.enable_steady_tick(Duration::from_millis(200));
        }
        Self {
            bar,
            plain,
            total,
            done: AtomicU64::new(0),
            mismatching: AtomicU64::new(0),
            distinct: AtomicUsize::new(0),
            finished: AtomicBool::new(false),
            started: Instant::now(),
        }
    }

    /// When stderr is not a terminal, prints a plain progress line at once
    /// and every [`PLAIN_EVERY`] until [`Progress::finish`] (which prints
    /// the last); returns at once
    /// otherwise. Run it on a thread of its own: it does not depend on
    /// sessions ending.
    pub fn plain_lines(&self) {
        if !self.plain {
            return;
        }
        eprintln!("{}", self.line());
        let mut next = Instant::now() + PLAIN_EVERY;
        while !self.finished.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(100));
            if Instant::now() >= next {
                next += PLAIN_EVERY;
                eprintln!("{}", self.line());
            }
        }
    }

    /// The plain progress line.
    fn line(&self) -> String {
        let done = self.done.load(Ordering::Relaxed);
        let secs = self.started.elapsed().as_secs_f64();
        #[expect(
            clippy::cast_precision_loss,
            reason = "a session count is far below 2^52"
        )]
        let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
        format!(
            "diff: {done}{} sessions, {rate:.0}/s, {} mismatching, {} distinct, {secs:.0} s",
            self.total.map_or_else(String::new, |t| format!("/{t}")),
            self.mismatching.load(Ordering::Relaxed),
            self.distinct.load(Ordering::Relaxed),
        )
    }

    /// One more session done; `mismatching` sessions so far, `distinct` of
    /// them written.
    pub fn tick(&self, mismatching: u64, distinct: usize) {
        self.done.fetch_add(1, Ordering::Relaxed);
        self.mismatching.store(mismatching, Ordering::Relaxed);
        self.distinct.store(distinct, Ordering::Relaxed);
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
        if self.plain && !self.finished.swap(true, Ordering::Relaxed) {
            eprintln!("{}", self.line());
        }
        self.finished.store(true, Ordering::Relaxed);
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
    if cli.strict {
        again.push_str(" --strict");
    }
    println!(
        "diff: {} sessions, {} mismatching, {} distinct mismatch(es) written to {}, {secs:.1} s \
         ({rate:.0} sessions/s), seed {seed}",
        report.sessions,
        report.mismatching,
        report.findings.len(),
        cli.out.display()
    );
    if report.set_apart > 0 {
        println!(
            "  {} difference(s) on ambiguous points, not counted: --ambiguous shows them",
            report.set_apart
        );
    }
    forgiven(report, cli.strict);
    if report.unshrunk > 0 {
        println!(
            "  {} mismatching session(s) not shrunk: the {} shrinks before them only found \
             known mismatches",
            report.unshrunk,
            super::dedup::REPEATS_BEFORE_SKIPPING
        );
    }
    println!("  again: {again}");
}

/// The summary's lines on the tolerances: which the run judged with, and
/// what they forgave (under `--strict`, would have), by part.
fn forgiven(report: &Report, strict: bool) {
    /// Forgiven parts listed at most, the most frequent first.
    const SHOWN: usize = 5;
    if report.tolerances.is_empty() {
        return;
    }
    println!(
        "  tolerances{}: {}",
        if strict {
            " (--strict: judged exactly)"
        } else {
            ""
        },
        report.tolerances.join("; ")
    );
    if report.forgiven == 0 {
        return;
    }
    if strict {
        println!(
            "  --strict: {} mismatching session(s) differ where a tolerance forgives; without \
             --strict these parts pass:",
            report.forgiven
        );
    } else {
        println!(
            "  {} session(s) differing only where a tolerance forgives, not counted (--strict \
             judges them exactly):",
            report.forgiven
        );
    }
    let mut how: Vec<&(String, u64)> = report.forgiven_how.iter().collect();
    how.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (part, n) in how.iter().take(SHOWN) {
        println!("    {part}: {n} session(s)");
    }
    if how.len() > SHOWN {
        println!("    and {} more", how.len() - SHOWN);
    }
}
