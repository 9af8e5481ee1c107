//! The whole `nogo` program as a function of its arguments and streams:
//! argument checks, loading, the game, and the final message and status
//! (rulings ARGS-4..6, FILE-6, FILE-7). The process's own streams are
//! wired in [`crate::stdio`].
//!
//! One piece: the program's path from arguments to exit status is 80
//! lines; the rest is its tests, which drive that whole path through
//! `run` with in-memory streams.

use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::path::Path;

use crate::args::{self, Source};
use crate::game;
use crate::player::Kind;
use crate::savefile::{self, LoadFailure};
use crate::state::State;
use crate::status::{Exit, ExitTable};
use crate::why::{self, Why};

/// Runs `nogo` with `args` (without the program name) on the given
/// streams and returns how it exits; its message is already on `err`.
pub fn run<R: BufRead, O: Write, E: Write>(
    args: &[OsString],
    mut input: R,
    mut out: O,
    mut err: E,
) -> Exit {
    let exit = match start(args) {
        Ok((state, kinds)) => game::play(state, kinds, &mut input, &mut out, &mut err),
        Err(exit) => exit,
    };
    // SYS-1: a stdout that cannot be written changes nothing.
    let _ = out.flush();
    if let Some(message) = exit.message() {
        // Nothing useful is left to do when stderr itself is gone.
        let _ = writeln!(err, "{message}");
    }
    exit
}

/// Checks the command line and builds the starting state and the players'
/// kinds (ARGS-5 order: count, types, then dimensions or file).
pub fn start(args: &[OsString]) -> Result<(State, [Kind; 2]), Exit> {
    let config = args::parse(args)?;
    let state = match &config.source {
        Source::New { height, width } => State::new(*height, *width),
        Source::File(path) => savefile::load_path(Path::new(path)).map_err(|e| match e {
            LoadFailure::Open(_) => {
                why::stopped(Why::FileOpen, Exit::FileOpen, || {
                    format!("a save file `{}`", path.to_string_lossy())
                });
                Exit::FileOpen
            }
            LoadFailure::Contents(error) => {
                why::stopped(Why::of_load(error.kind), Exit::FileContents, || {
                    format!("a save file ({error})")
                });
                Exit::FileContents
            }
        })?,
    };
    if matches!(config.source, Source::File(_)) {
        why::loaded(&state);
    }
    Ok((state, config.kinds))
}

#[cfg(test)]
mod tests {
    use super::*;
    use reference_kit::terminal::{self, Ran};
    use std::os::unix::ffi::OsStrExt;
    use std::path::PathBuf;

    fn run_bytes(args: &[&[u8]], input: &[u8]) -> Ran<Exit> {
        terminal::run_bytes(
            |args, input, out, err| run(args, input, out, err),
            args,
            input,
        )
    }

    fn save_file(bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("game");
        std::fs::write(&path, bytes).expect("write");
        (dir, path)
    }

    /// COMP-5's 4x4 computer game, written by hand from the rulings: the
    /// empty grid, then for each move its line and the grid after it.
    const COMP_5_GAME: &[u8] = b"/----\\\n|....|\n|....|\n|....|\n|....|\n\\----/\n\
Player O: 1 0\n/----\\\n|....|\n|O...|\n|....|\n|....|\n\\----/\n\
Player X: 2 2\n/----\\\n|....|\n|O...|\n|..X.|\n|....|\n\\----/\n\
Player O: 2 1\n/----\\\n|....|\n|O...|\n|.OX.|\n|....|\n\\----/\n\
Player X: 3 3\n/----\\\n|....|\n|O...|\n|.OX.|\n|...X|\n\\----/\n\
Player O: 0 2\n/----\\\n|..O.|\n|O...|\n|.OX.|\n|...X|\n\\----/\n\
Player X: 2 0\n/----\\\n|..O.|\n|O...|\n|XOX.|\n|...X|\n\\----/\n\
Player O: 1 2\n/----\\\n|..O.|\n|O.O.|\n|XOX.|\n|...X|\n\\----/\n\
Player X: 0 3\n/----\\\n|..OX|\n|O.O.|\n|XOX.|\n|...X|\n\\----/\n\
Player O: 1 3\n/----\\\n|..OX|\n|O.OO|\n|XOX.|\n|...X|\n\\----/\n\
Player O wins\n";

