//! `--bless` for one case: run the reference and rewrite the case's
//! expected fields.

use crate::exec::run;
use crate::model::case;
use crate::model::schema::Case;
use crate::model::suite::CaseFile;
use crate::output::bless::{self, Blessed};

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
        let (again, again_activity) =
            run::run_with_activity(&inv).map_err(|e| format!("{}: {e}", file.display()))?;
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
        // The faster run's time: the other may have paid a cold start.
        took = took.min(again_activity.cpu.unwrap_or(again.elapsed));
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
    match bless::bless(file, &case, &outcome, took, &readings) {
        Ok(Blessed::Changed | Blessed::Unchanged) => Ok(()),
        Err(e) => Err(e.to_string()),
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
