//! The terminal of an interactive run (`mode: interactive`): the program's
//! stdin and stdout are the same pseudo-terminal, as at a person's
//! terminal, so a C program's stdio buffers exactly as it does for a person
//! (stdout line buffered, and flushed before every read of a terminal
//! stdin); stderr stays a pipe of its own.
//!
//! This module owns the terminal's settings, the *typist* that types the
//! case's stdin lines into it, and the prompt gate that times each line:
//!
//! - Settings ([`open`]): canonical mode on (the program reads a whole line
//!   at a time, as from a person), echo off (`ECHO`, `ECHONL`: what is typed
//!   does not show up in the captured output), output processing off
//!   (`OPOST`: the bytes the program writes are the bytes compared), no input
//!   translation (`ICRNL`, `INLCR`, `IGNCR`, `ISTRIP`, `IUCLC` off), no flow
//!   control (`IXON`, `IXOFF`) and no signals (`ISIG`). `IEXTEN` stays on
//!   for its literal-next key (`VLNEXT`, Ctrl-V): every byte of a stdin line
//!   that the line discipline would act on (erase, kill, word erase,
//!   reprint, end of file, end of line, literal next) is typed after a
//!   `VLNEXT`, so the program reads exactly the case's bytes.
//! - Timing ([`Typist`], the prompt gate): stdin line *k* is typed once the program's
//!   stdout showed its *k*-th prompt `> ` (TURN-1); a program that waits for
//!   input without showing its prompt times out, naming the line.
//! - End of input: the terminal's end of file (`VEOF`, Ctrl-D) at the
//!   start of a line, typed like one more line: at the prompt after the last
//!   stdin line, so a program that waits for input without showing its
//!   prompt times out there too. A last line without a newline is followed
//!   at once by `VEOF` twice, as at a real terminal: the first ends the line
//!   (the program may be waiting in the middle of it, with no new prompt),
//!   the second is the end of file. After that, one more `VEOF` each time
//!   the program shows a new prompt, as a person presses Ctrl-D again at
//!   each prompt: a program that reads again after end of file (glibc's end
//!   of file is sticky, but a raw `read`, `clearerr` or a byte-by-byte
//!   reader is not) finds one at each prompt; one that keeps reading without
//!   showing a prompt waits, and times out, as it would in front of a
//!   person. Ends of file nobody reads vanish with the terminal.
//! - Line length: canonical mode keeps at most [`MAX_LINE`] bytes of a line
//!   before its newline and silently drops the rest, so an interactive case
//!   with a longer stdin line cannot be typed; [`too_long_line`] finds it and
//!   the case is refused as a case error ([`crate::model::case::invocation`]).
//!
//! The master reads `EIO` once every holder of the slave side is gone: that
//! is the end of the program's output, not an error.
//!
//! One piece: the terminal's settings, the keys that type a line and
//! the typist's prompt gate are one protocol with the line discipline:
//! what canonical mode and `VLNEXT` do decides how a line is typed and
//! when `VEOF` ends it; about 210 lines are tests.

use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;

use rustix::termios::{
    InputModes, LocalModes, OptionalActions, OutputModes, SpecialCodeIndex, Termios, tcgetattr,
    tcsetattr,
};

/// The most bytes of one line (its newline not counted) that canonical mode
/// delivers: the line discipline keeps 4095 bytes and drops the rest.
pub const MAX_LINE: usize = 4095;

/// The prompt whose appearance releases the next stdin line in interactive
/// mode (TURN-1).
pub const PROMPT: &[u8] = b"> ";

/// An opened terminal: the master side the harness reads and types into,
/// the slave side the program gets as stdin and stdout.
pub(crate) struct Terminal {
    /// Read by the harness (the program's output), written by the typist.
    pub master: File,
    /// The program's stdin and stdout.
    pub slave: OwnedFd,
    /// The keys the typist uses.
    pub keys: Keys,
}

/// Opens a pseudo-terminal set up as the module doc describes.
pub(crate) fn open() -> io::Result<Terminal> {
    use rustix::pty::{OpenptFlags, grantpt, ioctl_tiocgptpeer, openpt, unlockpt};
    let flags = OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC;
    let master = openpt(flags)?;
    grantpt(&master)?;
    unlockpt(&master)?;
    let slave = ioctl_tiocgptpeer(&master, flags)?;
    let mut termios = tcgetattr(&slave)?;
    configure(&mut termios);
    tcsetattr(&slave, OptionalActions::Now, &termios)?;
    // Read back: the keys to escape are the ones the kernel holds.
    let keys = Keys::of(&tcgetattr(&slave)?);
    Ok(Terminal {
        master: File::from(master),
        slave,
        keys,
    })
}

