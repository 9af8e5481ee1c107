//! The rule IDs of the gridgame rulings, in their order: what the code and
//! the suite cite.

/// Every rule ID of `gridgame-rulings.md`.
pub const ALL: &[&str] = &[
    "PROG-1", "PROG-2", "PROG-3", "PROG-4", "IN-1", "IN-2", "PRE-1", "PRE-2", "PRE-3", "PRE-4",
    "DISP-1", "DISP-2", "DISP-3", "DISP-4", "DISP-5", "SCORE-1", "TURN-1", "TURN-2", "MOVE-1",
    "MOVE-2", "MOVE-3", "MOVE-4", "MOVE-5", "MOVE-6", "COMP-1", "COMP-2", "COMP-3", "COMP-4",
    "COMP-5", "COMP-6", "COMP-7", "COMP-8", "APPLY-1", "APPLY-2", "APPLY-3", "APPLY-4", "POST-1",
    "POST-2", "POST-3", "SYS-1",
];
