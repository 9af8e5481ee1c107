//! `pack.yaml`'s `environment:`: what the course lends every build and
//! run, declared once (docs/folder-packs.md): folders of the pack every
//! program may read (`read: [lib/]`), plain variables, Python
//! requirements installed once per content hash into a cache folder
//! (`pip install --target`, from a wheelhouse with no network when one
//! is given) and jars on the class path. Its typed form and checks live
//! here; [`prepare`] turns it into the run side's
//! [`crate::exec::run::course_env::CourseEnv`] before the first program
//! runs, and stops (an error naming the requirement or file) when it
//! cannot.
//!
//! One piece: `environment:`'s typed form, its checks and its
//! preparation (jars, the Python cache keyed by content, `pip`) read
//! the same declaration; the cache key must cover exactly what the
//! install uses.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::exec::run::course_env::{CourseEnv, PYTHON_SITE, VAR};

/// The `environment:` of `pack.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Environment {
    /// Folders (or files) of the pack every build and run may read,
    /// relative to `pack.yaml`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read: Vec<String>,
    /// Variables of every build and run; `{env}` in a value is the
    /// pack's folder.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub variables: BTreeMap<String, String>,
    /// Python packages the programs import.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub python: Option<Python>,
    /// Jars the programs use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub java: Option<Java>,
}

/// Python requirements.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Python {
    /// A pip requirements file of the pack.
    pub requirements: String,
    /// A folder of wheels: installed from it alone, with no network.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wheelhouse: Option<String>,
}

/// Java's class path.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Java {
    /// Jars of the pack, a `*` allowed in the file name (`lib/*.jar`).
    pub classpath: Vec<String>,
}

/// The variables a pack may not set: the harness sets them for every
/// run, or the environment itself does.
const RESERVED: [&str; 6] = [
    "PATH",
    "HOME",
    "LC_ALL",
    "TMPDIR",
    VAR,
    "CONFORMANCE_REFERENCE",
];

/// The checks of the values serde cannot make: `(key, message)` of the
/// first fault.
pub fn check(env: &Environment) -> Result<(), (&'static str, String)> {
    for name in env.variables.keys() {
        let ok = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        if !ok {
            return Err((
                "variables",
                format!("variables: `{name}` is not a variable's name (A-Z, 0-9, _)"),
            ));
        }
        let taken = RESERVED.contains(&name.as_str())
            || (name == "PYTHONPATH" && env.python.is_some())
            || (name == "CLASSPATH" && env.java.is_some());
        if taken {
            return Err((
                "variables",
                format!(
                    "variables: `{name}` is set by the harness or by the environment itself; \
                     name another"
                ),
            ));
        }
    }
    let paths = env
        .read
        .iter()
        .map(|p| ("read", p))
        .chain(env.python.iter().flat_map(|p| {
            std::iter::once(("requirements", &p.requirements))
                .chain(p.wheelhouse.iter().map(|w| ("wheelhouse", w)))
        }))
        .chain(
            env.java
                .iter()
                .flat_map(|j| j.classpath.iter().map(|c| ("classpath", c))),
        );
    for (key, path) in paths {
        let leaves = Path::new(path).is_absolute()
            || Path::new(path)
                .components()
                .any(|c| c == std::path::Component::ParentDir);
        if path.is_empty() || leaves {
            return Err((
                key,
                format!(
                    "{key}: `{path}` must be a path inside the pack's folder (relative, no `..`): \
                     the environment travels with the pack"
                ),
            ));
        }
    }
    Ok(())
}

/// Where installed requirements are kept: the cache folder
/// ([`crate::exec::cache::root`]).
fn cache_root() -> PathBuf {
    crate::exec::cache::root()
}

/// Bytes of a wheelhouse hashed at most (its wheels are read whole).
const WHEELHOUSE_CAP: u64 = 512 << 20;

/// Bytes of pip's output shown when an install fails.
const PIP_SHOWN: usize = 1500;

