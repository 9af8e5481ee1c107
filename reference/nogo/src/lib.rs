//! The reference `nogo` (atari-go in a terminal): the rules of the game as
//! a library, and the whole program as [`app::run`]. Every rule ID of the
//! rulings (`cases/nogo/nogo-rulings.md`: ARGS-1, FILE-4, …) is implemented
//! in the module named for its concept and proved by a unit test that
//! names it.

pub mod app;
pub mod args;
pub mod capture;
pub mod command;
pub mod game;
pub mod generator;
pub mod grid;
pub mod input;
pub mod player;
pub mod render;
pub mod rules;
pub mod save;
pub mod savefile;
pub mod state;
pub mod status;
pub mod stdio;
pub mod why;

pub use app::run;
pub use generator::{GenState, Generator};
pub use grid::{Cell, Grid, Stone};
pub use player::{Kind, Player};
pub use state::State;
pub use status::{Exit, ExitTable};
pub use stdio::main_with_args;
