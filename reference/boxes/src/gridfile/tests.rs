//! Tests of `gridfile`, beside it.

use super::*;

/// The assignment's example file: 3×3, two players, next player 1.
pub(crate) const EXAMPLE: &[u8] = b"1\n000\n0100\n011\n0111\n011\n1000\n100\n0,0,0\n0,1,2\n0,0,0\n";

fn kind(bytes: &[u8], h: usize, w: usize, p: usize) -> Option<LoadErrorKind> {
    load_bytes(bytes, h, w, p).err().map(|e| e.kind)
}

#[test]
fn file_1_example_file_loads() {
    let s = load_bytes(EXAMPLE, 3, 3, 2);
    let s = s.as_ref().ok();
    assert_eq!(s.map(|s| s.next), Some(Player::FIRST));
    let g = &s.map_or_else(|| Grid::new(3, 3), |s| s.grid.clone());
    assert!(g.is_closed(Edge::v(0, 1)));
    assert!(g.is_closed(Edge::h(1, 1)));
    assert_eq!(g.owner(Cell { row: 1, col: 1 }), Player::new(1));
    assert_eq!(g.owner(Cell { row: 1, col: 2 }), Player::new(2));
    assert_eq!(g.open_edges(), 24 - 10);
}

#[test]
fn file_1_exact_line_count() {
    assert!(kind(b"1\n00\n000\n00\n", 1, 2, 2).is_some());
    assert_eq!(
        kind(b"1\n00\n000\n", 2, 2, 2),
        Some(LoadErrorKind::MissingLines {
            expected: 8,
            found: 3
        })
    );
}

#[test]
fn file_1_edge_rows_exact_length_and_bytes() {
    let ok = b"1\n00\n000\n00\n000\n00\n0,0\n0,0\n";
    assert!(load_bytes(ok, 2, 2, 2).is_ok());
    assert_eq!(
        kind(b"1\n0\n000\n00\n000\n00\n0,0\n0,0\n", 2, 2, 2),
        Some(LoadErrorKind::EdgeRowShort)
    );
    assert_eq!(
        kind(b"1\n000\n000\n00\n000\n00\n0,0\n0,0\n", 2, 2, 2),
        Some(LoadErrorKind::EdgeRowLong)
    );
    assert_eq!(
        kind(b"1\n02\n000\n00\n000\n00\n0,0\n0,0\n", 2, 2, 2),
        Some(LoadErrorKind::EdgeByte(b'2'))
    );
    assert_eq!(
        kind(b"1\n00\n0000\n00\n000\n00\n0,0\n0,0\n", 2, 2, 2),
        Some(LoadErrorKind::EdgeRowLong)
    );
}

#[test]
fn file_1_cell_rows_exact_field_count() {
    assert_eq!(
        kind(b"1\n00\n000\n00\n000\n00\n0\n0,0\n", 2, 2, 2),
        Some(LoadErrorKind::TooFewFields)
    );
    assert_eq!(
        kind(b"1\n00\n000\n00\n000\n00\n0,0,0\n0,0\n", 2, 2, 2),
        Some(LoadErrorKind::TooManyFields)
    );
}

#[test]
fn file_2_next_player_digits_in_range() {
    let rest = b"\n00\n000\n00\n000\n00\n0,0\n0,0\n";
    let with = |first: &[u8]| kind(&[first, &rest[..]].concat(), 2, 2, 3);
    assert_eq!(with(b"3"), None);
    assert_eq!(with(b"03"), None);
    assert_eq!(with(b"0"), Some(LoadErrorKind::NextPlayerRange));
    assert_eq!(with(b"4"), Some(LoadErrorKind::NextPlayerRange));
    assert_eq!(with(b""), Some(LoadErrorKind::NextPlayerEmpty));
    assert_eq!(with(b"+1"), Some(LoadErrorKind::NextPlayerByte(b'+')));
    assert_eq!(with(b" 1"), Some(LoadErrorKind::NextPlayerByte(b' ')));
    assert_eq!(
        with(b"99999999999999999999999999"),
        Some(LoadErrorKind::NextPlayerRange)
    );
}

