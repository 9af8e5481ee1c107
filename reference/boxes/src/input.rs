//! Reading user input one line at a time with bounded memory (rulings
//! TURN-4, EOF-1, EOF-2).
//!
//! A line may be of any length; only its first [`LINE_CAP`] bytes are kept.
//! No valid move is anywhere near that long, and no save path that long can
//! be opened (Linux refuses paths of `PATH_MAX` = 4096 bytes or more), so the
//! cut changes no outcome while a gigabyte line costs no gigabyte of memory.

use std::io::BufRead;

pub use reference_kit::line::Line;

/// Bytes of a line kept in memory.
pub const LINE_CAP: usize = 8192;

/// Reads the next line into `buf` (without its `\n`). A read error counts
/// as the end of input at that point (EOF-1); a last line without `\n`
/// counts as a line (EOF-2).
pub fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> Line {
    reference_kit::line::read_line(input, buf, LINE_CAP, |_| {})
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    #[test]
    fn eof_2_last_line_without_newline_is_a_line() {
        let mut input = Cursor::new(b"0 0 h\n1 1 v".to_vec());
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf), Line::Read { cut: false });
        assert_eq!(buf, b"0 0 h");
        assert_eq!(read_line(&mut input, &mut buf), Line::Read { cut: false });
        assert_eq!(buf, b"1 1 v");
        assert_eq!(read_line(&mut input, &mut buf), Line::End);
    }

    #[test]
    fn eof_1_empty_input_is_the_end() {
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut Cursor::new(Vec::new()), &mut buf), Line::End);
        let mut input = Cursor::new(b"\n".to_vec());
        assert_eq!(read_line(&mut input, &mut buf), Line::Read { cut: false });
        assert!(buf.is_empty());
        assert_eq!(read_line(&mut input, &mut buf), Line::End);
    }

    #[test]
    fn turn_4_long_lines_are_cut_in_bounded_memory() {
        let mut long = vec![b'7'; 3 * 1024 * 1024];
        long.extend_from_slice(b"\nnext\n");
        let mut input = BufReader::with_capacity(1000, Cursor::new(long));
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf), Line::Read { cut: true });
        assert_eq!(buf.len(), LINE_CAP);
        assert!(buf.capacity() < 4 * LINE_CAP);
        assert_eq!(read_line(&mut input, &mut buf), Line::Read { cut: false });
        assert_eq!(buf, b"next");
    }
}
