//! The rule IDs of the rulings (`cases/nogo/nogo-rulings.md`) as a typed
//! list, in the rulings' order, so that code citing a rule (the nogo pack's
//! explorer and classifier) cannot misspell it; a test of the nogo pack
//! checks the list against `cases/nogo/rules.yaml`.

reference_kit::rule_ids! {
    // One line per section of the rulings.
    Args1 => "ARGS-1", Args2 => "ARGS-2", Args3 => "ARGS-3", Args4 => "ARGS-4", Args5 => "ARGS-5",
        Args6 => "ARGS-6",
    File1 => "FILE-1", File2 => "FILE-2", File3 => "FILE-3", File4 => "FILE-4", File5 => "FILE-5",
        File6 => "FILE-6", File7 => "FILE-7",
    Grid1 => "GRID-1", Grid2 => "GRID-2",
    Turn1 => "TURN-1", Turn2 => "TURN-2", Turn3 => "TURN-3", Turn4 => "TURN-4", Turn5 => "TURN-5",
    Comp1 => "COMP-1", Comp2 => "COMP-2", Comp3 => "COMP-3", Comp4 => "COMP-4", Comp5 => "COMP-5",
    Capture1 => "CAPTURE-1", Capture2 => "CAPTURE-2", Capture3 => "CAPTURE-3",
        Capture4 => "CAPTURE-4",
    End1 => "END-1",
    Save1 => "SAVE-1", Save2 => "SAVE-2", Save3 => "SAVE-3", Save4 => "SAVE-4",
    Eof1 => "EOF-1", Eof2 => "EOF-2",
    Sys1 => "SYS-1",
}
