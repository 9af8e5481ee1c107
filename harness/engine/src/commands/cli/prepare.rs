//! What a case needs before it runs (its file parsed and checked against
//! the suite, its invocation, its expectations, the reads the reference
//! makes), and a conversation case's whole path through the pack's
//! driver. Apart from `trials.rs`, which runs and judges the case.

use crate::bytes::quote;
use crate::exec::driver::Conversation;
use crate::exec::run::Invocation;
use crate::judge::compare;
use crate::judge::failure::{CaseFailure, Notes};
use crate::judge::verdict::Verdict;
use crate::model::case;
use crate::model::schema::{Case, CaseReads, Suite};
use crate::model::suite::CaseFile;

use super::context::Context;

/// Runs a case holding a `script` through the pack's driver.
pub(super) fn converse(
    ctx: &Context,
    file: &CaseFile,
    case: &Case,
    script: &serde_json::Value,
    suite: Result<Suite, String>,
    aside: &mut super::settle::Aside,
) -> Verdict {
    let Some(driver) = &ctx.driver else {
        return Verdict::Error(format!(
            "{}: the case holds a `script` but pack `{}` runs no conversations",
            file.display(),
            ctx.spec
        ));
    };
    let checked = suite
        .map_err(|e| format!("invalid suite.yaml: {e}"))
        .and_then(|suite| {
            case::check_category(case, file, &suite).map_err(|e| e.to_string())?;
            driver
                .check(script)
                .map_err(|e| format!("{}: `script`: {e}", file.display()))
        });
    if let Err(e) = checked {
        return Verdict::Error(e);
    }
    let conversation = match driver.drive(script, &ctx.target, ctx.settings) {
        Ok(c) => c,
        Err(e) => return Verdict::Error(format!("{}: {e}", file.display())),
    };
    // A program that never started is decided once every case has run
    // (unstarted.rs).
    ctx.note_start(conversation.no_start.as_ref(), || {
        super::pending::Unstarted::Conversation {
            file: file.clone(),
            case: Box::new(case.clone()),
            script: script.clone(),
        }
    });
    // A passed case's score (a problem package's validator's) goes to
    // its category's grader.
    if conversation.exchanges.is_empty() && conversation.no_start.is_none() {
        aside.score = conversation.score;
    }
    spoken(ctx, file, case, conversation)
}

/// The verdict on a conversation: passed, failed, or the environment's
/// where the program's runtime never started.
pub(super) fn spoken(
    ctx: &Context,
    file: &CaseFile,
    case: &Case,
    conversation: Conversation,
) -> Verdict {
    if let Some(no) = conversation.no_start {
        let notes = Notes {
            summary: case.summary.clone(),
            rules: case.rules.clone(),
            ..Notes::default()
        };
        let lack = crate::judge::environment::Lack::Start(no);
        return Verdict::Failed(Box::new(crate::judge::environment::failure(
            &lack,
            &[],
            notes,
        )));
    }
    if conversation.exchanges.is_empty() {
        return Verdict::Passed;
    }
    conversation_failure(ctx, file, case, conversation)
}

/// The failure of a conversation case, rendered like any other.
pub(super) fn conversation_failure(
    ctx: &Context,
    file: &CaseFile,
    case: &Case,
    conversation: Conversation,
) -> Verdict {
    let mismatches: Vec<compare::Mismatch> = conversation
        .exchanges
        .into_iter()
        .map(compare::Mismatch::Exchange)
        .collect();
    let mut rerun = format!("{} --spec {}", ctx.program, ctx.spec);
    if let Some(bin) = &ctx.bin {
        rerun.push_str(" --bin ");
        rerun.push_str(&quote::shell_quote(bin));
    }
    rerun.push_str(" --exact ");
    rerun.push_str(&quote::shell_quote(file.name()));
    let notes = Notes {
        summary: case.summary.clone(),
        rules: case.rules.clone(),
        hint: case.hint.clone(),
        // A driver with no replay by hand says how the conversation ended.
        reproduce: if conversation.reproduce.is_empty() {
            conversation.ending
        } else {
            format!(
                "{}
  ({}; the requests fed at once, as ANSWER-1 allows)",
                conversation.reproduce, conversation.ending
            )
        },
        rebless: Some(("re-run this conversation:".to_owned(), rerun)),
        ..Notes::default()
    };
    Verdict::Failed(Box::new(CaseFailure::new(&mismatches, &[], notes)))
}

