//! What a run prints around libtest's own output: the header naming the
//! program and the suite, and the report of an interrupted run.

use std::io::Write as _;
use std::sync::{Arc, PoisonError};

use crate::exec::run;
use crate::judge::verdict::Verdict;
use crate::model::suite::{self, Root};
use crate::output::report;

use super::args::Cli;
use super::context::Context;
use super::plan::{Plan, first_suite};

/// On Ctrl-C / SIGTERM ([`crate::exec::interrupt`]): every program is killed
/// and every sandbox removed, then this prints what finished (and, with
/// `--score`, the partial score of the run's first suite, marked partial)
/// before the exit 130 / 143.
pub(super) fn install_interrupt_report(ctx: &Arc<Context>, cli: &Cli, plan: &Plan) {
    let score_suite = cli.score.then(|| first_suite(plan).cloned()).flatten();
    let strict = cli.strict;
    let ctx = Arc::clone(ctx);
    crate::exec::interrupt::on_interrupt(move |sig| {
        let results = ctx.results.lock().unwrap_or_else(PoisonError::into_inner);
        let passed = results
            .iter()
            .filter(|r| matches!(r.verdict, Verdict::Passed))
            .count();
        let mut text = format!(
            "\ninterrupted by {}: {} cases finished ({passed} passed, {} failed); every \
             running program was killed and its sandbox removed; the other cases did not run\n",
            run::signal_name(sig),
            results.len(),
            results.len() - passed
        );
        if let Some(suite) = &score_suite {
            text.push_str("partial score (interrupted: only the cases that finished count):\n");
            text.push_str(&report::score_table(
                suite,
                &report::score(suite, &results, strict),
                strict,
            ));
        }
        // Not `println!`: its panic on a closed stdout would run the quiet
        // hook, which stops every run again under the registry's lock this
        // report is called under: a deadlock that kept the harness alive
        // after SIGTERM.
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    });
}

/// The suite's name and version, as the header shows them.
pub(super) fn suite_name(plan: &Plan) -> String {
    plan.suites
        .iter()
        .find_map(|(_, s)| s.as_ref().ok())
        .map(|s| match &s.version {
            Some(v) => format!("{} v{v}", s.name),
            None => s.name.clone(),
        })
        .unwrap_or_default()
}

/// The header: the program, the suite's name, version and content hash.
pub(super) fn print_header(program: &str, cli: &Cli, ctx: &Context, plan: &Plan) {
    let suite_name = suite_name(plan);
    let from: Vec<String> = plan
        .roots
        .iter()
        .map(|r| match r {
            Root::Embedded(s) if s.at_run_time => s.display.to_owned(),
            Root::Embedded(_) => "built in".to_owned(),
            Root::Dir(d) => d.display().to_string(),
        })
        .collect();
    println!(
        "{program}: {} {} against suite {suite_name} (content {}; {} cases from {})",
        if cli.bless {
            "blessing from"
        } else {
            "checking"
        },
        ctx.reproduce_as
            .clone()
            .unwrap_or_else(|| ctx.target.describe()),
        suite::content_hash(&plan.roots),
        plan.trials.len(),
        from.join(", ")
    );
    if let Some(widened) = conformance_sandbox::policy::get().describe() {
        println!("{program}: {widened}");
    }
    let _ = std::io::stdout().flush();
}
