//! Reading user input one line at a time with bounded memory (rulings
//! TURN-4, EOF-1, EOF-2).
//!
//! A line may be of any length; only its first [`LINE_CAP`] bytes are kept.
//! No valid move is anywhere near that long, and no save path that long can
//! be opened (Linux refuses paths of `PATH_MAX` = 4096 bytes or more), so the
//! cut changes no outcome while a gigabyte line costs no gigabyte of memory.

use std::io::{BufRead, ErrorKind};

/// Bytes of a line kept in memory.
pub const LINE_CAP: usize = 8192;

/// What one read produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// Input ended (or failed) before any byte of a line (EOF-1).
    End,
    /// A line is in the buffer; `cut` says bytes past [`LINE_CAP`] were
    /// dropped. A last line without `\n` counts as a line (EOF-2).
    Read {
        /// Whether the line was longer than the buffer kept.
        cut: bool,
    },
}

/// Reads the next line into `buf` (without its `\n`). A read error counts
/// as the end of input at that point (EOF-1).
pub fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> Line {
    buf.clear();
    let mut cut = false;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (body, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = LINE_CAP - buf.len();
        if body.len() > room {
            cut = true;
        }
        buf.extend_from_slice(&body[..body.len().min(room)]);
        input.consume(used);
        if done {
            return Line::Read { cut };
        }
    }
    if any { Line::Read { cut } } else { Line::End }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor, Read};

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
    fn eof_1_read_error_is_the_end() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("boom"))
            }
        }
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut BufReader::new(Broken), &mut buf), Line::End);
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
