//! The game state and the turn loop: prompts, moves, extra turns, saves and
//! the end of the game or of input (rulings TURN-1..5, SAVE-1..3, END-1..2,
//! EOF-1..2, DISP-3, FILE-7).

use std::ffi::OsStr;
use std::fs::File;
use std::io::{BufRead, Write};
use std::os::unix::ffi::OsStrExt;

use crate::command::{self, Command};
use crate::grid::Grid;
use crate::gridfile;
use crate::input::{self, Line};
use crate::player::Player;
use crate::render::Rendered;
use crate::status::{self, Exit};

/// Everything a grid file holds: the grid and whose turn it is, for a game
/// of `players` players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// Edges and owners.
    pub grid: Grid,
    /// The player to move next.
    pub next: Player,
    /// How many players the game has (P).
    pub players: usize,
}

impl State {
    /// A new game: empty grid, player A to move.
    pub fn new(height: usize, width: usize, players: usize) -> Self {
        Self {
            grid: Grid::new(height, width),
            next: Player::FIRST,
            players,
        }
    }
}

/// What happened to one save request (SAVE-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveOutcome {
    /// Written in full.
    Saved,
    /// Not opened, or a write failed.
    Failed,
}

/// Writes `state` to `path` (SAVE-2). An empty path, an open failure and a
/// failed write are all failures (SAVE-3).
pub fn save(state: &State, path: &[u8]) -> SaveOutcome {
    if path.is_empty() {
        return SaveOutcome::Failed;
    }
    let written = File::create(OsStr::from_bytes(path))
        .and_then(|mut f| f.write_all(&gridfile::to_bytes(state)));
    if written.is_ok() {
        SaveOutcome::Saved
    } else {
        SaveOutcome::Failed
    }
}

/// Plays `state` to its end: prints the grid, then prompts, reads and
/// applies lines until the last edge closes or input ends. Returns how the
/// program must exit; the caller prints its message. `out` is flushed before
/// every read and at the end. Failing to write `out` is [`Exit::SystemCall`].
pub fn play<R: BufRead, O: Write, E: Write>(
    mut state: State,
    input: &mut R,
    out: &mut O,
    err: &mut E,
) -> Exit {
    match turns(&mut state, input, out, err) {
        Ok(exit) => exit,
        Err(Failure) => Exit::SystemCall,
    }
}

/// Writing stdout failed (SYS-1).
struct Failure;

fn turns<R: BufRead, O: Write, E: Write>(
    state: &mut State,
    input: &mut R,
    out: &mut O,
    err: &mut E,
) -> Result<Exit, Failure> {
    let mut shown = Rendered::new(&state.grid);
    out.write_all(shown.as_bytes()).map_err(|_| Failure)?;
    if state.grid.open_edges() == 0 {
        return finish(state, out);
    }
    let mut line = Vec::with_capacity(128);
    loop {
        let prompt = [state.next.symbol(), b'>', b' '];
        out.write_all(&prompt)
            .and_then(|()| out.flush())
            .map_err(|_| Failure)?;
        let cut = match input::read_line(input, &mut line) {
            Line::End => return Ok(Exit::EndOfInput),
            Line::Read { cut } => cut,
        };
        match command::parse(&line) {
            Command::Save(path) => {
                // A cut line with no NUL in its kept bytes names a path far
                // longer than any the system opens.
                let too_long = cut && path.len() + 2 == line.len();
                let outcome = if too_long {
                    SaveOutcome::Failed
                } else {
                    save(state, path)
                };
                let message = match outcome {
                    SaveOutcome::Saved => status::SAVE_COMPLETE,
                    SaveOutcome::Failed => status::SAVE_FAILED,
                };
                // stderr is best effort: a lost message must not end the game.
                let _ = writeln!(err, "{message}");
            }
            Command::Move(edge) if !cut => {
                let Ok(done) = state.grid.play(edge, state.next) else {
                    continue;
                };
                shown.close(edge);
                for cell in done.iter() {
                    shown.own(cell, state.next);
                }
                out.write_all(shown.as_bytes()).map_err(|_| Failure)?;
                if state.grid.open_edges() == 0 {
                    return finish(state, out);
                }
                if done.count() == 0 {
                    state.next = state.next.next(state.players);
                }
            }
            Command::Move(_) | Command::Invalid => {}
        }
    }
}

/// Prints the winners line (END-1) and flushes.
fn finish<O: Write>(state: &State, out: &mut O) -> Result<Exit, Failure> {
    let mut line = status::WINNERS_PREFIX.as_bytes().to_vec();
    for (i, p) in state.grid.winners(state.players).into_iter().enumerate() {
        if i > 0 {
            line.extend_from_slice(status::WINNERS_SEPARATOR.as_bytes());
        }
        line.push(p.symbol());
    }
    line.push(b'\n');
    out.write_all(&line)
        .and_then(|()| out.flush())
        .map_err(|_| Failure)?;
    Ok(Exit::Normal)
}