/// The environment of the pack in `dir` (`shown`: `pack.yaml` as named to
/// people), made ready: every path checked to exist, requirements
/// installed (or found installed), the variables of every run.
pub fn prepare(
    name: &str,
    dir: &Path,
    shown: &str,
    env: &Environment,
) -> Result<CourseEnv, String> {
    let root = crate::exec::run::clean(dir);
    let mut out = CourseEnv {
        root: root.clone(),
        vars: vec![(VAR.to_owned(), root.display().to_string())],
        ..CourseEnv::default()
    };
    let mut said = vec![format!("{VAR} is {name}'s folder")];
    for rel in &env.read {
        let path = crate::exec::run::clean(&root.join(rel));
        if !path.exists() {
            return Err(format!(
                "{shown}: environment.read: `{rel}` names nothing in the pack's folder"
            ));
        }
        out.reads.push(path);
    }
    if !env.read.is_empty() {
        said.push(format!("programs read {}", env.read.join(", ")));
    }
    for (k, v) in &env.variables {
        out.vars
            .push((k.clone(), v.replace("{env}", &root.display().to_string())));
    }
    if !env.variables.is_empty() {
        let names: Vec<&str> = env.variables.keys().map(String::as_str).collect();
        said.push(format!("variables {}", names.join(", ")));
    }
    let mut notes = Vec::new();
    if let Some(py) = &env.python {
        let (site, interpreter) = install(&root, shown, py)?;
        out.vars
            .push(("PYTHONPATH".to_owned(), site.display().to_string()));
        out.reads.push(site.clone());
        out.python_site = Some(site);
        said.push(format!(
            "python: {} installed{} for {interpreter}",
            py.requirements,
            py.wheelhouse
                .as_ref()
                .map_or_else(String::new, |w| format!(" from {w} (no network)"))
        ));
        notes.push(format!(
            "pip install --target \"${VAR}\"/{PYTHON_SITE} -r \"${VAR}\"/{}",
            py.requirements
        ));
    }
    if let Some(java) = &env.java {
        let jars = jars(&root, shown, java)?;
        let joined: Vec<String> = jars.iter().map(|j| j.display().to_string()).collect();
        let joined = joined.join(":");
        out.vars.push(("CLASSPATH".to_owned(), joined.clone()));
        out.reads.extend(jars.iter().cloned());
        out.classpath = Some(joined);
        said.push(format!("java class path {}", java.classpath.join(":")));
    }
    out.summary = said.join("; ");
    let mut note = format!(
        "with the course's environment: {VAR} names a copy of its folder{}",
        if env.read.is_empty() {
            String::new()
        } else {
            format!(" ({})", env.read.join(", "))
        }
    );
    for n in &notes {
        let _ = write!(note, "; {n}");
    }
    out.student_note = Some(note);
    Ok(out)
}

