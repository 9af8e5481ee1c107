//! Stand-ins for a process's streams, for the references' tests of their
//! process wiring (TURN-1: a prompt reaches the screen before the program
//! waits; SYS-1: a stdout that cannot be written): a simulated terminal
//! (a [`Screen`] and a [`Keyboard`] that watches it), a stdout that always
//! fails ([`Broken`]) and one that fails after its first write
//! ([`FailsAfterFirst`]). Written once here so that each reference's tests
//! state only what its rulings expect of them.

use std::cell::RefCell;
use std::ffi::{OsStr, OsString};
use std::io::{self, Cursor, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::rc::Rc;

/// Arguments as a program receives them, from bytes.
pub fn os_args(args: &[&[u8]]) -> Vec<OsString> {
    args.iter()
        .map(|a| OsStr::from_bytes(a).to_os_string())
        .collect()
}

/// What a run of a program in memory left.
#[derive(Debug)]
pub struct Ran<E> {
    /// Its stdout.
    pub out: Vec<u8>,
    /// Its stderr.
    pub err: Vec<u8>,
    /// How it ended.
    pub exit: E,
}

/// Runs a program's `run` (arguments, stdin, stdout, stderr) on `args`
/// and `input`, every stream in memory.
pub fn run_bytes<E>(
    run: impl FnOnce(&[OsString], Cursor<Vec<u8>>, &mut Vec<u8>, &mut Vec<u8>) -> E,
    args: &[&[u8]],
    input: &[u8],
) -> Ran<E> {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let exit = run(
        &os_args(args),
        Cursor::new(input.to_vec()),
        &mut out,
        &mut err,
    );
    Ran { out, err, exit }
}

/// The output side of a simulated terminal: what reached the screen.
#[derive(Debug, Clone, Default)]
pub struct Screen(Rc<RefCell<Vec<u8>>>);

impl Screen {
    /// Every byte that reached the screen so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.0.borrow().clone()
    }
}

impl Write for Screen {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The input side: one line per read, as a terminal delivers them;
/// before each it notes whether the screen ends with `prompt`.
#[derive(Debug)]
pub struct Keyboard {
    lines: Vec<Vec<u8>>,
    screen: Screen,
    prompt: &'static [u8],
    waits_without_prompt: usize,
}

impl Keyboard {
    /// A keyboard typing `input` line by line at `screen`, whose prompts
    /// end with `prompt`.
    pub fn new(input: &[u8], screen: &Screen, prompt: &'static [u8]) -> Self {
        Self {
            lines: input
                .split_inclusive(|&b| b == b'\n')
                .map(<[u8]>::to_vec)
                .collect(),
            screen: screen.clone(),
            prompt,
            waits_without_prompt: 0,
        }
    }

    /// The reads that found no prompt at the end of the screen.
    pub fn waits_without_prompt(&self) -> usize {
        self.waits_without_prompt
    }
}

impl Read for Keyboard {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.screen.0.borrow().ends_with(self.prompt) {
            self.waits_without_prompt += 1;
        }
        if self.lines.is_empty() {
            return Ok(0);
        }
        let line = self.lines.remove(0);
        let n = line.len().min(buf.len());
        buf[..n].copy_from_slice(&line[..n]);
        Ok(n)
    }
}

/// A stdout that fails every write and flush, as `/dev/full` or a closed
/// pipe, with this error.
#[derive(Debug, Clone, Copy)]
pub struct Broken(pub io::ErrorKind);

impl Write for Broken {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::from(self.0))
    }
    fn flush(&mut self) -> io::Result<()> {
        Err(io::Error::from(self.0))
    }
}

/// A stdout that takes its first write and fails every later one.
#[derive(Debug, Default)]
pub struct FailsAfterFirst(bool);

impl Write for FailsAfterFirst {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if std::mem::replace(&mut self.0, true) {
            Err(io::Error::from(io::ErrorKind::StorageFull))
        } else {
            Ok(buf.len())
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keyboard_counts_reads_without_a_prompt() {
        let mut screen = Screen::default();
        let mut keyboard = Keyboard::new(b"a\nb\n", &screen, b"> ");
        let mut buf = [0; 8];
        assert_eq!(keyboard.read(&mut buf).ok(), Some(2));
        assert!(screen.write_all(b"A> ").is_ok());
        assert_eq!(keyboard.read(&mut buf).ok(), Some(2));
        assert_eq!(keyboard.read(&mut buf).ok(), Some(0));
        assert_eq!(keyboard.waits_without_prompt(), 1);
        assert_eq!(screen.bytes(), b"A> ");
    }

    #[test]
    fn the_failing_stdouts_fail_as_named() {
        assert!(Broken(io::ErrorKind::BrokenPipe).write(b"x").is_err());
        let mut once = FailsAfterFirst::default();
        assert_eq!(once.write(b"xy").ok(), Some(2));
        assert!(once.write(b"z").is_err());
        assert_eq!(os_args(&[b"a", b"\xff"]).len(), 2);
        let ran = run_bytes(
            |args, mut input, out, err| {
                let mut line = String::new();
                let _ = io::BufRead::read_line(&mut input, &mut line);
                let _ = out.write_all(line.as_bytes());
                let _ = err.write_all(b"e");
                args.len()
            },
            &[b"x"],
            b"in\n",
        );
        assert_eq!(
            (ran.out, ran.err, ran.exit),
            (b"in\n".to_vec(), b"e".to_vec(), 1)
        );
    }
}
