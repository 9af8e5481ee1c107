//! The whole `boxes` program as a function of its arguments and streams:
//! argument checks, loading, the game, and the final message and status
//! (rulings ARGS-5..7, SYS-1).

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufWriter, Write};
use std::os::fd::AsFd;
use std::path::Path;
use std::process::ExitCode;

use crate::args;
use crate::game::{self, State};
use crate::gridfile::{self, LoadFailure};
use crate::status::Exit;

/// Runs `boxes` with `args` (without the program name) on the given
/// streams and returns how it exits; its message is already on `err`.
pub fn run<R: BufRead, O: Write, E: Write>(
    args: &[OsString],
    mut input: R,
    mut out: O,
    mut err: E,
) -> Exit {
    let exit = match start(args) {
        Ok(state) => game::play(state, &mut input, &mut out, &mut err),
        Err(exit) => exit,
    };
    let exit = match out.flush() {
        Ok(()) => exit,
        Err(_) => Exit::SystemCall,
    };
    if let Some(message) = exit.message() {
        // Nothing useful is left to do when stderr itself is gone.
        let _ = writeln!(err, "{message}");
    }
    exit
}

/// Checks the command line and builds the starting state (ARGS-5 order).
pub fn start(args: &[OsString]) -> Result<State, Exit> {
    let config = args::parse(args)?;
    match &config.file {
        None => Ok(State::new(config.height, config.width, config.players)),
        Some(path) => {
            gridfile::load_path(Path::new(path), config.height, config.width, config.players)
                .map_err(|e| match e {
                    LoadFailure::Open(_) => Exit::GridFileOpen,
                    LoadFailure::Contents(_) => Exit::GridFileContents,
                })
        }
    }
}

/// Runs `boxes` as a process: `argv` includes the program name, the
/// streams are the process's own. Used by the `boxes` binary and by every
/// tool that re-executes itself as the reference.
pub fn main_with_args<I: IntoIterator<Item = OsString>>(argv: I) -> ExitCode {
    let operands: Vec<OsString> = argv.into_iter().skip(1).collect();
    let stdin = io::stdin().lock();
    let stderr = io::stderr().lock();
    // Rust's stdout flushes at every newline; a grid is many lines, so write
    // through our own buffer straight to the descriptor: one write per turn.
    let exit = match io::stdout().as_fd().try_clone_to_owned() {
        Ok(fd) => run(
            &operands,
            stdin,
            BufWriter::with_capacity(1 << 16, File::from(fd)),
            stderr,
        ),
        Err(_) => run(
            &operands,
            stdin,
            BufWriter::with_capacity(1 << 16, io::stdout().lock()),
            stderr,
        ),
    };
    ExitCode::from(exit.code())
}
