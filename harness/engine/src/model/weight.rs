//! What a case weighs in its marking category: its own `weight:`, else
//! the largest `weight:` of the rules it cites that have one, else 1. A
//! category's marks are shared by weight, so a rule a course cares about
//! can cost more than one slip repeated in many cases.

use std::collections::BTreeMap;

use crate::model::schema::{Case, Rules};

/// The weight of a case that neither it nor its rules weigh.
pub const DEFAULT: f64 = 1.0;

/// The weights `rules.yaml` gives its rules, checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Weights {
    by_rule: BTreeMap<String, f64>,
}

/// Whether `w` can weigh a case: a finite number above zero (a case that
/// should count for nothing is left out of the suite, not weighed 0).
fn valid(w: f64) -> bool {
    w.is_finite() && w > 0.0
}

impl Weights {
    /// The weights of `rules`, read from `file` (named in the error): a
    /// weight that is not a positive number is a fault of the suite.
    pub fn of_rules(file: &str, rules: &Rules) -> Result<Self, String> {
        let mut by_rule = BTreeMap::new();
        for rule in &rules.rules {
            if let Some(w) = rule.weight {
                if !valid(w) {
                    return Err(format!(
                        "{file}: rule {}: `weight: {w}` must be a positive number",
                        rule.id
                    ));
                }
                by_rule.insert(rule.id.clone(), w);
            }
        }
        Ok(Self { by_rule })
    }

    /// What `case` (from `file`, named in the error) weighs.
    pub fn of_case(&self, file: &str, case: &Case) -> Result<f64, String> {
        if let Some(w) = case.weight {
            return if valid(w) {
                Ok(w)
            } else {
                Err(format!("{file}: `weight: {w}` must be a positive number"))
            };
        }
        Ok(case
            .rules
            .iter()
            .filter_map(|r| self.by_rule.get(r).copied())
            .reduce(f64::max)
            .unwrap_or(DEFAULT))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::schema::parse;

    fn rules(text: &str) -> Rules {
        parse("rules.yaml", text.as_bytes()).unwrap()
    }

    fn case(text: &str) -> Case {
        parse(
            "c.yaml",
            format!("summary: s\ncategory: c\n{text}").as_bytes(),
        )
        .unwrap()
    }

    const RULES: &str = "rules:\n  - {id: A-1, summary: a, ambiguous: no, weight: 3}\n  \
                         - {id: A-2, summary: b, ambiguous: no, weight: 0.5}\n  \
                         - {id: A-3, summary: c, ambiguous: no}\n";

    #[test]
    fn a_case_takes_its_own_weight_else_its_heaviest_rule_else_one() {
        let w = Weights::of_rules("rules.yaml", &rules(RULES)).unwrap();
        assert_eq!(w.of_case("c", &case("rules: [A-2]\nweight: 7\n")), Ok(7.0));
        assert_eq!(w.of_case("c", &case("rules: [A-2, A-1, A-3]\n")), Ok(3.0));
        assert_eq!(w.of_case("c", &case("rules: [A-2, A-3]\n")), Ok(0.5));
        assert_eq!(w.of_case("c", &case("rules: [A-3]\n")), Ok(DEFAULT));
        assert_eq!(w.of_case("c", &case("rules: [B-9]\n")), Ok(DEFAULT));
    }

    #[test]
    fn a_weight_that_is_not_positive_is_a_fault_named_by_file_and_rule() {
        let bad = "rules:\n  - {id: A-1, summary: a, ambiguous: no, weight: 0}\n";
        let e = Weights::of_rules("x/rules.yaml", &rules(bad)).unwrap_err();
        assert!(e.contains("x/rules.yaml: rule A-1: `weight: 0`"), "{e}");
        let e = Weights::default()
            .of_case("c.yaml", &case("rules: []\nweight: -1\n"))
            .unwrap_err();
        assert!(e.starts_with("c.yaml: `weight: -1`"), "{e}");
    }
}