/// A person's terminal with echo, output processing, input translation,
/// flow control and signals off.
fn configure(t: &mut Termios) {
    t.input_modes.remove(
        InputModes::ICRNL
            | InputModes::INLCR
            | InputModes::IGNCR
            | InputModes::ISTRIP
            | InputModes::IUCLC
            | InputModes::IXON
            | InputModes::IXOFF
            | InputModes::IXANY
            | InputModes::INPCK
            | InputModes::PARMRK
            | InputModes::BRKINT
            | InputModes::IMAXBEL,
    );
    t.output_modes.remove(OutputModes::OPOST);
    t.local_modes.remove(
        LocalModes::ECHO
            | LocalModes::ECHONL
            | LocalModes::ECHOE
            | LocalModes::ECHOK
            | LocalModes::ECHOCTL
            | LocalModes::ECHOKE
            | LocalModes::ECHOPRT
            | LocalModes::ISIG
            | LocalModes::TOSTOP,
    );
    t.local_modes
        .insert(LocalModes::ICANON | LocalModes::IEXTEN);
    t.special_codes[SpecialCodeIndex::VEOF] = CTRL_D;
    t.special_codes[SpecialCodeIndex::VLNEXT] = CTRL_V;
    // Reads of a canonical terminal return at line ends; these only matter
    // without ICANON, set for a program that turns it off.
    t.special_codes[SpecialCodeIndex::VMIN] = 1;
    t.special_codes[SpecialCodeIndex::VTIME] = 0;
}

const CTRL_D: u8 = 0x04;
const CTRL_V: u8 = 0x16;

/// The keys of a terminal that a typed line must get past: end of file,
/// literal next, and every byte the line discipline acts on.
#[derive(Debug, Clone)]
pub(crate) struct Keys {
    eof: u8,
    lnext: u8,
    /// The bytes the line discipline acts on (a handful).
    special: Vec<u8>,
}

impl Keys {
    /// The keys of a terminal with these settings.
    fn of(t: &Termios) -> Self {
        let mut special = Vec::new();
        for index in [
            SpecialCodeIndex::VERASE,
            SpecialCodeIndex::VKILL,
            SpecialCodeIndex::VEOF,
            SpecialCodeIndex::VEOL,
            SpecialCodeIndex::VEOL2,
            SpecialCodeIndex::VWERASE,
            SpecialCodeIndex::VREPRINT,
            SpecialCodeIndex::VLNEXT,
        ] {
            // A disabled key reads 0 (Linux's _POSIX_VDISABLE), yet n_tty
            // still compares bytes with it: a NUL is escaped too.
            special.push(t.special_codes[index]);
        }
        special.sort_unstable();
        special.dedup();
        Self {
            eof: t.special_codes[SpecialCodeIndex::VEOF],
            lnext: t.special_codes[SpecialCodeIndex::VLNEXT],
            special,
        }
    }

    /// `line` as typed: each special byte after a literal-next key. A final
    /// newline stays as it is: it ends the line.
    pub fn typed(&self, line: &[u8]) -> Vec<u8> {
        let (body, newline) = match line.strip_suffix(b"\n") {
            Some(body) => (body, true),
            None => (line, false),
        };
        let mut out = Vec::with_capacity(line.len() + 8);
        for &b in body {
            if self.special.contains(&b) {
                out.push(self.lnext);
            }
            out.push(b);
        }
        if newline {
            out.push(b'\n');
        }
        out
    }

    /// What ends a last line without its newline and then input: two ends
    /// of file.
    pub fn end_of_partial_line(&self) -> [u8; 2] {
        [self.eof, self.eof]
    }
}

/// The first stdin line too long for a terminal: its 1-based number and
/// its length without the newline.
pub fn too_long_line(stdin: &[u8]) -> Option<(usize, usize)> {
    stdin
        .split_inclusive(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\n").unwrap_or(l).len())
        .enumerate()
        .find(|&(_, len)| len > MAX_LINE)
        .map(|(i, len)| (i + 1, len))
}

/// What an interactive run still had to type when it timed out waiting for
/// the program's prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Awaiting {
    /// This 1-based stdin line.
    Line(usize),
    /// The end of input (Ctrl-D), after the last stdin line.
    EndOfInput,
}

impl std::fmt::Display for Awaiting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Awaiting::Line(line) => write!(f, "stdin line {line}"),
            Awaiting::EndOfInput => f.write_str("the end of input (Ctrl-D after the last line)"),
        }
    }
}

