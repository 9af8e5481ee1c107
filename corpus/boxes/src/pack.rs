//! The boxes spec pack: what the conformance engine needs to check a
//! `boxes` program. Its suite is `cases/boxes` (embedded at build time), its
//! reference is [`boxes_reference::main_with_args`], its explorer is the
//! session generator ([`crate::session`]) with the shrinker
//! ([`crate::shrink`]) and the classifier ([`crate::classify`]), and a
//! corpus folder ([`crate::manifest`]) reads as cases.

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use conformance_engine::diff::explore::{Classification, DynExplorer, Explorer, Label, Probe};
use conformance_engine::pack::{EmbeddedSuite, ForeignCases, Pack};
use conformance_engine::schema::{self, Case, FileSpec};

use crate::manifest::{self, Entry, Manifest};
use crate::session::{Options, Session};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded_suite.rs"));
}

/// The suite, as built from `cases/boxes`.
pub static SUITE: EmbeddedSuite = EmbeddedSuite {
    files: embedded::FILES,
    source_dir: concat!(env!("CARGO_MANIFEST_DIR"), "/../../cases/boxes"),
    display: "cases/boxes",
};

/// The boxes pack.
#[derive(Debug, Clone, Copy, Default)]
pub struct Boxes;

/// The boxes pack, for registration.
pub static PACK: Boxes = Boxes;

/// The boxes explorer for `diff`.
#[derive(Debug, Clone, Copy, Default)]
pub struct BoxesExplorer;

static EXPLORER: BoxesExplorer = BoxesExplorer;

impl Pack for Boxes {
    fn name(&self) -> &'static str {
        "boxes"
    }

    fn suite(&self) -> &'static EmbeddedSuite {
        &SUITE
    }

    fn rule_ids(&self) -> Vec<&'static str> {
        boxes_reference::rules::ALL.iter().map(|r| r.id()).collect()
    }

    fn reference_main(&self, args: Vec<OsString>) -> ExitCode {
        boxes_reference::main_with_args(args)
    }

    fn explorer(&self) -> Option<&dyn DynExplorer> {
        Some(&EXPLORER)
    }

    fn foreign_cases(&self, path: &Path) -> Option<Result<ForeignCases, String>> {
        let dir = if path.is_dir() && path.join(manifest::FILE_NAME).is_file() {
            path.to_owned()
        } else if path.is_file() && path.file_name() == Some(manifest::FILE_NAME.as_ref()) {
            path.parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
                .to_owned()
        } else {
            return None;
        };
        Some(corpus_cases(&dir))
    }
}

/// The cases of a corpus folder: one per manifest entry.
fn corpus_cases(dir: &Path) -> Result<ForeignCases, String> {
    let manifest = Manifest::read(dir).map_err(|e| e.to_string())?;
    let cases = manifest
        .entries
        .iter()
        .map(|entry| (entry.file.clone(), corpus_case(&manifest, entry)))
        .collect();
    Ok(ForeignCases {
        regenerate: format!(
            "cargo run --release -p boxes-corpus -- generate --height {} --width {} --players {} \
             --out {}",
            manifest.height,
            manifest.width,
            manifest.players,
            conformance_engine::report::shell_quote(&dir.display().to_string())
        ),
        regenerate_label: "regenerate the corpus (its expectations come from the reference):"
            .to_owned(),
        dir: dir.to_owned(),
        cases,
    })
}

/// The case a manifest entry describes: `boxes H W P FILE` with empty
/// stdin, the grid file placed in the sandbox at its corpus path.
fn corpus_case(manifest: &Manifest, entry: &Entry) -> Case {
    let name = entry.file.rsplit('/').next().unwrap_or(&entry.file);
    let mut tags = vec![format!("class:{}", entry.class)];
    if entry.ambiguous {
        tags.push(schema::AMBIGUOUS_TAG.to_owned());
    }
    let text_or_base64 = |bytes: &[u8]| match std::str::from_utf8(bytes) {
        Ok(s) => (Some(s.to_owned()), None),
        Err(_) => (None, Some(BASE64.encode(bytes))),
    };
    let (stdout, stdout_base64) = text_or_base64(&entry.stdout);
    let (stderr, stderr_base64) = text_or_base64(&entry.stderr);
    Case {
        summary: entry.description.clone(),
        category: entry.category().to_owned(),
        rules: entry.rules.clone(),
        tags,
        args: [
            manifest.height.to_string(),
            manifest.width.to_string(),
            manifest.players.to_string(),
            entry.file.clone(),
        ]
        .into(),
        files: vec![FileSpec {
            path: entry.file.clone(),
            file: Some(name.to_owned()),
            ..FileSpec::default()
        }],
        status: Some(entry.status),
        stdout,
        stdout_base64,
        stderr,
        stderr_base64,
        ..Case::default()
    }
}

impl Explorer for BoxesExplorer {
    type Session = Session;

    fn generate(&self, seed: u64, index: u64, ambiguous: bool) -> Session {
        Session::generate(seed, index, Options { ambiguous })
    }

    fn probe(&self, session: &Session) -> Probe {
        Probe {
            args: session.args.clone(),
            stdin: session.stdin(),
            files: session
                .files
                .iter()
                .map(|f| (f.path.clone(), f.bytes.clone()))
                .collect(),
        }
    }

    fn shrink(&self, session: &Session) -> Vec<Session> {
        crate::shrink::candidates(session)
    }

    fn classify(&self, session: &Session, status: u8) -> Classification {
        let class = crate::classify::classify(session, status);
        Classification {
            category: class.category.to_owned(),
            rules: class.rules.into_iter().map(str::to_owned).collect(),
        }
    }

    fn labels(&self, session: &Session) -> Vec<Label> {
        session
            .labels
            .iter()
            .map(|a| Label {
                name: a.name().to_owned(),
                rule: a.rule().to_owned(),
            })
            .collect()
    }
}
