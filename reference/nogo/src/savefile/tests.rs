//! Tests of `savefile`, beside it.

use super::*;

const EMPTY_4X4: &[u8] = b"4 4 0 1 0 0 2 2 0\n....\n....\n....\n....\n";

fn kind(bytes: &[u8]) -> Option<LoadErrorKind> {
    load_bytes(bytes).err().map(|e| e.kind)
}

fn with_header(header: &str) -> Vec<u8> {
    [header.as_bytes(), b"\n....\n....\n....\n....\n"].concat()
}

#[test]
fn file_1_layout_round_trips() {
    let state = load_bytes(EMPTY_4X4).expect("loads");
    assert_eq!(state, State::new(4, 4));
    assert_eq!(to_bytes(&state), EMPTY_4X4);
}

#[test]
fn file_1_header_is_nine_fields_single_spaces() {
    assert_eq!(
        kind(&with_header("4 4 0 1 0 0 2 2")),
        Some(LoadErrorKind::HeaderFieldCount)
    );
    assert_eq!(
        kind(&with_header("4 4 0 1 0 0 2 2 0 0")),
        Some(LoadErrorKind::HeaderFieldCount)
    );
    // A trailing space starts a tenth field.
    assert_eq!(
        kind(&with_header("4 4 0 1 0 0 2 2 0 ")),
        Some(LoadErrorKind::HeaderFieldCount)
    );
    for bad in [
        " 4 4 0 1 0 0 2 2 0",
        "4  4 0 1 0 0 2 2 0",
        "4 4 0 1 0 0 2 2 ",
        "",
    ] {
        assert_eq!(
            kind(&with_header(bad)),
            Some(LoadErrorKind::HeaderEmptyField),
            "{bad:?}"
        );
    }
}

#[test]
fn file_1_missing_final_newline_is_an_error() {
    assert_eq!(
        kind(&EMPTY_4X4[..EMPTY_4X4.len() - 1]),
        Some(LoadErrorKind::GridTruncated)
    );
}

#[test]
fn file_2_digits_only_leading_zeros_accepted() {
    for bad in [
        "+4 4 0 1 0 0 2 2 0",
        "4 -4 0 1 0 0 2 2 0",
        "4 4\t0 1 0 0 2 2 0",
        "4 4 0 1 0 0 2 2 0\r",
        "4 4 x 1 0 0 2 2 0",
    ] {
        assert!(
            matches!(kind(&with_header(bad)), Some(LoadErrorKind::HeaderByte(_))),
            "{bad:?}"
        );
    }
    let state = load_bytes(&with_header("004 0004 01 01 00 00 002 02 000")).expect("loads");
    assert_eq!(
        state,
        State {
            next: Player::X,
            ..State::new(4, 4)
        }
    );
}

#[test]
fn file_2_dimensions_and_next_player() {
    assert_eq!(
        kind(b"3 4 0 1 0 0 2 2 0\n....\n....\n....\n"),
        Some(LoadErrorKind::Dimension)
    );
    assert_eq!(
        kind(&with_header("4 1001 0 1 0 0 2 2 0")),
        Some(LoadErrorKind::Dimension)
    );
    assert_eq!(
        kind(&with_header("99999999999999999999999999 4 0 1 0 0 2 2 0")),
        Some(LoadErrorKind::Dimension)
    );
    assert_eq!(
        kind(&with_header("4 4 2 1 0 0 2 2 0")),
        Some(LoadErrorKind::NextPlayer)
    );
    let big = b"1000 1000 1 999 999 2147483647 0 0 0\n";
    let mut file = big.to_vec();
    for _ in 0..1000 {
        file.extend_from_slice(&[b'.'; 1000]);
        file.push(b'\n');
    }
    let state = load_bytes(&file).expect("1000x1000 loads");
    assert_eq!(state.grid.height(), 1000);
    assert_eq!(to_bytes(&state), file);
}

#[test]
fn file_3_generator_states_in_range() {
    assert_eq!(
        kind(&with_header("4 4 0 4 0 0 2 2 0")),
        Some(LoadErrorKind::GeneratorRow)
    );
    assert_eq!(
        kind(&with_header("4 4 0 1 0 0 9 2 0")),
        Some(LoadErrorKind::GeneratorRow)
    );
    assert_eq!(
        kind(&with_header("4 4 0 1 4 0 2 2 0")),
        Some(LoadErrorKind::GeneratorColumn)
    );
    assert_eq!(
        kind(&with_header("4 4 0 1 0 0 2 4 0")),
        Some(LoadErrorKind::GeneratorColumn)
    );
    assert!(load_bytes(&with_header("4 4 0 1 0 2147483648 2 2 0")).is_ok());
    assert!(load_bytes(&with_header("4 4 0 1 0 18446744073709551615 2 2 0")).is_ok());
    assert_eq!(
        kind(&with_header("4 4 0 1 0 18446744073709551616 2 2 0")),
        Some(LoadErrorKind::MoveNumber)
    );
    assert_eq!(
        kind(&with_header("4 4 0 1 0 0 2 2 99999999999999999999999")),
        Some(LoadErrorKind::MoveNumber)
    );
    let state = load_bytes(&with_header("4 4 1 3 3 2147483647 0 1 7")).expect("loads");
    let [o, x] = state.generators.each_ref().map(Generator::state);
    assert_eq!(
        o,
        GenState {
            row: 3,
            col: 3,
            number: 2_147_483_647
        }
    );
    assert_eq!(
        x,
        GenState {
            row: 0,
            col: 1,
            number: 7
        }
    );
}

