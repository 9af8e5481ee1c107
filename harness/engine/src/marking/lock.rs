//! One run per output folder: `mark` and `mark merge` hold an exclusive
//! `flock` on `DIR/.mark.lock` for as long as they write into `DIR`. A
//! second run into the same folder stops at once (exit 2), naming the run
//! that holds it (its pid and when it started), rather than writing
//! reports and rows over the first one's. `mark merge` also takes a
//! shared lock on each slice it reads: a slice whose run still writes is
//! refused, naming that run.
//!
//! `flock` (rustix, already the engine's system interface) and not a lock
//! file's mere existence: the kernel drops the lock when the holder ends,
//! however it ends (a `kill -9` included), so no stale lock is ever left.

use std::fs::File;
use std::io::{Read as _, Seek as _, Write as _};
use std::path::Path;

use rustix::fs::{FlockOperation, flock};

/// The lock's file inside the output folder.
pub const LOCK_FILE: &str = ".mark.lock";

/// A held lock on an output folder; released when dropped (or when the
/// process ends).
#[derive(Debug)]
pub struct OutLock {
    _file: File,
}

/// Takes the lock on `out` (made if missing), or says who holds it.
pub fn take(out: &Path) -> Result<OutLock, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot make {}: {e}", out.display()))?;
    let path = out.join(LOCK_FILE);
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    if flock(&file, FlockOperation::NonBlockingLockExclusive).is_err() {
        return Err(format!(
            "another run is writing into {} ({}); wait for it to end, or give another --out",
            out.display(),
            holder(&mut file)
        ));
    }
    // Who holds it, for the run that finds it taken.
    let me = format!("pid {}, started {}", std::process::id(), utc_now_text());
    let _ = file
        .set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| file.write_all(me.as_bytes()));
    Ok(OutLock { _file: file })
}

/// Who holds the lock `file`, as its holder wrote it.
fn holder(file: &mut File) -> String {
    let mut holder = String::new();
    let _ = file.take(512).read_to_string(&mut holder);
    let holder = holder.trim();
    if holder.is_empty() {
        "its pid is not recorded yet".to_owned()
    } else {
        holder.to_owned()
    }
}

/// A slice folder read by `mark merge`, held with a shared lock: a `mark`
/// run writing into it holds the exclusive one, and one that starts while
/// it is held stops at once.
#[derive(Debug)]
pub struct SliceLock {
    _file: Option<File>,
}

/// Takes a shared lock on the slice folder `dir` (read only: nothing is
/// written into it), or says which run is still writing into it.
pub fn read_slice(dir: &Path) -> Result<SliceLock, String> {
    let path = dir.join(LOCK_FILE);
    // A slice without a lock file was never written by a `mark` run that
    // holds one: nothing to wait for.
    let Ok(mut file) = File::open(&path) else {
        return Ok(SliceLock { _file: None });
    };
    if flock(&file, FlockOperation::NonBlockingLockShared).is_err() {
        return Err(format!(
            "slice {} is still being marked ({}); merge it once that run ends",
            dir.display(),
            holder(&mut file)
        ));
    }
    Ok(SliceLock { _file: Some(file) })
}

/// The time now, `YYYY-MM-DD HH:MM:SS UTC`.
fn utc_now_text() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_text(secs)
}

/// Seconds since the epoch as a UTC date and time (the civil calendar from
/// a day count, Howard Hinnant's algorithm).
fn utc_text(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rest = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_the_civil_calendar() {
        assert_eq!(utc_text(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_text(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_text(1_798_761_599), "2026-12-31 23:59:59 UTC");
    }

    #[test]
    fn a_second_lock_on_one_folder_is_refused_naming_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let first = take(dir.path()).unwrap();
        let err = take(dir.path()).unwrap_err();
        assert!(
            err.contains(&format!("pid {}", std::process::id())),
            "{err}"
        );
        drop(first);
        assert!(take(dir.path()).is_ok());
    }

    #[test]
    fn a_slice_still_being_marked_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            read_slice(dir.path()).is_ok(),
            "no lock file: nothing holds it"
        );
        let marking = take(dir.path()).unwrap();
        let err = read_slice(dir.path()).unwrap_err();
        assert!(err.contains("still being marked"), "{err}");
        assert!(
            err.contains(&format!("pid {}", std::process::id())),
            "{err}"
        );
        drop(marking);
        let reading = read_slice(dir.path()).unwrap();
        // A mark run starting on the slice while it is read stops.
        assert!(take(dir.path()).is_err());
        drop(reading);
        assert!(take(dir.path()).is_ok());
    }
}
