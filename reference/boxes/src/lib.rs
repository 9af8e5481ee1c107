//! The reference `boxes`: the rules of the game as a library, and the whole
//! program as [`app::run`]. Every rule ID of the rulings (ARGS-1, FILE-4, …)
//! is implemented in the module named for its concept and proved by a unit
//! test that names it.

pub mod app;
pub mod args;
pub mod command;
pub mod game;
pub mod grid;
pub mod gridfile;
pub mod hooks;
pub mod input;
pub mod layout;
pub mod player;
pub mod render;
pub mod rules;
pub mod state;
pub mod status;
pub mod stdio;
pub mod why;

pub use app::run;
pub use grid::{Cell, Direction, Edge, Grid};
pub use player::Player;
pub use state::State;
pub use status::{Exit, ExitTable};
pub use stdio::main_with_args;
