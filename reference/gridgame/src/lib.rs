//! `gridgame`: the "Dots And Boxes" project of Old Dominion University's
//! CS 333 (Spring 2015), exactly as `cases/gridgame/gridgame-rulings.md`
//! rules it: a human plays dots and boxes against a rule-based computer on
//! an N x N grid of boxes, everything read from stdin, everything written
//! on stdout. One module per concept of the rulings:
//!
//! - [`rules`]: the rule IDs;
//! - [`lines`]: input read one line of bytes at a time (IN-1, IN-2);
//! - [`out`]: stdout written in blocks, flushed before every read, a write
//!   failure ending the program (PROG-3, SYS-1);
//! - [`size`]: the size line of the pre-game (PRE-2);
//! - [`grid`]: edges, boxes, owners and the drawing (DISP, APPLY-1);
//! - [`moves`]: the human's move line (MOVE-3..5);
//! - [`chooser`]: the computer's four-level rule (COMP-1..8);
//! - [`game`]: the whole program (PRE, TURN, APPLY, POST).

pub mod chooser;
pub mod game;
pub mod grid;
pub mod lines;
pub mod moves;
pub mod out;
pub mod rules;
pub mod size;
pub mod why;

pub use game::{Exit, ExitTable, run};