/// Why a case could not be prepared.
#[derive(Debug)]
pub(super) enum Unprepared {
    /// A fault of the suite or the harness.
    Fault(String),
    /// The environment's: the model's runtime never started when it ran
    /// to count its reads. No verdict on the program.
    Environment(crate::judge::environment::Lack),
}

impl From<String> for Unprepared {
    fn from(fault: String) -> Self {
        Self::Fault(fault)
    }
}

/// Everything a case needs before it runs.
pub(super) fn prepare(
    ctx: &Context,
    file: &CaseFile,
    parsed: Result<Case, String>,
    suite: Result<Suite, String>,
) -> Result<(Case, Invocation, crate::model::case::Expectation), Unprepared> {
    let case = parsed.map_err(|e| {
        format!("invalid case file (a fault of the suite, not of the program): {e}")
    })?;
    let suite = suite.map_err(|e| format!("invalid suite.yaml: {e}"))?;
    case::check_category(&case, file, &suite).map_err(|e| e.to_string())?;
    let inv =
        case::invocation(&case, file, &ctx.target, ctx.overrides).map_err(|e| e.to_string())?;
    let mut expected = case::expectation(&case, file).map_err(|e| e.to_string())?;
    expected.any_status = suite.status_ambiguous && !case.is_ambiguous();
    expected.matching = case::matching(&case, file, &suite).map_err(|e| e.to_string())?;
    for alternative in &mut expected.alternatives {
        alternative.rules = case
            .rules
            .iter()
            .filter(|r| {
                suite
                    .rule_readings
                    .get(*r)
                    .is_some_and(|readings| readings.contains_key(&alternative.reading))
            })
            .cloned()
            .collect();
        if alternative.rules.is_empty() {
            return Err(format!(
                "{}: `readings: {}`: no rule the case cites names that reading in rules.yaml \
                 (re-bless the case)",
                file.display(),
                alternative.reading
            )
            .into());
        }
    }
    for command in expected.matching.checkers() {
        ctx.checkers
            .usable(command)
            .map_err(|e| format!("{}: {e}", file.display()))?;
    }
    let mut inv = inv;
    if let Some(prompt) = suite.prompt.as_ref().filter(|p| !p.is_empty()) {
        inv.prompt = prompt.as_bytes().to_vec();
    }
    // Where a tolerance frees stdout's text, how many lines the program
    // reads still counts: against the model's count `bless` recorded
    // (never re-run per program), else, in a case blessed before counts
    // were recorded, measured on the reference. Not where the case or a
    // rule it cites says `reads: off`, nor where `bless` found the
    // model's count varies, nor without a count to compare with.
    let blessed = match case.reads {
        Some(CaseReads::Count(n)) => Some(usize::try_from(n).unwrap_or(usize::MAX)),
        _ => None,
    };
    let judged = match case.reads {
        Some(CaseReads::Not(_)) => false,
        _ => !case.rules.iter().any(|r| suite.reads_off.contains(r)),
    };
    expected.count_reads = expected.matching.frees_stdout()
        && judged
        && (blessed.is_some() || ctx.reference().is_some());
    // At a terminal the prompt gate types a line per prompt: reads are
    // counted where stdin is a pipe.
    if expected.count_reads && inv.mode != crate::exec::run::Mode::Interactive {
        // The reference is made only for a count `bless` did not keep.
        expected.reads = match (
            blessed,
            blessed.is_none().then(|| ctx.reference()).flatten(),
        ) {
            (Some(n), _) => Some(n),
            (None, Some(reference)) => crate::judge::provenance::reads_of_case(reference, &inv)
                .map_err(|e| match e {
                    crate::judge::provenance::Uncounted::Fault(e) => {
                        Unprepared::Fault(format!("{}: {e}", file.display()))
                    }
                    crate::judge::provenance::Uncounted::NoStart(no_start) => {
                        Unprepared::Environment(crate::judge::environment::Lack::ModelStart(
                            no_start,
                        ))
                    }
                })?,
            (None, None) => None,
        };
        inv.count_reads = true;
    }
    if let Some(memcheck) = &ctx.memcheck {
        memcheck.apply(&mut inv)?;
    }
    Ok((case, inv, expected))
}
