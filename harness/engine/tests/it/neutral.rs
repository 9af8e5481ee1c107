//! The engine names no spec pack: no file of this crate (sources, tests,
//! manifest), nor of `conformance-embed` beside it, mentions the first
//! pack's program, in any case. A pack-specific
//! word here would mean the engine still knows one program.

use std::path::Path;

/// The pack name this guards against, spelled so this file does not hit.
fn forbidden() -> String {
    ["bo", "xes"].concat()
}

fn hits(dir: &Path, word: &str, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                hits(&path, word, out);
            }
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            for (i, line) in text.lines().enumerate() {
                if line.to_ascii_lowercase().contains(word) {
                    out.push(format!("{}:{}: {line}", path.display(), i + 1));
                }
            }
        }
    }
}

#[test]
fn the_engine_names_no_pack() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    hits(root, &forbidden(), &mut found);
    hits(&root.join("../embed"), &forbidden(), &mut found);
    assert!(
        root.join("src/lib.rs").is_file() && root.join("../embed/src/lib.rs").is_file(),
        "the walk must see the sources"
    );
    assert!(
        found.is_empty(),
        "pack names in the engine:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_guard_finds_a_planted_name() {
    let dir = tempfile::tempdir().expect("temporary folder");
    std::fs::write(
        dir.path().join("a.rs"),
        format!("// {}\n", forbidden().to_uppercase()),
    )
    .expect("write");
    let mut found = Vec::new();
    hits(dir.path(), &forbidden(), &mut found);
    assert_eq!(found.len(), 1);
}
