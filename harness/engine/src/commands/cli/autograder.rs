//! `gradescope-autograder --spec NAME --out DIR`: the two files of a
//! Gradescope autograder for a pack. `setup.sh` installs the build tools
//! the submissions need and this harness's static binary from its release
//! archive shipped beside it (no Rust toolchain in the image; the version
//! is pinned to the harness that wrote it); `run_autograder` builds
//! `/autograder/submission` with the pack's course line and runs the suite
//! on it through `mark` (one submission), then copies its Gradescope
//! document to `/autograder/results/results.json` (a build that fails
//! gives score 0 and the build's output; a mark the environment struck,
//! none: Gradescope's autograder failure, never a 0 for the machine).
//! `--memcheck` is written into both of its `mark` lines (and under
//! `valgrind`, valgrind into `setup.sh`'s install). A pack on disk (a
//! folder pack, a problem package's folder or `.zip`) travels in the zip
//! beside the scripts; a package's `setup.sh` also installs the tools of
//! the languages its jury's programs are written in
//! ([`super::autograder_package`]).
//! The
//! root is `$AUTOGRADER_ROOT` when set (and the harness
//! `$AUTOGRADER_HARNESS`, the install prefix `$AUTOGRADER_PREFIX`), so the
//! scripts run against a fake tree in a test.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use super::autograder_package::{package_tools, prepare_package};
use crate::exec::memcheck::{Memcheck, Tool};
use crate::packs::problem::package::is_package;

/// The only target a release archive is built for (see docs/install.md).
pub const TARGET: &str = "x86_64-unknown-linux-gnu";

/// The file name of `program`'s release archive at this version, which
/// `setup.sh` expects beside it: what `dist/build` writes.
pub fn release_archive(program: &str) -> String {
    format!("{program}-{}-{TARGET}.tar.gz", env!("CARGO_PKG_VERSION"))
}

/// `gradescope-autograder`'s options.
#[derive(Debug, clap::Args)]
pub struct AutograderCli {
    /// The spec pack the autograder marks with.
    #[arg(long, value_name = "NAME")]
    pub spec: Option<String>,
    /// Where `setup.sh` and `run_autograder` are written.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Mark each submission with its memory checked, as `mark --memcheck`
    /// (docs/memory.md): written into `run_autograder`'s `mark` lines.
    #[arg(long, value_name = "TOOL[,leaks][,warn]")]
    pub memcheck: Option<crate::exec::memcheck::Memcheck>,
}

/// `setup.sh`: Gradescope runs it once, as root, in the image. It installs
/// the harness under `/opt/PROGRAM`, outside the system folders (`/usr`,
/// `/bin`, ...) which every program under test may read: the executable
/// embeds the suite, and so the expected outputs. The C tools
/// are installed only where missing, so that a test can run the script.
fn setup_sh(program: &str, memcheck: Option<Memcheck>) -> String {
    let version = env!("CARGO_PKG_VERSION");
    // build-essential brings gcc's sanitizer runtimes (libasan, libubsan)
    // with it; valgrind is a package of its own.
    let valgrind = if memcheck.is_some_and(|m| m.tool == Tool::Valgrind) {
        "if ! [ -x /usr/bin/valgrind ]; then\n\
         \x20   apt-get update\n\
         \x20   DEBIAN_FRONTEND=noninteractive apt-get install -y valgrind\n\
         fi\n"
    } else {
        ""
    };
    format!(
        "#!/bin/bash\n\
         # Gradescope autograder set-up, written by `{program} gradescope-autograder` ({program} {version}).\n\
         # Installs the build tools the submissions need and {program} {version}, a static\n\
         # binary, from its release archive beside this file: no Rust toolchain. To pin\n\
         # another version, see docs/staff.md.\n\
         set -euo pipefail\n\
         here=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n\
         version={version}\n\
         name=\"{program}-$version-{TARGET}\"\n\
         prefix=\"${{AUTOGRADER_PREFIX:-/opt/{program}}}\"\n\
         if [ ! -f \"$here/$name.tar.gz\" ]; then\n\
         \x20   echo \"setup.sh: $name.tar.gz is missing: put {program} $version's release archive beside setup.sh (docs/staff.md)\" >&2\n\
         \x20   exit 1\n\
         fi\n\
         if ! command -v cc >/dev/null || ! command -v make >/dev/null; then\n\
         \x20   apt-get update\n\
         \x20   DEBIAN_FRONTEND=noninteractive apt-get install -y build-essential\n\
         fi\n\
         {valgrind}\
         unpacked=\"$(mktemp -d)\"\n\
         tar -xzf \"$here/$name.tar.gz\" -C \"$unpacked\"\n\
         install -D -m 0755 \"$unpacked/$name/{program}\" \"$prefix/bin/{program}\"\n\
         rm -rf \"$unpacked\"\n\
         installed=\"$(\"$prefix/bin/{program}\" --version)\"\n\
         echo \"$installed\"\n\
         case \"$installed\" in\n\
         \x20   \"{program} $version \"*) ;;\n\
         \x20   *) echo \"setup.sh: the archive holds another version than $version\" >&2; exit 1 ;;\n\
         esac\n"
    )
}

