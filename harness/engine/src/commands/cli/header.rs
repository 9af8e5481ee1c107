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
                ctx.reader(),
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
            // A student's report (`--reproduce-as`) names no folder of
            // the marker's: the suite's folder by its name alone.
            Root::Embedded(s) if s.at_run_time && ctx.reproduce_as.is_some() => {
                std::path::Path::new(s.display).file_name().map_or_else(
                    || s.display.to_owned(),
                    |n| n.to_string_lossy().into_owned(),
                )
            }
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
    // Which interpreter ran, in its own words: a `python3` on the marker's
    // machine is not always the one a student has.
    if !cli.test.list
        && let Some(interpreter) = interpreter(&ctx.target)
    {
        println!("{program}: interpreter {interpreter}");
    }
    // The course's environment by its relative names (never the
    // marker's folders: a student's report carries this header).
    if let Some(env) = run::course_env::get() {
        println!("{program}: environment: {}", env.summary);
    }
    if let Some(m) = &ctx.memcheck {
        println!("{program}: memory checked: {}", memcheck_line(*m));
    }
    // The tolerance listing is the marker's vocabulary (checker command
    // lines, counts of cases): a marked student reads each case's own
    // `judged:` line where it matters.
    if !cli.bless
        && ctx.reader() == report::Reader::Own
        && let Some(line) = tolerances(plan, cli.strict)
    {
        println!("{program}: {line}");
    }
    if let Some(widened) = conformance_sandbox::policy::get().describe() {
        println!("{program}: {widened}");
    }
    let _ = std::io::stdout().flush();
}

/// The header's line on the tolerances the run uses (docs/matching.md),
/// `None` when every case compares exactly.
pub(super) fn tolerances(plan: &Plan, strict: bool) -> Option<String> {
    let mut declared: Vec<String> = Vec::new();
    for (_, suite) in &plan.suites {
        if let Ok(s) = suite {
            for d in crate::model::matching::declared(s.matching.as_ref(), &s.rule_matching) {
                if !declared.contains(&d) {
                    declared.push(d);
                }
            }
        }
    }
    if plan.cases_with_match > 0 {
        declared.push(format!(
            "{} case(s) declare their own",
            plan.cases_with_match
        ));
    }
    if declared.is_empty() {
        return None;
    }
    Some(format!(
        "tolerances{}: {}",
        if strict {
            " (--strict: judged exactly; what they forgive is listed)"
        } else {
            ""
        },
        declared.join("; ")
    ))
}

/// What the header says of `target`'s interpreter: its path and the
/// first line it prints for `--version` where that succeeds, run
/// contained as the program runs (`/usr/bin/python3 (Python 3.11.2)`); `None` for a program that is
/// run itself.
pub(super) fn interpreter(target: &run::Target) -> Option<String> {
    if !target.is_interpreted() {
        return None;
    }
    let said = version_of(target);
    // A path under the caller's home is shown from `~`: the interpreter
    // is named, not the marker's folders.
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let path = match home
        .as_deref()
        .and_then(|h| target.path().strip_prefix(h).ok())
    {
        Some(rest) if home.as_deref() != Some(std::path::Path::new("/")) => {
            format!("~/{}", rest.display())
        }
        _ => target.path().display().to_string(),
    };
    Some(match said {
        Some(v) => format!("{path} ({v})"),
        None => format!("{path} (no version: it does not answer `--version`)"),
    })
}

/// The interpreter's version: a JDK's from its `release` file (a JVM
/// started for its version costs as much as a case), else the first
/// line it prints for `--version`.
fn version_of(target: &run::Target) -> Option<String> {
    if let Some(release) = run::jdk::release_version(target.path()) {
        return Some(release);
    }
    let mut inv = run::Invocation::new(
        target.interpreter_only(),
        vec!["--version".into()],
        Vec::new(),
    );
    inv.timeout = std::time::Duration::from_secs(5);
    // An interpreter that does not know the option (dash: `Illegal
    // option --`, exit 2) prints an error, not its version.
    let ran = run::run(&inv)
        .ok()
        .filter(|o| matches!(o.ending, run::Ending::Exited(0)));
    ran.and_then(|o| {
        let mut both = o.stdout;
        both.extend_from_slice(&o.stderr);
        String::from_utf8_lossy(&both)
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(|l| l.chars().take(100).collect::<String>())
    })
}

/// What `--memcheck` does, in the header's words.
fn memcheck_line(m: crate::exec::memcheck::Memcheck) -> String {
    use crate::exec::memcheck::Tool;
    let tool = match m.tool {
        Tool::Asan => "AddressSanitizer and UndefinedBehaviorSanitizer (built in; time limits x3)",
        Tool::Valgrind => "each case under valgrind's memcheck (time limits x10 + 5 s)",
    };
    let leaks = if m.leaks {
        "leaks charged"
    } else {
        "leaks not charged"
    };
    let charged = if m.warn {
        "an error is a warning (reported, no case fails by it)"
    } else {
        "an error fails its case"
    };
    format!("{tool}; {leaks}; {charged}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JDK's version comes from its `release` file: the launcher is not
    /// started (this one would say another version); without the file it
    /// is asked.
    #[test]
    fn a_jdk_is_named_without_starting_it() {
        let dir = tempfile::tempdir().expect("a folder");
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).expect("bin");
        let java = bin.join("java");
        std::fs::write(&java, "#!/bin/sh\necho 'started 99'\n").expect("a launcher");
        std::fs::set_permissions(&java, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .expect("executable");
        std::fs::write(
            dir.path().join("release"),
            "JAVA_VERSION=\"21.0.2\"\nJAVA_VERSION_DATE=\"2024-01-16\"\n",
        )
        .expect("a release file");
        let target = run::Target::binary(&java).expect("a target");
        assert_eq!(
            version_of(&target).as_deref(),
            Some("Java 21.0.2 2024-01-16")
        );
        std::fs::remove_file(dir.path().join("release")).expect("removed");
        assert_eq!(version_of(&target).as_deref(), Some("started 99"));
    }

    /// An interpreter that fails `--version` (dash) has no version: its
    /// error is not one.
    #[test]
    fn an_error_for_version_is_no_version() {
        let dir = tempfile::tempdir().expect("a folder");
        let sh = dir.path().join("sh");
        std::fs::write(
            &sh,
            "#!/bin/sh\necho \"$0: 0: Illegal option --\" >&2\nexit 2\n",
        )
        .expect("an interpreter");
        std::fs::set_permissions(&sh, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .expect("executable");
        let target = run::Target::binary(&sh).expect("a target");
        assert_eq!(version_of(&target), None);
    }
}
