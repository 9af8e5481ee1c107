//! Standard output for a reference program that must notice every failed
//! write (a closed pipe, `/dev/full`, a closed descriptor): a `File` on a
//! duplicate of descriptor 1, unbuffered (the program buffers and flushes
//! before each read itself), since Rust's own stdout flushes at every
//! newline and drops every byte silently when descriptor 1 was closed.

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;

/// The process's standard output. When descriptor 1 was closed at start
/// (`>&-`), every write fails with EBADF instead, so the first output is
/// the program's system call failure.
pub fn process_stdout() -> Box<dyn Write> {
    match io::stdout().as_fd().try_clone_to_owned() {
        Ok(_) if stdout_was_closed() => Box::new(ClosedStdout),
        Ok(fd) => Box::new(File::from(fd)),
        Err(_) => Box::new(ClosedStdout),
    }
}

/// Whether descriptor 1 was closed when the process started. Rust's
/// runtime then opens `/dev/null` read-write in its place before `main`;
/// a shell's `>/dev/null` opens it write-only. So a read-write `/dev/null`
/// on descriptor 1 is a closed stdout.
fn stdout_was_closed() -> bool {
    use rustix::fs::{FileType, OFlags};
    let fd = io::stdout();
    let fd = fd.as_fd();
    let (Ok(stat), Ok(flags)) = (rustix::fs::fstat(fd), rustix::fs::fcntl_getfl(fd)) else {
        return true;
    };
    let is_null = FileType::from_raw_mode(stat.st_mode) == FileType::CharacterDevice
        && stat.st_rdev == rustix::fs::makedev(1, 3);
    is_null && flags.intersection(OFlags::RDWR | OFlags::WRONLY) == OFlags::RDWR
}

/// Standard output when descriptor 1 is closed: writes fail (EBADF),
/// flushing nothing succeeds, so a program that prints nothing is unaffected.
struct ClosedStdout;

impl Write for ClosedStdout {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::from_raw_os_error(9))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