/// Counts the prompts (`prompt`, of at least one byte) in `data`, `tail`
/// being the last bytes read before it (up to the prompt's length less
/// one): a prompt split across two reads counts once.
pub(crate) fn count_prompts(prompt: &[u8], tail: &[u8], data: &[u8]) -> usize {
    if prompt.is_empty() {
        return 0;
    }
    let keep = prompt.len() - 1;
    let mut joined = tail[tail.len().saturating_sub(keep)..].to_vec();
    let before = joined.len();
    joined.extend_from_slice(&data[..data.len().min(keep)]);
    // Windows that start in the tail and end in `data`.
    let split = joined
        .windows(prompt.len())
        .enumerate()
        .filter(|&(i, w)| i < before && w == prompt)
        .count();
    split + data.windows(prompt.len()).filter(|w| *w == prompt).count()
}

/// The typist: types the case's stdin into the terminal, each line at its
/// prompt, then the end of input, as the module doc says. It only decides
/// *what* may be typed once the program's stdout showed so many prompts
/// (the prompt gate); the run's poll loop writes it to the master as the
/// terminal accepts it, so no thread waits on a prompt.
pub(crate) struct Typist<'a> {
    /// The stdin lines not typed yet.
    rest: &'a [u8],
    /// Whether the last line lacks its newline (it is then ended by two
    /// `VEOF`s at once).
    partial: bool,
    keys: Keys,
    /// What every prompt ends with.
    prompt: &'a [u8],
    /// Prompts seen so far on stdout.
    prompts: usize,
    /// The last bytes of stdout seen, so a prompt split across reads counts.
    tail: Vec<u8>,
    step: Step,
}

/// Where the typist is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Typing stdin: this 1-based line goes at this prompt.
    Line(usize),
    /// Every line typed: one `VEOF` at this prompt and each later one; the
    /// first is named if the run times out waiting for it.
    EndOfFile {
        prompt: usize,
        named: Option<Awaiting>,
    },
    /// The terminal refused a write: the program and everything holding
    /// the terminal are gone, which is their right, not an error.
    Stopped,
}

impl<'a> Typist<'a> {
    /// A typist of `stdin` on a terminal with these keys.
    pub fn new(stdin: &'a [u8], prompt: &'a [u8], keys: Keys) -> Self {
        Self {
            rest: stdin,
            partial: !stdin.is_empty() && !stdin.ends_with(b"\n"),
            keys,
            prompt,
            prompts: 0,
            tail: Vec::new(),
            step: Step::Line(1),
        }
    }

