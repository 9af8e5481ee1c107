//! No network: a seccomp filter that the keeper puts on itself (and so on
//! everything it starts) refuses `socket(2)` with `EACCES`, whatever the
//! family: no TCP or UDP to any address (loopback included), no Unix
//! socket to connect to a socket file (a root daemon's under `/run`), no
//! netlink or raw socket. `socketpair(2)` stays: a connected pair names
//! nothing outside the process tree that made it. `io_uring_setup(2)` is
//! refused too (`ENOSYS`), since an io_uring can make sockets of its own.
//! A 32-bit x86 program's `socketcall(2)` and `socket(2)` are refused the
//! same way.
//!
//! Why seccomp and not a network namespace: Landlock on this generation of
//! kernels controls neither UDP nor connecting to a socket file, and a
//! network namespace scopes sockets by address but not the socket files of
//! the host's file system; a filter of a dozen instructions covers all of
//! them and costs nothing per run (it is loaded once per keeper, and the
//! kernel caches the verdict of every other system call).

use std::io;

/// The architecture the filter is written for, as seccomp names it.
#[cfg(target_arch = "x86_64")]
const NATIVE_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const NATIVE_ARCH: u32 = 0xC000_00B7;
/// 32-bit x86, which an x86-64 kernel also runs.
const I386_ARCH: u32 = 0x4000_0003;
/// The x32 ABI's system call numbers carry this bit; refused whole.
const X32_BIT: u32 = 0x4000_0000;
/// i386's `socketcall`, `socket` and `io_uring_setup`.
const I386_REFUSED: [u32; 3] = [102, 359, 425];

/// `seccomp_data`'s offsets: the system call number and the architecture.
const NR: u32 = 0;
const ARCH: u32 = 4;

fn stmt(code: u32, k: u32) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u32, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    }
}

/// The filter program (see the module's documentation).
fn program() -> Vec<libc::sock_filter> {
    use libc::{BPF_ABS, BPF_JEQ, BPF_JGE, BPF_JMP, BPF_K, BPF_LD, BPF_RET, BPF_W};
    let load = |offset| stmt(BPF_LD | BPF_W | BPF_ABS, offset);
    let eq = |k, jt, jf| jump(BPF_JMP | BPF_JEQ | BPF_K, k, jt, jf);
    let allow = stmt(BPF_RET | BPF_K, libc::SECCOMP_RET_ALLOW);
    let deny = stmt(
        BPF_RET | BPF_K,
        libc::SECCOMP_RET_ERRNO | libc::EACCES.cast_unsigned(),
    );
    let socket = u32::try_from(libc::SYS_socket).unwrap_or(u32::MAX);
    let uring = u32::try_from(libc::SYS_io_uring_setup).unwrap_or(u32::MAX);
    // Jumps count the instructions skipped; the deny is instruction 13.
    vec![
        load(ARCH),                                     // 0
        eq(NATIVE_ARCH, 0, 5),                          // 1: else 7
        load(NR),                                       // 2
        jump(BPF_JMP | BPF_JGE | BPF_K, X32_BIT, 9, 0), // 3
        eq(socket, 8, 0),                               // 4
        eq(uring, 7, 0),                                // 5
        allow,                                          // 6
        eq(I386_ARCH, 0, 4),                            // 7: else 12
        load(NR),                                       // 8
        eq(I386_REFUSED[0], 3, 0),                      // 9
        eq(I386_REFUSED[1], 2, 0),                      // 10
        eq(I386_REFUSED[2], 1, 0),                      // 11
        allow,                                          // 12
        deny,                                           // 13
    ]
}

/// Puts the filter on the calling thread, and so on every process it
/// starts from now on.
#[expect(
    unsafe_code,
    reason = "prctl(2) and seccomp(2) take a pointer to the filter, which outlives the calls"
)]
pub fn refuse_sockets() -> io::Result<()> {
    let filter = program();
    let prog = libc::sock_fprog {
        len: u16::try_from(filter.len()).unwrap_or(u16::MAX),
        filter: filter.as_ptr().cast_mut(),
    };
    // SAFETY: plain system calls; `prog` points at `filter`, alive (and
    // unchanged) until they return, and the kernel copies it.
    let done = unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
            && libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER,
                0,
                &raw const prog,
            ) == 0
    };
    if done {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_are_refused_and_pairs_still_made() {
        let (tcp, udp, unix, pair) = std::thread::spawn(|| {
            refuse_sockets().unwrap();
            let errno = |r: io::Result<std::net::TcpStream>| r.err().and_then(|e| e.raw_os_error());
            (
                errno(std::net::TcpStream::connect("127.0.0.1:9")),
                std::net::UdpSocket::bind("127.0.0.1:0")
                    .err()
                    .and_then(|e| e.raw_os_error()),
                std::os::unix::net::UnixStream::connect("/run/none")
                    .err()
                    .and_then(|e| e.raw_os_error()),
                std::os::unix::net::UnixStream::pair().is_ok(),
            )
        })
        .join()
        .unwrap();
        let refused = Some(libc::EACCES);
        assert_eq!((tcp, udp, unix, pair), (refused, refused, refused, true));
    }
}
