//! Embeds the codingame suite (`cases/codingame`) in the pack, so that a binary
//! registering it checks programs from any directory.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::{env, fs, io};

#[path = "../../harness/engine/src/walk.rs"]
mod walk;

fn main() -> io::Result<()> {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let cases = manifest.join("../../cases/codingame");
    println!("cargo::rerun-if-changed={}", cases.display());
    let mut files = if cases.is_dir() {
        walk::files(&cases)?
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
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_default());
    fs::write(out.join("embedded_suite.rs"), code)
}