    /// The prompt that releases each line.
    pub fn prompt(&self) -> &'a [u8] {
        self.prompt
    }

    /// The program wrote `data` to its stdout: counts its prompts.
    pub fn saw(&mut self, data: &[u8]) {
        self.prompts += count_prompts(self.prompt, &self.tail, data);
        self.tail.extend_from_slice(data);
        let keep = self.prompt.len().saturating_sub(1);
        let drop = self.tail.len().saturating_sub(keep);
        self.tail.drain(..drop);
    }

    /// Appends to `out` everything the prompts seen so far let it type.
    pub fn due(&mut self, out: &mut Vec<u8>) {
        loop {
            match self.step {
                Step::Line(number) if self.rest.is_empty() => {
                    // Every line typed. A last line without a newline is
                    // ended, and input with it, at once: the program may be
                    // waiting in the middle of the line, with no new prompt.
                    let named = if self.partial {
                        out.extend_from_slice(&self.keys.end_of_partial_line());
                        None
                    } else {
                        Some(Awaiting::EndOfInput)
                    };
                    self.step = Step::EndOfFile {
                        prompt: number,
                        named,
                    };
                }
                Step::Line(number) if self.prompts >= number => {
                    let len = self
                        .rest
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(self.rest.len(), |i| i + 1);
                    let (line, rest) = self.rest.split_at(len);
                    out.extend_from_slice(&self.keys.typed(line));
                    self.rest = rest;
                    self.step = Step::Line(number + 1);
                }
                // One end of file at each prompt after the last line: a read
                // after a prompt always finds one, even when one was taken
                // with a last line read byte by byte (a line ended by VEOF
                // and read in pieces swallows the next VEOF).
                Step::EndOfFile { prompt, .. } if self.prompts >= prompt => {
                    out.push(self.keys.eof);
                    self.step = Step::EndOfFile {
                        prompt: prompt + 1,
                        named: None,
                    };
                }
                Step::Line(_) | Step::EndOfFile { .. } | Step::Stopped => return,
            }
        }
    }

    /// The terminal refused what was typed: nothing more is.
    pub fn stop(&mut self) {
        self.step = Step::Stopped;
    }

    /// What waits for its prompt, if anything does (call after
    /// [`Typist::due`], once what it gave is written).
    pub fn waiting(&self) -> Option<Awaiting> {
        match self.step {
            Step::Line(number) if self.prompts < number && !self.rest.is_empty() => {
                Some(Awaiting::Line(number))
            }
            Step::EndOfFile { prompt, named } if self.prompts < prompt => named,
            Step::Line(_) | Step::EndOfFile { .. } | Step::Stopped => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn settings() -> Termios {
        let t = open().unwrap();
        tcgetattr(&t.slave).unwrap()
    }

    #[test]
    fn the_terminal_is_a_persons_with_echo_and_output_processing_off() {
        let t = settings();
        assert!(t.local_modes.contains(LocalModes::ICANON));
        assert!(t.local_modes.contains(LocalModes::IEXTEN));
        for off in [LocalModes::ECHO, LocalModes::ECHONL, LocalModes::ISIG] {
            assert!(!t.local_modes.contains(off), "{off:?}");
        }
        assert!(!t.output_modes.contains(OutputModes::OPOST));
        for off in [
            InputModes::ICRNL,
            InputModes::INLCR,
            InputModes::IGNCR,
            InputModes::IXON,
            InputModes::ISTRIP,
        ] {
            assert!(!t.input_modes.contains(off), "{off:?}");
        }
        assert_eq!(t.special_codes[SpecialCodeIndex::VEOF], CTRL_D);
        assert_eq!(t.special_codes[SpecialCodeIndex::VLNEXT], CTRL_V);
    }

    #[test]
    fn special_bytes_are_typed_after_literal_next() {
        let keys = Keys::of(&settings());
        assert_eq!(keys.typed(b"0 1 h\n"), b"0 1 h\n");
        assert_eq!(keys.typed(b"a\x04b\x7f\n"), b"a\x16\x04b\x16\x7f\n");
        assert_eq!(
            keys.typed(b"\x16\x15\x17\x12"),
            b"\x16\x16\x16\x15\x16\x17\x16\x12"
        );
        assert_eq!(keys.typed(b"\0\r\n"), b"\x16\0\r\n");
        assert_eq!(keys.end_of_partial_line(), [CTRL_D, CTRL_D]);
    }

    /// Reads the slave side as the program would, one `read` per call.
    fn reads(t: &Terminal, count: usize) -> Vec<Vec<u8>> {
        let mut slave = File::from(t.slave.try_clone().unwrap());
        let mut out = Vec::new();
        let mut buf = vec![0u8; 8192];
        for _ in 0..count {
            let n = slave.read(&mut buf).unwrap();
            out.push(buf[..n].to_vec());
        }
        out
    }

    #[test]
    fn every_byte_reaches_the_program_and_end_of_file_reads_zero() {
        let mut t = open().unwrap();
        let all: Vec<u8> = (0..=255u8).filter(|&b| b != b'\n').collect();
        let stdin = [&all[..], b"\n", b"\r\x03\x11\x13\x1a\n", b"last"].concat();
        for line in stdin.split_inclusive(|&b| b == b'\n') {
            t.master.write_all(&t.keys.typed(line)).unwrap();
        }
        t.master.write_all(&t.keys.end_of_partial_line()).unwrap();
        let got = reads(&t, 4);
        assert_eq!(got[0], [&all[..], b"\n"].concat());
        assert_eq!(got[1], b"\r\x03\x11\x13\x1a\n");
        assert_eq!(got[2], b"last", "the first VEOF ends the last line");
        assert_eq!(got[3], b"", "the second is the end of file");
        // Nothing was echoed: the master reads only what the program writes.
        let mut slave = File::from(t.slave.try_clone().unwrap());
        slave.write_all(b"out").unwrap();
        let mut buf = [0u8; 64];
        let n = t.master.read(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"out");
    }

    #[test]
    fn canonical_mode_keeps_max_line_bytes_of_a_line() {
        let mut t = open().unwrap();
        let fits = [vec![b'a'; MAX_LINE], b"\n".to_vec()].concat();
        t.master.write_all(&fits).unwrap();
        assert_eq!(reads(&t, 1)[0], fits);
        // One byte more and the line discipline drops bytes: such a line
        // cannot be typed, hence the case error.
        let longer = [vec![b'b'; MAX_LINE + 1], b"\n".to_vec()].concat();
        t.master.write_all(&longer).unwrap();
        assert_ne!(reads(&t, 1)[0], longer);
        assert_eq!(too_long_line(&fits), None);
        assert_eq!(
            too_long_line(&[b"x\n", &longer[..]].concat()),
            Some((2, MAX_LINE + 1))
        );
        assert_eq!(
            too_long_line(&vec![b'c'; MAX_LINE + 1]),
            Some((1, MAX_LINE + 1))
        );
    }

    #[test]
    fn escaped_bytes_do_not_count_against_the_line() {
        let mut t = open().unwrap();
        let line = [vec![CTRL_D; MAX_LINE], b"\n".to_vec()].concat();
        t.master.write_all(&t.keys.typed(&line)).unwrap();
        assert_eq!(reads(&t, 1)[0], line);
    }

    mod typed_lines {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            /// Any line a case may hold reaches the program byte for byte.
            #[test]
            fn any_line_is_read_as_written(
                body in prop::collection::vec(
                    any::<u8>().prop_filter("no newline", |&b| b != b'\n'),
                    0..=MAX_LINE,
                ),
                newline in any::<bool>(),
            ) {
                let mut t = open().unwrap();
                let line = if newline { [&body[..], b"\n"].concat() } else { body.clone() };
                t.master.write_all(&t.keys.typed(&line)).unwrap();
                if !newline {
                    t.master.write_all(&t.keys.end_of_partial_line()).unwrap();
                }
                let got = reads(&t, 1).remove(0);
                prop_assert_eq!(got, line);
            }
        }
    }

    /// What a typist of `stdin` types after each of these stdout chunks,
    /// and what it then waits for.
    fn typing(stdin: &[u8], chunks: &[&[u8]]) -> Vec<(Vec<u8>, Option<Awaiting>)> {
        let mut typist = Typist::new(stdin, PROMPT, Keys::of(&settings()));
        let mut steps = Vec::new();
        let mut out = Vec::new();
        typist.due(&mut out);
        steps.push((std::mem::take(&mut out), typist.waiting()));
        for chunk in chunks {
            typist.saw(chunk);
            typist.due(&mut out);
            steps.push((std::mem::take(&mut out), typist.waiting()));
        }
        steps
    }

    #[test]
    fn the_typist_types_each_line_at_its_prompt_then_ends_of_file() {
        let eof = vec![CTRL_D];
        assert_eq!(
            typing(b"a\n\x04\n", &[b"x", b"A>", b" ", b"A> A> ", b"A> "]),
            [
                (vec![], Some(Awaiting::Line(1))),
                (vec![], Some(Awaiting::Line(1))),
                (vec![], Some(Awaiting::Line(1))),
                // The prompt split across two reads counts once.
                (b"a\n".to_vec(), Some(Awaiting::Line(2))),
                // Two prompts at once: the escaped line and the end of input.
                ([&b"\x16\x04\n"[..], &eof].concat(), None),
                (eof.clone(), None),
            ]
        );
    }

    #[test]
    fn the_typist_names_the_end_of_input_it_waits_for() {
        assert_eq!(
            typing(b"", &[b"> "]),
            [(vec![], Some(Awaiting::EndOfInput)), (vec![CTRL_D], None)]
        );
        // A last line without a newline is ended at once, unnamed after.
        assert_eq!(
            typing(b"w", &[b"> ", b"> "]),
            [
                (vec![], Some(Awaiting::Line(1))),
                (vec![b'w', CTRL_D, CTRL_D], None),
                (vec![CTRL_D], None)
            ]
        );
    }

    #[test]
    fn a_stopped_typist_types_nothing_more() {
        let mut typist = Typist::new(b"a\nb\n", PROMPT, Keys::of(&settings()));
        typist.saw(b"> ");
        let mut out = Vec::new();
        typist.due(&mut out);
        assert_eq!(out, b"a\n");
        typist.stop();
        typist.saw(b"> > > ");
        typist.due(&mut out);
        assert_eq!(out, b"a\n");
        assert_eq!(typist.waiting(), None);
    }

    #[test]
    fn prompts_are_counted_across_reads() {
        assert_eq!(count_prompts(PROMPT, b"", b"A> "), 1);
        assert_eq!(count_prompts(PROMPT, b">", b" x> "), 2);
        assert_eq!(count_prompts(PROMPT, b"A", b">"), 0);
        // A longer prompt split across reads counts once.
        assert_eq!(count_prompts(b"quit) ", b"(Q to qu", b"it) "), 1);
        assert_eq!(count_prompts(b") ", b"", b"(2..8) x) "), 2);
    }
}
