//! The gridgame pack as the engine sees it: its rule IDs are the rules of
//! its `rules.yaml`, every rule is cited by a case, its embedded suite
//! carries the eight categories and the ambiguous exit status, and its
//! rulings are in step with the normative source when that is at hand.

use conformance_engine::Pack as _;
use conformance_engine::pack;
use conformance_engine::suite::{self, Root};
use gridgame_corpus::PACK;

#[test]
fn rule_ids_are_the_rules_of_rules_yaml() {
    assert_eq!(PACK.rule_ids(), pack::listed_rule_ids(&PACK).unwrap());
}

#[test]
fn embedded_suite_has_the_eight_categories_and_an_ambiguous_status() {
    let suite = suite::suite_for(&Root::Embedded(PACK.suite()), PACK.suite()).unwrap();
    let names: Vec<&str> = suite.categories.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "pre-game",
            "display",
            "human-input",
            "computer-first-level",
            "computer-tie-break",
            "extra-turn",
            "post-game",
            "full-games"
        ]
    );
    assert!(
        suite.status_ambiguous,
        "PROG-2: the text gives no exit status"
    );
}

/// The rule text of the repository's copy equals the normative source's,
/// when the source is beside the repository.
#[test]
fn rulings_copy_is_in_step_with_the_source() {
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/spec/gridgame-rulings.md");
    if let Some((copy, source)) = pack::rulings_and_source(&PACK, &source) {
        assert_eq!(copy, source, "cases/gridgame/gridgame-rulings.md drifted");
    }
}
