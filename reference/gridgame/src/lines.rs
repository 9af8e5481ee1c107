//! Input, one line of bytes at a time (IN-1): every byte before a `\n`, of
//! any length, NUL and `\r` ordinary bytes. End of input is a read that
//! finds no byte at all (or fails); a last line without `\n` is still a
//! line, and the read after it meets the end (IN-2).

use std::io::BufRead;

/// Lines of `input`.
pub struct Lines<R> {
    input: R,
    ended: bool,
}

impl<R: BufRead> Lines<R> {
    /// Lines read from `input`.
    pub fn new(input: R) -> Self {
        Self {
            input,
            ended: false,
        }
    }

    /// The next line without its `\n`, or `None` at end of input.
    pub fn next_line(&mut self) -> Option<Vec<u8>> {
        if self.ended {
            return None;
        }
        let mut line = Vec::new();
        match self.input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => {
                self.ended = true;
                None
            }
            Ok(_) => {
                if line.last() == Some(&b'\n') {
                    line.pop();
                } else {
                    // IN-2: the last line had no `\n`; the next read ends.
                    self.ended = true;
                }
                Some(line)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_nul_cr_and_an_unterminated_last_line() {
        let mut l = Lines::new(&b"a\0b\r\n\nlast"[..]);
        assert_eq!(l.next_line(), Some(b"a\0b\r".to_vec()));
        assert_eq!(l.next_line(), Some(Vec::new()));
        assert_eq!(l.next_line(), Some(b"last".to_vec()));
        assert_eq!(l.next_line(), None);
        assert_eq!(Lines::new(&b""[..]).next_line(), None);
    }
}
