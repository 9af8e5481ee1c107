//! The rule IDs of the rulings (`cases/boxes/boxes-rulings.md`) as a typed
//! list, in the rulings' order, so that code citing a rule cannot misspell
//! it; a test of the boxes pack checks the list against
//! `cases/boxes/rules.yaml`.

reference_kit::rule_ids! {
    // One line per section of the rulings.
    Args1 => "ARGS-1", Args2 => "ARGS-2", Args3 => "ARGS-3", Args4 => "ARGS-4", Args5 => "ARGS-5",
        Args6 => "ARGS-6", Args7 => "ARGS-7",
    File1 => "FILE-1", File2 => "FILE-2", File3 => "FILE-3", File4 => "FILE-4", File5 => "FILE-5",
        File6 => "FILE-6", File7 => "FILE-7",
    Disp1 => "DISP-1", Disp2 => "DISP-2", Disp3 => "DISP-3",
    Turn1 => "TURN-1", Turn2 => "TURN-2", Turn3 => "TURN-3", Turn4 => "TURN-4", Turn5 => "TURN-5",
    Save1 => "SAVE-1", Save2 => "SAVE-2", Save3 => "SAVE-3",
    End1 => "END-1", End2 => "END-2",
    Eof1 => "EOF-1", Eof2 => "EOF-2",
    Sys1 => "SYS-1",
}
