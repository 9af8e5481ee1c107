//! `coverage`: every rule of the rules file with the number of cases
//! citing it.

use std::collections::BTreeMap;
use std::process::ExitCode;

use crate::model::suite;
use crate::output::exit;
use crate::output::report;
use crate::packs::pack::Pack;

use super::app::usage_error;
use super::plan::{Selection, gather};

pub(super) fn coverage(program: &str, pack: &dyn Pack, selections: &[Selection]) -> ExitCode {
    let mut rules = None;
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for selection in selections {
        let (root, cases) = match gather(selection) {
            Ok(Some(found)) => found,
            Ok(None) => continue,
            Err(e) => return usage_error(program, &e),
        };
        if rules.is_none() {
            match suite::rules_for(&root, pack.suite()) {
                Ok(r) => rules = Some(r),
                Err(e) => return usage_error(program, &e.to_string()),
            }
        }
        for (_, parsed) in cases {
            for rule in parsed.map(|c| c.rules).unwrap_or_default() {
                *counts.entry(rule).or_default() += 1;
            }
        }
    }
    let Some(rules) = rules else {
        return usage_error(program, "no cases");
    };
    print!("{}", report::coverage_table(&rules, &counts));
    exit::code(exit::PASSED)
}
