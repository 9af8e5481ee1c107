//! Why the reference rejects an input line: gridgame's closed set of
//! reasons ([`Why`]), each with the rule that decides it, recorded while
//! traced (`reference_kit::trace`) so a program that accepts what the
//! rulings reject is told which check it misses, whatever the bytes.

use reference_kit::trace::{Reason, Told};

/// Why gridgame rejects a line: one variant per check of the rulings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// PRE-2: a size line that is not a number.
    SizeNotANumber,
    /// PRE-2: a size outside 2..8 (a huge one included).
    SizeRange,
    /// MOVE-4: not four letters and digits once the rest is discarded.
    MoveLength,
    /// MOVE-4: a dot not named by a lower-case row letter and a column
    /// digit of the grid.
    NoSuchDot,
    /// MOVE-5: two dots not one edge apart.
    NotAdjacent,
    /// MOVE-5: an edge already drawn.
    Drawn,
}

impl Reason for Why {
    /// The rule, the kind's token and its words of each reason: the one
    /// table.
    fn told(self) -> Told {
        match self {
            Self::SizeNotANumber => Told::new("PRE-2", "size-form", "a size that is not a number"),
            Self::SizeRange => Told::new("PRE-2", "size-range", "a size outside 2..8"),
            Self::MoveLength => Told::new(
                "MOVE-4",
                "move-length",
                "not two dots of a letter and a digit",
            ),
            Self::NoSuchDot => Told::new("MOVE-4", "no-such-dot", "a dot outside the grid"),
            Self::NotAdjacent => Told::new("MOVE-5", "not-adjacent", "dots not one edge apart"),
            Self::Drawn => Told::new("MOVE-5", "drawn", "an edge already drawn"),
        }
    }
}

impl Why {
    /// The sentence of a rejected line.
    pub fn rejection(self) -> String {
        format!("{} rejects it ({})", self.rule(), self.says())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rejection_names_its_rule() {
        assert_eq!(
            Why::NotAdjacent.rejection(),
            "MOVE-5 rejects it (dots not one edge apart)"
        );
    }
}
