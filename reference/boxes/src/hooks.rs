//! The points where a deliberately wrong `boxes` may depart from the
//! rulings. The suite's own tests need programs that break exactly one
//! rule; they implement [`Hooks`] and override one method, so the rest of
//! the program (argument reading, loading, the turn rule, rendering, saving)
//! stays the reference's. Every default is the ruling, and the reference
//! itself runs with [`Ruling`], which overrides nothing.

use std::borrow::Cow;
use std::ffi::OsString;
use std::io::{self, Write};

use crate::grid::{Completed, Edge};
use crate::gridfile;
use crate::player::Player;
use crate::state::State;
use crate::status::Exit;

/// One place each where a program may do something else than the rulings.
pub trait Hooks {
    /// Checks the command line and builds the starting state, or `None` to
    /// do it as ARGS-5 says.
    fn start(&mut self, _args: &[OsString]) -> Option<Result<State, Exit>> {
        None
    }

    /// Reports how the program exits (ARGS-7, SYS-1): the message on stderr.
    fn report<O: Write, E: Write>(
        &mut self,
        _exit: Exit,
        message: &str,
        _out: &mut O,
        err: &mut E,
    ) {
        // Nothing useful is left to do when stderr itself is gone.
        let _ = writeln!(err, "{message}");
    }

    /// Prints the rendered grid (DISP-1).
    fn grid<O: Write>(&mut self, rendered: &[u8], out: &mut O) -> io::Result<()> {
        out.write_all(rendered)
    }

    /// Prints the prompt of `player` (TURN-1).
    fn prompt<O: Write>(&mut self, player: Player, out: &mut O) -> io::Result<()> {
        out.write_all(&[player.symbol(), b'>', b' '])
    }

    /// The input line as the program reads it (TURN-2).
    fn line<'a>(&mut self, line: &'a [u8]) -> Cow<'a, [u8]> {
        Cow::Borrowed(line)
    }

    /// The bytes a save writes (SAVE-2).
    fn save_bytes(&mut self, state: &State) -> Vec<u8> {
        gridfile::to_bytes(state)
    }

    /// After a save's message (SAVE-3: nothing more).
    fn after_save<O: Write>(&mut self, _rendered: &[u8], _out: &mut O) -> io::Result<()> {
        Ok(())
    }

    /// A well-formed move naming an edge outside the grid (TURN-3: nothing
    /// happens, the same prompt again).
    fn outside<O: Write>(
        &mut self,
        _state: &mut State,
        _edge: Edge,
        _rendered: &[u8],
        _out: &mut O,
    ) -> io::Result<()> {
        Ok(())
    }

    /// After [`State::apply`] played a move of `mover` (TURN-5 is applied
    /// already; nothing more).
    fn after_move(&mut self, _state: &mut State, _mover: Player, _done: Completed) {}

    /// Whether the end of input ends the game like a full grid (EOF-1: no).
    fn end_of_input_finishes(&mut self) -> bool {
        false
    }

    /// The winners the final line names (END-1: every top scorer).
    fn winners(&mut self, winners: Vec<Player>) -> Vec<Player> {
        winners
    }
}

/// The rulings, unchanged: the reference program's hooks.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ruling;

impl Hooks for Ruling {}
