//! The rule IDs of the gridgame rulings (`cases/gridgame/gridgame-rulings.md`)
//! as a typed list, in their order: what the code and the suite cite.

reference_kit::rule_ids! {
    Prog1 => "PROG-1",
    Prog2 => "PROG-2",
    Prog3 => "PROG-3",
    Prog4 => "PROG-4",
    In1 => "IN-1",
    In2 => "IN-2",
    Pre1 => "PRE-1",
    Pre2 => "PRE-2",
    Pre3 => "PRE-3",
    Pre4 => "PRE-4",
    Disp1 => "DISP-1",
    Disp2 => "DISP-2",
    Disp3 => "DISP-3",
    Disp4 => "DISP-4",
    Disp5 => "DISP-5",
    Score1 => "SCORE-1",
    Turn1 => "TURN-1",
    Turn2 => "TURN-2",
    Move1 => "MOVE-1",
    Move2 => "MOVE-2",
    Move3 => "MOVE-3",
    Move4 => "MOVE-4",
    Move5 => "MOVE-5",
    Move6 => "MOVE-6",
    Comp1 => "COMP-1",
    Comp2 => "COMP-2",
    Comp3 => "COMP-3",
    Comp4 => "COMP-4",
    Comp5 => "COMP-5",
    Comp6 => "COMP-6",
    Comp7 => "COMP-7",
    Comp8 => "COMP-8",
    Apply1 => "APPLY-1",
    Apply2 => "APPLY-2",
    Apply3 => "APPLY-3",
    Apply4 => "APPLY-4",
    Post1 => "POST-1",
    Post2 => "POST-2",
    Post3 => "POST-3",
    Sys1 => "SYS-1",
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_rule_of_the_rulings_is_listed() {
        assert_eq!(super::ALL.len(), 40);
    }
}
