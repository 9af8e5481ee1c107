//! Interpreters found honestly. A command line's first word (`python3`)
//! is looked up where the contained program looks ([`super::RUN_PATH`]),
//! then in the caller's `PATH`; there it may be a version manager's shim
//! (`~/.pyenv/shims/python3`), a script that runs the manager, which reads
//! the caller's home: inside the sandbox it cannot. Such a shim is
//! resolved here to the interpreter it stands for (`pyenv which python3`,
//! run as the caller), and that interpreter's installation (its prefix,
//! `~/.pyenv/versions/3.11.7`) is what the program may read.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Version managers whose shims are resolved: the command that tells the
/// real program behind a shim, below the manager's root.
const MANAGERS: [&str; 8] = [
    "bin/pyenv",
    "libexec/pyenv",
    "bin/rbenv",
    "libexec/rbenv",
    "bin/nodenv",
    "libexec/nodenv",
    "bin/jenv",
    "libexec/jenv",
];

/// A shim resolved to the interpreter it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The interpreter itself (`~/.pyenv/versions/3.11.7/bin/python3.11`).
    pub program: PathBuf,
    /// Its installation, which it reads (`~/.pyenv/versions/3.11.7`).
    pub prefix: PathBuf,
}

/// Whether `path` is a version manager's shim: a script in a folder named
/// `shims`.
pub fn is_shim(path: &Path) -> bool {
    let in_shims = path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|n| n == "shims");
    in_shims && std::fs::read(path).is_ok_and(|b| b.starts_with(b"#!"))
}

/// The interpreter the shim `shim` stands for, asked of its manager (as
/// the caller, whose settings choose the version); `None` when no manager
/// answers with a program that exists.
pub fn resolve_shim(shim: &Path) -> Option<Resolved> {
    let name = shim.file_name()?;
    let root = shim.parent()?.parent()?;
    let manager = MANAGERS
        .iter()
        .map(|m| root.join(m))
        .find(|m| m.is_file())?;
    let out = Command::new(&manager)
        .arg("which")
        .arg(name)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let line = String::from_utf8_lossy(&out.stdout);
    let program = std::fs::canonicalize(line.lines().next()?.trim()).ok()?;
    let prefix = prefix_of(&program);
    Some(Resolved { program, prefix })
}

/// The installation an interpreter belongs to: the folder above its
/// `bin`, or its own folder.
fn prefix_of(program: &Path) -> PathBuf {
    let dir = program.parent().unwrap_or(program);
    match dir.file_name() {
        Some(n) if n == "bin" => dir.parent().unwrap_or(dir).to_owned(),
        _ => dir.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shim_is_resolved_by_its_manager() {
        use std::os::unix::fs::PermissionsExt as _;
        let root = tempfile::tempdir().expect("temp dir");
        let version = root.path().join("versions/9.9/bin");
        std::fs::create_dir_all(&version).expect("mkdir");
        std::fs::create_dir_all(root.path().join("shims")).expect("mkdir");
        std::fs::create_dir_all(root.path().join("bin")).expect("mkdir");
        let real = version.join("toy");
        std::fs::write(&real, "#!/bin/sh\necho toy 9.9\n").expect("write");
        let shim = root.path().join("shims/toy");
        std::fs::write(&shim, "#!/bin/sh\nexec false\n").expect("write");
        let manager = root.path().join("bin/pyenv");
        std::fs::write(
            &manager,
            format!("#!/bin/sh\n[ \"$1\" = which ] && echo {}\n", real.display()),
        )
        .expect("write");
        for f in [&real, &shim, &manager] {
            std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        assert!(is_shim(&shim));
        assert!(!is_shim(&real));
        let r = resolve_shim(&shim).expect("resolved");
        let canonical = |p: &Path| std::fs::canonicalize(p).expect("canonical");
        assert_eq!(r.program, canonical(&real));
        assert_eq!(r.prefix, canonical(&root.path().join("versions/9.9")));
    }
}
