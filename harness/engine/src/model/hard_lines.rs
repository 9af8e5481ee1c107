//! Input lines that break careless readers, drawn for every pack's
//! explorer from the shared [`SplitMix64`]: bytes at or above 0x80 (0xFF
//! among them, which a `char` holding `getc`'s result takes for end of
//! input), a NUL inside a line, and lines just short of, at and just past
//! common buffer sizes (70, 256 and 4,096 bytes). What such a line means is
//! each pack's rulings' business: a pack picks the odd bytes its rulings
//! read unambiguously and places them where its grammar wants them.

use std::collections::BTreeSet;

use crate::model::rng::SplitMix64;

/// Buffer sizes programs commonly read lines into: a line one short of,
/// exactly at and one past each is drawn.
pub const BUFFER_SIZES: [usize; 3] = [70, 256, 4096];

/// The byte a `char` holding `getc`'s result mistakes for `EOF` (-1).
pub const EOF_BYTE: u8 = 0xFF;

/// A length one short of, at or one past one of [`BUFFER_SIZES`].
pub fn buffer_length(rng: &mut SplitMix64) -> usize {
    let size = BUFFER_SIZES[rng.below(BUFFER_SIZES.len())];
    size - 1 + rng.below(3)
}

/// One byte at or above 0x80: [`EOF_BYTE`] half the time.
pub fn high_byte(rng: &mut SplitMix64) -> u8 {
    if rng.below(2) == 0 {
        EOF_BYTE
    } else {
        0x80 | u8::try_from(rng.below(0x80)).unwrap_or(0)
    }
}

/// One to four bytes at or above 0x80, [`EOF_BYTE`] among them half the
/// time.
pub fn high_bytes(rng: &mut SplitMix64) -> Vec<u8> {
    let mut line: Vec<u8> = (0..rng.between(1, 4))
        .map(|_| 0x80 | u8::try_from(rng.below(0x80)).unwrap_or(0))
        .collect();
    if rng.below(2) == 0 {
        let at = rng.below(line.len());
        line[at] = EOF_BYTE;
    }
    line
}

/// A line of `x`s as long as [`buffer_length`] draws, one of whose bytes
/// is one of `odd` (a NUL, a high byte, a digit: what the pack's rulings
/// read unambiguously); all `x`s when `odd` is empty.
pub fn long_line(rng: &mut SplitMix64, odd: &[u8]) -> Vec<u8> {
    let size = buffer_length(rng);
    let mut line = vec![b'x'; size];
    if let Some(&byte) = odd.get(rng.below(odd.len())) {
        line[rng.below(size)] = byte;
    }
    line
}

/// `line` with bytes drawn from `filler` inserted at one point (its
/// start, its end or between two of its bytes), up to a length
/// [`buffer_length`] draws: a line whose meaning a reader that drops
/// `filler`'s bytes keeps, past the buffer a careless one holds it in.
/// `line` itself when `filler` is empty or `line` is already that long.
pub fn stretched(rng: &mut SplitMix64, line: &[u8], filler: &[u8]) -> Vec<u8> {
    let size = buffer_length(rng);
    if filler.is_empty() || line.len() >= size {
        return line.to_vec();
    }
    let at = rng.below(line.len() + 1);
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(&line[..at]);
    out.extend((line.len()..size).map(|_| filler[rng.below(filler.len())]));
    out.extend_from_slice(&line[at..]);
    out
}

/// `line` with one byte drawn from `odd` inserted at a random point (as
/// [`stretched`], but a single byte): `line` itself when `odd` is empty.
pub fn with_odd_byte(rng: &mut SplitMix64, line: &[u8], odd: &[u8]) -> Vec<u8> {
    let Some(&byte) = odd.get(rng.below(odd.len())) else {
        return line.to_vec();
    };
    let at = rng.below(line.len() + 1);
    let mut out = line.to_vec();
    out.insert(at, byte);
    out
}

/// Which of these shapes a set of lines reaches: for an explorer's test
/// that its sessions draw them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reach {
    /// A line holds [`EOF_BYTE`].
    pub eof_byte: bool,
    /// A line holds a byte from 0x80 to 0xFE.
    pub other_high_byte: bool,
    /// A line holds a NUL and at least one other byte.
    pub nul_inside: bool,
    /// The lengths one short of, at or one past a buffer size that some
    /// line has.
    pub edges: BTreeSet<usize>,
}

