//! The marker's folders in what a program printed, shown as the
//! student's own: a traceback naming `/home/marker/marks/programs/alice/
//! fuel.py`, or a file of the case's temporary folder, reads `./fuel.py`
//! in every report (`report.txt`, `report.html`, `results.json`,
//! `gradescope.json`), since a student has neither folder and a path of
//! the marker's machine tells them nothing. Only what is shown is masked:
//! the comparison has already been made on the bytes as printed.

use std::path::Path;

use crate::judge::compare::Mismatch;

/// What names a run's temporary folder, whatever run made it (a build's
/// `__FILE__` names the build's own): `…/conformance-case-XXXX/case`.
const CASE_FOLDER: &[u8] = b"/conformance-case-";
/// The case folder inside a run's folder.
const WORK: &[u8] = b"/case";

/// `text`, a message quoting what a program printed or naming its files
/// (why it cannot start), with the program's folder `home` shown as `./`.
pub fn in_program_folder(home: &Path, text: &str) -> String {
    let shown = Folders::of(Some(home), Path::new("/"));
    String::from_utf8_lossy(&shown.mask(text.as_bytes())).into_owned()
}

/// The folders to show as `./`: the program's own and the case's.
#[derive(Debug, Clone, Default)]
pub struct Folders(Vec<Vec<u8>>);

impl Folders {
    /// The program's folder (`home`, when it has one of its own) and the
    /// case folder it ran in, each as given and as the file system
    /// resolves it; longest first, so a folder inside another is masked
    /// whole. The root is never masked.
    pub fn of(home: Option<&Path>, case: &Path) -> Self {
        use std::os::unix::ffi::OsStrExt as _;
        let mut all: Vec<Vec<u8>> = home
            .into_iter()
            .chain([case])
            .flat_map(|p| [p.to_owned(), std::fs::canonicalize(p).unwrap_or_default()])
            .map(|p| p.as_os_str().as_bytes().to_vec())
            .filter(|p| p.len() > 1 && p.starts_with(b"/"))
            .map(|mut p| {
                while p.len() > 1 && p.ends_with(b"/") {
                    p.pop();
                }
                p
            })
            .collect();
        all.sort_by_key(|p| std::cmp::Reverse(p.len()));
        all.dedup();
        Self(all)
    }

    /// `bytes` with each of the folders, and any run's case folder, shown
    /// as `./` (`.` when nothing of the path follows).
    pub fn mask(&self, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if let Some(len) = self.folder_at(bytes, i) {
                let end = i + len;
                if bytes.get(end) == Some(&b'/') {
                    out.extend_from_slice(b"./");
                    i = end + 1;
                } else {
                    out.push(b'.');
                    i = end;
                }
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        out
    }

    /// The length of the folder path starting at `at`, if one does: one of
    /// the folders, ended there (not a longer name), or a run's case folder.
    fn folder_at(&self, bytes: &[u8], at: usize) -> Option<usize> {
        let rest = &bytes[at..];
        if rest.first() != Some(&b'/') || (at > 0 && is_path_byte(bytes[at - 1])) {
            return None;
        }
        let ends = |len: usize| rest.get(len).is_none_or(|&b| !is_path_byte(b) || b == b'/');
        if let Some(f) = self.0.iter().find(|f| rest.starts_with(f) && ends(f.len())) {
            return Some(f.len());
        }
        case_folder_len(rest).filter(|&len| ends(len))
    }

    /// Every excerpt of `mismatches` masked: the bytes a stream or a file
    /// held. A conversation's answers (a bot's moves) are left as they are:
    /// a bot pack's report quotes them from the protocol, not from paths.
    pub fn mask_all(&self, mismatches: &mut [Mismatch]) {
        if self.0.is_empty() && !mismatches.iter().any(holds_case_folder) {
            return;
        }
        for m in mismatches {
            match m {
                Mismatch::Stream { actual, .. } | Mismatch::FileDiffers { actual, .. } => {
                    *actual = self.mask(actual);
                }
                Mismatch::Memory { quoted, .. } => {
                    for line in quoted {
                        *line = String::from_utf8_lossy(&self.mask(line.as_bytes())).into_owned();
                    }
                }
                Mismatch::Ending { .. }
                | Mismatch::LeftProcess { .. }
                | Mismatch::FileMissing { .. }
                | Mismatch::FileUnexpected { .. }
                | Mismatch::Exchange(_)
                | Mismatch::Reads(_) => {}
            }
        }
    }
}

/// Whether a mismatch's excerpt names a run's case folder.
fn holds_case_folder(m: &Mismatch) -> bool {
    match m {
        Mismatch::Stream { actual, .. } | Mismatch::FileDiffers { actual, .. } => {
            actual.windows(CASE_FOLDER.len()).any(|w| w == CASE_FOLDER)
        }
        _ => false,
    }
}

/// A byte that may be part of a path as programs print it.
fn is_path_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"/._-+~".contains(&b)
}

