//! Reading a human's lines one at a time in bounded memory (rulings TURN-4,
//! EOF-1, EOF-2).
//!
//! A line may be of any length and is always one line. Only its first
//! [`LINE_CAP`] bytes are kept (enough for any save path `open` accepts:
//! Linux refuses paths of 4096 bytes or more), while every byte goes through
//! the move scan, so a 100 MB line costs no 100 MB and is still judged whole.

use std::io::BufRead;

use crate::command::{self, Command, LINE_CAP, MoveScan};

/// The line buffer, reused from line to line.
#[derive(Debug, Default)]
pub struct Line {
    kept: Vec<u8>,
    cut: bool,
    scan: MoveScan,
}

impl Line {
    /// An empty buffer.
    pub fn new() -> Self {
        Self {
            kept: Vec::with_capacity(128),
            ..Self::default()
        }
    }

    /// What the last line read asks for.
    pub fn command(&self) -> Command<'_> {
        command::parse(&self.kept, self.cut, &self.scan)
    }

    /// The kept bytes of the last line (all of it unless [`Self::is_cut`]).
    pub fn kept(&self) -> &[u8] {
        &self.kept
    }

    /// Whether the last line was longer than [`LINE_CAP`].
    pub const fn is_cut(&self) -> bool {
        self.cut
    }

    /// Reads the next line (without its `\n`). `false` when input ended,
    /// or failed, before any byte of a line (EOF-1); a last line without
    /// `\n` is a line (EOF-2).
    pub fn read<R: BufRead>(&mut self, input: &mut R) -> bool {
        self.scan = MoveScan::default();
        self.cut = false;
        let scan = &mut self.scan;
        let line =
            reference_kit::line::read_line(input, &mut self.kept, LINE_CAP, |b| scan.feed(b));
        match line {
            reference_kit::line::Line::End => false,
            reference_kit::line::Line::Read { cut } => {
                self.cut = cut;
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;
    use std::io::{BufReader, Cursor};

    #[test]
    fn eof_2_last_line_without_newline_is_a_line() {
        let mut input = Cursor::new(b"0 0\n1 1".to_vec());
        let mut line = Line::new();
        assert!(line.read(&mut input));
        assert_eq!(line.command(), Command::Move(Cell::new(0, 0)));
        assert!(line.read(&mut input));
        assert_eq!(line.command(), Command::Move(Cell::new(1, 1)));
        assert!(!line.read(&mut input));
    }

    #[test]
    fn eof_1_empty_input_is_the_end_an_empty_line_is_not() {
        let mut line = Line::new();
        assert!(!line.read(&mut Cursor::new(Vec::new())));
        let mut input = Cursor::new(b"\n".to_vec());
        assert!(line.read(&mut input));
        assert_eq!(line.command(), Command::Invalid);
        assert!(!line.read(&mut input));
    }

    #[test]
    fn turn_4_long_line_is_one_line_in_bounded_memory() {
        let mut long = vec![b'7'; 3 * 1024 * 1024];
        long.extend_from_slice(b"\n2 3\n");
        let mut input = BufReader::with_capacity(1000, Cursor::new(long));
        let mut line = Line::new();
        assert!(line.read(&mut input));
        assert!(line.is_cut());
        assert_eq!(line.kept().len(), LINE_CAP);
        assert!(line.kept.capacity() < 4 * LINE_CAP);
        assert_eq!(line.command(), Command::Invalid);
        assert!(line.read(&mut input));
        assert_eq!(line.command(), Command::Move(Cell::new(2, 3)));
    }

    #[test]
    fn turn_3_long_number_is_out_of_range_not_wrapped() {
        let mut bytes = vec![b'9'; 100_000];
        bytes.extend_from_slice(b" 1\n");
        let mut line = Line::new();
        assert!(line.read(&mut Cursor::new(bytes)));
        assert!(matches!(line.command(), Command::Move(c) if c.row == usize::MAX && c.col == 1));
    }

    #[test]
    fn turn_2_long_leading_zeros_still_a_move() {
        let mut bytes = vec![b'0'; 100_000];
        bytes.extend_from_slice(b"1 02\n");
        let mut line = Line::new();
        assert!(line.read(&mut BufReader::with_capacity(64, Cursor::new(bytes))));
        assert!(line.is_cut());
        assert_eq!(line.command(), Command::Move(Cell::new(1, 2)));
    }

    #[test]
    fn save_1_long_save_path_without_nul_cannot_be_opened() {
        let mut bytes = b"w".to_vec();
        bytes.resize(LINE_CAP * 2, b'a');
        let mut line = Line::new();
        assert!(line.read(&mut Cursor::new(bytes)));
        assert_eq!(line.command(), Command::Save(None));
    }
}