#[test]
fn file_4_grid_lines_exactly_w_symbols() {
    let h = "4 4 0 1 0 0 2 2 0\n";
    for (grid, want) in [
        ("....\n..o.\n....\n....\n", LoadErrorKind::GridByte(b'o')),
        ("....\n..0.\n....\n....\n", LoadErrorKind::GridByte(b'0')),
        ("....\n.. .\n....\n....\n", LoadErrorKind::GridByte(b' ')),
        ("....\r\n....\n....\n....\n", LoadErrorKind::GridByte(b'\r')),
        ("....\n...\n....\n....\n", LoadErrorKind::GridLineShort),
        ("....\n.....\n....\n....\n", LoadErrorKind::GridLineLong),
        ("....\n....\n....\n", LoadErrorKind::GridTruncated),
        ("OXOX\nXOXO\nOXOX\nXOXO\n", LoadErrorKind::NoEmptyCell),
    ] {
        assert_eq!(
            kind(format!("{h}{grid}").as_bytes()),
            Some(want),
            "{grid:?}"
        );
    }
    // Dead strings load (CAPTURE-4 decides later).
    assert!(load_bytes(format!("{h}XO..\nO...\n....\n....\n").as_bytes()).is_ok());
}

#[test]
fn file_5_rest_ignored_ends_are_errors() {
    let mut more = EMPTY_4X4.to_vec();
    more.extend_from_slice(b"\n\ngarbage\x00\xff....\n");
    assert_eq!(load_bytes(&more).ok(), Some(State::new(4, 4)));
    assert_eq!(kind(b""), Some(LoadErrorKind::Empty));
    assert_eq!(kind(b"4 4 0 1"), Some(LoadErrorKind::HeaderUnterminated));
    assert_eq!(
        kind(b"4 4 0 1 0 0 2 2 0"),
        Some(LoadErrorKind::HeaderUnterminated)
    );
    assert_eq!(
        kind(b"4 4 0 1 0 0 2 2 0\n..."),
        Some(LoadErrorKind::GridTruncated)
    );
}

#[test]
fn file_5_reading_stops_after_the_grid() {
    /// Fails every read after `ok` bytes.
    struct Then(Vec<u8>, usize);
    impl Read for Then {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.1 >= self.0.len() {
                return Err(io::Error::other("read past the grid"));
            }
            let n = buf.len().min(self.0.len() - self.1);
            buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
            self.1 += n;
            Ok(n)
        }
    }
    assert!(load_reader(Then(EMPTY_4X4.to_vec(), 0)).is_ok());
}

#[test]
fn file_6_unreadable_is_a_contents_error() {
    let dir = tempfile::tempdir().expect("temporary directory");
    assert!(matches!(
        load_path(dir.path()),
        Err(LoadFailure::Contents(LoadError {
            kind: LoadErrorKind::Unreadable,
            ..
        }))
    ));
    assert!(matches!(
        load_path(&dir.path().join("missing")),
        Err(LoadFailure::Open(_))
    ));
}

#[test]
fn file_7_loaded_state_is_the_files() {
    let file = b"4 5 1 2 3 11 0 4 6\nO...X\n.....\n..X..\nO....\n";
    let state = load_bytes(file).expect("loads");
    assert_eq!(state.next, Player::X);
    assert_eq!(
        state.grid.get(Cell::new(0, 4)),
        Some(Stone::Taken(Player::X))
    );
    assert_eq!(
        state.grid.get(Cell::new(3, 0)),
        Some(Stone::Taken(Player::O))
    );
    assert_eq!(state.grid.empty_cells(), 16);
    assert_eq!(to_bytes(&state), file);
}

#[test]
fn save_2_header_carries_reduced_generator_states() {
    let mut state = State::new(4, 4);
    state.next = Player::X;
    for _ in 0..3 {
        state.generator(Player::X).take();
    }
    assert_eq!(
        to_bytes(&state),
        b"4 4 1 1 0 0 2 0 3\n....\n....\n....\n....\n"
    );
}
