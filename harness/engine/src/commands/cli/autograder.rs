//! `gradescope-autograder --spec NAME --out DIR`: the two files of a
//! Gradescope autograder for a pack. `setup.sh` installs the build tools
//! and this harness from the repository's source shipped beside it;
//! `run_autograder` builds `/autograder/submission` with the pack's course
//! line and runs the suite on it through `mark` (one submission), then
//! copies its Gradescope document to `/autograder/results/results.json`,
//! which exists whatever happened (a build that fails gives score 0 and
//! the build's output). The root is `$AUTOGRADER_ROOT` when set (and the
//! harness `$AUTOGRADER_HARNESS`), so the script runs against a fake tree
//! in a test.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

/// The folder the repository's source is expected in, inside the
/// autograder's `source/`.
pub const SOURCE_DIR: &str = "conformance";

/// `gradescope-autograder`'s options.
#[derive(Debug, clap::Args)]
pub struct AutograderCli {
    /// The spec pack the autograder marks with.
    #[arg(long, value_name = "NAME")]
    pub spec: Option<String>,
    /// Where `setup.sh` and `run_autograder` are written.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// `setup.sh`: Gradescope runs it once, as root, in the image.
fn setup_sh(program: &str) -> String {
    format!(
        "#!/bin/bash\n\
         # Gradescope autograder set-up, written by `{program} gradescope-autograder`.\n\
         # Installs the build tools and {program} from the repository's source,\n\
         # which must sit beside this file as {SOURCE_DIR}/ (see docs/staff.md).\n\
         set -euo pipefail\n\
         here=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n\
         apt-get update\n\
         DEBIAN_FRONTEND=noninteractive apt-get install -y build-essential curl ca-certificates\n\
         if ! command -v cargo >/dev/null; then\n\
         \x20   curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal\n\
         \x20   . \"$HOME/.cargo/env\"\n\
         fi\n\
         cargo install --locked --root /usr/local --path \"$here/{SOURCE_DIR}/harness\" --bin {program}\n\
         {program} --version\n"
    )
}

/// `run_autograder`: run for every submission.
fn run_autograder(program: &str, spec: &str) -> String {
    format!(
        "#!/bin/bash\n\
         # Gradescope autograder, written by `{program} gradescope-autograder --spec {spec}`.\n\
         # Builds the submission with the course line, runs the {spec} suite on it and\n\
         # writes results/results.json, whatever happens.\n\
         set -u\n\
         root=\"${{AUTOGRADER_ROOT:-/autograder}}\"\n\
         harness=\"${{AUTOGRADER_HARNESS:-{program}}}\"\n\
         work=\"$(mktemp -d)\"\n\
         trap 'rm -rf \"$work\"' EXIT\n\
         mkdir -p \"$work/subs\" \"$root/results\"\n\
         cp -R \"$root/submission\" \"$work/subs/submission\"\n\
         # Gradescope's containers usually refuse the user namespaces of the default\n\
         # containment: the harness then runs the submission at its `landlock` level\n\
         # (Landlock and seccomp confine its reads, writes and network without any\n\
         # namespace), which mark accepts. Only where the kernel lacks Landlock too does\n\
         # mark refuse; it is then told (one submission per container; docs/staff.md).\n\
         \"$harness\" mark --spec {spec} \"$work/subs\" --out \"$work/marks\" --jobs 1 2> \"$work/mark.err\"\n\
         status=$?\n\
         cat \"$work/mark.err\" >&2\n\
         if [ \"$status\" -eq 2 ] && grep -q 'give --allow-weaker-containment' \"$work/mark.err\"; then\n\
         \x20   echo \"autograder: marking with --allow-weaker-containment (this kernel lacks Landlock: \
         the submission may read the container, the harness and its embedded suite included)\"\n\
         \x20   \"$harness\" mark --allow-weaker-containment --spec {spec} \"$work/subs\" --out \"$work/marks\" --jobs 1\n\
         \x20   status=$?\n\
         fi\n\
         done=\"$work/marks/submissions/submission\"\n\
         if [ -f \"$done/gradescope.json\" ]; then\n\
         \x20   cp \"$done/gradescope.json\" \"$root/results/results.json\"\n\
         \x20   cat \"$done/report.txt\" 2>/dev/null\n\
         else\n\
         \x20   printf '{{\"score\": 0, \"output\": \"The autograder could not mark this submission (status %s): ask your instructor.\", \"tests\": []}}\\n' \"$status\" > \"$root/results/results.json\"\n\
         fi\n\
         exit 0\n"
    )
}

/// Writes both files into `out`.
pub fn write(program: &str, spec: &str, out: &Path) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot make {}: {e}", out.display()))?;
    for (name, text) in [
        ("setup.sh", setup_sh(program)),
        ("run_autograder", run_autograder(program, spec)),
    ] {
        let path = out.join(name);
        std::fs::write(&path, text)
            .and_then(|()| std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