/// `run_autograder`: run for every submission.
fn run_autograder(program: &str, spec: &str, memcheck: Option<Memcheck>) -> String {
    // A folder pack travels beside the scripts: Gradescope unpacks the
    // zip into `$root/source`.
    let spec_arg = match spec.strip_prefix(FOLDER_MARK) {
        Some(name) => format!("\"$root/source/{name}\""),
        None => spec.to_owned(),
    };
    let spec = spec.trim_start_matches(FOLDER_MARK);
    let asked = memcheck.map_or_else(String::new, |m| format!(" --memcheck {m}"));
    let memory = match memcheck {
        Some(m) if m.warn => format!(
            "# --memcheck {m}: each submission is built with its memory checked; a memory\n\
             # error is reported to the student as a warning, no marks lost (docs/memory.md).\n"
        ),
        Some(m) => format!(
            "# --memcheck {m}: each submission is built with its memory checked; a memory\n\
             # error fails its case (docs/memory.md).\n"
        ),
        None => String::new(),
    };
    format!(
        "#!/bin/bash\n\
         # Gradescope autograder, written by `{program} gradescope-autograder --spec {spec}{asked}`.\n\
         # Builds the submission with the course line, runs the {spec} suite on it and\n\
         # writes results/results.json, whatever happens.\n\
         {memory}\
         set -u\n\
         root=\"${{AUTOGRADER_ROOT:-/autograder}}\"\n\
         harness=\"${{AUTOGRADER_HARNESS:-${{AUTOGRADER_PREFIX:-/opt/{program}}}/bin/{program}}}\"\n\
         work=\"$(mktemp -d)\"\n\
         trap 'rm -rf \"$work\"' EXIT\n\
         mkdir -p \"$work/subs\" \"$root/results\"\n\
         cp -R \"$root/submission\" \"$work/subs/submission\"\n\
         # Gradescope's containers usually refuse the user namespaces of the default\n\
         # containment: the harness then runs the submission at its `landlock` level\n\
         # (Landlock and seccomp confine its reads, writes and network without any\n\
         # namespace), which mark accepts. Only where the kernel lacks Landlock too does\n\
         # mark refuse; it is then told (one submission per container; docs/staff.md).\n\
         \"$harness\" mark --spec {spec_arg}{asked} \"$work/subs\" --out \"$work/marks\" --jobs 1 2> \"$work/mark.err\"\n\
         status=$?\n\
         cat \"$work/mark.err\" >&2\n\
         if [ \"$status\" -eq 2 ] && grep -q 'give --allow-weaker-containment' \"$work/mark.err\"; then\n\
         \x20   echo \"autograder: marking with --allow-weaker-containment (this kernel lacks Landlock: \
         the submission may read the container, the harness and its embedded suite included)\"\n\
         \x20   \"$harness\" mark --allow-weaker-containment --spec {spec_arg}{asked} \"$work/subs\" --out \"$work/marks\" --jobs 1\n\
         \x20   status=$?\n\
         fi\n\
         done=\"$work/marks/submissions/submission\"\n\
         if [ -f \"$done/gradescope.json\" ]; then\n\
         \x20   cp \"$done/gradescope.json\" \"$root/results/results.json\"\n\
         \x20   cat \"$done/report.txt\" 2>/dev/null\n\
         \x20   exit 0\n\
         fi\n\
         # No mark: the environment struck a case (exit 3: a runtime that could not\n\
         # start, a module or compiler this image lacks) or the harness could not mark\n\
         # it (exit 2). No results.json: Gradescope shows \"The autograder failed to\n\
         # execute correctly\" with no score (never a 0 charged for the machine), and\n\
         # staff read why here. Fix the image, then \"Rerun autograder\".\n\
         rm -f \"$root/results/results.json\"\n\
         cat \"$done/report.txt\" 2>/dev/null\n\
         if [ \"$status\" -eq 3 ]; then\n\
         \x20   echo \"autograder: ENVIRONMENT FAILURE (mark exit 3): not the submission's fault; no mark given. Fix this image and rerun the autograder.\"\n\
         else\n\
         \x20   echo \"autograder: the harness could not mark this submission (mark exit $status): no mark given; rerun the autograder once fixed.\"\n\
         fi\n\
         exit 1\n"
    )
}

