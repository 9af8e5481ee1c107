//! The submissions of a class that have no row: the class a run was cut
//! from (every id, sorted as `--partition` deals them), and which of its
//! submissions no mark covers, each with the slice it belongs to. A slice
//! records its class in `cohort.json` ([`Class`]), so that `mark merge`
//! knows every submission that should have a row, names each one missing
//! with its slice (a slice killed halfway, a submission the harness could
//! not mark), and never merges a class with a hole in silence.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::partition::Partition;

/// The class a view is of: every submission id, and into how many slices
/// it was dealt (none for one run over everything).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Class {
    /// Every submission's id, sorted by bytes (as intake finds them).
    pub ids: Vec<String>,
    /// The `N` of `--partition K/N`, for a slice or a merge of slices.
    pub slices: Option<usize>,
}

/// A submission with no row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unmarked {
    /// Its id.
    pub id: String,
    /// The slice that should have marked it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice: Option<Partition>,
}

impl Unmarked {
    /// `s07` or `s07 (slice 2/4)`.
    pub fn describe(&self) -> String {
        match self.slice {
            Some(p) => format!("{} (slice {}/{})", self.id, p.k, p.n),
            None => self.id.clone(),
        }
    }
}

/// The submissions of `class` without a row (their ids not among
/// `marked`), in id order, each with the slice that holds it; only those
/// of `only` when given (a slice's own run).
pub fn unmarked<'a>(
    class: &Class,
    marked: impl IntoIterator<Item = &'a str>,
    only: Option<Partition>,
) -> Vec<Unmarked> {
    let have: BTreeSet<&str> = marked.into_iter().collect();
    class
        .ids
        .iter()
        .enumerate()
        .filter(|(i, _)| only.is_none_or(|p| p.holds(*i)))
        .filter(|(_, id)| !have.contains(id.as_str()))
        .map(|(i, id)| Unmarked {
            id: id.clone(),
            slice: class
                .slices
                .filter(|&n| n > 0)
                .map(|n| Partition { k: i % n + 1, n }),
        })
        .collect()
}

/// `s03 (slice 2/4), s07 (slice 2/4)`.
pub fn list(unmarked: &[Unmarked]) -> String {
    let mut text = String::new();
    for (i, u) in unmarked.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        let _ = write!(text, "{}", u.describe());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_submission_without_a_row_is_named_with_its_slice() {
        let class = Class {
            ids: ["a", "b", "c", "d", "e"].map(str::to_owned).to_vec(),
            slices: Some(2),
        };
        // Slice 2/2 (b, d) was killed before it marked d; e of 1/2 failed.
        let marks = ["a", "b", "c"];
        let gap = unmarked(&class, marks, None);
        assert_eq!(list(&gap), "d (slice 2/2), e (slice 1/2)");
        assert_eq!(
            list(&unmarked(&class, marks, Some(Partition { k: 2, n: 2 }))),
            "d (slice 2/2)"
        );
        let whole = Class {
            slices: None,
            ..class
        };
        assert_eq!(list(&unmarked(&whole, marks, None)), "d, e");
        assert!(unmarked(&whole, ["a", "b", "c", "d", "e"], None).is_empty());
    }
}
