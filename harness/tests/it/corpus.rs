//! A `boxes-corpus` folder is a folder of ordinary cases and runs under
//! the harness with no glue: every manifest entry is a case, faulty files
//! in `file-errors`, controls in `load`, ambiguous ones ignored unless
//! asked; blessing it from the reference changes nothing.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]

use assert_cmd::Command;
use boxes_corpus::{Options, Spec};

fn corpus(h: usize, w: usize, p: usize) -> (tempfile::TempDir, boxes_corpus::Manifest) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("corpus");
    let options = Options {
        spec: Spec::new(h, w, p, 1).unwrap(),
        exhaustive: false,
    };
    let manifest = boxes_corpus::generate(&options, &out).unwrap();
    (dir, manifest)
}

fn run(args: &[&std::ffi::OsStr]) -> (i32, String) {
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .env("NO_COLOR", "1")
        .env_remove("BOXES_BIN")
        .env_remove("BOXES_BLESS")
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn every_manifest_entry_passes_on_the_reference() {
    let (dir, manifest) = corpus(3, 5, 26);
    let out = dir.path().join("corpus");
    let ambiguous = manifest.entries.iter().filter(|e| e.ambiguous).count();
    let total = manifest.entries.len();
    assert!(ambiguous > 0 && ambiguous < total);

    let (code, text) = run(&["--cases".as_ref(), out.as_os_str(), "--score".as_ref()]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(&format!(
            "{} passed; 0 failed; {ambiguous} ignored",
            total - ambiguous
        )),
        "{text}"
    );
    let squashed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let faulty = manifest
        .entries
        .iter()
        .filter(|e| !e.control && !e.ambiguous)
        .count();
    assert!(
        squashed.contains(&format!("file-errors {faulty}/{faulty} 5.00 / 5")),
        "{squashed}"
    );

    let (code, text) = run(&[
        "--cases".as_ref(),
        out.as_os_str(),
        "--include-ignored".as_ref(),
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(&format!("{total} passed; 0 failed; 0 ignored")),
        "{text}"
    );
}

#[test]
fn a_wrong_loader_fails_corpus_entries() {
    let (dir, _) = corpus(2, 2, 2);
    let out = dir.path().join("corpus");
    // A program that accepts every file silently.
    let (code, text) = run(&[
        "--cases".as_ref(),
        out.as_os_str(),
        "--bin".as_ref(),
        "/bin/true".as_ref(),
        "--exact".as_ref(),
        "file-errors/empty-file--empty".as_ref(),
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("ending: expected status 5, got status 0"),
        "{text}"
    );
    assert!(text.contains("-Error reading grid contents"), "{text}");
    assert!(text.contains("printf '' > empty-file/empty.grid"), "{text}");
    assert!(text.contains("regenerate the corpus"), "{text}");
}

/// Every file below `dir` with its bytes, sorted.
fn tree(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push((path.clone(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The corpus's cases are written by the engine's one writer, so blessing
/// them from the reference rewrites every expected key to the same bytes.
#[test]
fn blessing_a_corpus_from_the_reference_changes_nothing() {
    let (dir, manifest) = corpus(2, 3, 100);
    let out = dir.path().join("corpus");
    let before = tree(&out);
    assert!(
        before.len() > 2 * manifest.entries.len(),
        "{}",
        before.len()
    );
    let (code, text) = run(&["bless".as_ref(), "--cases".as_ref(), out.as_os_str()]);
    assert_eq!(code, 0, "{text}");
    assert!(tree(&out) == before, "bless changed the corpus");
}
