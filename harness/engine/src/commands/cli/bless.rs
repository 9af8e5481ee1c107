//! `--bless` for one case: run the reference and rewrite the case's
//! expected fields.

use crate::exec::run;
use crate::model::case;
use crate::model::schema::{Case, CaseReads, ReadsNot, Suite};
use crate::model::suite::CaseFile;
use crate::output::bless::{self, Blessed, FromModel, Taken};

/// The file a traced model writes its record to, in its case folder.
const TRACE_FILE: &str = ".conformance-trace";

use super::context::Context;

pub(super) fn bless_one(
    ctx: &Context,
    file: &CaseFile,
    parsed: Result<Case, String>,
    suite: Option<&crate::model::schema::Suite>,
) -> Result<(), String> {
    let prompt = suite.and_then(|s| s.prompt.as_deref());
    let case = parsed?;
    // A conversation's expectations are its rules, not bytes: nothing to
    // write.
    if case.script.is_some() {
        return Ok(());
    }
    let mut inv =
        case::invocation(&case, file, &ctx.target, ctx.overrides).map_err(|e| e.to_string())?;
    if let Some(p) = prompt.filter(|p| !p.is_empty()) {
        inv.prompt = p.as_bytes().to_vec();
    }
    let (outcome, activity) =
        run::run_with_activity(&inv).map_err(|e| format!("{}: {e}", file.display()))?;
    // The reference's time is its CPU time where /proc tells it: wall time
    // grows with the machine's load, and a suite re-blessed on a busy
    // machine must not change (its limits derive from this time).
    let mut took = activity.cpu.unwrap_or(outcome.elapsed);
    let mut from_model = FromModel::default();
    // A model solution is a program like any other: one that does not
    // give the same bytes twice is named, and its case left as it was.
    if ctx.target.is_model() {
        if let Some(why) = crate::output::model_bless::could_not_run(&outcome) {
            return Err(format!("{}: not blessed: {why}", file.display()));
        }
        if let Some(why) =
            crate::output::model_bless::names_its_folders(&outcome, ctx.target.model_home())
        {
            return Err(format!("{}: not blessed: {why}", file.display()));
        }
        // The second run counts the model's reads where the case judges
        // them: the same bytes, stdin fed a line at a time.
        let count = counts_reads(&case, file, suite)
            && inv.mode != run::Mode::Interactive
            && !kept_varies(ctx.program, &case, file);
        let mut counting = inv.clone();
        counting.count_reads = count;
        // The second run is traced too: its record, kept with the case,
        // names a failure by rule at `run` and `mark` without the model.
        let mut traced = counting.clone();
        traced.env.push((
            std::ffi::OsString::from(reference_kit::trace::ENV),
            std::ffi::OsString::from(TRACE_FILE),
        ));
        let (mut again, again_activity) =
            run::run_with_activity(&traced).map_err(|e| format!("{}: {e}", file.display()))?;
        let record = again.files.remove(TRACE_FILE);
        if let Some(why) = crate::output::model_bless::could_not_run(&again) {
            return Err(format!("{}: not blessed: {why}", file.display()));
        }
        if let Some(part) = crate::output::model_bless::unstable(&outcome, &again) {
            return Err(format!(
                "{}: not blessed: the model is not deterministic on this case ({part} differs \
                 between two runs)",
                file.display()
            ));
        }
        checkers_accept(ctx, &case, file, suite, &inv, &outcome)?;
        from_model.trace = match record {
            Some(record) => Taken::Record(record),
            None => Taken::NoTrace,
        };
        // The faster run's time: the other may have paid a cold start.
        took = took.min(again_activity.cpu.unwrap_or(again.elapsed));
        if count {
            let more = counted_runs(&counting, &outcome)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            let runs: Vec<Option<&run::Outcome>> = std::iter::once(Some(&again))
                .chain(more.iter().map(Option::as_ref))
                .collect();
            let reads = model_reads(ctx.program, file, &runs);
            // A count the machine kept from being certain leaves an
            // earlier certain one as it was.
            let keep_earlier = reads == CaseReads::Not(ReadsNot::Uncertain)
                && matches!(case.reads, Some(CaseReads::Count(_)));
            from_model.reads = (!keep_earlier).then_some(reads);
        }
    }
    let readings = other_readings(&case, suite)
        .into_iter()
        .map(|(name, env)| {
            let mut under = inv.clone();
            under.env.extend(
                env.into_iter()
                    .map(|(k, v)| (std::ffi::OsString::from(k), std::ffi::OsString::from(v))),
            );
            let out = run::run(&under).map_err(|e| format!("{}: {e}", file.display()))?;
            if ctx.target.is_model()
                && let Some(why) = crate::output::model_bless::could_not_run(&out)
            {
                return Err(format!(
                    "{}: not blessed: under the reading `{name}`: {why}",
                    file.display()
                ));
            }
            Ok((name, out))
        })
        .collect::<Result<Vec<_>, String>>()?;
    match bless::bless(file, &case, &outcome, took, &readings, &from_model) {
        Ok(Blessed::Changed | Blessed::Unchanged) => Ok(()),
        Err(e) => Err(e.to_string()),
    }
}

