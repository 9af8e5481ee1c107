//! The session generator's random stream: the corpus's [`SplitMix64`]
//! with the few draws a generator needs, seeded from a run's seed and a
//! session's index.

use conformance_engine::rng::SplitMix64;

/// The session generator's random stream: the corpus's [`SplitMix64`] with
/// the few draws a generator needs.
#[derive(Debug, Clone)]
pub(super) struct Rng(SplitMix64);

/// The splitmix64 output function, used to spread a seed and an index into
/// unrelated starting states.
const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    pub(super) fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub(super) fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    /// A number in `low..=high`.
    pub(super) fn range(&mut self, low: usize, high: usize) -> usize {
        self.0.between(low, high)
    }

    /// True with probability `percent`/100.
    pub(super) fn percent(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One of a non-empty list of words, owned.
    pub(super) fn choice(&mut self, items: &[&str]) -> String {
        self.pick(items).unwrap_or_default().to_owned()
    }

    /// The stream itself, for the engine's shared line generators
    /// ([`conformance_engine::hard_lines`]).
    pub(super) const fn stream(&mut self) -> &mut SplitMix64 {
        &mut self.0
    }

    /// One item of a slice, `None` when it is empty.
    pub(super) fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        items.get(self.below(items.len())).copied()
    }
}

impl Rng {
    /// The stream of session `index` in the run seeded with `seed`:
    /// independent of every other index.
    pub(super) const fn for_session(seed: u64, index: u64) -> Self {
        Self(SplitMix64::new(mix64(
            seed ^ mix64(index.wrapping_add(0x5EED)),
        )))
    }
}
