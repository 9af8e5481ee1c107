//! One line of input at a time in bounded memory: every byte before a `\n`
//! is the line's, NUL and `\r` ordinary bytes; a last line without `\n` is
//! a line; a read that finds no byte (or fails) is the end of input. Only
//! the first `cap` bytes are kept, yet every byte is shown to the caller's
//! observer, so a 100 MB line is judged whole without 100 MB of memory.

use std::io::{BufRead, ErrorKind};

/// What one read produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// Input ended (or failed) before any byte of a line.
    End,
    /// A line is in the buffer; `cut` says bytes past the cap were dropped.
    Read {
        /// Whether the line was longer than the bytes kept.
        cut: bool,
    },
}

/// Reads the next line into `kept` (its first `cap` bytes, without the
/// `\n`), passing every byte of it to `observe` in order.
pub fn read_line<R: BufRead>(
    input: &mut R,
    kept: &mut Vec<u8>,
    cap: usize,
    mut observe: impl FnMut(&[u8]),
) -> Line {
    kept.clear();
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
        observe(body);
        let room = cap.saturating_sub(kept.len());
        cut |= body.len() > room;
        kept.extend_from_slice(&body[..body.len().min(room)]);
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
    use proptest::prelude::*;
    use std::io::{BufReader, Cursor, Read};

    fn lines(bytes: &[u8], cap: usize, chunk: usize) -> Vec<(Vec<u8>, bool, usize)> {
        let mut input = BufReader::with_capacity(chunk, Cursor::new(bytes.to_vec()));
        let mut kept = Vec::new();
        let mut out = Vec::new();
        loop {
            let mut seen = 0;
            match read_line(&mut input, &mut kept, cap, |b| seen += b.len()) {
                Line::End => return out,
                Line::Read { cut } => out.push((kept.clone(), cut, seen)),
            }
        }
    }

    #[test]
    fn nul_cr_an_empty_line_and_a_last_line_without_newline() {
        let got = lines(b"a\0b\r\n\nlast", 64, 8);
        let want = vec![
            (b"a\0b\r".to_vec(), false, 4),
            (Vec::new(), false, 0),
            (b"last".to_vec(), false, 4),
        ];
        assert_eq!(got, want);
        assert!(lines(b"", 64, 8).is_empty());
    }

    #[test]
    fn a_read_error_is_the_end() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("boom"))
            }
        }
        let mut kept = Vec::new();
        let got = read_line(&mut BufReader::new(Broken), &mut kept, 8, |_| {});
        assert_eq!(got, Line::End);
    }

    #[test]
    fn a_long_line_is_one_line_in_bounded_memory() {
        let mut long = vec![b'7'; 3 * 1024 * 1024];
        long.extend_from_slice(b"\nnext\n");
        let mut input = BufReader::with_capacity(1000, Cursor::new(long));
        let mut kept = Vec::new();
        let mut seen = 0;
        let got = read_line(&mut input, &mut kept, 8192, |b| seen += b.len());
        assert_eq!(got, Line::Read { cut: true });
        assert_eq!((kept.len(), seen), (8192, 3 * 1024 * 1024));
        assert!(kept.capacity() < 4 * 8192);
        assert_eq!(
            read_line(&mut input, &mut kept, 8192, |_| {}),
            Line::Read { cut: false }
        );
        assert_eq!(kept, b"next");
    }

    proptest! {
        /// Splitting any bytes at `\n` with any cap and any read size keeps
        /// each line's prefix, shows every byte, and loses no line.
        #[test]
        fn lines_are_the_split_at_newline(
            bytes in proptest::collection::vec(prop_oneof![Just(b'\n'), any::<u8>()], 0..300),
            cap in 0usize..20,
            chunk in 1usize..17,
        ) {
            let mut want: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
            if bytes.last().is_none_or(|&b| b == b'\n') {
                want.pop();
            }
            let got = lines(&bytes, cap, chunk);
            prop_assert_eq!(got.len(), want.len());
            for ((kept, cut, seen), line) in got.iter().zip(want) {
                prop_assert_eq!(&kept[..], &line[..line.len().min(cap)]);
                prop_assert_eq!(*cut, line.len() > cap);
                prop_assert_eq!(*seen, line.len());
            }
        }
    }
}
