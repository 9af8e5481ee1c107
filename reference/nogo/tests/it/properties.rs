//! Properties over random inputs: the save-file parser never panics and
//! accepts exactly the FILE grammar, saving then loading changes nothing,
//! and no stdin bytes make the program panic.

use std::ffi::OsString;
use std::io::Cursor;

use nogo_reference::savefile::{load_bytes, to_bytes};
use nogo_reference::{Cell, Exit, GenState, Generator, Player, State, Stone, run};
use proptest::prelude::*;

/// The FILE grammar written out plainly, apart from the loader: nine
/// digit-only fields, H and W in 4..=1000, next 0 or 1, rows < H,
/// columns < W, move numbers any 64-bit value, then H lines of W `.OX`
/// bytes with an empty cell among them; anything after is ignored.
fn grammar_accepts(bytes: &[u8]) -> bool {
    let Some(nl) = bytes.iter().position(|&b| b == b'\n') else {
        return false;
    };
    let fields: Vec<&[u8]> = bytes[..nl].split(|&b| b == b' ').collect();
    if fields.len() != 9
        || fields
            .iter()
            .any(|f| f.is_empty() || !f.iter().all(u8::is_ascii_digit))
    {
        return false;
    }
    // `None`: past 2^64 - 1.
    let value = |f: &[u8]| -> Option<u64> {
        let digits = &f[f.iter().position(|&b| b != b'0').unwrap_or(f.len())..];
        if digits.is_empty() {
            return Some(0);
        }
        std::str::from_utf8(digits)
            .ok()
            .and_then(|s| s.parse().ok())
    };
    let exact: Vec<Option<u64>> = fields.iter().map(|f| value(f)).collect();
    if exact[5].is_none() || exact[8].is_none() {
        return false;
    }
    let v: Vec<u64> = exact.iter().map(|x| x.unwrap_or(u64::MAX)).collect();
    let (h, w) = (v[0], v[1]);
    if !(4..=1000).contains(&h) || !(4..=1000).contains(&w) || v[2] > 1 {
        return false;
    }
    if v[3] >= h || v[6] >= h || v[4] >= w || v[7] >= w {
        return false;
    }
    let mut rest = &bytes[nl + 1..];
    let mut empty = false;
    for _ in 0..h {
        let Some(end) = rest.iter().position(|&b| b == b'\n') else {
            return false;
        };
        let line = &rest[..end];
        if line.len() as u64 != w || !line.iter().all(|b| b".OX".contains(b)) {
            return false;
        }
        empty |= line.contains(&b'.');
        rest = &rest[end + 1..];
    }
    empty
}

/// A valid state: an H×W grid with random stones (one cell kept empty),
/// a random next player and random generator states.
fn state() -> impl Strategy<Value = State> {
    (4usize..9, 4usize..9)
        .prop_flat_map(|(h, w)| {
            (
                Just((h, w)),
                proptest::collection::vec(0u8..3, h * w),
                any::<bool>(),
                (0..h, 0..w, 0u64..=2_147_483_647),
                (0..h, 0..w, 0u64..=2_147_483_647),
            )
        })
        .prop_map(|((h, w), cells, x_next, o, x)| {
            let mut state = State::new(h, w);
            for (i, c) in cells.iter().enumerate() {
                let stone = match c {
                    1 => Stone::Taken(Player::O),
                    2 => Stone::Taken(Player::X),
                    _ => Stone::Empty,
                };
                state.grid.set(Cell::new(i / w, i % w), stone);
            }
            state.grid.set(Cell::new(h - 1, w - 1), Stone::Empty);
            if x_next {
                state.next = Player::X;
            }
            let make = |p, (row, col, number)| {
                Generator::with_state(p, h, w, GenState { row, col, number })
            };
            state.generators = [make(Player::O, o), make(Player::X, x)];
            state
        })
}

/// A valid file, then a few byte edits drawn from the grammar's alphabet
/// and beyond.
fn mutated_file() -> impl Strategy<Value = Vec<u8>> {
    (
        state(),
        proptest::collection::vec(
            (
                any::<usize>(),
                prop_oneof![
                    Just(b'0'),
                    Just(b'1'),
                    Just(b'9'),
                    Just(b' '),
                    Just(b'\n'),
                    Just(b'.'),
                    Just(b'O'),
                    Just(b'X'),
                    Just(b'+'),
                    Just(b'\r'),
                    any::<u8>()
                ],
                0u8..3,
            ),
            0..4,
        ),
    )
        .prop_map(|(state, edits)| {
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn file_parser_never_panics_on_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = load_bytes(&bytes);
    }

    #[test]
    fn file_parser_accepts_exactly_the_grammar(bytes in mutated_file()) {
        prop_assert_eq!(load_bytes(&bytes).is_ok(), grammar_accepts(&bytes), "{:?}", String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn save_2_save_then_load_round_trips(state in state()) {
        let bytes = to_bytes(&state);
        let loaded = load_bytes(&bytes);
        prop_assert_eq!(loaded.as_ref().ok(), Some(&state));
        if let Ok(loaded) = loaded {
            prop_assert_eq!(to_bytes(&loaded), bytes);
        }
    }

    #[test]
    fn no_stdin_bytes_panic(
        lines in proptest::collection::vec(
            prop_oneof![
                (0usize..6, 0usize..6).prop_map(|(r, c)| format!("{r} {c}\n").into_bytes()),
                proptest::collection::vec(any::<u8>(), 0..12)
                    .prop_map(|mut v| { if v.first() == Some(&b'w') { v[0] = b'W'; } v }),
            ],
            0..40,
        ),
        o_human in any::<bool>(),
    ) {
        let mut input: Vec<u8> = lines.concat();
        // Never save where the tests run: a `w` after a newline is defused.
        for i in 1..input.len() {
            if input[i] == b'w' && input[i - 1] == b'\n' {
                input[i] = b'W';
            }
        }
        let args: Vec<OsString> = [if o_human { "h" } else { "c" }, "h", "4", "5"]
            .iter()
            .map(OsString::from)
            .collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let exit = run(&args, Cursor::new(input), &mut out, &mut err);
        prop_assert!(matches!(exit, Exit::Normal | Exit::EndOfInput));
    }
}
