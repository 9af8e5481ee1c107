//! Deliberately wrong `gridgame` programs for the gridgame pack's own tests
//! (`harness/tests/it/gridgame.rs`, `harness/tests/it/causes.rs`): each departs
//! from the rulings in one rule, the way a student's program typically
//! does: a computer player wrong in one tie-break level (`y-sum-first`,
//! `largest-x-sum`), a line printed after every read (`echo-lines`,
//! `debug-line`), a size prompt saying `(2..9)` (`size-prompt-2-9`, and
//! with `y-sum-first`'s bug too: `size-prompt-2-9-y-sum-first`), byte 0xFF
//! read as end of input (`byte-ff-is-eof`: `getc`'s result kept in a
//! `char`); the suite must fail it, name one cause, and `diff --spec
//! gridgame` must find and shrink it.
//!
//! The variant is picked by the basename of `argv[0]` (the harness clears
//! the environment, so a symlink named after the variant is the only
//! channel); any other name is the reference unchanged. Everything but the
//! choice among the first-level candidates is the reference's.

use std::cmp::Reverse;
use std::io::{BufRead, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use gridgame_reference::ExitTable;
use gridgame_reference::chooser::{self, Candidate};
use gridgame_reference::game::{self, AfterRead, Chooser};
use gridgame_reference::grid::{Edge, Grid};

/// COMP-6 and COMP-7 swapped: the smallest y-sum is compared before the
/// smallest x-sum.
fn y_sum_first(grid: &Grid) -> Option<Edge> {
    pick(grid, |c| (Reverse(c.freedom), c.y_sum, c.x_sum))
}

/// COMP-6 inverted: the largest x-sum wins the tie.
fn largest_x_sum(grid: &Grid) -> Option<Edge> {
    pick(grid, |c| (Reverse(c.freedom), Reverse(c.x_sum), c.y_sum))
}

/// Every line read is printed back, a student's leftover `cout`.
fn echo(line: &[u8]) -> Vec<u8> {
    [line, b"\n"].concat()
}

/// A debug line after every line read.
fn debug(_: &[u8]) -> Vec<u8> {
    b"DEBUG: read a line\n".to_vec()
}

/// The reference prints nothing after a read.
fn nothing(_: &[u8]) -> Vec<u8> {
    Vec::new()
}

/// PRE-1 departed from: the size prompt says `(2..9)` where the rulings
/// say `(2..8)` (a real C++ program's bug); the same length, so every
/// other byte stays where it was.
struct WrongSizePrompt<W>(W);

impl<W: Write> Write for WrongSizePrompt<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut owned = buf.to_vec();
        for i in 0..owned.len().saturating_sub(5) {
            if &owned[i..i + 6] == b"(2..8)" {
                owned[i + 4] = b'9';
            }
        }
        self.0.write_all(&owned)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// IN-2 departed from when `active`: byte 0xFF ends the input, as it
/// does for a program comparing a `char` holding `getc`'s result with
/// `EOF`; stdin unchanged otherwise.
struct FfIsEof<R> {
    inner: R,
    active: bool,
    ended: bool,
}

impl<R: BufRead> Read for FfIsEof<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        reference_kit::stdio::read_through_buffer(self, buf)
    }
}

impl<R: BufRead> BufRead for FfIsEof<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.ended {
            return Ok(&[]);
        }
        let available = self.inner.fill_buf()?;
        if !self.active {
            return Ok(available);
        }
        let upto = available
            .iter()
            .position(|&b| b == 0xFF)
            .unwrap_or(available.len());
        if upto == 0 && !available.is_empty() {
            self.ended = true;
        }
        Ok(&available[..upto])
    }

    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount);
    }
}

fn pick<K: Ord>(grid: &Grid, key: impl Fn(&Candidate) -> K) -> Option<Edge> {
    let (_, candidates) = chooser::ranked(grid)?;
    candidates.iter().min_by_key(|c| key(c)).map(|c| c.edge)
}

fn main() -> ExitCode {
    let name = std::env::args_os()
        .next()
        .and_then(|a| {
            Path::new(&a)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    let choose: Chooser = match name.as_str() {
        "y-sum-first" | "size-prompt-2-9-y-sum-first" => y_sum_first,
        "largest-x-sum" => largest_x_sum,
        _ => chooser::choose,
    };
    let after_read: AfterRead = match name.as_str() {
        "echo-lines" => echo,
        "debug-line" => debug,
        _ => nothing,
    };
    let stdin = FfIsEof {
        inner: std::io::stdin().lock(),
        active: name == "byte-ff-is-eof",
        ended: false,
    };
    let stdout = reference_kit::stdout::process_stdout();
    let exit = if name.starts_with("size-prompt-2-9") {
        game::run_with(stdin, WrongSizePrompt(stdout), choose, after_read)
    } else {
        game::run_with(stdin, stdout, choose, after_read)
    };
    ExitCode::from(exit.code())
}