/// How `run_autograder` is told that its spec is a folder beside it.
const FOLDER_MARK: &str = "folder:";

/// Bytes of a folder pack copied beside the scripts at most.
const PACK_CAP: u64 = 256 << 20;

/// `setup.sh`'s last lines for a folder pack: its environment prepared
/// once in the image (requirements installed into the cache), so that a
/// requirement that cannot be installed fails the image's build, not a
/// student's submission.
fn prepare_folder(program: &str, name: &str) -> String {
    format!(
        "if ! command -v python3 >/dev/null || ! python3 -m pip --version >/dev/null 2>&1; then\n\
         \x20   if grep -q '^ *python:' \"$here/{name}/pack.yaml\"; then\n\
         \x20       apt-get update\n\
         \x20       DEBIAN_FRONTEND=noninteractive apt-get install -y python3 python3-pip\n\
         \x20   fi\n\
         fi\n\
         \"$prefix/bin/{program}\" list --spec \"$here/{name}\" > /dev/null\n"
    )
}

/// Copies the folder pack in `dir` (its suite inside it) to `out/NAME`.
fn copy_pack(dir: &Path, out: &Path) -> Result<(), String> {
    let listed =
        conformance_embed::walk::files(dir).map_err(|e| format!("pack {}: {e}", dir.display()))?;
    let mut total = 0u64;
    for (rel, path) in listed {
        let meta = std::fs::metadata(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        total = total.saturating_add(meta.len());
        if total > PACK_CAP {
            return Err(format!(
                "pack {}: more than {} MiB to copy beside the autograder",
                dir.display(),
                PACK_CAP >> 20
            ));
        }
        let to = out.join(&rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot make {}: {e}", parent.display()))?;
        }
        std::fs::copy(&path, &to).map_err(|e| format!("cannot copy {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Writes both files into `out`; `memcheck` goes to `mark`. A pack on
/// disk (`travels`: a folder pack's folder, the suite inside it, or a
/// problem package's folder or `.zip`) is copied to `out/NAME` (a `.zip`
/// to `out/NAME.zip`) and named there by the scripts.
pub fn write(
    program: &str,
    spec: &str,
    out: &Path,
    memcheck: Option<Memcheck>,
    travels: Option<&Path>,
) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot make {}: {e}", out.display()))?;
    let mut setup = setup_sh(program, memcheck);
    let spec = match travels {
        Some(path) if is_package(path) => {
            let tools = package_tools(path)?;
            let name = if path.is_file() {
                let to = format!("{spec}.zip");
                std::fs::copy(path, out.join(&to))
                    .map_err(|e| format!("cannot copy {}: {e}", path.display()))?;
                to
            } else {
                copy_pack(path, &out.join(spec))?;
                spec.to_owned()
            };
            setup.push_str(&prepare_package(program, &name, &tools));
            format!("{FOLDER_MARK}{name}")
        }
        Some(dir) => {
            copy_pack(dir, &out.join(spec))?;
            setup.push_str(&prepare_folder(program, spec));
            format!("{FOLDER_MARK}{spec}")
        }
        None => spec.to_owned(),
    };
    for (name, text) in [
        ("setup.sh", setup),
        ("run_autograder", run_autograder(program, &spec, memcheck)),
    ] {
        let path = out.join(name);
        std::fs::write(&path, text)
            .and_then(|()| std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_pack_is_named_beside_the_scripts() {
        let script = run_autograder("h", "folder:fuel", None);
        assert_eq!(
            script
                .matches("--spec \"$root/source/fuel\" \"$work/subs\"")
                .count(),
            2,
            "{script}"
        );
        assert!(prepare_folder("h", "fuel").contains("list --spec \"$here/fuel\""));
    }

    #[test]
    fn memcheck_goes_into_both_mark_lines_and_valgrind_into_the_image() {
        let m: Memcheck = "asan,warn".parse().unwrap();
        let script = run_autograder("h", "shout", Some(m));
        assert_eq!(
            script
                .matches("--spec shout --memcheck asan,warn \"$work/subs\"")
                .count(),
            2,
            "{script}"
        );
        assert!(script.contains("no marks lost"), "{script}");
        assert!(!run_autograder("h", "shout", None).contains("--memcheck"));
        assert!(!setup_sh("h", Some(m)).contains("valgrind"));
        let v: Memcheck = "valgrind".parse().unwrap();
        assert!(setup_sh("h", Some(v)).contains("apt-get install -y valgrind"));
    }
}
