//! What a human's line means (rulings TURN-2..4, SAVE-1): a save, a move
//! or an invalid line.
//!
//! A move is scanned byte by byte as the line is read ([`MoveScan`]), so a
//! line of any length is judged whole in constant memory: leading zeros of
//! any count are accepted (TURN-2) and a number of any size saturates
//! instead of wrapping into the grid (TURN-3).

use reference_kit::number::push_digit;

use crate::grid::Cell;

/// Bytes of a line kept in memory (the input keeps no more; a line cut
/// there is still judged whole by the move scan).
pub const LINE_CAP: usize = 8192;

/// A scan of `^[0-9]+ [0-9]+$` over a line fed in pieces (TURN-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MoveScan {
    phase: ScanPhase,
    row: u64,
    col: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum ScanPhase {
    /// Nothing read yet.
    #[default]
    Start,
    /// In the row's digits.
    Row,
    /// Just after the one space.
    Space,
    /// In the column's digits.
    Col,
    /// A byte broke the pattern.
    Invalid,
}

impl MoveScan {
    /// Feeds the next bytes of the line (without its `\n`).
    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.phase == ScanPhase::Invalid {
                return;
            }
            self.phase = match (self.phase, b) {
                (ScanPhase::Start | ScanPhase::Row, b'0'..=b'9') => {
                    self.row = push_digit(self.row, b);
                    ScanPhase::Row
                }
                (ScanPhase::Row, b' ') => ScanPhase::Space,
                (ScanPhase::Space | ScanPhase::Col, b'0'..=b'9') => {
                    self.col = push_digit(self.col, b);
                    ScanPhase::Col
                }
                _ => ScanPhase::Invalid,
            };
        }
    }

    /// The cell the whole line names, if it matched the pattern. Numbers
    /// too large for any grid come out huge, never wrapped.
    pub fn cell(&self) -> Option<Cell> {
        (self.phase == ScanPhase::Col).then(|| {
            Cell::new(
                usize::try_from(self.row).unwrap_or(usize::MAX),
                usize::try_from(self.col).unwrap_or(usize::MAX),
            )
        })
    }
}

/// What a line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command<'a> {
    /// `w` then a path: save there (SAVE-1). `None` when the path is longer
    /// than the line kept in memory, which no system can open.
    Save(Option<&'a [u8]>),
    /// A well-formed move; the grid still decides whether it is valid.
    Move(Cell),
    /// Anything else (TURN-4).
    Invalid,
}

/// Classifies a line from its first bytes (`kept`, the whole line unless
/// `cut`) and the scan of all its bytes.
pub fn parse<'a>(kept: &'a [u8], cut: bool, scan: &MoveScan) -> Command<'a> {
    if let Some((b'w', rest)) = kept.split_first() {
        return Command::Save(save_path(rest, cut));
    }
    scan.cell().map_or(Command::Invalid, Command::Move)
}

/// What a whole line (without its `\n`) asks for, judged exactly as the
/// game judges it when read from stdin ([`crate::input::Line`]).
pub fn parse_line(line: &[u8]) -> Command<'_> {
    let mut scan = MoveScan::default();
    scan.feed(line);
    let cut = line.len() > LINE_CAP;
    parse(&line[..line.len().min(LINE_CAP)], cut, &scan)
}

/// The path of a save line: every byte after the `w` up to the first NUL
/// (SAVE-1). Without a NUL in the kept bytes of a cut line, the path is
/// longer than anything `open` accepts.
fn save_path(rest: &[u8], cut: bool) -> Option<&[u8]> {
    match rest.iter().position(|&b| b == 0) {
        Some(nul) => Some(&rest[..nul]),
        None if cut => None,
        None => Some(rest),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(line: &[u8]) -> MoveScan {
        let mut s = MoveScan::default();
        s.feed(line);
        s
    }

    fn command(line: &[u8]) -> Command<'_> {
        let s = scan(line);
        parse(line, false, &s)
    }

    #[test]
    fn parse_line_judges_a_line_as_the_game_reads_it() {
        assert_eq!(parse_line(b"1 2"), Command::Move(Cell::new(1, 2)));
        assert_eq!(parse_line(b"1 2\r"), Command::Invalid);
        assert_eq!(parse_line(b"wx\0y"), Command::Save(Some(&b"x"[..])));
        let long = [&b"w"[..], &[b'a'; LINE_CAP]].concat();
        assert_eq!(parse_line(&long), Command::Save(None));
    }

    #[test]
    fn turn_2_two_numbers_one_space() {
        assert_eq!(command(b"1 2"), Command::Move(Cell::new(1, 2)));
        assert_eq!(command(b"0 0"), Command::Move(Cell::new(0, 0)));
        assert_eq!(command(b"999 1000"), Command::Move(Cell::new(999, 1000)));
    }

    #[test]
    fn turn_2_leading_zeros_accepted() {
        assert_eq!(command(b"01 2"), Command::Move(Cell::new(1, 2)));
        assert_eq!(command(b"00000 0003"), Command::Move(Cell::new(0, 3)));
    }

    #[test]
    fn turn_2_everything_else_is_invalid() {
        for bad in [
            &b""[..],
            b"1",
            b"1 ",
            b" 1 1",
            b"1 1 ",
            b"1  1",
            b"1\t1",
            b"+1 1",
            b"-1 1",
            b"1 -1",
            b"1 1\r",
            b"1 1\0",
            b"1 2x",
            b"1 1 1",
            b"a b",
            b"W1 1",
            b"\x001 1",
        ] {
            assert_eq!(command(bad), Command::Invalid, "{bad:?}");
        }
    }

    #[test]
    fn turn_3_huge_numbers_saturate() {
        let Command::Move(c) = command(b"99999999999999999999999999 18446744073709551617") else {
            panic!("a well-formed move");
        };
        assert_eq!((c.row, c.col), (usize::MAX, usize::MAX));
    }

    #[test]
    fn turn_2_scan_in_pieces_equals_whole() {
        let line = b"0000000000000000000000000000012 0000000000000007";
        let mut pieces = MoveScan::default();
        for chunk in line.chunks(3) {
            pieces.feed(chunk);
        }
        assert_eq!(pieces, scan(line));
        assert_eq!(pieces.cell(), Some(Cell::new(12, 7)));
    }

    #[test]
    fn turn_4_w_starts_a_save_never_a_move() {
        assert_eq!(command(b"w1 1"), Command::Save(Some(b"1 1")));
        assert_eq!(command(b"W x"), Command::Invalid);
    }

    #[test]
    fn save_1_path_is_every_byte_after_w_up_to_nul() {
        assert_eq!(command(b"wsave"), Command::Save(Some(b"save")));
        assert_eq!(command(b"w save"), Command::Save(Some(b" save")));
        assert_eq!(command(b"w"), Command::Save(Some(b"")));
        assert_eq!(command(b"wa\0b"), Command::Save(Some(b"a")));
        assert_eq!(command(b"wa b\r"), Command::Save(Some(b"a b\r")));
        let s = MoveScan::default();
        assert_eq!(parse(b"wlong", true, &s), Command::Save(None));
        assert_eq!(parse(b"wlo\0ng", true, &s), Command::Save(Some(b"lo")));
    }
}
