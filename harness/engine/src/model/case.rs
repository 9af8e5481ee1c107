//! From a case file to something runnable: parsing it, resolving every
//! inline / sidecar / base64 value, checking it against its suite, and
//! building the [`Invocation`] and [`Expectation`] it describes.
//!
//! One piece: from a case file to its `Invocation` and `Expectation`:
//! every value is resolved the same way (inline, sidecar, base64) with
//! one `CaseError` naming its key, and both halves read the same parsed
//! case.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use crate::exec::run::{
    DEFAULT_OUTPUT_CAP, DEFAULT_TIMEOUT, Ending, Invocation, Keep, Limits, Target,
};
use crate::model::matching::Matching;
use crate::model::schema::{self, Case, FileSpec, ParseError, Suite};
use crate::model::suite::CaseFile;

/// What a run must do.
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    /// How it must end (a case always expects an exit status).
    pub ending: Ending,
    /// Exact stdout.
    pub stdout: Vec<u8>,
    /// Exact stderr.
    pub stderr: Vec<u8>,
    /// Files that must exist afterwards with exactly these bytes.
    pub output_files: BTreeMap<String, Vec<u8>>,
    /// Files that must not exist afterwards.
    pub absent_files: Vec<String>,
    /// Any exit status will do ([`crate::model::schema::Suite::status_ambiguous`]):
    /// only how the program ended otherwise (a signal, a timeout, the cap)
    /// can differ.
    pub any_status: bool,
    /// How each part is judged where the bytes differ (`match:`; exact
    /// unless declared).
    pub matching: crate::model::matching::Matching,
    /// Stdout is not compared exactly (a tolerance frees its text): how
    /// many stdin lines the program reads before it ends is compared with
    /// [`Self::reads`] instead, so a program that prompts once where the
    /// model prompts twice (it accepted a line the model refused) fails
    /// whatever its wording. Stdin is then fed a line at a time as the
    /// program reads it ([`crate::exec::run::Invocation::count_reads`]).
    pub count_reads: bool,
    /// How many stdin lines the model reads on this case, measured on the
    /// reference when [`Self::count_reads`] asks for it; `None` until
    /// then, or when the reference could not say (nothing is compared).
    pub reads: Option<usize>,
    /// What the model does under the other readings of an ambiguous rule
    /// the case cites (`readings:`, blessed): the case passes when the
    /// program matches the main expectation or one of these.
    pub alternatives: Vec<Alternative>,
}

/// One other reading's expectation: its exit status and streams in place
/// of the main expectation's (the rest as the case says).
#[derive(Debug, Clone, PartialEq)]
pub struct Alternative {
    /// The reading's name (`lenient`).
    pub reading: String,
    /// The cited rules naming this reading (filled from `rules.yaml` when
    /// the case is prepared).
    pub rules: Vec<String>,
    /// How it ends.
    pub ending: Ending,
    /// Its stdout.
    pub stdout: Vec<u8>,
    /// Its stderr.
    pub stderr: Vec<u8>,
}

impl Expectation {
    /// A run that ends as `ending` printing exactly `stdout` and nothing
    /// else: no stderr, no files, every part byte-exact, no reads counted
    /// and no other reading.
    #[must_use]
    pub fn exactly(ending: Ending, stdout: Vec<u8>) -> Self {
        Self {
            ending,
            stdout,
            stderr: Vec::new(),
            output_files: BTreeMap::new(),
            absent_files: Vec::new(),
            any_status: false,
            matching: Matching::default(),
            count_reads: false,
            reads: None,
            alternatives: Vec::new(),
        }
    }

    /// The expectation under `alternative`: its status and streams, the
    /// rest (files, tolerances, reads) as the case says.
    #[must_use]
    pub fn under(&self, alternative: &Alternative) -> Self {
        Self {
            ending: alternative.ending.clone(),
            stdout: alternative.stdout.clone(),
            stderr: alternative.stderr.clone(),
            // Reads were counted on the main reading only.
            count_reads: false,
            reads: None,
            alternatives: Vec::new(),
            ..self.clone()
        }
    }
}