impl Reach {
    /// What `lines` reach.
    pub fn of<'a>(lines: impl IntoIterator<Item = &'a [u8]>) -> Self {
        let mut reach = Self::default();
        for line in lines {
            reach.eof_byte |= line.contains(&EOF_BYTE);
            reach.other_high_byte |= line.iter().any(|&b| (0x80..EOF_BYTE).contains(&b));
            reach.nul_inside |= line.len() > 1 && line.contains(&0);
            if BUFFER_SIZES
                .iter()
                .any(|&s| (s - 1..=s + 1).contains(&line.len()))
            {
                reach.edges.insert(line.len());
            }
        }
        reach
    }

    /// The shapes not reached, named; the NUL only when `nul` (a pack
    /// whose rulings make a NUL ambiguous draws it only when asked).
    pub fn missing(&self, nul: bool) -> Vec<String> {
        let mut out = Vec::new();
        if !self.eof_byte {
            out.push("byte 0xFF".to_owned());
        }
        if !self.other_high_byte {
            out.push("a byte from 0x80 to 0xFE".to_owned());
        }
        if nul && !self.nul_inside {
            out.push("a NUL inside a line".to_owned());
        }
        for size in BUFFER_SIZES {
            for len in size - 1..=size + 1 {
                if !self.edges.contains(&len) {
                    out.push(format!("a {len}-byte line"));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn near_a_buffer_size(len: usize) -> bool {
        BUFFER_SIZES.iter().any(|&s| (s - 1..=s + 1).contains(&len))
    }

    proptest! {
        #[test]
        fn buffer_lengths_sit_at_a_buffer_edge(seed: u64) {
            let len = buffer_length(&mut SplitMix64::new(seed));
            prop_assert!(near_a_buffer_size(len), "{len}");
        }

        #[test]
        fn high_bytes_are_all_high(seed: u64) {
            let mut rng = SplitMix64::new(seed);
            let line = high_bytes(&mut rng);
            prop_assert!((1..=4).contains(&line.len()));
            prop_assert!(line.iter().all(|&b| b >= 0x80), "{line:?}");
            prop_assert!(high_byte(&mut rng) >= 0x80);
        }

        #[test]
        fn long_lines_hold_one_odd_byte_among_xs(seed: u64) {
            let line = long_line(&mut SplitMix64::new(seed), &[0, EOF_BYTE]);
            prop_assert!(near_a_buffer_size(line.len()), "{}", line.len());
            prop_assert_eq!(line.iter().filter(|&&b| b != b'x').count(), 1);
            prop_assert!(line.iter().all(|&b| matches!(b, b'x' | 0 | EOF_BYTE)));
        }

        #[test]
        fn stretched_keeps_the_line_in_order_and_adds_only_filler(
            seed: u64,
            line in proptest::collection::vec(b'a'..=b'z', 0..20),
        ) {
            let out = stretched(&mut SplitMix64::new(seed), &line, &[b' ', 0, EOF_BYTE]);
            prop_assert!(near_a_buffer_size(out.len()), "{}", out.len());
            let kept: Vec<u8> = out.iter().copied().filter(u8::is_ascii_lowercase).collect();
            prop_assert_eq!(kept, line);
        }

        #[test]
        fn with_odd_byte_adds_exactly_one(
            seed: u64,
            line in proptest::collection::vec(b'a'..=b'z', 0..20),
        ) {
            let out = with_odd_byte(&mut SplitMix64::new(seed), &line, &[0]);
            prop_assert_eq!(out.len(), line.len() + 1);
            let kept: Vec<u8> = out.iter().copied().filter(|&b| b != 0).collect();
            prop_assert_eq!(kept, line);
        }
    }

    #[test]
    fn every_shape_is_reached_and_reach_names_what_is_not() {
        let mut rng = SplitMix64::new(1);
        let mut lines: Vec<Vec<u8>> = (0..300)
            .map(|_| long_line(&mut rng, &[0, EOF_BYTE]))
            .collect();
        lines.extend((0..50).map(|_| high_bytes(&mut rng)));
        let reach = Reach::of(lines.iter().map(Vec::as_slice));
        assert_eq!(reach.missing(true), Vec::<String>::new(), "{reach:?}");
        let none = Reach::of([&b"ab"[..]]);
        assert_eq!(none.missing(false).len(), 11, "{:?}", none.missing(false));
        assert_eq!(none.missing(true).len(), 12);
    }
}
