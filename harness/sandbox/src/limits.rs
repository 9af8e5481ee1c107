//! Resource limits of a run, named: address space (a memory hog), CPU
//! time, the largest file, open files (descriptor exhaustion), processes
//! (a fork bomb) and the bytes of its folders (a program filling its case
//! folder). The first four are `setrlimit` limits set on the program
//! before it reads its input (by the keeper, or on a process group's
//! leader right after it started). The last two are the keeper's
//! ([`crate::watchdog`]): it counts the sandbox's processes and its
//! folders' bytes while the program runs and kills the whole sandbox at
//! the limit, saying which on the program's stderr. The process limit is
//! also `RLIMIT_NPROC` inside the sandbox's user namespace (where the
//! kernel counts per sandbox; it does not bind root, the watchdog does).
//!
//! A program built with a sanitizer that reserves its shadow memory up
//! front (AddressSanitizer, MemorySanitizer, ThreadSanitizer: terabytes
//! of address space, which no address-space limit admits) is bounded by
//! the memory it holds instead ([`Limits::bounding_resident`]): the
//! keeper's watch sums its processes' resident memory.
//!
//! Near the bottom of the sandbox's order (docs/architecture.md): it
//! imports only [`policy`], for the bounds in force.

use rustix::process::{Pid, Resource, Rlimit};

use crate::policy;

/// Resource limits set on the program (`None`: inherited or unbounded).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Address space, bytes.
    pub address_space: Option<u64>,
    /// CPU time, seconds.
    pub cpu_seconds: Option<u64>,
    /// Largest file the program may write, bytes.
    pub file_size: Option<u64>,
    /// Descriptors open at once.
    #[serde(default)]
    pub open_files: Option<u64>,
    /// Processes (and threads) alive at once in the sandbox.
    #[serde(default)]
    pub processes: Option<u64>,
    /// Bytes on disk under the case folder and the private temporary
    /// folder together.
    #[serde(default)]
    pub folder_bytes: Option<u64>,
    /// Resident memory of the sandbox's processes together, bytes (the
    /// keeper's watch): the memory bound of a sanitized program, in place
    /// of its address space.
    #[serde(default)]
    pub resident: Option<u64>,
}

impl Limits {
    /// The limits of a run with this timeout: CPU seconds two above the
    /// timeout, 256 MiB files, and the [`Bounds`](policy::Bounds) in force ([`policy`]).
    pub fn for_timeout(timeout: std::time::Duration) -> Self {
        let bounds = policy::get().bounds;
        Self {
            address_space: Some(bounds.memory),
            cpu_seconds: Some(timeout.as_secs() + 2),
            file_size: Some(256 << 20),
            open_files: Some(bounds.open_files),
            processes: Some(bounds.processes),
            folder_bytes: Some(bounds.folder_bytes),
            resident: None,
        }
    }

    /// The same limits for a program whose sanitizer reserves its shadow
    /// memory up front ([`reserves_address_space`]): the memory bound is
    /// on its resident memory (the keeper's watch), not its address space.
    #[must_use]
    pub fn bounding_resident(self) -> Self {
        Self {
            resident: self.address_space.or(self.resident),
            address_space: None,
            ..self
        }
    }

    /// Sets the `setrlimit` limits on `pid` (`None`: this process), all but
    /// the process count (`apply_processes`, inside the sandbox). A process that is
    /// already gone (ESRCH) has nothing to limit.
    pub fn apply(self, pid: Option<Pid>) -> std::io::Result<()> {
        set(
            pid,
            &[
                (Resource::As, self.address_space),
                (Resource::Cpu, self.cpu_seconds),
                (Resource::Fsize, self.file_size),
                (Resource::Nofile, self.open_files),
            ],
        )
    }

    /// Sets `RLIMIT_NPROC` on `pid`: only inside a sandbox's own user
    /// namespace, where the kernel counts the sandbox's processes alone
    /// (outside, it would count every process of the user).
    pub(crate) fn apply_processes(self, pid: Option<Pid>) -> std::io::Result<()> {
        set(pid, &[(Resource::Nproc, self.processes)])
    }
}

