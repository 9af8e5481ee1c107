//! The codingame spec pack: bot conformance checks for CodinGame's Dots and
//! Boxes through the conformance engine. A case's `script` names a board, the
//! bot's seat and how the harness plays the other seat; the driver
//! ([`converse`]) plays the referee, feeds the bot each request and checks
//! every answer (grammar, box, side, time). [`force`] is the scripted
//! opponent's search; [`script`] the script's format; [`pack`] the
//! registration.

pub mod converse;
pub mod force;
pub mod pack;
pub mod script;

pub use pack::PACK;
