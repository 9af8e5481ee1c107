//! CodinGame's "Dots and Boxes" as its rulings describe it
//! (`cases/codingame/codingame-rulings.md`): the board, the request and
//! answer bytes, the rules as a state machine ([`judge::Judge`]), bot
//! processes under the referee's clock, whole matches, records and their
//! replay, an arena, and the bots (a strong reference, a greedy one, a faulty
//! fixture). Rule IDs (BOARD-, TURN-, …) name the tests that prove them.

pub mod answer;
pub mod board;
pub mod book;
pub mod clock;
pub mod judge;
pub mod moves;
pub mod reason;
pub mod record;
pub mod replay;
pub mod request;

pub use board::{Board, BoxId, Edge, Seat, Side};
pub use judge::Judge;
pub use reason::Reason;
pub use record::Record;
pub mod arena;
pub mod bot;
pub mod cli;
pub mod client;
pub mod contain;
pub mod duel;
pub mod exit;
pub mod faulty;
pub mod greedy;
pub mod ratings;
pub mod referee;
pub mod reference_bot;
pub mod safe;
pub mod strategy;
