//! The corpus proven against the reference for the sizes: every
//! class appears, every faulty file is rejected with FILE-6's message and
//! status, every control ends as a loaded game must, the manifest
//! round-trips, generation is deterministic and the exhaustive mode agrees
//! with the loader.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use boxes_corpus::generate::shows_raw_symbols;
use boxes_corpus::{Class, Manifest, Options, Spec, generate};
use boxes_reference::gridfile::load_bytes;
use boxes_reference::render::Rendered;

const SIZES: [(usize, usize, usize); 3] = [(2, 2, 2), (3, 5, 26), (7, 2, 100)];

#[expect(
    clippy::expect_used,
    reason = "test helper: a failure here fails the test"
)]
fn corpus(
    h: usize,
    w: usize,
    p: usize,
    seed: u64,
    exhaustive: bool,
) -> (tempfile::TempDir, Manifest) {
    let dir = tempfile::tempdir().expect("temp dir");
    let spec = Spec::new(h, w, p, seed).expect("valid spec");
    let m = generate(&Options { spec, exhaustive }, dir.path()).expect("generates");
    (dir, m)
}

#[test]
fn every_class_appears_for_every_size() {
    let all: BTreeSet<String> = Class::all().into_iter().map(Class::name).collect();
    for (h, w, p) in SIZES {
        let (_dir, m) = corpus(h, w, p, 0, false);
        let seen: BTreeSet<String> = m.entries.iter().map(|e| e.class.clone()).collect();
        assert_eq!(seen, all, "{h}x{w} with {p}");
        for e in &m.entries {
            let class = Class::from_name(&e.class).expect("known class");
            assert_eq!(e.control, class.is_control(), "{}", e.file);
            let raw = shows_raw_symbols(&e.stdout);
            assert_eq!(e.ambiguous, class.ambiguous() || raw, "{}", e.file);
            if !raw {
                assert_eq!(e.rules, class.rules(), "{}", e.file);
            }
            assert!(!raw || e.rules.iter().any(|r| r == "DISP-2"), "{}", e.file);
            assert!(!raw || p > 62, "{}", e.file);
        }
    }
}

#[test]
fn the_reference_rejects_every_faulty_file_with_status_5() {
    for (h, w, p) in SIZES {
        let (_dir, m) = corpus(h, w, p, 1, false);
        let faulty: Vec<_> = m.entries.iter().filter(|e| !e.control).collect();
        assert!(faulty.len() > 80, "{h}x{w}: only {}", faulty.len());
        for e in faulty {
            assert_eq!(e.status, 5, "{}", e.file);
            assert_eq!(e.stderr, b"Error reading grid contents\n", "{}", e.file);
            assert!(e.stdout.is_empty(), "{}", e.file);
            assert_eq!(e.category(), "file-errors");
        }
    }
}

#[test]
fn controls_show_the_loaded_grid_then_prompt_or_end() {
    for (h, w, p) in SIZES {
        let (dir, m) = corpus(h, w, p, 2, false);
        for e in m.entries.iter().filter(|e| e.control) {
            assert_eq!(e.category(), "load");
            let bytes = fs::read(e.path_in(dir.path())).expect("file exists");
            let state = load_bytes(&bytes, h, w, p).expect("control loads");
            let grid = Rendered::new(&state.grid).as_bytes().to_vec();
            assert!(e.stdout.starts_with(&grid), "{}", e.file);
            let rest = &e.stdout[grid.len()..];
            if e.class == "valid-fully-closed" {
                assert_eq!(e.status, 0, "{}", e.file);
                assert!(e.stderr.is_empty(), "{}", e.file);
                assert!(
                    rest.starts_with(b"Winner(s): ") && rest.ends_with(b"\n"),
                    "{}",
                    e.file
                );
            } else {
                assert_eq!(e.status, 6, "{}", e.file);
                assert_eq!(e.stderr, b"End of user input\n", "{}", e.file);
                assert_eq!(rest, [state.next.symbol(), b'>', b' '], "{}", e.file);
            }
        }
    }
}

#[test]
fn manifest_round_trips_from_disk() {
    let (dir, m) = corpus(7, 2, 100, 3, false);
    let back = Manifest::read(dir.path()).expect("reads");
    assert_eq!(back, m);
    // Symbols above 127 make some streams non-UTF-8: they use base64.
    let text = fs::read_to_string(dir.path().join("manifest.yaml")).expect("utf-8 yaml");
    assert!(text.contains("stdout-base64:"));
    assert!(
        m.entries
            .iter()
            .any(|e| std::str::from_utf8(&e.stdout).is_err())
    );
    assert_eq!(
        (back.height, back.width, back.players, back.seed),
        (7, 2, 100, 3)
    );
}

#[expect(
    clippy::expect_used,
    reason = "test helper: a failure here fails the test"
)]
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).expect("inside").to_path_buf();
                out.push((rel, fs::read(&path).expect("read")));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn generation_is_deterministic_and_the_seed_matters() {
    let (a, _) = corpus(3, 5, 26, 42, true);
    let (b, _) = corpus(3, 5, 26, 42, true);
    let (c, _) = corpus(3, 5, 26, 43, true);
    let (ta, tb, tc) = (tree(a.path()), tree(b.path()), tree(c.path()));
    assert!(ta.len() > 1000, "{}", ta.len());
    assert_eq!(ta, tb);
    assert_ne!(ta, tc);
}

#[test]
fn exhaustive_entries_agree_with_the_loader() {
    let (dir, m) = corpus(2, 2, 2, 0, true);
    let ex: Vec<_> = m
        .entries
        .iter()
        .filter(|e| e.class.starts_with("exhaustive-"))
        .collect();
    assert!(ex.len() > 300, "{}", ex.len());
    for kind in [
        "exhaustive-deletion",
        "exhaustive-insertion",
        "exhaustive-substitution",
    ] {
        assert!(ex.iter().any(|e| e.class == kind), "{kind}");
    }
    assert!(ex.iter().any(|e| e.control) && ex.iter().any(|e| e.ambiguous));
    for e in ex {
        // `<category>/exhaustive--<kind>--<mutant>.grid`, its case beside it.
        assert!(
            e.file
                .starts_with(&format!("{}/exhaustive--", e.category())),
            "{}",
            e.file
        );
        assert!(
            e.path_in(dir.path()).with_extension("yaml").is_file(),
            "{}",
            e.file
        );
        let bytes = fs::read(e.path_in(dir.path())).expect("file exists");
        let loads = load_bytes(&bytes, 2, 2, 2).is_ok();
        assert_eq!(e.control, loads, "{}", e.file);
        if loads {
            assert!(e.status == 6 || e.status == 0, "{}", e.file);
        } else {
            assert_eq!(e.status, 5, "{}", e.file);
            assert_eq!(e.stderr, b"Error reading grid contents\n", "{}", e.file);
        }
    }
}