fn set(pid: Option<Pid>, pairs: &[(Resource, Option<u64>)]) -> std::io::Result<()> {
    for &(resource, value) in pairs {
        if let Some(v) = value {
            let limit = Rlimit {
                current: Some(v),
                maximum: Some(v),
            };
            match rustix::process::prlimit(pid, resource, limit) {
                Ok(_) | Err(rustix::io::Errno::SRCH) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(())
}

/// The marks a sanitizer that reserves its shadow memory at start leaves
/// in a program built with it: its initialisation function, which the
/// compiler's module constructor calls (a dynamic symbol, or the static
/// runtime's own code).
const SHADOW_RUNTIMES: [&[u8]; 4] = [
    b"__asan_init",
    b"__msan_init",
    b"__tsan_init",
    b"__hwasan_init",
];

/// The marks of a runtime that reserves address space at start far beyond
/// what it uses: the JVM's launcher (`JLI_Launch`: a heap sized at a
/// quarter of the machine's memory, reserved whole), Node.js (`node::Start`:
/// V8's pointer cage), .NET's host (`hostfxr_main`: the GC's regions).
const RESERVING_RUNTIMES: [&[u8]; 3] = [b"JLI_Launch", b"_ZN4node5StartEiPPc", b"hostfxr_main"];

/// How much of a program file is searched for [`SHADOW_RUNTIMES`].
const SEARCHED: u64 = 64 << 20;

/// Whether the executable at `program` is built with AddressSanitizer,
/// MemorySanitizer or ThreadSanitizer (whose shadow memory takes
/// terabytes of address space). Asked once per file and version.
pub fn reserves_address_space(program: &std::path::Path) -> bool {
    holds_marks(program, &SHADOW_RUNTIMES)
}

/// Whether the executable at `program` is a runtime that reserves far
/// more address space at start than it uses ([`RESERVING_RUNTIMES`]: a
/// JVM, Node.js, .NET), which no address-space limit near what it holds
/// lets start every time. Asked once per file and version.
pub fn runtime_reserves_address_space(program: &std::path::Path) -> bool {
    holds_marks(program, &RESERVING_RUNTIMES)
}

/// Whether the first [`SEARCHED`] bytes of `program` hold one of `marks`,
/// remembered per file, version and set of marks.
fn holds_marks(program: &std::path::Path, marks: &'static [&'static [u8]]) -> bool {
    use std::collections::HashMap;
    use std::io::Read as _;
    use std::sync::{Mutex, PoisonError};
    type Key = (
        std::path::PathBuf,
        Option<std::time::SystemTime>,
        u64,
        &'static [u8],
    );
    static SEEN: Mutex<Option<HashMap<Key, bool>>> = Mutex::new(None);
    let Ok(meta) = std::fs::metadata(program) else {
        return false;
    };
    // The sets of marks are this module's constants: the first tells
    // them apart.
    let key = (
        program.to_owned(),
        meta.modified().ok(),
        meta.len(),
        marks.first().copied().unwrap_or_default(),
    );
    if let Some(&known) = SEEN
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .get(&key)
    {
        return known;
    }
    let found =
        std::fs::File::open(program).is_ok_and(|file| holds_any(file.take(SEARCHED), marks));
    SEEN.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .insert(key, found);
    found
}

/// Bytes of a program file held at once while it is searched.
const CHUNK: usize = 1 << 20;

/// Whether `reader` holds any of `marks`, read a chunk at a time (a mark
/// may straddle two chunks: the tail of one is searched again with the
/// next). A debug build of a program is tens of megabytes, and this runs
/// once per program and harness run: a vectorised search over bounded
/// chunks, where a byte-by-byte scan of the whole file held in memory took
/// a third of a nogo suite run's CPU time.
fn holds_any(mut reader: impl std::io::Read, marks: &[&[u8]]) -> bool {
    let finders: Vec<memchr::memmem::Finder<'_>> =
        marks.iter().map(memchr::memmem::Finder::new).collect();
    let overlap = marks
        .iter()
        .map(|m| m.len())
        .max()
        .unwrap_or(1)
        .saturating_sub(1);
    let mut buf = vec![0_u8; CHUNK + overlap];
    let mut carried = 0;
    loop {
        let got = loop {
            match reader.read(buf.get_mut(carried..).unwrap_or_default()) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) | Ok(0) => return false,
                Ok(n) => break n,
            }
        };
        let filled = carried + got;
        let window = buf.get(..filled).unwrap_or_default();
        if finders.iter().any(|f| f.find(window).is_some()) {
            return true;
        }
        carried = overlap.min(filled);
        buf.copy_within(filled - carried..filled, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sanitized_program_is_bounded_by_what_it_holds() {
        let limits = Limits {
            address_space: Some(1 << 30),
            ..Limits::default()
        };
        let sanitized = limits.bounding_resident();
        assert_eq!(sanitized.address_space, None);
        assert_eq!(sanitized.resident, Some(1 << 30));
        let dir = tempfile::tempdir().unwrap();
        let (plain, asan) = (dir.path().join("plain"), dir.path().join("asan"));
        std::fs::write(&plain, b"\x7fELF ... puts main").unwrap();
        std::fs::write(&asan, b"\x7fELF ... __asan_init_v8 puts").unwrap();
        assert!(!reserves_address_space(&plain));
        assert!(reserves_address_space(&asan));
        assert!(!reserves_address_space(&dir.path().join("missing")));
        // A JVM's launcher is no sanitized build, but reserves as much.
        let java = dir.path().join("java");
        std::fs::write(&java, b"\x7fELF ... JLI_Launch libjli.so").unwrap();
        assert!(runtime_reserves_address_space(&java));
        assert!(!reserves_address_space(&java));
        assert!(!runtime_reserves_address_space(&plain));
        assert!(!runtime_reserves_address_space(&asan));
    }

    /// A reader that hands out a few bytes at a time.
    struct Trickle<'a>(&'a [u8]);

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = out.len().min(self.0.len()).min(3);
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_mark_is_found_across_chunks_and_only_where_it_is() {
        let mark: &[u8] = b"__asan_init";
        for at in [0, CHUNK - 5, CHUNK - 1, CHUNK, 2 * CHUNK + 3] {
            let mut bytes = vec![b'x'; 3 * CHUNK];
            bytes.splice(at..at + mark.len(), mark.iter().copied());
            assert!(holds_any(&bytes[..], &[b"nothing", mark]), "at {at}");
            // One byte short: never found.
            assert!(
                !holds_any(&bytes[..at + mark.len() - 1], &[mark]),
                "at {at}"
            );
        }
        assert!(holds_any(Trickle(b"ab__asan_initcd"), &[mark]));
        assert!(!holds_any(Trickle(b"ab__asan_inicd"), &[mark]));
        assert!(!holds_any(&b""[..], &[mark]));
    }
}
