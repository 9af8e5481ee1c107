//! The even choice among moves the play finds equal, below the phases and
//! the exact search that both make it.

use crate::board::Edge;

/// One of `edges`, uniformly, or `None` when there is none.
pub(super) fn pick(edges: &[Edge], rng: &mut fastrand::Rng) -> Option<Edge> {
    if edges.is_empty() {
        None
    } else {
        edges.get(rng.usize(..edges.len())).copied()
    }
}
