//! The codingame suite is whole: `rules.yaml` lists the rulings' rule IDs
//! (the pack's), every case parses with a script the driver accepts, cites
//! known rules and sits in its category's folder, every rule a bot can break
//! is cited, ambiguous-only rules are tagged, and the marks add up.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]
#![expect(clippy::panic, reason = "a missing suite file fails the test")]

use std::collections::{BTreeMap, BTreeSet};

use codingame_pack::pack::{BOT_RULES, PACK, SUITE};
use codingame_pack::script;
use conformance_engine::Pack as _;
use conformance_engine::schema::{self, Ambiguity, Case, Rules, Suite};

fn text(rel: &str) -> &'static [u8] {
    SUITE
        .get(rel)
        .unwrap_or_else(|| panic!("{rel} not embedded"))
}

fn cases() -> Vec<(&'static str, Case)> {
    SUITE
        .files
        .iter()
        .filter(|(p, _)| {
            p.contains('/')
                && std::path::Path::new(p)
                    .extension()
                    .is_some_and(|e| e == "yaml")
        })
        .map(|(p, b)| (*p, schema::parse::<Case>(p, b).unwrap()))
        .collect()
}

#[test]
fn rules_yaml_lists_the_rulings_ids_in_order() {
    let rules: Rules = schema::parse("rules.yaml", text("rules.yaml")).unwrap();
    let listed: Vec<&str> = rules.rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(listed, PACK.rule_ids());
    let rulings = PACK.rulings().unwrap();
    let mut in_rulings = Vec::new();
    for line in rulings.lines() {
        if let Some(rest) = line.strip_prefix("- ")
            && let Some(id) = rest.split_whitespace().next()
            && id.contains('-')
            && id.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && id
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
            && !in_rulings.contains(&id)
        {
            in_rulings.push(id);
        }
    }
    assert_eq!(in_rulings, listed);
    for rule in &rules.rules {
        let marked = rulings
            .lines()
            .skip_while(|l| !l.starts_with(&format!("- {} ", rule.id)))
            .take_while(|l| !l.starts_with("- ") || l.starts_with(&format!("- {} ", rule.id)))
            .any(|l| l.contains("(ambiguous"));
        assert_eq!(
            marked,
            rule.ambiguous != Ambiguity::No,
            "{}: rules.yaml says {}",
            rule.id,
            rule.ambiguous
        );
    }
}

#[test]
fn every_case_is_well_formed() {
    let suite: Suite = schema::parse("suite.yaml", text("suite.yaml")).unwrap();
    let rules: Rules = schema::parse("rules.yaml", text("rules.yaml")).unwrap();
    let whole: BTreeSet<&str> = rules
        .rules
        .iter()
        .filter(|r| r.ambiguous == Ambiguity::Whole)
        .map(|r| r.id.as_str())
        .collect();
    let ids: BTreeSet<&str> = rules.rules.iter().map(|r| r.id.as_str()).collect();
    let mut per_category: BTreeMap<&str, usize> = BTreeMap::new();
    let all = cases();
    assert!(all.len() >= 30);
    for (path, case) in &all {
        let folder = path.split('/').next().unwrap();
        assert_eq!(case.category, folder, "{path}");
        assert!(
            suite.categories.iter().any(|c| c.name == case.category),
            "{path}"
        );
        *per_category.entry(folder).or_default() += 1;
        assert!(!case.rules.is_empty(), "{path}");
        for r in &case.rules {
            assert!(ids.contains(r.as_str()), "{path}: {r}");
            if whole.contains(r.as_str()) {
                assert!(case.is_ambiguous(), "{path} cites {r}: tag it ambiguous");
            }
        }
        let script = case.script.as_ref().unwrap_or_else(|| panic!("{path}"));
        script::parse(script).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    for c in &suite.categories {
        assert!(
            per_category.get(c.name.as_str()).is_some_and(|n| *n > 0),
            "{}",
            c.name
        );
    }
    let marks: f64 = suite.categories.iter().map(|c| c.marks).sum();
    assert!((marks - 100.0).abs() < 1e-9);
}

#[test]
fn every_rule_a_bot_can_break_is_cited() {
    let cited: BTreeSet<String> = cases().into_iter().flat_map(|(_, c)| c.rules).collect();
    for rule in BOT_RULES {
        assert!(cited.contains(rule), "no case cites {rule}");
    }
}

#[test]
fn whole_matches_at_every_size_and_both_seats_are_covered() {
    let mut sizes = BTreeSet::new();
    let mut seats = BTreeSet::new();
    for (path, case) in cases() {
        if path.starts_with("full-matches/") {
            let s = script::parse(case.script.as_ref().unwrap()).unwrap();
            assert!(s.requests.is_none(), "{path}: a whole match");
            sizes.insert(s.size);
            seats.insert(format!("{:?}", s.seat));
        }
    }
    assert_eq!(sizes, (2..=9).collect());
    assert_eq!(seats.len(), 2);
}
