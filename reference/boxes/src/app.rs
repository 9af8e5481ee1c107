//! The whole `boxes` program as a function of its arguments and streams:
//! argument checks, loading, the game, and the final message and status
//! (rulings ARGS-5..7, SYS-1). The process's own streams are wired in
//! [`crate::stdio`].
//!
//! One piece: the program's path from arguments to exit status is 75
//! lines; the rest is its tests, which drive that whole path through
//! `run` with in-memory streams.

use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::path::Path;

use crate::args;
use crate::game::{self, State};
use crate::gridfile::{self, LoadFailure};
use crate::hooks::{Hooks, Ruling};
use crate::status::{Exit, ExitTable};
use crate::why::{self, Why};

/// Runs `boxes` with `args` (without the program name) on the given
/// streams and returns how it exits; its message is already on `err`.
pub fn run<R: BufRead, O: Write, E: Write>(args: &[OsString], input: R, out: O, err: E) -> Exit {
    run_with(args, input, out, err, &mut Ruling)
}

/// [`run`] with `hooks` changing the points a test variant departs at.
pub fn run_with<R: BufRead, O: Write, E: Write, H: Hooks>(
    args: &[OsString],
    mut input: R,
    mut out: O,
    mut err: E,
    hooks: &mut H,
) -> Exit {
    let started = hooks.start(args).unwrap_or_else(|| start(args));
    let exit = match started {
        Ok(state) => game::play_with(state, &mut input, &mut out, &mut err, hooks),
        Err(exit) => exit,
    };
    let exit = match out.flush() {
        Ok(()) => exit,
        Err(_) => Exit::SystemCall,
    };
    if let Some(message) = exit.message() {
        hooks.report(exit, message, &mut out, &mut err);
    }
    exit
}

/// Checks the command line and builds the starting state (ARGS-5 order).
pub fn start(args: &[OsString]) -> Result<State, Exit> {
    let config = args::parse(args)?;
    match &config.file {
        None => Ok(State::new(config.height, config.width, config.players)),
        Some(path) => load(Path::new(path), config.height, config.width, config.players),
    }
}