#[test]
fn file_3_owner_numbers() {
    let closed = b"1\n11\n111\n11\n111\n11\n";
    let with = |cells: &[u8]| kind(&[&closed[..], cells].concat(), 2, 2, 3);
    assert_eq!(with(b"3,00\n0,1\n"), None);
    assert_eq!(with(b"4,0\n0,0\n"), Some(LoadErrorKind::OwnerRange));
    assert_eq!(with(b"0,,0\n0,0\n"), Some(LoadErrorKind::EmptyField));
    assert_eq!(with(b",0\n0,0\n"), Some(LoadErrorKind::EmptyField));
    assert_eq!(with(b"0,0,\n0,0\n"), Some(LoadErrorKind::TooManyFields));
    assert_eq!(with(b"0,\n0,0\n"), Some(LoadErrorKind::EmptyField));
    assert_eq!(with(b"-1,0\n0,0\n"), Some(LoadErrorKind::CellByte(b'-')));
    assert_eq!(with(b"0, 1\n0,0\n"), Some(LoadErrorKind::CellByte(b' ')));
}

#[test]
fn file_4_owner_only_on_closed_cells() {
    let cells = b"1,0\n0,0\n";
    let open = [&b"1\n00\n000\n00\n000\n00\n"[..], cells].concat();
    assert_eq!(
        kind(&open, 2, 2, 2),
        Some(LoadErrorKind::OwnerOnOpenCell { row: 0, col: 0 })
    );
    let closed = [&b"1\n10\n110\n10\n000\n00\n"[..], cells].concat();
    assert_eq!(kind(&closed, 2, 2, 2), None);
    let unowned_closed = b"1\n10\n110\n10\n000\n00\n0,0\n0,0\n";
    assert_eq!(kind(unowned_closed, 2, 2, 2), None);
}

#[test]
fn file_5_final_newline_optional_nothing_after() {
    let ok = b"1\n00\n000\n00\n000\n00\n0,0\n0,0";
    assert_eq!(kind(ok, 2, 2, 2), None);
    assert_eq!(
        kind(b"1\n00\n000\n00\n000\n00\n0,0\n0,0\n\n", 2, 2, 2),
        Some(LoadErrorKind::ExtraLine)
    );
    assert_eq!(
        kind(b"1\n00\n000\n00\n000\n00\n0,0\n0,0\nx", 2, 2, 2),
        Some(LoadErrorKind::ExtraLine)
    );
    assert_eq!(
        kind(b"1\r\n00\n000\n00\n000\n00\n0,0\n0,0\n", 2, 2, 2),
        Some(LoadErrorKind::NextPlayerByte(b'\r'))
    );
    assert_eq!(
        kind(b"1\n00\r\n000\n00\n000\n00\n0,0\n0,0\n", 2, 2, 2),
        Some(LoadErrorKind::EdgeByte(b'\r'))
    );
    assert_eq!(
        kind(b"1\n0\x000\n000\n00\n000\n00\n0,0\n0,0\n", 2, 2, 2),
        Some(LoadErrorKind::EdgeByte(0))
    );
}

#[test]
fn file_6_empty_file_is_a_contents_error() {
    assert_eq!(kind(b"", 2, 2, 2), Some(LoadErrorKind::Empty));
    assert_eq!(kind(b"\n", 2, 2, 2), Some(LoadErrorKind::NextPlayerEmpty));
}

#[test]
fn file_6_read_error_is_a_contents_error() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("boom"))
        }
    }
    assert_eq!(
        load_reader(Broken, 2, 2, 2).err().map(|e| e.kind),
        Some(LoadErrorKind::Unreadable)
    );
}

#[test]
fn save_2_round_trip_is_identical() {
    let s = load_bytes(EXAMPLE, 3, 3, 2);
    assert_eq!(s.as_ref().map(to_bytes).ok().as_deref(), Some(EXAMPLE));
}

#[test]
fn file_7_loaded_next_player_kept() {
    let s = load_bytes(b"2\n00\n000\n00\n000\n00\n0,0\n0,0\n", 2, 2, 2);
    assert_eq!(s.map(|s| s.next).ok(), Player::new(2));
}

#[test]
fn file_rules_map_each_load_error_once() {
    use crate::rules::Rule;
    assert_eq!(LoadErrorKind::Empty.rules(), [Rule::File6]);
    assert_eq!(LoadErrorKind::TooFewFields.rules(), [Rule::File1]);
    assert_eq!(LoadErrorKind::EmptyField.rules(), [Rule::File3]);
    assert_eq!(
        LoadErrorKind::EdgeByte(b'\r').rules(),
        [Rule::File1, Rule::File5]
    );
    assert_eq!(LoadErrorKind::CellByte(b'x').rules(), [Rule::File3]);
    assert_eq!(
        LoadErrorKind::OwnerOnOpenCell { row: 0, col: 0 }.rules(),
        [Rule::File4]
    );
    assert_eq!(LoadErrorKind::ExtraLine.rules(), [Rule::File5]);
}
