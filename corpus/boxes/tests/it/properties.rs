//! Property: for any valid small size, player count and seed, building the
//! corpus never panics, covers every class, and the reference loader
//! rejects exactly the faulty files.

use std::collections::BTreeSet;

use boxes_corpus::samples::{build, file};
use boxes_corpus::{Class, Spec};
use boxes_reference::gridfile::load_bytes;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn samples_cover_every_class_and_match_the_loader(
        h in 2usize..=6,
        w in 2usize..=6,
        p in 2usize..=100,
        seed in any::<u64>(),
    ) {
        let spec = Spec::new(h, w, p, seed).expect("valid spec");
        let samples = build(&spec);
        let classes: BTreeSet<Class> = samples.iter().map(|s| s.class).collect();
        prop_assert_eq!(classes.len(), Class::all().len());
        for s in &samples {
            let loads = load_bytes(&s.bytes, h, w, p).is_ok();
            prop_assert_eq!(loads, s.class.is_control(), "{}", file(s));
        }
    }

    /// `Spec`'s fields are public, so the builder must not panic even on
    /// sizes `Spec::new` refuses.
    #[test]
    fn samples_never_panic_outside_the_accepted_ranges(
        height in 0usize..=4,
        width in 0usize..=4,
        players in 0usize..=120,
        seed in any::<u64>(),
    ) {
        let samples = build(&Spec { height, width, players, seed });
        prop_assert!(!samples.is_empty());
    }
}
