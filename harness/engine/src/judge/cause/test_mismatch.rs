//! Mismatches the causes' unit tests build by hand (`by_rule`, `raised`):
//! a leaf of its own, so that no test module imports another.

use crate::exec::run::Stream;
use crate::judge::compare::Mismatch;

/// A stderr part that differs, `expected` against `actual`.
pub(super) fn stderr(expected: &[u8], actual: &[u8]) -> Mismatch {
    Mismatch::Stream {
        stream: Stream::Stderr,
        expected: expected.to_vec(),
        actual: actual.to_vec(),
        dropped: 0,
    }
}
