//! Properties over random inputs: no file bytes, state or stdin bytes make
//! the reference panic, and saving then loading changes nothing.

use std::ffi::OsString;
use std::io::Cursor;

use boxes_reference::grid::Grid;
use boxes_reference::gridfile::{load_bytes, to_bytes};
use boxes_reference::{Exit, Player, State, run};
use proptest::prelude::*;

/// Plays the edges named by `picks` (indices into the shuffled-by-picks
/// list of remaining open edges) from a new game, by the turn rules.
fn reach(h: usize, w: usize, p: usize, picks: &[usize]) -> State {
    let mut state = State::new(h, w, p);
    let mut open: Vec<_> = Grid::new(h, w).edges().collect();
    for &pick in picks {
        if open.is_empty() {
            break;
        }
        let edge = open.swap_remove(pick % open.len());
        // TURN-5 is the reference's own; a refused edge changes nothing.
        let _ = state.apply(edge);
    }
    state
}

fn args(h: usize, w: usize, p: usize, file: Option<&std::path::Path>) -> Vec<OsString> {
    let mut a: Vec<OsString> = [h, w, p].iter().map(|n| n.to_string().into()).collect();
    a.extend(file.map(|f| f.as_os_str().to_os_string()));
    a
}

/// A valid file, then a few random byte edits of it.
fn mutated_file() -> impl Strategy<Value = Vec<u8>> {
    (
        proptest::collection::vec(any::<usize>(), 0..30),
        1usize..=3,
        proptest::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 0..4),
    )
        .prop_map(|(picks, next, edits)| {
            let mut state = reach(2, 3, 3, &picks);
            state.next = Player::new(next).unwrap_or(Player::FIRST);
            let mut bytes = to_bytes(&state);
            for (at, byte, op) in edits {
                let at = at % (bytes.len() + 1);
                match op {
                    0 if at < bytes.len() => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    _ if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => {}
                }
            }
            bytes
        })
}

/// Lines a player might type, good and bad, and raw noise.
fn stdin_bytes() -> impl Strategy<Value = Vec<u8>> {
    let line = prop_oneof![
        (0usize..4, 0usize..4, prop_oneof![Just('h'), Just('v')])
            .prop_map(|(r, c, d)| format!("{r} {c} {d}\n").into_bytes()),
        proptest::collection::vec(any::<u8>(), 0..12),
        proptest::collection::vec(
            prop_oneof![Just(b'0'), Just(b' '), Just(b'h'), Just(b'\n')],
            0..8
        ),
    ];
    proptest::collection::vec(line, 0..40).prop_map(|lines| {
        let mut bytes: Vec<u8> = lines.concat();
        // A save line would write a file wherever the tests run: turn each
        // `w ` at a line start into an invalid line.
        let mut at_start = true;
        for b in &mut bytes {
            if at_start && *b == b'w' {
                *b = b'W';
            }
            at_start = *b == b'\n';
        }
        bytes
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn file_bytes_load_or_exit_5_never_panic(
        bytes in prop_oneof![proptest::collection::vec(any::<u8>(), 0..80), mutated_file()],
    ) {
        let dir = tempfile::tempdir().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let path = dir.path().join("grid");
        std::fs::write(&path, &bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let exit = run(&args(2, 3, 3, Some(&path)), Cursor::new(Vec::new()), &mut out, &mut err);
        let loads = load_bytes(&bytes, 2, 3, 3).is_ok();
        if loads {
            prop_assert!(matches!(exit, Exit::EndOfInput | Exit::Normal), "{exit}");
            prop_assert!(!out.is_empty());
        } else {
            prop_assert_eq!(exit, Exit::GridFileContents);
            prop_assert!(out.is_empty());
            prop_assert_eq!(err, b"Error reading grid contents\n".to_vec());
        }
    }

    #[test]
    fn save_2_any_reached_state_saves_and_loads_identically(
        h in 2usize..7,
        w in 2usize..7,
        p in 2usize..=100,
        picks in proptest::collection::vec(any::<usize>(), 0..100),
    ) {
        let state = reach(h, w, p, &picks);
        let bytes = to_bytes(&state);
        let loaded = load_bytes(&bytes, h, w, p);
        prop_assert_eq!(loaded.as_ref(), Ok(&state));
        prop_assert_eq!(loaded.map(|s| to_bytes(&s)), Ok(bytes));
    }

    #[test]
    fn random_stdin_never_panics_and_ends_0_or_6(
        p in 2usize..5,
        input in stdin_bytes(),
    ) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let exit = run(&args(2, 2, p, None), Cursor::new(input), &mut out, &mut err);
        match exit {
            Exit::Normal => {
                prop_assert!(out.ends_with(b"\n"));
                prop_assert!(err.is_empty());
            }
            Exit::EndOfInput => {
                prop_assert!(out.ends_with(b"> "));
                prop_assert_eq!(err, b"End of user input\n".to_vec());
            }
            other => prop_assert!(false, "exit {other}"),
        }
    }
}