    #[test]
    fn comp_5_four_by_four_computer_game_byte_for_byte() {
        let o = run_bytes(&[b"c", b"c", b"4", b"4"], b"");
        assert_eq!(
            String::from_utf8_lossy(&o.out),
            String::from_utf8_lossy(COMP_5_GAME)
        );
        assert!(o.err.is_empty());
        assert_eq!(o.exit, Exit::Normal);
    }

    #[test]
    fn comp_4_human_playing_the_computers_moves_prompts_instead() {
        // X human types X's moves of COMP-5: the same grids, with prompts
        // instead of X's move lines.
        let o = run_bytes(&[b"c", b"h", b"4", b"4"], b"2 2\n3 3\n2 0\n0 3\n");
        let mut expected = COMP_5_GAME.to_vec();
        for (line, prompt) in [
            (&b"Player X: 2 2\n"[..], &b"Player X> "[..]),
            (b"Player X: 3 3\n", b"Player X> "),
            (b"Player X: 2 0\n", b"Player X> "),
            (b"Player X: 0 3\n", b"Player X> "),
        ] {
            let at = expected
                .windows(line.len())
                .position(|w| w == line)
                .expect("move line");
            expected.splice(at..at + line.len(), prompt.iter().copied());
        }
        assert_eq!(
            String::from_utf8_lossy(&o.out),
            String::from_utf8_lossy(&expected)
        );
        assert_eq!(o.exit, Exit::Normal);
    }

    #[test]
    fn capture_3_texts_example_by_a_human() {
        let (_dir, path) = save_file(b"4 5 0 1 4 0 2 0 0\nOX.OX\nOOXXX\nO....\n.....\n");
        let o = run_bytes(&[b"h", b"h", path.as_os_str().as_bytes()], b"0 2\n");
        let expected: &[u8] = b"/-----\\\n|OX.OX|\n|OOXXX|\n|O....|\n|.....|\n\\-----/\n\
Player O> /-----\\\n|OXOOX|\n|OOXXX|\n|O....|\n|.....|\n\\-----/\nPlayer O wins\n";
        assert_eq!(
            String::from_utf8_lossy(&o.out),
            String::from_utf8_lossy(expected)
        );
        assert!(o.err.is_empty());
        assert_eq!(o.exit, Exit::Normal);
    }

    #[test]
    fn args_1_wrong_counts_usage_exit_1() {
        for args in [
            &[][..],
            &[&b"c"[..]],
            &[b"c", b"c"],
            &[b"c", b"c", b"4", b"4", b"f"],
        ] {
            let o = run_bytes(args, b"");
            assert_eq!(
                o.err,
                b"Usage: nogo p1type p2type [height width | filename]\n"
            );
            assert_eq!(o.exit.code(), 1);
            assert!(o.out.is_empty());
        }
    }

    #[test]
    fn args_5_first_failing_check_decides() {
        let (_dir, bad) = save_file(b"junk");
        let bad = bad.as_os_str().as_bytes();
        let missing: &[u8] = b"/nonexistent/game";
        let cases: [(&[&[u8]], u8); 8] = [
            (&[b"x", b"y"], 1),
            (&[b"x", b"h", b"3", b"5"], 2),
            (&[b"h", b"C", missing], 2),
            (&[b"h", b"h", b"3", b"5"], 3),
            (&[b"h", b"h", b"5", b"1001"], 3),
            (&[b"h", b"h", missing], 4),
            (&[b"h", b"h", bad], 5),
            (&[b"h", b"h", b"4", b"4"], 6),
        ];
        for (args, code) in cases {
            assert_eq!(run_bytes(args, b"").exit.code(), code, "{args:?}");
        }
    }

    #[test]
    fn args_4_unopenable_file_and_directory() {
        let o = run_bytes(&[b"h", b"h", b"/nonexistent/game"], b"");
        assert_eq!(
            (o.err.as_slice(), o.exit.code()),
            (&b"Unable to open file\n"[..], 4)
        );
        let dir = tempfile::tempdir().expect("temporary directory");
        let o = run_bytes(&[b"h", b"h", dir.path().as_os_str().as_bytes()], b"");
        assert_eq!(
            (o.err.as_slice(), o.exit.code()),
            (&b"Incorrect file contents\n"[..], 5)
        );
    }

