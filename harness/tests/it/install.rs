//! The install lines name the files `dist/build` writes for this version
//! (a version bump that forgets a page fails here), and the README gives
//! them before building from source. `dist/check`, run by CI, installs
//! and runs the files themselves.

#![expect(
    clippy::expect_used,
    reason = "a page that cannot be read fails the test"
)]

use std::path::Path;

/// The wheel's tags, as maturin writes them for the static binary.
const WHEEL_TAGS: &str = "py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64";

fn page(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel);
    std::fs::read_to_string(&path).expect("the page reads")
}

#[test]
fn the_install_lines_name_this_versions_files() {
    let version = env!("CARGO_PKG_VERSION");
    let wheel = format!("boxes_harness-{version}-{WHEEL_TAGS}.whl");
    let archive = format!("boxes-harness-{version}-x86_64-unknown-linux-gnu.tar.gz");
    for rel in ["README.md", "docs/install.md"] {
        let text = page(rel);
        assert!(text.contains(&wheel), "{rel} does not name {wheel}");
        assert!(text.contains(&archive), "{rel} does not name {archive}");
    }
    assert!(page("docs/staff.md").contains(&archive));
    // dist/check refuses a wheel whose tags differ from the documented ones.
    assert!(page("dist/check").contains(WHEEL_TAGS));
}

#[test]
fn the_readme_installs_before_it_builds() {
    let readme = page("README.md");
    let install = readme.find("\n## Install\n").expect("an Install section");
    let source = readme
        .find("\n## On a fresh machine")
        .expect("the fresh machine's section");
    assert!(install < source);
    // The fresh machine's two commands stay as they are.
    let rest = &readme[source..];
    assert!(rest.contains("\ncargo run --release -p boxes-harness\n"));
    assert!(rest.contains("\ncargo test --workspace\n"));
}
