//! Parsing one line of user input into a move, a save or nothing valid
//! (rulings TURN-2, SAVE-1).

use crate::grid::{Direction, Edge};

/// What one input line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command<'a> {
    /// Close this edge (it may still lie outside the grid or be closed).
    Move(Edge),
    /// Save the game to this path (bytes before any NUL; may be empty).
    Save(&'a [u8]),
    /// Anything else (TURN-4): the same prompt again.
    Invalid,
}

/// Parses `line` (without its `\n`).
pub fn parse(line: &[u8]) -> Command<'_> {
    if let Some(path) = line.strip_prefix(b"w ") {
        // The path is a C string: it ends at the first NUL (SAVE-1).
        let end = path.iter().position(|&b| b == 0).unwrap_or(path.len());
        return Command::Save(&path[..end]);
    }
    parse_move(line).map_or(Command::Invalid, Command::Move)
}

/// A line of the shape `digits digits h|v`, before the leading-zero rule:
/// the move grammar with its numbers still as bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveShape<'a> {
    /// The row's digits.
    pub row: &'a [u8],
    /// The column's digits.
    pub col: &'a [u8],
    /// The edge's direction.
    pub dir: Direction,
}

impl MoveShape<'_> {
    /// Whether the row or the column has a leading zero, the one thing
    /// between this shape and a move (TURN-2 marks it ambiguous).
    pub fn has_leading_zero(&self) -> bool {
        let leading = |n: &[u8]| n.len() > 1 && n[0] == b'0';
        leading(self.row) || leading(self.col)
    }
}

/// Splits `line` into the parts of a move line, or `None` when it does not
/// have the shape `[0-9]+ [0-9]+ [hv]` (TURN-2).
pub fn move_shape(line: &[u8]) -> Option<MoveShape<'_>> {
    let mut parts = line.split(|&b| b == b' ');
    let row = parts.next().filter(|n| is_digits(n))?;
    let col = parts.next().filter(|n| is_digits(n))?;
    let dir = match parts.next()? {
        b"h" => Direction::Horizontal,
        b"v" => Direction::Vertical,
        _ => return None,
    };
    if parts.next().is_some() {
        return None;
    }
    Some(MoveShape { row, col, dir })
}

fn is_digits(n: &[u8]) -> bool {
    !n.is_empty() && n.iter().all(u8::is_ascii_digit)
}

/// `^(0|[1-9][0-9]*) (0|[1-9][0-9]*) [hv]$` (TURN-2). Numbers too large for
/// `usize` saturate: they name no edge either way (TURN-3).
fn parse_move(line: &[u8]) -> Option<Edge> {
    let shape = move_shape(line).filter(|s| !s.has_leading_zero())?;
    Some(Edge {
        row: number(shape.row),
        col: number(shape.col),
        dir: shape.dir,
    })
}

fn number(digits: &[u8]) -> usize {
    usize::try_from(reference_kit::number::saturating_decimal(digits)).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_2_valid_move_lines() {
        assert_eq!(parse(b"0 0 h"), Command::Move(Edge::h(0, 0)));
        assert_eq!(parse(b"12 3 v"), Command::Move(Edge::v(12, 3)));
        assert_eq!(
            parse(b"99999999999999999999999 0 h"),
            Command::Move(Edge::h(usize::MAX, 0))
        );
    }

    #[test]
    fn turn_2_invalid_move_lines() {
        for bad in [
            &b""[..],
            b"0 0",
            b"0 0 x",
            b"0 0 H",
            b" 0 0 h",
            b"0 0 h ",
            b"0  0 h",
            b"0\t0 h",
            b"0 0 h\r",
            b"+1 0 h",
            b"-1 0 h",
            b"00 0 h",
            b"0 01 v",
            b"0 0 hv",
            b"a b h",
            b"0 0 h\0",
            b"0\x000 h",
            b"1 2 3 h",
        ] {
            assert_eq!(
                parse(bad),
                Command::Invalid,
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn turn_2_shape_with_leading_zero_is_not_a_move() {
        assert!(move_shape(b"01 2 h").is_some_and(|s| s.has_leading_zero()));
        assert!(move_shape(b"1 00 v").is_some_and(|s| s.has_leading_zero()));
        assert!(move_shape(b"0 0 h").is_some_and(|s| !s.has_leading_zero()));
        assert_eq!(move_shape(b"01 2 x"), None);
        assert_eq!(move_shape(b"+1 2 h"), None);
    }

    #[test]
    fn save_1_path_is_every_byte_after_w_space() {
        assert_eq!(parse(b"w out.txt"), Command::Save(b"out.txt"));
        assert_eq!(parse(b"w  spaced \r"), Command::Save(b" spaced \r"));
        assert_eq!(parse(b"w a\0b"), Command::Save(b"a"));
        assert_eq!(parse(b"w "), Command::Save(b""));
        assert_eq!(parse(b"w"), Command::Invalid);
        assert_eq!(parse(b"wpath"), Command::Invalid);
        assert_eq!(parse(b" w path"), Command::Invalid);
        assert_eq!(parse(b"W path"), Command::Invalid);
    }
}