    #[test]
    fn args_6_errors_print_nothing_on_stdout() {
        let (_dir, bad) = save_file(b"4 4 0 1 0 0 2 2 0\n....\n");
        for args in [
            &[][..],
            &[&b"c"[..], b"x", b"4", b"4"],
            &[b"c", b"c", b"4", b"3"],
            &[b"c", b"c", b"/nonexistent"],
            &[b"c", b"c", bad.as_os_str().as_bytes()],
        ] {
            let o = run_bytes(args, b"0 0\n");
            assert!(o.out.is_empty(), "{args:?}");
            assert!(!o.err.is_empty());
        }
    }

    #[test]
    fn file_6_contents_error_message() {
        let (_dir, bad) = save_file(b"4 4 0 1 0 0 2 2 0\n....\n....\n....\n...o\n");
        let o = run_bytes(&[b"c", b"c", bad.as_os_str().as_bytes()], b"");
        assert_eq!(
            (o.err.as_slice(), o.exit.code()),
            (&b"Incorrect file contents\n"[..], 5)
        );
        assert!(o.out.is_empty());
    }

    #[test]
    fn file_7_loaded_game_resumes_generators_and_next_player() {
        // The COMP-5 game saved after X's 2 0 (O to play, O's candidate
        // 1 2 m3; X's 2 1 m4) plays on exactly as the whole game did.
        let (_dir, path) = save_file(b"4 4 0 1 2 3 2 1 4\n..O.\nO...\nXOX.\n...X\n");
        let o = run_bytes(&[b"c", b"c", path.as_os_str().as_bytes()], b"");
        let tail_at = COMP_5_GAME
            .windows(14)
            .position(|w| w == b"Player O: 1 2\n")
            .expect("O's 1 2");
        let start: &[u8] = b"/----\\\n|..O.|\n|O...|\n|XOX.|\n|...X|\n\\----/\n";
        assert_eq!(o.out, [start, &COMP_5_GAME[tail_at..]].concat());
        assert_eq!(o.exit, Exit::Normal);
    }

    #[test]
    fn eof_1_end_of_input_exit_6_stdout_ends_with_prompt() {
        let o = run_bytes(&[b"h", b"c", b"4", b"4"], b"");
        let expected: &[u8] = b"/----\\\n|....|\n|....|\n|....|\n|....|\n\\----/\nPlayer O> ";
        assert_eq!(o.out, expected);
        assert_eq!(o.err, b"End of input from user\n");
        assert_eq!(o.exit, Exit::EndOfInput);
    }

    #[test]
    fn eof_2_last_line_without_newline_is_played() {
        let o = run_bytes(&[b"h", b"h", b"4", b"4"], b"0 0");
        assert!(
            o.out
                .ends_with(b"|O...|\n|....|\n|....|\n|....|\n\\----/\nPlayer X> ")
        );
        assert_eq!(o.exit, Exit::EndOfInput);
    }

    #[test]
    fn save_3_save_then_same_prompt_no_grid() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("s");
        let line = [b"w", path.as_os_str().as_bytes(), b"\n"].concat();
        let o = run_bytes(&[b"h", b"h", b"4", b"4"], &line);
        let expected: &[u8] =
            b"/----\\\n|....|\n|....|\n|....|\n|....|\n\\----/\nPlayer O> Player O> ";
        assert_eq!(o.out, expected);
        assert_eq!(o.err, b"End of input from user\n");
        let saved = std::fs::read(&path).expect("saved");
        assert_eq!(saved, b"4 4 0 1 0 0 2 2 0\n....\n....\n....\n....\n");
    }

    #[test]
    fn save_4_failed_save_message_then_prompt() {
        let o = run_bytes(&[b"h", b"h", b"4", b"4"], b"w\nw/nonexistent/dir/f\n");
        assert!(o.out.ends_with(b"\\----/\nPlayer O> Player O> Player O> "));
        assert_eq!(
            o.err,
            b"Unable to save game\nUnable to save game\nEnd of input from user\n"
        );
    }
}
