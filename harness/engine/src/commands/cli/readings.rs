//! A failed run judged against the other readings of the ambiguous
//! rules its case cites: passed under one, it is forgiven, and the
//! reading says what was.

use super::context::Context;
use super::settle::Aside;
use crate::judge::checker::CaseOracle;
use crate::judge::compare;

/// Judges a run that failed its case against the other readings of the
/// ambiguous rules it cites (`copy`, when it has some): passed under one,
/// its mismatches are cleared and the reading is what `aside` forgave;
/// else each reading it fails is noted in `judged`.
pub(super) fn other_reading(
    ctx: &Context,
    expected: &crate::model::case::Expectation,
    copy: Option<crate::exec::run::Outcome>,
    oracle: &CaseOracle<'_>,
    mismatches: &mut Vec<compare::Mismatch>,
    aside: &mut Aside,
    judged: &mut Vec<String>,
) -> Result<(), String> {
    let Some(copy) = copy.filter(|_| !mismatches.is_empty()) else {
        return Ok(());
    };
    let Some(alternative) = compare::other_reading(expected, &copy, oracle, ctx.strict)? else {
        // Other readings are the marker's detail: a marked student's
        // case fails as the main expectation says.
        if ctx.reader() == crate::output::report::Reader::Marked {
            return Ok(());
        }
        judged.extend(expected.alternatives.iter().map(|a| {
            format!(
                "also under the reading `{}` ({}): it fails that too",
                a.reading,
                a.rules.join(", ")
            )
        }));
        return Ok(());
    };
    aside.forgiven.push(compare::Forgiven {
        part: "the case".to_owned(),
        how: format!(
            "under the reading `{}` ({})",
            alternative.reading,
            alternative.rules.join(", ")
        ),
        charges: Vec::new(),
        forgave: String::new(),
    });
    mismatches.clear();
    Ok(())
}
