//! The nogo pack as the engine sees it: its rule IDs are the rules of its
//! `rules.yaml`, its embedded suite carries the marking scheme, and its
//! rulings are in step with the normative source when that is at hand.

use conformance_engine::Pack as _;
use conformance_engine::pack;
use conformance_engine::suite::{self, Root};
use nogo_corpus::PACK;

#[test]
fn rule_ids_are_the_rules_of_rules_yaml() {
    assert_eq!(PACK.rule_ids(), pack::listed_rule_ids(&PACK).unwrap());
}

#[test]
fn embedded_suite_has_the_marking_scheme() {
    let suite = suite::suite_for(&Root::Embedded(PACK.suite()), PACK.suite()).unwrap();
    assert!(suite.categories.iter().any(|c| c.name == "full-games"));
    let total: f64 = suite.categories.iter().map(|c| c.marks).sum();
    assert!((total - 42.0).abs() < 1e-9, "{total}");
}

/// The rule text of the repository's copy equals the normative source's,
/// when the source is beside the repository.
#[test]
fn rulings_copy_is_in_step_with_the_source() {
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/spec/nogo-rulings.md");
    if let Some((copy, source)) = pack::rulings_and_source(&PACK, &source) {
        assert_eq!(copy, source, "cases/nogo/nogo-rulings.md drifted");
    }
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