/// Every checker the case declares on a stream or a file, run once on
/// the model's own bytes (on both sides): a checker that crashes is a
/// fault of the pack, found here, at `bless`, with its traceback, rather
/// than on a student's run; one that rejects the model's own output is
/// one too.
fn checkers_accept(
    ctx: &Context,
    case: &Case,
    file: &CaseFile,
    suite: Option<&Suite>,
    inv: &run::Invocation,
    outcome: &run::Outcome,
) -> Result<(), String> {
    use crate::model::matching::Tolerance;
    let Some(matching) = suite.and_then(|s| case::matching(case, file, s).ok()) else {
        return Ok(());
    };
    let mut parts: Vec<(String, &str, &[u8])> = Vec::new();
    for (part, judging, bytes) in [
        ("stdout", &matching.stdout, &outcome.stdout),
        ("stderr", &matching.stderr, &outcome.stderr),
    ] {
        if let Tolerance::Checker(command) = &judging.tolerance {
            parts.push((part.to_owned(), command, bytes));
        }
    }
    for (path, judging) in &matching.files {
        if let (Tolerance::Checker(command), Some(bytes)) =
            (&judging.tolerance, outcome.files.get(path))
        {
            parts.push((format!("file:{path}"), command, bytes));
        }
    }
    for (part, command, bytes) in parts {
        match ctx.checkers.check(command, inv, &part, bytes, bytes) {
            Ok(None) => {}
            Ok(Some(reason)) => {
                return Err(format!(
                    "{}: not blessed: checker `{command}` rejects the model's own {part}: \
                     {reason} (a fault of the checker)",
                    file.display()
                ));
            }
            Err(e) => return Err(format!("{}: not blessed: {e}", file.display())),
        }
    }
    Ok(())
}

/// Whether `case` judges the stdin lines a program reads: a tolerance
/// frees its stdout, and neither it nor a rule it cites says `reads: off`.
fn counts_reads(case: &Case, file: &CaseFile, suite: Option<&Suite>) -> bool {
    let Some(suite) = suite else {
        return false;
    };
    let off = case.reads == Some(CaseReads::Not(ReadsNot::Off))
        || case.rules.iter().any(|r| suite.reads_off.contains(r));
    !off && case::matching(case, file, suite).is_ok_and(|m| m.frees_stdout())
}

/// How many runs of the model count its reads at `bless` (the traced
/// run among them). A model that reads one line more on a random half of
/// its runs agrees with itself on all of them with a chance of 2 in 2^8
/// (under 1%), and a `varies` once found stays: a second bless misses it
/// with a chance under 1 in 10,000. The runs are parallel, so a bless
/// pays about one run more per case, not seven.
pub(crate) const COUNTED_RUNS: usize = 8;

