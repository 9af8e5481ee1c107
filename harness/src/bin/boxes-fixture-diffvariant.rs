//! Deliberately wrong `boxes` programs for the tests of `boxes-harness
//! diff`: the basename of `argv[0]` (a symlink to this binary) picks one
//! bug, each a mistake students really make; any other name runs the
//! reference itself. The game loop is the reference's, rebuilt from its
//! library with a hook at each point a bug changes.
//!
//! - `boxes-trim`: trailing spaces of grid lines trimmed (DISP-1).
//! - `boxes-no-extra-turn`: completing a cell passes the turn (TURN-5).
//! - `boxes-lax-moves`: spaces around and between move fields accepted
//!   (TURN-2).
//! - `boxes-wrap`: move numbers wrap like a C `int` read by `sscanf`
//!   (TURN-3).
//! - `boxes-save-next`: the save names the following player as next
//!   (SAVE-2).
//! - `boxes-load-first`: a loaded game starts with player 1 (FILE-7).
//! - `boxes-players-first`: the player count is checked before the
//!   dimensions (ARGS-5).

use std::ffi::OsString;
use std::io::{self, BufRead, BufWriter, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::ExitCode;

use boxes_reference::command::{self, Command};
use boxes_reference::game::{self, SaveOutcome, State};
use boxes_reference::input::{self, Line};
use boxes_reference::render::Rendered;
use boxes_reference::status::{self, Exit};
use boxes_reference::{Player, app, args};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bug {
    None,
    Trim,
    NoExtraTurn,
    LaxMoves,
    Wrap,
    SaveNext,
    LoadFirst,
    PlayersFirst,
}

fn bug_from(argv0: &OsString) -> Bug {
    let name = Path::new(argv0)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    match name {
        "boxes-trim" => Bug::Trim,
        "boxes-no-extra-turn" => Bug::NoExtraTurn,
        "boxes-lax-moves" => Bug::LaxMoves,
        "boxes-wrap" => Bug::Wrap,
        "boxes-save-next" => Bug::SaveNext,
        "boxes-load-first" => Bug::LoadFirst,
        "boxes-players-first" => Bug::PlayersFirst,
        _ => Bug::None,
    }
}

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let bug = argv.first().map_or(Bug::None, bug_from);
    if bug == Bug::None {
        // Any other name is the reference itself, byte for byte.
        return boxes_reference::main_with_args(argv);
    }
    let operands = argv.get(1..).unwrap_or_default();
    let stdin = io::stdin().lock();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut err = io::stderr().lock();
    let exit = program(bug, operands, stdin, &mut out, &mut err);
    let exit = if out.flush().is_err() {
        Exit::SystemCall
    } else {
        exit
    };
    if let Some(message) = exit.message() {
        let _ = writeln!(err, "{message}");
    }
    ExitCode::from(exit.code())
}

fn program<R: BufRead, O: Write, E: Write>(
    bug: Bug,
    operands: &[OsString],
    mut input: R,
    out: &mut O,
    err: &mut E,
) -> Exit {
    if bug == Bug::PlayersFirst && (3..=4).contains(&operands.len()) {
        let players = args::parse_c_long(operands[2].as_bytes());
        if !players.is_some_and(|p| (2..=100).contains(&p)) {
            return Exit::PlayerCount;
        }
    }
    let mut state = match app::start(operands) {
        Ok(state) => state,
        Err(exit) => return exit,
    };
    if bug == Bug::LoadFirst && operands.len() == 4 {
        state.next = Player::FIRST;
    }
    turns(bug, &mut state, &mut input, out, err).unwrap_or(Exit::SystemCall)
}

fn show<O: Write>(bug: Bug, shown: &Rendered, out: &mut O) -> io::Result<()> {
    if bug != Bug::Trim {
        return out.write_all(shown.as_bytes());
    }
    for line in shown.as_bytes().split_inclusive(|&b| b == b'\n') {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let end = body.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
        out.write_all(&body[..end])?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// The line as the buggy parser sees it.
fn rewrite(bug: Bug, line: &[u8]) -> Vec<u8> {
    match bug {
        Bug::LaxMoves if !line.starts_with(b"w ") => line
            .split(|&b| b == b' ')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(&b' '),
        Bug::Wrap => line
            .split(|&b| b == b' ')
            .map(|w| {
                if w.len() > 9 && w.iter().all(u8::is_ascii_digit) {
                    let value = w.iter().fold(0u32, |acc, d| {
                        acc.wrapping_mul(10).wrapping_add(u32::from(d - b'0'))
                    });
                    value.cast_signed().to_string().into_bytes()
                } else {
                    w.to_vec()
                }
            })
            .collect::<Vec<_>>()
            .join(&b' '),
        _ => line.to_vec(),
    }
}

fn turns<R: BufRead, O: Write, E: Write>(
    bug: Bug,
    state: &mut State,
    input: &mut R,
    out: &mut O,
    err: &mut E,
) -> io::Result<Exit> {
    let mut shown = Rendered::new(&state.grid);
    show(bug, &shown, out)?;
    if state.grid.open_edges() == 0 {
        return finish(state, out);
    }
    let mut raw = Vec::new();
    loop {
        out.write_all(&[state.next.symbol(), b'>', b' '])?;
        out.flush()?;
        if input::read_line(input, &mut raw) == Line::End {
            return Ok(Exit::EndOfInput);
        }
        let line = rewrite(bug, &raw);
        match command::parse(&line) {
            Command::Save(path) => {
                let mut saved = state.clone();
                if bug == Bug::SaveNext {
                    saved.next = saved.next.next(saved.players);
                }
                let message = match game::save(&saved, path) {
                    SaveOutcome::Saved => status::SAVE_COMPLETE,
                    SaveOutcome::Failed => status::SAVE_FAILED,
                };
                let _ = writeln!(err, "{message}");
            }
            Command::Move(edge) => {
                let Ok(done) = state.grid.play(edge, state.next) else {
                    continue;
                };
                shown.close(edge);
                for cell in done.iter() {
                    shown.own(cell, state.next);
                }
                show(bug, &shown, out)?;
                if state.grid.open_edges() == 0 {
                    return finish(state, out);
                }
                if done.count() == 0 || bug == Bug::NoExtraTurn {
                    state.next = state.next.next(state.players);
                }
            }
            Command::Invalid => {}
        }
    }
}

fn finish<O: Write>(state: &State, out: &mut O) -> io::Result<Exit> {
    out.write_all(&game::winners_line(&state.grid.winners(state.players)))?;
    out.flush()?;
    Ok(Exit::Normal)
}
