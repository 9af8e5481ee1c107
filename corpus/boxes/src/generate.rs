//! Writes a corpus folder of ordinary cases: every sample (and, on request,
//! every exhaustive mutant) as a grid file with a case file beside it, in
//! the folder of its category (`file-errors`, `load`), written through the
//! engine's one case writer ([`conformance_engine::writer`]); its expected
//! outcome is computed by running the whole reference program in-process
//! on the written file. The suite's `suite.yaml` goes at the top, so the
//! folder runs on its own (`boxes-harness --cases DIR`), and
//! `manifest.yaml` indexes the folder.

use boxes_reference::ExitTable;
use std::ffi::OsString;
use std::fs;
use std::io::{self, Cursor};
use std::path::{Path, PathBuf};

use boxes_reference::gridfile;
use conformance_engine::schema::AMBIGUOUS_TAG;
use conformance_engine::writer::{Draft, SidecarFile};

use crate::exhaustive::{self, TooLarge};
use crate::manifest::{
    CATEGORY_CONTROL, CATEGORY_FAULTY, Entry, Generator, Manifest, ManifestError,
};
use crate::samples::{self, Sample};
use crate::spec::Spec;

/// Generating a corpus failed.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The output folder already holds something: a corpus is never mixed
    /// with stale files.
    #[error("output folder {0} is not empty; choose a new folder or empty it")]
    NotEmpty(PathBuf),
    /// A file or folder could not be created or written.
    #[error("writing {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// `--exhaustive` on a grid too large for it.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// The manifest could not be written.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// A case file could not be written.
    #[error(transparent)]
    Case(#[from] conformance_engine::writer::WriteError),
}

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Size, players and seed.
    pub spec: Spec,
    /// Also write every single-byte mutant of the base file.
    pub exhaustive: bool,
}

/// A file to write, with everything the manifest says about it except the
/// outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// Where the file is placed in the sandbox when its case runs, and
    /// what its case is named after (`<class>/<variant>.grid`).
    pub file: String,
    /// Class name.
    pub class: String,
    /// One-line description.
    pub description: String,
    /// Rule IDs.
    pub rules: Vec<&'static str>,
    /// Ambiguous or not.
    pub ambiguous: bool,
    /// Valid or not.
    pub control: bool,
    /// The contents.
    pub bytes: Vec<u8>,
}

impl From<Sample> for Planned {
    fn from(s: Sample) -> Self {
        Self {
            file: samples::file(&s),
            class: s.class.name(),
            description: samples::description(&s),
            rules: s.class.rules(),
            ambiguous: s.class.ambiguous(),
            control: s.class.is_control(),
            bytes: s.bytes,
        }
    }
}

/// Every file of the corpus, in manifest order, not yet written.
pub fn plan(options: &Options) -> Result<Vec<Planned>, TooLarge> {
    let spec = &options.spec;
    let mut planned: Vec<Planned> = samples::build(spec)
        .into_iter()
        .map(Planned::from)
        .collect();
    if options.exhaustive {
        let base = gridfile::to_bytes(&samples::base_state(spec));
        exhaustive::check_size(spec, &base)?;
        for (edit, bytes) in exhaustive::edits(&base) {
            let verdict = exhaustive::classify(spec, &bytes);
            planned.push(Planned {
                file: edit.file(),
                class: format!("exhaustive-{}", edit.kind()),
                description: format!("{}: {}", edit.describe(&base), verdict.reason),
                rules: verdict.rules,
                ambiguous: verdict.ambiguous,
                control: verdict.control,
                bytes,
            });
        }
    }
    Ok(planned)
}

/// The expected outcome of `boxes H W P FILE` with empty stdin, from the
/// reference program run in-process (it reads `file` from disk).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Exit status.
    pub status: u8,
    /// Everything written to stdout.
    pub stdout: Vec<u8>,
    /// Everything written to stderr.
    pub stderr: Vec<u8>,
}

/// Runs the reference on `file`.
pub fn outcome(spec: &Spec, file: &Path) -> Outcome {
    let args: Vec<OsString> = spec.args(file.as_os_str());
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let exit = boxes_reference::run(&args, Cursor::new(Vec::new()), &mut stdout, &mut stderr);
    Outcome {
        status: exit.code(),
        stdout,
        stderr,
    }
}