/// A case file that cannot be run as written.
#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    /// The YAML does not parse as a case.
    #[error("{0}")]
    Parse(#[from] ParseError),
    /// The case file cannot be read.
    #[error("{file}: cannot read: {source}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// Two keys give the same value.
    #[error("{file}: keys {keys} both given; keep one")]
    Conflict {
        /// The file.
        file: String,
        /// The keys.
        keys: String,
    },
    /// A sidecar cannot be read.
    #[error("{file}: `{key}: {path}`: cannot read the sidecar: {source}")]
    Sidecar {
        /// The file.
        file: String,
        /// The key.
        key: String,
        /// The sidecar.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A base64 value does not decode.
    #[error("{file}: `{key}` is not valid base64: {message}")]
    Base64 {
        /// The file.
        file: String,
        /// The key.
        key: String,
        /// Why.
        message: String,
    },
    /// A file entry has no or several sources.
    #[error("{file}: {key} entry `{path}` needs exactly one of `text`, `file`, `base64`")]
    FileSource {
        /// The case file.
        file: String,
        /// `files` or `output-files`.
        key: &'static str,
        /// The entry's path.
        path: String,
    },
    /// No expected status.
    #[error("{file}: missing key `status` (run with --bless to fill the expected fields)")]
    MissingStatus {
        /// The file.
        file: String,
    },
    /// The category is not one of the suite's.
    #[error("{file}: category `{category}` is not in suite.yaml ({known})")]
    UnknownCategory {
        /// The file.
        file: String,
        /// The category.
        category: String,
        /// The suite's categories.
        known: String,
    },
    /// The category differs from the folder.
    #[error("{file}: category `{category}` but the case is in folder `{folder}`")]
    WrongFolder {
        /// The file.
        file: String,
        /// The category.
        category: String,
        /// The folder.
        folder: String,
    },
    /// A bad timeout.
    #[error("{file}: `timeout` must be a positive number of seconds")]
    BadTimeout {
        /// The file.
        file: String,
    },
    /// A `match:` on a part the case does not have.
    #[error("{at}: `match:` names {part}, which the case does not compare ({known})")]
    NoSuchPart {
        /// The file and line.
        at: String,
        /// The part named.
        part: String,
        /// What the case has.
        known: String,
    },
    /// An interactive case's stdin line longer than a terminal delivers.
    #[error(
        "{file}: stdin line {line} has {len} bytes, but `mode: interactive` types stdin at a \
         terminal, whose canonical mode keeps at most {max} bytes of a line (the rest is \
         dropped): shorten the line or use `mode: pipe`",
        max = crate::exec::terminal::MAX_LINE
    )]
    LineTooLongForTerminal {
        /// The file.
        file: String,
        /// The 1-based stdin line.
        line: usize,
        /// Its length without the newline.
        len: usize,
    },
}

/// The tolerances that judge `case`: its own `match:`, else its rules',
/// else the suite's (docs/matching.md). A file tolerance naming no output
/// file of the case, or a stream tolerance on a conversation, is an error
/// at its line.
pub fn matching(case: &Case, file: &CaseFile, suite: &Suite) -> Result<Matching, CaseError> {
    let outputs: Vec<String> = case
        .output_files
        .iter()
        .map(|f| crate::exec::run::normalize(&f.path))
        .collect();
    if let Some(own) = &case.matching {
        let at = |path: &[(&str, usize)]| {
            let text = file.root.read(&file.rel).unwrap_or_default();
            let text = String::from_utf8_lossy(&text);
            let line = crate::model::key_line::line_of_path(&text, path)
                .or_else(|| crate::model::key_line::line_of(&text, "match"));
            format!(
                "{}{}",
                file.display(),
                line.map(|l| format!(":{l}")).unwrap_or_default()
            )
        };
        if let Some(path) = own.files.keys().find(|p| {
            let every = p.as_str() == crate::model::matching::EVERY_FILE && !outputs.is_empty();
            !every && !outputs.contains(&crate::exec::run::normalize(p))
        }) {
            return Err(CaseError::NoSuchPart {
                at: at(&[("match", 0), ("files", 0), (path.as_str(), 0)]),
                part: format!("file `{path}`"),
                known: if outputs.is_empty() {
                    "the case lists no output-files".to_owned()
                } else {
                    format!("its output-files: {}", outputs.join(", "))
                },
            });
        }
        if case.script.is_some()
            && let Some(stream) = [
                ("stdout", &own.stdout),
                ("stderr", &own.stderr),
                ("status", &None),
            ]
            .into_iter()
            .find_map(|(n, t)| t.as_ref().map(|_| n))
            .or_else(|| own.status.as_ref().map(|_| "status"))
        {
            return Err(CaseError::NoSuchPart {
                at: at(&[("match", 0), (stream, 0)]),
                part: stream.to_owned(),
                known: "a conversation (`script`) is judged by its pack's driver".to_owned(),
            });
        }
    }
    Ok(crate::model::matching::resolve(
        case.matching.as_ref(),
        &case.rules,
        &suite.rule_matching,
        suite.matching.as_ref(),
        outputs.into_iter(),
    ))
}