/// Whether `case` says `reads: varies` from an earlier bless: it stays
/// (a count that varied once may agree on the next runs by luck) until
/// the lecturer deletes the line. Said on stderr, as every case whose
/// reads are not judged is.
fn kept_varies(program: &str, case: &Case, file: &CaseFile) -> bool {
    let kept = case.reads == Some(CaseReads::Not(ReadsNot::Varies));
    if kept {
        eprintln!(
            "{program}: {}: reads not judged (`reads: varies`, kept from an earlier bless: \
             delete the line and bless again to count anew)",
            file.display()
        );
    }
    kept
}

/// The counting runs after the traced one, in parallel; each that did
/// not end as the model's first run (a runtime that failed to start)
/// runs once more, and is `None` if it still does not: it says nothing
/// of reads.
fn counted_runs(
    counting: &run::Invocation,
    first: &run::Outcome,
) -> Result<Vec<Option<run::Outcome>>, run::RunError> {
    let one = || -> Result<Option<run::Outcome>, run::RunError> {
        let again = run::run(counting)?;
        if crate::output::model_bless::unstable(first, &again).is_none() {
            return Ok(Some(again));
        }
        let again = run::run(counting)?;
        Ok(crate::output::model_bless::unstable(first, &again)
            .is_none()
            .then_some(again))
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (1..COUNTED_RUNS).map(|_| s.spawn(one)).collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Ok(None)))
            .collect()
    })
}

/// The model's read count from `runs` (each fed a line at a time; `None`
/// a run that did not end as the model's first): the count when every
/// run read the same number of lines and each was certain; `uncertain`
/// when a count was not certain; else `varies`. Each not judged is said
/// on stderr with why: `bless` names every case whose reads are not
/// judged.
fn model_reads(program: &str, file: &CaseFile, runs: &[Option<&run::Outcome>]) -> CaseReads {
    let counts: Vec<Option<usize>> = runs
        .iter()
        .map(|o| {
            let o = (*o)?;
            o.reads
                .as_ref()
                .filter(|r| !r.uncertain && matches!(o.ending, run::Ending::Exited(_)))
                .map(run::Reads::count)
        })
        .collect();
    let certain: Option<Vec<usize>> = counts.iter().copied().collect();
    match certain.as_deref() {
        Some([a, rest @ ..]) if rest.iter().all(|b| b == a) => {
            CaseReads::Count(u64::try_from(*a).unwrap_or(u64::MAX))
        }
        Some(all) => {
            let low = all.iter().min().copied().unwrap_or_default();
            let high = all.iter().max().copied().unwrap_or_default();
            eprintln!(
                "{program}: {}: reads not judged (`reads: varies`): the model read from {low} to \
                 {high} stdin line(s) over {} runs",
                file.display(),
                all.len()
            );
            CaseReads::Not(ReadsNot::Varies)
        }
        None => {
            eprintln!(
                "{program}: {}: reads not judged (`reads: uncertain`): the model's count is \
                 not certain (a run not seen waiting for each stdin line it read, or one that \
                 did not end as the first run did: the machine's, counted again at the next \
                 bless)",
                file.display()
            );
            CaseReads::Not(ReadsNot::Uncertain)
        }
    }
}

/// The other readings of the ambiguous rules `case` cites, each with the
/// environment that makes the model follow it (a reading two rules name
/// runs once, with both rules' variables).
fn other_readings(
    case: &Case,
    suite: Option<&crate::model::schema::Suite>,
) -> std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>> {
    let mut out: std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>> =
        std::collections::BTreeMap::new();
    let Some(suite) = suite else {
        return out;
    };
    for rule in &case.rules {
        for (name, env) in suite.rule_readings.get(rule).into_iter().flatten() {
            out.entry(name.clone())
                .or_default()
                .extend(env.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
    }
    out
}