/// The jars `java.classpath` names, each pattern matching at least one.
fn jars(root: &Path, shown: &str, java: &Java) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    for pattern in &java.classpath {
        let path = root.join(pattern);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let matched: Vec<PathBuf> = match name.split_once('*') {
            None if path.exists() => vec![path.clone()],
            None => Vec::new(),
            Some((before, after)) => {
                let folder = path.parent().map(Path::to_owned).unwrap_or_default();
                let mut m: Vec<PathBuf> = std::fs::read_dir(&folder)
                    .map(|d| {
                        d.filter_map(Result::ok)
                            .map(|e| e.path())
                            .filter(|p| {
                                p.file_name().is_some_and(|n| {
                                    let n = n.to_string_lossy();
                                    n.len() >= before.len() + after.len()
                                        && n.starts_with(before)
                                        && n.ends_with(after)
                                })
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                m.sort();
                m
            }
        };
        if matched.is_empty() {
            return Err(format!(
                "{shown}: environment.java.classpath: `{pattern}` matches no file of the pack"
            ));
        }
        found.extend(matched.into_iter().map(|p| crate::exec::run::clean(&p)));
    }
    Ok(found)
}

/// The requirements installed into the cache, once per content hash (the
/// requirements file, the wheelhouse's files, the interpreter's
/// version): the folder and the interpreter as the header names it.
fn install(root: &Path, shown: &str, py: &Python) -> Result<(PathBuf, String), String> {
    let req = root.join(&py.requirements);
    let req_bytes = std::fs::read(&req).map_err(|e| {
        format!(
            "{shown}: environment.python.requirements: {} cannot be read: {e}",
            py.requirements
        )
    })?;
    let python = ["/usr/bin/python3", "/bin/python3"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .ok_or_else(|| {
            format!("{shown}: environment.python: no python3 in /usr/bin to install with")
        })?;
    let version = std::process::Command::new(&python)
        .arg("--version")
        .output()
        .map(|o| {
            let mut both = o.stdout;
            both.extend_from_slice(&o.stderr);
            String::from_utf8_lossy(&both).trim().to_owned()
        })
        .unwrap_or_default();
    let (key, wheelhouse) = content_key(root, shown, py, &version, &req_bytes)?;
    let site = cache_root().join(PYTHON_SITE).join(&key);
    let shown_interp = format!("{} ({version})", python.display());
    if site.join(DONE).is_file() {
        return Ok((site, shown_interp));
    }
    pip_install(
        root,
        shown,
        py,
        &python,
        &req,
        wheelhouse.as_deref(),
        &site,
        &key,
        &version,
    )?;
    Ok((site, shown_interp))
}

/// The cache's key of an install: a hash of the interpreter's version,
/// the requirements and every file of the wheelhouse (bounded); and the
/// wheelhouse's folder.
fn content_key(
    root: &Path,
    shown: &str,
    py: &Python,
    version: &str,
    req_bytes: &[u8],
) -> Result<(String, Option<PathBuf>), String> {
    let mut hash = Sha256::new();
    hash.update(version.as_bytes());
    hash.update([0]);
    hash.update(req_bytes);
    let wheelhouse = match &py.wheelhouse {
        Some(w) => {
            let dir = root.join(w);
            let mut listed = conformance_embed::walk::files(&dir).map_err(|e| {
                format!("{shown}: environment.python.wheelhouse: {w} is not a readable folder: {e}")
            })?;
            listed.sort();
            let mut total = 0u64;
            for (rel, path) in listed {
                let len = std::fs::metadata(&path).map_or(0, |m| m.len());
                total = total.saturating_add(len);
                if total > WHEELHOUSE_CAP {
                    return Err(format!(
                        "{shown}: environment.python.wheelhouse: {w} holds more than {} MiB",
                        WHEELHOUSE_CAP >> 20
                    ));
                }
                let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                hash.update(rel.as_bytes());
                hash.update([0]);
                hash.update(&bytes);
            }
            Some(dir)
        }
        None => None,
    };
    let digest = hash.finalize();
    let key = digest.iter().take(12).fold(String::new(), |mut k, b| {
        let _ = write!(k, "{b:02x}");
        k
    });
    Ok((key, wheelhouse))
}

/// `python -m pip install --target` into a fresh folder beside `site`,
/// then moved to `site` whole (another harness installing the same key
/// meanwhile keeps its own); pip's failure names the requirement.
#[expect(
    clippy::too_many_arguments,
    reason = "one install's facts, each used once"
)]
fn pip_install(
    root: &Path,
    shown: &str,
    py: &Python,
    python: &Path,
    req: &Path,
    wheelhouse: Option<&Path>,
    site: &Path,
    key: &str,
    version: &str,
) -> Result<(), String> {
    let parent = site.parent().map(Path::to_owned).unwrap_or_default();
    std::fs::create_dir_all(&parent)
        .map_err(|e| format!("cannot make the cache folder {}: {e}", parent.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(&format!("{key}.partial-"))
        .tempdir_in(&parent)
        .map_err(|e| format!("cannot make a folder in {}: {e}", parent.display()))?;
    let mut pip = std::process::Command::new(python);
    pip.args([
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "--no-input",
        "--quiet",
    ])
    .arg("--target")
    .arg(staging.path())
    .arg("-r")
    .arg(req);
    if let Some(dir) = &wheelhouse {
        pip.arg("--no-index").arg("--find-links").arg(dir);
    }
    pip.stdin(std::process::Stdio::null())
        .current_dir(root)
        .env("PIP_NO_CACHE_DIR", "1");
    let done = pip.output().map_err(|e| {
        format!(
            "{shown}: environment.python: cannot run {} -m pip: {e}",
            python.display()
        )
    })?;
    if !done.status.success() {
        let mut log = String::from_utf8_lossy(&done.stderr).into_owned();
        log.push_str(&String::from_utf8_lossy(&done.stdout));
        let tail: String = {
            let chars: Vec<char> = log.trim().chars().collect();
            chars[chars.len().saturating_sub(PIP_SHOWN)..]
                .iter()
                .collect()
        };
        return Err(format!(
            "{shown}: environment.python: installing {}{} failed ({} -m pip ended with {}); no \
             submission was run:\n{tail}",
            py.requirements,
            py.wheelhouse
                .as_ref()
                .map_or_else(String::new, |w| format!(" from {w}")),
            python.display(),
            done.status
        ));
    }
    std::fs::write(staging.path().join(DONE), version.as_bytes())
        .map_err(|e| format!("cannot write in {}: {e}", staging.path().display()))?;
    let staged = staging.keep();
    // Another harness may have installed the same hash meanwhile: theirs
    // stays, this copy goes.
    if std::fs::rename(&staged, site).is_err() {
        let _ = std::fs::remove_dir_all(&staged);
        if !site.join(DONE).is_file() {
            return Err(format!(
                "cannot move the installed requirements to {}",
                site.display()
            ));
        }
    }
    Ok(())
}

/// The file that marks a cache folder as wholly installed.
const DONE: &str = ".installed";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_paths_are_checked() {
        let mut env = Environment::default();
        env.variables.insert("CS50".into(), "{env}/lib".into());
        assert!(check(&env).is_ok());
        env.variables.insert("lower".into(), "x".into());
        assert_eq!(check(&env).map_err(|e| e.0), Err("variables"));
        let mut env = Environment::default();
        env.variables.insert("PATH".into(), "/x".into());
        assert!(check(&env).is_err());
        let env = Environment {
            read: vec!["../other".into()],
            ..Environment::default()
        };
        assert_eq!(check(&env).map_err(|e| e.0), Err("read"));
    }

    #[test]
    fn an_environment_says_itself_with_relative_names() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("lib")).expect("mkdir");
        std::fs::write(dir.path().join("lib/a.jar"), b"").expect("write");
        let env = Environment {
            read: vec!["lib/".into()],
            variables: BTreeMap::from([("LIB".into(), "{env}/lib".into())]),
            python: None,
            java: Some(Java {
                classpath: vec!["lib/*.jar".into()],
            }),
        };
        let e = prepare("toy", dir.path(), "toy/pack.yaml", &env).expect("prepares");
        let root = dir.path().display().to_string();
        assert!(!e.summary.contains(&root), "{}", e.summary);
        assert!(e.vars.contains(&("LIB".into(), format!("{root}/lib"))));
        assert_eq!(e.classpath, Some(format!("{root}/lib/a.jar")));
        let missing = Environment {
            read: vec!["nope/".into()],
            ..Environment::default()
        };
        let err = prepare("toy", dir.path(), "toy/pack.yaml", &missing).expect_err("refused");
        assert!(err.contains("environment.read: `nope/`"), "{err}");
    }
}
