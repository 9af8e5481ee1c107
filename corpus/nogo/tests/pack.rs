//! The nogo pack as the engine sees it: its rule IDs are the rules of its
//! `rules.yaml`, its embedded suite carries the marking scheme, and its
//! rulings are in step with the normative source when that is at hand.

use conformance_engine::Pack as _;
use conformance_engine::suite::{self, Root};
use nogo_corpus::PACK;

#[test]
fn rule_ids_are_the_rules_of_rules_yaml() {
    let rules = suite::rules_for(&Root::Embedded(PACK.suite()), PACK.suite()).unwrap();
    let listed: Vec<&str> = rules.rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(PACK.rule_ids(), listed);
}

#[test]
fn embedded_suite_has_the_marking_scheme() {
    let suite = suite::suite_for(&Root::Embedded(PACK.suite()), PACK.suite()).unwrap();
    assert!(suite.categories.iter().any(|c| c.name == "full-games"));
    let total: f64 = suite.categories.iter().map(|c| c.marks).sum();
    assert!((total - 42.0).abs() < 1e-9, "{total}");
}

/// The rule text of the repository's copy (everything from the first rule
/// heading on) equals the normative source's, when the source is beside
/// the repository; the copy's introduction may differ (it points inside
/// the repository), and so may its own "Decisions of this repository".
#[test]
fn rulings_copy_is_in_step_with_the_source() {
    let copy = PACK.rulings().unwrap();
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/spec/nogo-rulings.md");
    let Ok(source) = std::fs::read_to_string(&source) else {
        return;
    };
    let body = |text: &str| -> String {
        let start = text.find("\n## ").unwrap_or(0);
        let end = text
            .find("\n## Decisions of this repository")
            .unwrap_or(text.len());
        text[start..end.max(start)].trim_end().to_owned()
    };
    assert_eq!(
        body(copy),
        body(&source),
        "cases/nogo/nogo-rulings.md drifted"
    );
}

/// Every rule the pack's own code cites is one of the rulings (the typed
/// list makes a misspelling impossible; this keeps the list whole).
#[test]
fn typed_rule_list_has_every_family_of_the_rulings() {
    let ids = PACK.rule_ids();
    for family in [
        "ARGS-", "FILE-", "GRID-", "TURN-", "COMP-", "CAPTURE-", "END-", "SAVE-", "EOF-", "SYS-",
    ] {
        assert!(ids.iter().any(|id| id.starts_with(family)), "{family}");
    }
}