/// The length of `/DIR…/conformance-case-XXXX/case` at the start of
/// `rest`: folders of plain names, then a run's folder and its case folder.
fn case_folder_len(rest: &[u8]) -> Option<usize> {
    let path_end = rest
        .iter()
        .position(|&b| !is_path_byte(b))
        .unwrap_or(rest.len());
    let path = &rest[..path_end];
    let at = path
        .windows(CASE_FOLDER.len())
        .position(|w| w == CASE_FOLDER)?;
    let name_end = at
        + CASE_FOLDER.len()
        + path[at + CASE_FOLDER.len()..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
    let after = &path[name_end..];
    if after.starts_with(WORK) && after.get(WORK.len()).is_none_or(|&b| b == b'/') {
        Some(name_end + WORK.len())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masked(folders: &Folders, text: &str) -> String {
        String::from_utf8_lossy(&folders.mask(text.as_bytes())).into_owned()
    }

    #[test]
    fn a_message_on_why_a_program_cannot_start_names_no_marker_folder() {
        let why = "its interpreter cannot open what its command line names: `python3: can't \
                   open file '/m/marks/programs/bob/fuel.py': [Errno 2]`";
        let shown = in_program_folder(Path::new("/m/marks/programs/bob"), why);
        assert!(shown.contains("'./fuel.py'"), "{shown}");
        assert!(!shown.contains("/m/marks"), "{shown}");
    }

    #[test]
    fn a_traceback_names_the_students_file() {
        let f = Folders::of(
            Some(Path::new("/home/m/marks/programs/alice")),
            Path::new("/nonexistent-case"),
        );
        assert_eq!(
            masked(
                &f,
                "  File \"/home/m/marks/programs/alice/fuel.py\", line 3, in <module>\n"
            ),
            "  File \"./fuel.py\", line 3, in <module>\n"
        );
        // A longer name is another folder; the folder alone is `.`.
        assert_eq!(
            masked(
                &f,
                "/home/m/marks/programs/alice2/x and /home/m/marks/programs/alice"
            ),
            "/home/m/marks/programs/alice2/x and ."
        );
    }

    #[test]
    fn any_runs_case_folder_is_masked() {
        let f = Folders::default();
        assert_eq!(
            masked(
                &f,
                "fuel: /tmp/conformance-case-Ab12/case/fuel.c:12: main: Assertion `0' failed.\n"
            ),
            "fuel: ./fuel.c:12: main: Assertion `0' failed.\n"
        );
        assert_eq!(
            masked(&f, "cwd=/tmp/x/conformance-case-Q9/case\n"),
            "cwd=.\n"
        );
        assert_eq!(
            masked(&f, "/tmp/conformance-case-Q9/control/x"),
            "/tmp/conformance-case-Q9/control/x"
        );
    }

    #[test]
    fn only_shown_bytes_are_masked() {
        let f = Folders::of(Some(Path::new("/p")), Path::new("/c"));
        let mut m = vec![Mismatch::Stream {
            stream: crate::exec::run::Stream::Stderr,
            expected: b"x".to_vec(),
            actual: b"/p/fuel.py: /c/in\n".to_vec(),
            dropped: 0,
        }];
        f.mask_all(&mut m);
        let Mismatch::Stream { actual, .. } = &m[0] else {
            unreachable!()
        };
        assert_eq!(actual, b"./fuel.py: ./in\n");
    }
}
