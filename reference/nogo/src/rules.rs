//! The rule IDs of the rulings (`cases/nogo/nogo-rulings.md`) as a typed
//! list, in the rulings' order, so that code citing a rule (the nogo pack's
//! explorer and classifier) cannot misspell it; a test of the nogo pack
//! checks the list against `cases/nogo/rules.yaml`.

use std::fmt;

/// One rule of the rulings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// ARGS-1.
    Args1,
    /// ARGS-2.
    Args2,
    /// ARGS-3.
    Args3,
    /// ARGS-4.
    Args4,
    /// ARGS-5.
    Args5,
    /// ARGS-6.
    Args6,
    /// FILE-1.
    File1,
    /// FILE-2.
    File2,
    /// FILE-3.
    File3,
    /// FILE-4.
    File4,
    /// FILE-5.
    File5,
    /// FILE-6.
    File6,
    /// FILE-7.
    File7,
    /// GRID-1.
    Grid1,
    /// GRID-2.
    Grid2,
    /// TURN-1.
    Turn1,
    /// TURN-2.
    Turn2,
    /// TURN-3.
    Turn3,
    /// TURN-4.
    Turn4,
    /// TURN-5.
    Turn5,
    /// COMP-1.
    Comp1,
    /// COMP-2.
    Comp2,
    /// COMP-3.
    Comp3,
    /// COMP-4.
    Comp4,
    /// COMP-5.
    Comp5,
    /// CAPTURE-1.
    Capture1,
    /// CAPTURE-2.
    Capture2,
    /// CAPTURE-3.
    Capture3,
    /// CAPTURE-4.
    Capture4,
    /// END-1.
    End1,
    /// SAVE-1.
    Save1,
    /// SAVE-2.
    Save2,
    /// SAVE-3.
    Save3,
    /// SAVE-4.
    Save4,
    /// EOF-1.
    Eof1,
    /// EOF-2.
    Eof2,
    /// SYS-1.
    Sys1,
}

/// Every rule, in the rulings' order.
pub const ALL: [Rule; 37] = [
    Rule::Args1,
    Rule::Args2,
    Rule::Args3,
    Rule::Args4,
    Rule::Args5,
    Rule::Args6,
    Rule::File1,
    Rule::File2,
    Rule::File3,
    Rule::File4,
    Rule::File5,
    Rule::File6,
    Rule::File7,
    Rule::Grid1,
    Rule::Grid2,
    Rule::Turn1,
    Rule::Turn2,
    Rule::Turn3,
    Rule::Turn4,
    Rule::Turn5,
    Rule::Comp1,
    Rule::Comp2,
    Rule::Comp3,
    Rule::Comp4,
    Rule::Comp5,
    Rule::Capture1,
    Rule::Capture2,
    Rule::Capture3,
    Rule::Capture4,
    Rule::End1,
    Rule::Save1,
    Rule::Save2,
    Rule::Save3,
    Rule::Save4,
    Rule::Eof1,
    Rule::Eof2,
    Rule::Sys1,
];

impl Rule {
    /// The rule's ID as the rulings write it (`ARGS-1`).
    pub const fn id(self) -> &'static str {
        match self {
            Rule::Args1 => "ARGS-1",
            Rule::Args2 => "ARGS-2",
            Rule::Args3 => "ARGS-3",
            Rule::Args4 => "ARGS-4",
            Rule::Args5 => "ARGS-5",
            Rule::Args6 => "ARGS-6",
            Rule::File1 => "FILE-1",
            Rule::File2 => "FILE-2",
            Rule::File3 => "FILE-3",
            Rule::File4 => "FILE-4",
            Rule::File5 => "FILE-5",
            Rule::File6 => "FILE-6",
            Rule::File7 => "FILE-7",
            Rule::Grid1 => "GRID-1",
            Rule::Grid2 => "GRID-2",
            Rule::Turn1 => "TURN-1",
            Rule::Turn2 => "TURN-2",
            Rule::Turn3 => "TURN-3",
            Rule::Turn4 => "TURN-4",
            Rule::Turn5 => "TURN-5",
            Rule::Comp1 => "COMP-1",
            Rule::Comp2 => "COMP-2",
            Rule::Comp3 => "COMP-3",
            Rule::Comp4 => "COMP-4",
            Rule::Comp5 => "COMP-5",
            Rule::Capture1 => "CAPTURE-1",
            Rule::Capture2 => "CAPTURE-2",
            Rule::Capture3 => "CAPTURE-3",
            Rule::Capture4 => "CAPTURE-4",
            Rule::End1 => "END-1",
            Rule::Save1 => "SAVE-1",
            Rule::Save2 => "SAVE-2",
            Rule::Save3 => "SAVE-3",
            Rule::Save4 => "SAVE-4",
            Rule::Eof1 => "EOF-1",
            Rule::Eof2 => "EOF-2",
            Rule::Sys1 => "SYS-1",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_distinct_and_well_formed() {
        let mut seen = std::collections::BTreeSet::new();
        for rule in ALL {
            let id = rule.id();
            let (family, number) = id.split_once('-').unwrap_or_default();
            assert!(!family.is_empty() && number.parse::<u8>().is_ok(), "{id}");
            assert!(seen.insert(id), "{id} twice");
            assert_eq!(rule.to_string(), id);
        }
    }
}