/// Whether `stdout` holds a player symbol past `~` (DISP-2, ambiguous): a
/// grid and a prompt are otherwise printable ASCII.
pub fn shows_raw_symbols(stdout: &[u8]) -> bool {
    stdout.iter().any(|&b| b >= 0x7f)
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> GenerateError + '_ {
    move |source| GenerateError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The case's name for the file planned at `file`: `/` becomes `--`,
/// the `.grid` goes (`cell-owner-signed/row-1-col-0-plus.grid` is
/// `cell-owner-signed--row-1-col-0-plus`).
pub fn case_name(file: &str) -> String {
    file.strip_suffix(".grid")
        .unwrap_or(file)
        .replace('/', "--")
}

/// Writes the corpus into `out` (created if missing, refused if not empty)
/// and returns its manifest, also written as `out/manifest.yaml`.
pub fn generate(options: &Options, out: &Path) -> Result<Manifest, GenerateError> {
    let planned = plan(options)?;
    match fs::read_dir(out) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(GenerateError::NotEmpty(out.to_path_buf()));
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            fs::create_dir_all(out).map_err(io_error(out))?;
        }
        Err(e) => return Err(io_error(out)(e)),
    }
    let suite = out.join("suite.yaml");
    fs::write(
        &suite,
        crate::pack::SUITE.get("suite.yaml").unwrap_or_default(),
    )
    .map_err(io_error(&suite))?;
    let spec = &options.spec;
    let mut entries = Vec::with_capacity(planned.len());
    for p in planned {
        let category = if p.control {
            CATEGORY_CONTROL
        } else {
            CATEGORY_FAULTY
        };
        let folder = out.join(category);
        fs::create_dir_all(&folder).map_err(io_error(&folder))?;
        let name = case_name(&p.file);
        let grid = format!("{name}.grid");
        let path = folder.join(&grid);
        fs::write(&path, &p.bytes).map_err(io_error(&path))?;
        let o = outcome(spec, &path);
        let mut rules: Vec<String> = p.rules.into_iter().map(String::from).collect();
        // Symbols of players 63 and up (DEL and bytes above 127) are printed
        // raw under an ambiguous part of DISP-2: an outcome showing one
        // rests on it, whatever the class.
        let raw_symbols = shows_raw_symbols(&o.stdout);
        if raw_symbols && !rules.iter().any(|r| r == "DISP-2") {
            rules.push("DISP-2".into());
        }
        let entry = Entry {
            file: format!("{category}/{grid}"),
            class: p.class,
            description: p.description,
            rules,
            ambiguous: p.ambiguous || raw_symbols,
            control: p.control,
            status: o.status,
            stdout: o.stdout,
            stderr: o.stderr,
        };
        case(options, &entry, &name, &p.file).write(&folder)?;
        entries.push(entry);
    }
    let manifest = Manifest {
        generator: Generator::this(),
        height: spec.height,
        width: spec.width,
        players: spec.players,
        seed: spec.seed,
        entries,
    };
    manifest.write(out)?;
    Ok(manifest)
}

/// The case of `entry`: `boxes H W P FILE` with empty stdin, the grid file
/// (the sidecar `<name>.grid`) placed in the sandbox at `placed`.
fn case(options: &Options, entry: &Entry, name: &str, placed: &str) -> Draft {
    let spec = &options.spec;
    let mut case = Draft::new(
        name,
        "Written by boxes-corpus; expected outcome from the reference.",
    );
    case.text("summary", &entry.description);
    case.text("category", entry.category());
    case.list("rules", &entry.rules);
    let mut tags = vec!["corpus".to_owned(), format!("class:{}", entry.class)];
    if entry.ambiguous {
        tags.push(AMBIGUOUS_TAG.to_owned());
    }
    case.list("tags", &tags);
    let what = if entry.control {
        "A valid grid file loads: the grid, then the next player's prompt (or the winners \
         of a closed grid)."
    } else {
        "A grid file that breaks a FILE rule is `Error reading grid contents` on stderr, \
         status 5, nothing on stdout."
    };
    // The expectation comes from the reference: a corpus is written again,
    // not edited by hand.
    case.text(
        "hint",
        &format!(
            "{what} To regenerate the corpus (its expectations come from the reference): \
             boxes-corpus generate --height {} --width {} --players {} --seed {}{} --out DIR",
            spec.height,
            spec.width,
            spec.players,
            spec.seed,
            if options.exhaustive {
                " --exhaustive"
            } else {
                ""
            }
        ),
    );
    case.list(
        "args",
        &[
            spec.height.to_string(),
            spec.width.to_string(),
            spec.players.to_string(),
            placed.to_owned(),
        ],
    );
    case.file_sidecars(
        "files",
        &[SidecarFile {
            path: placed,
            sidecar: &format!("{name}.grid"),
        }],
    );
    case.reference_in_process();
    case.number("status", entry.status);
    case.stream("stdout", &entry.stdout);
    case.stream("stderr", &entry.stderr);
    case
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_non_empty_folder_and_creates_a_missing_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        fs::write(dir.path().join("x"), "x").expect("write");
        let options = Options {
            spec: Spec::new(2, 2, 2, 0).expect("spec"),
            exhaustive: false,
        };
        let e = generate(&options, dir.path()).expect_err("not empty");
        assert!(matches!(e, GenerateError::NotEmpty(_)), "{e}");
        let fresh = dir.path().join("a").join("b");
        let m = generate(&options, &fresh).expect("generates");
        assert!(fresh.join("manifest.yaml").is_file());
        assert!(fresh.join("suite.yaml").is_file());
        for e in &m.entries {
            assert!(e.path_in(&fresh).is_file(), "{}", e.file);
            let case = e.path_in(&fresh).with_extension("yaml");
            assert!(case.is_file(), "{}", case.display());
        }
    }

    #[test]
    fn exhaustive_refuses_large_grids() {
        let options = Options {
            spec: Spec::new(12, 12, 2, 0).expect("spec"),
            exhaustive: true,
        };
        assert!(plan(&options).is_err());
    }

    #[test]
    fn case_names_flatten_the_planned_path() {
        assert_eq!(
            case_name("cell-owner-signed/row-1-col-0-plus.grid"),
            "cell-owner-signed--row-1-col-0-plus"
        );
        assert_eq!(
            case_name("exhaustive/deletion/0004.grid"),
            "exhaustive--deletion--0004"
        );
    }
}
