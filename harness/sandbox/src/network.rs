//! No network: a seccomp filter that the keeper puts on itself (and so on
//! everything it starts) refuses `socket(2)` with `EACCES`, whatever the
//! family: no TCP or UDP to any address (loopback included), no Unix
//! socket to connect to a socket file (a root daemon's under `/run`), no
//! netlink or raw socket. `socketpair(2)` stays: a connected pair names
//! nothing outside the process tree that made it. `io_uring_setup(2)` is
//! refused too (`ENOSYS`), since an io_uring can make sockets of its own.
//! A 32-bit x86 program's `socketcall(2)` and `socket(2)` are refused the
//! same way (on x86-64, whose kernel runs such programs); the x32 ABI's
//! calls are refused whole.
//!
//! Every other architecture is refused whole: each of its system calls
//! fails with `EACCES`. A kernel may run programs of a second instruction
//! set (32-bit ARM on many aarch64 kernels) whose system calls have
//! numbers of their own; a filter that let an architecture it does not
//! know through would let such a program make sockets. None of the
//! programs we run is one, so refusing costs nothing.
//!
//! Why seccomp and not a network namespace: Landlock on this generation of
//! kernels controls neither UDP nor connecting to a socket file, and a
//! network namespace scopes sockets by address but not the socket files of
//! the host's file system; a filter of a dozen instructions covers all of
//! them and costs nothing per run (it is loaded once per keeper, and the
//! kernel caches the verdict of every other system call).
//!
//! At the bottom of the sandbox's order (docs/architecture.md): it
//! imports nothing of the crate.

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
    // The checks of the second architecture the kernel runs (if any),
    // between the native ones and the final deny; they end in their own
    // allow, so a foreign architecture falls through to the deny.
    let second: Vec<libc::sock_filter> = if cfg!(target_arch = "x86_64") {
        vec![
            eq(I386_ARCH, 0, 5), // else the deny
            load(NR),
            eq(I386_REFUSED[0], 3, 0),
            eq(I386_REFUSED[1], 2, 0),
            eq(I386_REFUSED[2], 1, 0),
            allow,
        ]
    } else {
        Vec::new()
    };
    // Jumps count the instructions skipped: from the native checks to the
    // deny, past `second`.
    let past = u8::try_from(second.len()).unwrap_or(u8::MAX);
    let mut filter = vec![
        load(ARCH),                                            // 0
        eq(NATIVE_ARCH, 0, 5),                                 // 1: else 7
        load(NR),                                              // 2
        jump(BPF_JMP | BPF_JGE | BPF_K, X32_BIT, 3 + past, 0), // 3
        eq(socket, 2 + past, 0),                               // 4
        eq(uring, 1 + past, 0),                                // 5
        allow,                                                 // 6
    ];
    filter.extend(second); // 7
    filter.push(deny);
    filter
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

    /// What the filter answers for a system call `nr` of architecture
    /// `arch`: the few classic BPF instructions it uses, run as the
    /// kernel would.
    fn verdict(arch: u32, nr: u32) -> u32 {
        let filter = program();
        let (mut acc, mut pc) = (0_u32, 0_usize);
        loop {
            let ins = filter[pc];
            let code = u32::from(ins.code);
            pc += 1;
            match code {
                c if c == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS => {
                    acc = if ins.k == ARCH { arch } else { nr };
                }
                c if c == libc::BPF_RET | libc::BPF_K => return ins.k,
                c => {
                    let taken = if c == libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K {
                        acc == ins.k
                    } else {
                        assert_eq!(c, libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K);
                        acc >= ins.k
                    };
                    pc += usize::from(if taken { ins.jt } else { ins.jf });
                }
            }
        }
    }

    const DENIED: u32 = libc::SECCOMP_RET_ERRNO | libc::EACCES.cast_unsigned();

    #[test]
    fn the_native_architecture_is_refused_sockets_only() {
        let nr = |n: libc::c_long| u32::try_from(n).unwrap();
        assert_eq!(verdict(NATIVE_ARCH, nr(libc::SYS_socket)), DENIED);
        assert_eq!(verdict(NATIVE_ARCH, nr(libc::SYS_io_uring_setup)), DENIED);
        assert_eq!(verdict(NATIVE_ARCH, X32_BIT | 0x29), DENIED); // x32's socket (41)
        assert_eq!(
            verdict(NATIVE_ARCH, nr(libc::SYS_read)),
            libc::SECCOMP_RET_ALLOW
        );
        assert_eq!(
            verdict(NATIVE_ARCH, nr(libc::SYS_socketpair)),
            libc::SECCOMP_RET_ALLOW
        );
    }

    #[test]
    fn a_foreign_architecture_is_refused_everything() {
        // 32-bit ARM (an aarch64 kernel's compat programs), 64-bit ARM or
        // x86-64 (whichever is not native), RISC-V 64.
        for arch in [0x4000_0028, 0xC000_00B7, 0xC000_003E, 0xC000_00F3] {
            if arch == NATIVE_ARCH {
                continue;
            }
            for nr in [0, 3, 63, 198, 281] {
                assert_eq!(verdict(arch, nr), DENIED, "arch {arch:#x}, call {nr}");
            }
        }
    }

    #[test]
    fn i386_is_refused_sockets_only_where_the_kernel_runs_it() {
        let i386_read = 3;
        let want = if cfg!(target_arch = "x86_64") {
            libc::SECCOMP_RET_ALLOW
        } else {
            DENIED
        };
        assert_eq!(verdict(I386_ARCH, i386_read), want);
        for nr in I386_REFUSED {
            assert_eq!(verdict(I386_ARCH, nr), DENIED);
        }
    }

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