/// Loads the grid file at `path` for an H×W game of P players, a failure
/// mapped to its exit (ARGS-6, FILE-6).
pub fn load(path: &Path, height: usize, width: usize, players: usize) -> Result<State, Exit> {
    gridfile::load_path(path, height, width, players).map_err(|e| match e {
        LoadFailure::Open(_) => {
            why::stopped(Why::FileOpen, Exit::GridFileOpen, || {
                format!("a grid file {}", why::quoted(path.as_os_str()))
            });
            Exit::GridFileOpen
        }
        LoadFailure::Contents(error) => {
            why::stopped(Why::of_load(error.kind), Exit::GridFileContents, || {
                why::load_situation(error.kind, error.line)
            });
            Exit::GridFileContents
        }
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use reference_kit::terminal::{self, Broken, Ran, os_args};
    use std::io;
    use std::io::Cursor;
    use std::os::unix::ffi::OsStrExt;
    use std::path::PathBuf;

    fn run_bytes(args: &[&[u8]], input: &[u8]) -> Ran<Exit> {
        terminal::run_bytes(
            |args, input, out, err| run(args, input, out, err),
            args,
            input,
        )
    }

    /// A temporary directory and a file in it holding `bytes`.
    fn grid_file(bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let Ok(dir) = tempfile::tempdir() else {
            panic!("no temporary directory");
        };
        let path = dir.path().join("grid");
        assert!(std::fs::write(&path, bytes).is_ok());
        (dir, path)
    }

    /// The assignment's worked example: 2×2, two players.
    pub(crate) const WORKED_INPUT: &[u8] = b"0 0 h\n0 0 v\n0 2 v\n1 2 h\n1 2 v\n1 1 h\n0 1 h\n\
        0 1 v\n1 0 h\n2 0 h\n1 0 v\n2 1 h\n1 1 v\n";

    /// Its output, written from the rulings: every grid line is 2W+1 = 5
    /// bytes, trailing spaces kept; prompts have no newline.
    pub(crate) const WORKED_OUTPUT: &[u8] = b"+ + +\n     \n+ + +\n     \n+ + +\n\
        A> +-+ +\n     \n+ + +\n     \n+ + +\n\
        B> +-+ +\n|    \n+ + +\n     \n+ + +\n\
        A> +-+ +\n|   |\n+ + +\n     \n+ + +\n\
        B> B> +-+ +\n|   |\n+ + +\n    |\n+ + +\n\
        A> +-+ +\n|   |\n+ +-+\n    |\n+ + +\n\
        B> +-+-+\n|   |\n+ +-+\n    |\n+ + +\n\
        A> +-+-+\n| |A|\n+ +-+\n    |\n+ + +\n\
        A> +-+-+\n|A|A|\n+-+-+\n    |\n+ + +\n\
        A> +-+-+\n|A|A|\n+-+-+\n    |\n+-+ +\n\
        B> +-+-+\n|A|A|\n+-+-+\n|   |\n+-+ +\n\
        A> +-+-+\n|A|A|\n+-+-+\n|   |\n+-+-+\n\
        B> +-+-+\n|A|A|\n+-+-+\n|B|B|\n+-+-+\n\
        Winner(s): A, B\n";

    /// The assignment's example grid file (3×3, two players).
    const EXAMPLE_FILE: &[u8] = b"1\n000\n0100\n011\n0111\n011\n1000\n100\n0,0,0\n0,1,2\n0,0,0\n";

    #[test]
    fn end_1_worked_example_game_is_byte_exact() {
        let o = run_bytes(&[b"2", b"2", b"2"], WORKED_INPUT);
        assert_eq!(
            String::from_utf8_lossy(&o.out),
            String::from_utf8_lossy(WORKED_OUTPUT)
        );
        assert_eq!(o.out, WORKED_OUTPUT);
        assert!(o.err.is_empty());
        assert_eq!(o.exit, Exit::Normal);
    }

    #[test]
    fn file_1_example_grid_file_is_byte_exact() {
        let (_dir, path) = grid_file(EXAMPLE_FILE);
        let o = run_bytes(&[b"3", b"3", b"2", path.as_os_str().as_bytes()], b"");
        let expected: &[u8] = b"+ + + +\n  |    \n+ +-+-+\n  |A|B|\n+ +-+-+\n|      \n+-+ + +\nA> ";
        assert_eq!(o.out, expected);
        assert_eq!(o.err, b"End of user input\n");
        assert_eq!(o.exit, Exit::EndOfInput);
    }

    #[test]
    fn args_1_wrong_count_prints_usage_exit_1() {
        for args in [
            &[][..],
            &[&b"2"[..]],
            &[b"2", b"2"],
            &[b"2", b"2", b"2", b"f", b"x"],
        ] {
            let o = run_bytes(args, b"0 0 h\n");
            assert_eq!(o.err, b"Usage: boxes height width playercount [filename]\n");
            assert_eq!(o.exit.code(), 1);
            assert!(o.out.is_empty());
        }
    }

    #[test]
    fn args_3_args_4_messages_and_statuses() {
        let o = run_bytes(&[b"1", b"2", b"2"], b"");
        assert_eq!(
            (o.err.as_slice(), o.exit.code()),
            (&b"Invalid grid dimensions\n"[..], 2)
        );
        let o = run_bytes(&[b"2", b"2", b"101"], b"");
        assert_eq!(
            (o.err.as_slice(), o.exit.code()),
            (&b"Invalid player count\n"[..], 3)
        );
    }

    #[test]
    fn args_5_first_failing_check_decides() {
        let (_dir, bad) = grid_file(b"x");
        let bad = bad.as_os_str().as_bytes();
        let missing: &[u8] = b"/nonexistent/grid";
        let cases: [(&[&[u8]], u8); 6] = [
            (&[b"x", b"y", b"z", missing, b"extra"], 1),
            (&[b"1", b"2", b"1", missing], 2),
            (&[b"2", b"1000", b"0", bad], 2),
            (&[b"2", b"2", b"1", missing], 3),
            (&[b"2", b"2", b"2", missing], 4),
            (&[b"2", b"2", b"2", bad], 5),
        ];
        for (args, code) in cases {
            assert_eq!(run_bytes(args, b"").exit.code(), code);
        }
    }

    #[test]
    fn args_6_unopenable_file_is_invalid_grid_file() {
        let o = run_bytes(&[b"2", b"2", b"2", b"/nonexistent/grid"], b"0 0 h\n");
        assert_eq!(o.err, b"Invalid grid file\n");
        assert_eq!(o.exit.code(), 4);
        assert!(o.out.is_empty());
    }

    #[test]
    fn args_6_directory_opens_but_is_a_contents_error() {
        let Ok(dir) = tempfile::tempdir() else {
            panic!("no temporary directory");
        };
        let o = run_bytes(&[b"2", b"2", b"2", dir.path().as_os_str().as_bytes()], b"");
        assert_eq!(o.err, b"Error reading grid contents\n");
        assert_eq!(o.exit.code(), 5);
    }

    #[test]
    fn args_7_argument_and_file_errors_print_nothing_on_stdout() {
        let (_dir, bad) = grid_file(b"1\n00\n");
        let bad = bad.as_os_str().as_bytes();
        let cases: [&[&[u8]]; 7] = [
            &[],
            &[b"2", b"2"],
            &[b"0", b"2", b"2"],
            &[b"2", b"2", b"1"],
            &[b"2", b"2", b"2", b"/nonexistent/grid"],
            &[b"2", b"2", b"2", b"/"],
            &[b"2", b"2", b"2", bad],
        ];
        for args in cases {
            let o = run_bytes(args, b"0 0 h\n");
            assert!(o.out.is_empty(), "{args:?}");
            assert!(!o.err.is_empty());
            assert!((1..=5).contains(&o.exit.code()));
        }
    }

    #[test]
    fn file_6_contents_errors_exit_5_with_one_message() {
        for bytes in [
            &b""[..],
            b"\n",
            b"1\n00\n000\n00\n000\n00\n0,0\n",
            b"3\n00\n000\n00\n000\n00\n0,0\n0,0\n",
            b"1\n00\n000\n00\n000\n00\n0,0\n0,0\n\n",
            b"1\n00\n000\n00\n000\n00\n1,0\n0,0\n",
        ] {
            let (_dir, path) = grid_file(bytes);
            let o = run_bytes(&[b"2", b"2", b"2", path.as_os_str().as_bytes()], b"0 0 h\n");
            assert_eq!(o.err, b"Error reading grid contents\n");
            assert_eq!(o.exit.code(), 5);
            assert!(o.out.is_empty());
        }
    }

    #[test]
    fn end_2_loaded_full_grid_ends_at_once() {
        let (_dir, path) = grid_file(b"2\n11\n111\n11\n111\n11\n1,2\n2,0\n");
        let o = run_bytes(&[b"2", b"2", b"2", path.as_os_str().as_bytes()], b"0 0 h\n");
        let expected: &[u8] = b"+-+-+\n|A|B|\n+-+-+\n|B| |\n+-+-+\nWinner(s): B\n";
        assert_eq!(o.out, expected);
        assert!(o.err.is_empty());
        assert_eq!(o.exit.code(), 0);
    }

    #[test]
    fn eof_1_end_of_user_input_exit_6() {
        let o = run_bytes(&[b"2", b"2", b"2"], b"0 0 h\nnot a move");
        assert!(o.out.ends_with(b"+ + +\nB> B> "));
        assert_eq!(o.err, b"End of user input\n");
        assert_eq!(o.exit.code(), 6);
    }

    #[test]
    fn save_3_game_exits_0_after_failed_save() {
        let mut input = b"w /nonexistent/dir/file\n".to_vec();
        input.extend_from_slice(WORKED_INPUT);
        let o = run_bytes(&[b"2", b"2", b"2"], &input);
        assert_eq!(o.err, b"Can not open file for write\n");
        assert_eq!(o.exit.code(), 0);
        let expected = [&WORKED_OUTPUT[..30], b"A> ", &WORKED_OUTPUT[30..]].concat();
        assert_eq!(o.out, expected);
    }

    #[test]
    fn sys_1_unwritable_stdout_is_system_call_failure_exit_9() {
        for kind in [io::ErrorKind::StorageFull, io::ErrorKind::BrokenPipe] {
            let mut err = Vec::new();
            let exit = run(
                &os_args(&[b"2", b"2", b"2"]),
                Cursor::new(WORKED_INPUT.to_vec()),
                Broken(kind),
                &mut err,
            );
            assert_eq!(exit.code(), 9);
            assert_eq!(err, b"System call failure\n");
        }
    }

    /// A stdout whose writes succeed but whose flush fails.
    struct FailsOnFlush(Vec<u8>);

    impl Write for FailsOnFlush {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::from(io::ErrorKind::StorageFull))
        }
    }

    #[test]
    fn sys_1_failed_flush_is_system_call_failure() {
        let mut err = Vec::new();
        let exit = run(
            &os_args(&[b"2", b"2", b"2"]),
            Cursor::new(Vec::new()),
            FailsOnFlush(Vec::new()),
            &mut err,
        );
        assert_eq!(exit, Exit::SystemCall);
        assert_eq!(err, b"System call failure\n");
    }
}
