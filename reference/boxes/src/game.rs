//! The game state and the turn loop: prompts, moves, extra turns, saves and
//! the end of the game or of input (rulings TURN-1..5, SAVE-1..3, END-1..2,
//! EOF-1..2, DISP-3, FILE-7).

use std::ffi::OsStr;
use std::fs::File;
use std::io::{BufRead, Write};
use std::os::unix::ffi::OsStrExt;

use reference_kit::trace::{self, Context};

use crate::command::{self, Command};
use crate::grid::MoveError;
use crate::gridfile;
use crate::hooks::{Hooks, Ruling};
use crate::input::{self, Line};
use crate::player::Player;
use crate::render::Rendered;
use crate::status::{self, Exit};
use crate::why::Why;

pub use crate::state::State;

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
    save_bytes(&gridfile::to_bytes(state), path)
}

/// Writes a grid file's `bytes` to `path`, as [`save`] does.
fn save_bytes(bytes: &[u8], path: &[u8]) -> SaveOutcome {
    if path.is_empty() {
        return SaveOutcome::Failed;
    }
    let written = File::create(OsStr::from_bytes(path)).and_then(|mut f| f.write_all(bytes));
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
    state: State,
    input: &mut R,
    out: &mut O,
    err: &mut E,
) -> Exit {
    play_with(state, input, out, err, &mut Ruling)
}

/// [`play`] with `hooks` changing the points a test variant departs at.
pub fn play_with<R: BufRead, O: Write, E: Write, H: Hooks>(
    mut state: State,
    input: &mut R,
    out: &mut O,
    err: &mut E,
    hooks: &mut H,
) -> Exit {
    match turns(&mut state, input, out, err, hooks) {
        Ok(exit) => exit,
        Err(Failure) => Exit::SystemCall,
    }
}

/// Writing stdout failed (SYS-1).
struct Failure;

fn turns<R: BufRead, O: Write, E: Write, H: Hooks>(
    state: &mut State,
    input: &mut R,
    out: &mut O,
    err: &mut E,
    hooks: &mut H,
) -> Result<Exit, Failure> {
    let mut shown = Rendered::new(&state.grid);
    trace::enter(Context::new(
        "DISP-1,DISP-2,DISP-3,FILE-7",
        "the grid at the start (a new game or the loaded file)",
    ));
    hooks.grid(shown.as_bytes(), out).map_err(|_| Failure)?;
    if state.grid.open_edges() == 0 {
        return finish(state, out, hooks);
    }
    let mut raw = Vec::with_capacity(128);
    let mut prompt = Context::new("TURN-1,FILE-7", "the first prompt");
    loop {
        trace::enter(prompt);
        // Unless a valid move or a save says otherwise below.
        prompt = Context::new("TURN-2,TURN-3,TURN-4", "the prompt after a rejected line");
        hooks
            .prompt(state.next, out)
            .and_then(|()| out.flush())
            .map_err(|_| Failure)?;
        let cut = match input::read_line(input, &mut raw) {
            Line::End if hooks.end_of_input_finishes() => return finish(state, out, hooks),
            Line::End => {
                crate::why::stopped(Why::EndOfInput, Exit::EndOfInput, || {
                    "input ends where a line was expected".to_owned()
                });
                return Ok(Exit::EndOfInput);
            }
            Line::Read { cut } => cut,
        };
        let line = hooks.line(&raw);
        match command::parse(&line) {
            Command::Save(path) => {
                // A cut line with no NUL in its kept bytes names a path far
                // longer than any the system opens.
                let too_long = cut && path.len() + 2 == line.len();
                let outcome = if too_long {
                    SaveOutcome::Failed
                } else {
                    save_bytes(&hooks.save_bytes(state), path)
                };
                let message = match outcome {
                    SaveOutcome::Saved => status::SAVE_COMPLETE,
                    SaveOutcome::Failed => status::SAVE_FAILED,
                };
                // stderr is best effort: a lost message must not end the game.
                let _ = writeln!(err, "{message}");
                prompt = Context::new("SAVE-1,SAVE-3", "the prompt after a save");
                hooks
                    .after_save(shown.as_bytes(), out)
                    .map_err(|_| Failure)?;
            }
            Command::Move(edge) if !cut => {
                let mover = state.next;
                let done = match state.apply(edge) {
                    Ok(done) => done,
                    Err(error) => {
                        if trace::active() {
                            let why = Why::of_move(&line, edge, &state.grid, error);
                            trace::rejected(why, &line, || why.rejection(Some(edge), &state.grid));
                        }
                        if error == MoveError::NoSuchEdge {
                            hooks
                                .outside(state, edge, shown.as_bytes(), out)
                                .map_err(|_| Failure)?;
                        }
                        continue;
                    }
                };
                shown.close(edge);
                for cell in done.iter() {
                    shown.own(cell, mover);
                }
                trace::enter(Context::new(
                    "DISP-1,DISP-2,DISP-3,TURN-5",
                    "the grid after a valid move",
                ));
                hooks.grid(shown.as_bytes(), out).map_err(|_| Failure)?;
                prompt = Context::new("TURN-1,TURN-5", "the prompt after a valid move");
                if state.grid.open_edges() == 0 {
                    return finish(state, out, hooks);
                }
                hooks.after_move(state, mover, done);
            }
            Command::Move(_) => {
                // Cut: a line of thousands of digits.
                trace::rejected(Why::TooLarge, &line, || {
                    Why::TooLarge.rejection(None, &state.grid)
                });
            }
            Command::Invalid => {
                if trace::active() {
                    let why = Why::of_form(&line);
                    trace::rejected(why, &line, || why.rejection(None, &state.grid));
                }
            }
        }
    }
}

/// The winners line with its `\n` (END-1): `Winner(s): ` and the symbols of
/// `winners`, joined by `, `.
pub fn winners_line(winners: &[Player]) -> Vec<u8> {
    let mut line = status::WINNERS_PREFIX.as_bytes().to_vec();
    for (i, p) in winners.iter().enumerate() {
        if i > 0 {
            line.extend_from_slice(status::WINNERS_SEPARATOR.as_bytes());
        }
        line.push(p.symbol());
    }
    line.push(b'\n');
    line
}

/// Prints the winners line (END-1) and flushes.
fn finish<O: Write, H: Hooks>(state: &State, out: &mut O, hooks: &mut H) -> Result<Exit, Failure> {
    trace::enter(Context::new("END-1,END-2", "the winners line"));
    let line = winners_line(&hooks.winners(state.grid.winners(state.players)));
    out.write_all(&line)
        .and_then(|()| out.flush())
        .map_err(|_| Failure)?;
    Ok(Exit::Normal)
}

#[cfg(test)]
mod tests;