/// Reads and parses a case file.
pub fn load(file: &CaseFile) -> Result<Case, CaseError> {
    let bytes = file
        .root
        .read(&file.rel)
        .map_err(|source| CaseError::Read {
            file: file.display(),
            source,
        })?;
    Ok(schema::parse(&file.display(), &bytes)?)
}

/// Checks a case's category against its suite and its folder.
pub fn check_category(case: &Case, file: &CaseFile, suite: &Suite) -> Result<(), CaseError> {
    if !suite.categories.iter().any(|c| c.name == case.category) {
        return Err(CaseError::UnknownCategory {
            file: file.display(),
            category: case.category.clone(),
            known: suite
                .categories
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    match file.folder() {
        Some(folder) if folder != case.category => Err(CaseError::WrongFolder {
            file: file.display(),
            category: case.category.clone(),
            folder: folder.to_owned(),
        }),
        _ => Ok(()),
    }
}

/// Resolves the value of one of the `KEY`, `KEY-file`, `KEY-base64` keys.
fn one_of(
    file: &CaseFile,
    key: &str,
    inline: Option<&String>,
    sidecar: Option<&String>,
    base64: Option<&String>,
) -> Result<Option<Vec<u8>>, CaseError> {
    let given: Vec<String> = [
        inline.map(|_| format!("`{key}`")),
        sidecar.map(|_| format!("`{key}-file`")),
        base64.map(|_| format!("`{key}-base64`")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if given.len() > 1 {
        return Err(CaseError::Conflict {
            file: file.display(),
            keys: given.join(" and "),
        });
    }
    if let Some(text) = inline {
        return Ok(Some(text.as_bytes().to_vec()));
    }
    if let Some(path) = sidecar {
        return read_sidecar(file, &format!("{key}-file"), path).map(Some);
    }
    if let Some(b64) = base64 {
        return decode(file, &format!("{key}-base64"), b64).map(Some);
    }
    Ok(None)
}

fn read_sidecar(file: &CaseFile, key: &str, path: &str) -> Result<Vec<u8>, CaseError> {
    file.sidecar_in_tree(path)
        .and_then(|rel| file.root.read(&rel))
        .map_err(|source| CaseError::Sidecar {
            file: format!("{}{}", file.display(), line_naming(file, path)),
            key: key.to_owned(),
            path: path.to_owned(),
            source,
        })
}

/// `:N`, the first line of the case file naming sidecar `path` (a refusal
/// points at what to fix); empty when none does.
fn line_naming(file: &CaseFile, path: &str) -> String {
    let Ok(text) = file.root.read(&file.rel) else {
        return String::new();
    };
    if path.is_empty() {
        return String::new();
    }
    text.split(|&b| b == b'\n')
        .position(|line| line.windows(path.len()).any(|w| w == path.as_bytes()))
        .map_or_else(String::new, |i| format!(":{}", i + 1))
}

fn decode(file: &CaseFile, key: &str, b64: &str) -> Result<Vec<u8>, CaseError> {
    // YAML folds long base64 over lines: whitespace is not part of it.
    let clean: String = b64.chars().filter(|c| !c.is_whitespace()).collect();
    BASE64.decode(clean).map_err(|e| CaseError::Base64 {
        file: file.display(),
        key: key.to_owned(),
        message: e.to_string(),
    })
}

pub(crate) fn file_entry(
    file: &CaseFile,
    key: &'static str,
    spec: &FileSpec,
) -> Result<(String, Vec<u8>), CaseError> {
    let bytes = match (&spec.text, &spec.file, &spec.base64) {
        (Some(t), None, None) => t.as_bytes().to_vec(),
        (None, Some(p), None) => read_sidecar(file, &format!("{key}: file"), p)?,
        (None, None, Some(b)) => decode(file, &format!("{key}: base64"), b)?,
        _ => {
            return Err(CaseError::FileSource {
                file: file.display(),
                key,
                path: spec.path.clone(),
            });
        }
    };
    Ok((spec.path.clone(), bytes))
}

/// Settings of a run that override what cases say.
#[derive(Debug, Clone, Copy, Default)]
pub struct Overrides {
    /// `--timeout`: replaces every case's own timeout.
    pub timeout: Option<Duration>,
    /// The pack's default limit for a case that sets none (a folder
    /// pack's `timeout:`); else [`DEFAULT_TIMEOUT`].
    pub default_timeout: Option<Duration>,
}

/// The case's stdin bytes.
pub fn stdin(case: &Case, file: &CaseFile) -> Result<Vec<u8>, CaseError> {
    Ok(one_of(
        file,
        "stdin",
        case.stdin.as_ref(),
        case.stdin_file.as_ref(),
        case.stdin_base64.as_ref(),
    )?
    .unwrap_or_default())
}

/// The run a case describes.
pub fn invocation(
    case: &Case,
    file: &CaseFile,
    target: &Target,
    overrides: Overrides,
) -> Result<Invocation, CaseError> {
    let timeout = match (overrides.timeout, case.timeout) {
        (Some(t), _) => t,
        (None, Some(secs)) => Duration::try_from_secs_f64(secs)
            .ok()
            .filter(|d| !d.is_zero())
            .ok_or_else(|| CaseError::BadTimeout {
                file: file.display(),
            })?,
        (None, None) => case
            .reference_ms
            .map_or(overrides.default_timeout.unwrap_or(DEFAULT_TIMEOUT), |ms| {
                crate::exec::run::limit_from_reference(Duration::from_millis(ms))
            }),
    };
    let files = case
        .files
        .iter()
        .map(|f| file_entry(file, "files", f))
        .collect::<Result<_, _>>()?;
    let stdin = stdin(case, file)?;
    if case.mode == crate::exec::run::Mode::Interactive
        && let Some((line, len)) = crate::exec::terminal::too_long_line(&stdin)
    {
        return Err(CaseError::LineTooLongForTerminal {
            file: file.display(),
            line,
            len,
        });
    }
    Ok(Invocation {
        target: target.clone(),
        args: case.args.iter().map(OsString::from).collect(),
        env: case
            .env
            .iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v)))
            .collect(),
        stdin,
        files,
        executable: Vec::new(),
        mode: case.mode,
        timeout,
        output_cap: case.output_cap.unwrap_or(DEFAULT_OUTPUT_CAP),
        limits: Limits::for_timeout(timeout),
        keep: Keep::ALL,
        prompt: crate::exec::terminal::PROMPT.to_vec(),
        count_reads: false,
        cpu_stop: None,
    })
}

/// What a case expects.
pub fn expectation(case: &Case, file: &CaseFile) -> Result<Expectation, CaseError> {
    let status = case.status.ok_or_else(|| CaseError::MissingStatus {
        file: file.display(),
    })?;
    let stdout = one_of(
        file,
        "stdout",
        case.stdout.as_ref(),
        case.stdout_file.as_ref(),
        case.stdout_base64.as_ref(),
    )?;
    let stderr = one_of(
        file,
        "stderr",
        case.stderr.as_ref(),
        case.stderr_file.as_ref(),
        case.stderr_base64.as_ref(),
    )?;
    let output_files = case
        .output_files
        .iter()
        .map(|f| {
            file_entry(file, "output-files", f).map(|(p, b)| (crate::exec::run::normalize(&p), b))
        })
        .collect::<Result<_, _>>()?;
    Ok(Expectation {
        ending: Ending::Exited(i32::from(status)),
        stdout: stdout.unwrap_or_default(),
        stderr: stderr.unwrap_or_default(),
        output_files,
        absent_files: case.absent_files.clone(),
        any_status: false,
        matching: crate::model::matching::Matching::default(),
        count_reads: false,
        reads: None,
        alternatives: case
            .readings
            .iter()
            .map(|(name, r)| {
                let stream = |k: &str, inline, b64| {
                    one_of(file, &format!("readings.{name}.{k}"), inline, None, b64)
                        .map(Option::unwrap_or_default)
                };
                Ok(Alternative {
                    reading: name.clone(),
                    rules: Vec::new(),
                    ending: Ending::Exited(i32::from(r.status.unwrap_or(status))),
                    stdout: stream("stdout", r.stdout.as_ref(), r.stdout_base64.as_ref())?,
                    stderr: stream("stderr", r.stderr.as_ref(), r.stderr_base64.as_ref())?,
                })
            })
            .collect::<Result<_, CaseError>>()?,
    })
}
