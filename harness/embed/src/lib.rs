//! `conformance-embed`: a spec pack's suite embedded in its crate at build
//! time, so a binary registering the pack checks programs from any
//! directory. Every pack's `build.rs` is one call to [`suite`]; the
//! engine lists case trees with the same [`walk`], so the embedded suite
//! and a suite read from disk hold the same files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs, io};

pub mod walk;

/// The generated file, in `OUT_DIR`; a pack includes it with
/// `include!(concat!(env!("OUT_DIR"), "/embedded_suite.rs"))`.
pub const GENERATED: &str = "embedded_suite.rs";

/// For a build script: embeds `cases/<name>` (beside the pack crate's
/// folder, two levels up) as the static `FILES` in [`GENERATED`], and asks
/// cargo to run the script again when the folder changes. A missing folder
/// embeds no file.
pub fn suite(name: &str) -> io::Result<()> {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let cases = manifest.join("../../cases").join(name);
    println!("cargo::rerun-if-changed={}", cases.display());
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default());
    fs::write(out.join(GENERATED), files_table(&cases)?)
}

/// The Rust source of `FILES`: every file below `dir` (none when it is
/// missing) as its `/`-separated path and `include_bytes!` of its
/// canonical path, sorted by path.
pub fn files_table(dir: &Path) -> io::Result<String> {
    let mut files = if dir.is_dir() {
        walk::files(dir)?
    } else {
        Vec::new()
    };
    files.sort();
    let mut code = String::from(
        "/// Every file of the suite: `/`-separated path and bytes, sorted by path.\n\
         pub static FILES: &[(&str, &[u8])] = &[\n",
    );
    for (rel, path) in &files {
        let abs = fs::canonicalize(path)?;
        let _ = writeln!(
            code,
            "    ({rel:?}, include_bytes!({:?})),",
            abs.display().to_string()
        );
    }
    code.push_str("];\n");
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_visible_file_sorted() -> io::Result<()> {
        let dir = tempfile::tempdir()?;
        fs::create_dir_all(dir.path().join("b"))?;
        fs::write(dir.path().join("b/two.yaml"), "2")?;
        fs::write(dir.path().join("a.yaml"), "1")?;
        fs::write(dir.path().join(".swap"), "x")?;
        let code = files_table(dir.path())?;
        let a = code.find("(\"a.yaml\", include_bytes!(");
        let b = code.find("(\"b/two.yaml\", include_bytes!(");
        assert!(a.is_some_and(|a| b.is_some_and(|b| a < b)), "{code}");
        assert!(!code.contains("swap"), "{code}");
        assert!(code.ends_with("];\n"), "{code}");
        Ok(())
    }

    #[test]
    fn a_missing_folder_embeds_nothing() -> io::Result<()> {
        let code = files_table(Path::new("/nonexistent/cases"))?;
        assert!(code.ends_with("&[\n];\n"), "{code}");
        Ok(())
    }
}
