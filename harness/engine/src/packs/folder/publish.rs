//! `publish`: the student's copy of a folder pack. Every file of the
//! pack's folder is copied (the rulings, `pack.yaml`, `suite.yaml`,
//! `rules.yaml`, `explore.yaml`, span helpers, checkers, the public
//! cases and their sidecars) but the secret cases (`visibility:
//! secret`, their own or their category's), the sidecars only secret
//! cases name, and the model (its `model.dir`, or with the default
//! `model.dir: .` what its command line names: a file at the top of the
//! pack, or the whole top folder holding a named file). A case file that
//! does not parse is an error: whether it is secret cannot be told.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::exec::run::clean;
use crate::model::schema::{self, Case, Suite, Visibility};

use super::pack_file;

/// The file `publish` writes at the top of the student's copy: it says
/// what the copy is, and a pack holding it loads without its model (a
/// run with `--bin` needs none; `bless` and `diff` say it is missing).
pub const NOTE_FILE: &str = "STUDENT-COPY.md";

/// Whether a pack's model files must be there when it loads: with no
/// build line, unless the pack is the students' copy (no model, on
/// purpose).
pub fn model_expected(dir: &Path, no_build: bool) -> bool {
    no_build && !dir.join(NOTE_FILE).is_file()
}

/// What the note says, for the harness named `program`.
fn note_text(program: &str) -> String {
    format!(
        "# The students' copy of this pack\n\nWritten by `{program} publish`: the rulings, the \
         rules and the public cases. The secret cases and the model solution are not here. \
         Check your program on the public cases with\n\n    {program} --spec . --bin ./PROGRAM\n"
    )
}

/// Refuses an `out` that holds anything: the student's copy goes into a
/// new folder (or an empty one), never over another.
pub fn fresh_out(out: &Path) -> Result<(), String> {
    if out.exists()
        && std::fs::read_dir(out)
            .map_err(|e| format!("{}: {e}", out.display()))?
            .next()
            .is_some()
    {
        return Err(format!(
            "publish: {} is not empty: the student's copy goes into a new folder",
            out.display()
        ));
    }
    Ok(())
}

/// Copies the pack's file `from` to `to` in the student's copy, making
/// its folders.
pub fn copy_into(from: &Path, to: &Path) -> Result<(), String> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot make {}: {e}", parent.display()))?;
    }
    std::fs::copy(from, to).map_err(|e| format!("cannot write {}: {e}", to.display()))?;
    Ok(())
}

/// Writes the student's copy's [`NOTE_FILE`] (`text`) in `out`.
pub fn write_note(out: &Path, text: &str) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot make {}: {e}", out.display()))?;
    let note = out.join(NOTE_FILE);
    std::fs::write(&note, text).map_err(|e| format!("cannot write {}: {e}", note.display()))
}

/// What `publish` wrote.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Published {
    /// Files copied.
    pub copied: usize,
    /// Public cases among them.
    pub public_cases: usize,
    /// Secret cases left out.
    pub secret_cases: usize,
    /// The model's files left out (relative to the pack).
    pub model_files: usize,
}

/// Writes the student's copy of the folder pack in `pack` into `out`
/// (a folder that does not exist yet, or an empty one).
pub fn publish(program: &str, pack: &Path, out: &Path) -> Result<Published, String> {
    let dir = clean(&std::path::absolute(pack).map_err(|e| format!("{}: {e}", pack.display()))?);
    let file_path = dir.join(pack_file::FILE);
    let shown = pack.join(pack_file::FILE).display().to_string();
    let bytes = std::fs::read(&file_path)
        .map_err(|e| format!("publish: a folder pack needs {shown}, which cannot be read: {e}"))?;
    let file = pack_file::parse(&shown, &bytes).map_err(|e| e.to_string())?;
    let suite_dir = clean(&dir.join(file.suite.as_deref().unwrap_or(".")));
    if !suite_dir.starts_with(&dir) {
        return Err(format!(
            "{shown}: suite: {} lies outside the pack: publish copies the pack's folder (copy \
             the suite into the pack)",
            suite_dir.display()
        ));
    }
    fresh_out(out)?;
    let model = model_files(&dir, &suite_dir, &file.model);
    let suite_file = suite_dir.join("suite.yaml");
    let suite: Suite = schema::parse(
        &suite_file.display().to_string(),
        &std::fs::read(&suite_file).map_err(|e| format!("{}: {e}", suite_file.display()))?,
    )
    .map_err(|e| e.to_string())?;
    let mut done = Published {
        model_files: model.len(),
        ..Published::default()
    };
    let mut secret: BTreeSet<PathBuf> = BTreeSet::new();
    let mut public: BTreeSet<PathBuf> = BTreeSet::new();
    for case_file in case_files(&suite_dir, &model) {
        let text =
            std::fs::read(&case_file).map_err(|e| format!("{}: {e}", case_file.display()))?;
        let case: Case = schema::parse(&case_file.display().to_string(), &text).map_err(|e| {
            format!("publish: {e} (a case that does not parse may be secret: fix it first)")
        })?;
        let category = suite.categories.iter().find(|c| c.name == case.category);
        let folder = case_file.parent().unwrap_or(&suite_dir);
        let named = sidecars(&case).map(|s| clean(&folder.join(s)));
        if Visibility::of_case(case.visibility, category) == Visibility::Secret {
            done.secret_cases += 1;
            secret.insert(case_file.clone());
            secret.extend(named);
        } else {
            done.public_cases += 1;
            public.extend(named);
        }
    }
    // A sidecar a public case names is public, whoever else names it.
    let left_out: BTreeSet<&PathBuf> = secret.difference(&public).collect();
    for entry in walkdir::WalkDir::new(&dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.file_name() != ".git" && !model.contains(e.path()))
    {
        let entry = entry.map_err(|e| format!("publish: {e}"))?;
        let path = entry.path();
        if !entry.file_type().is_file() || left_out.contains(&path.to_owned()) {
            continue;
        }
        copy_into(path, &out.join(path.strip_prefix(&dir).unwrap_or(path)))?;
        done.copied += 1;
    }
    write_note(out, &note_text(program))?;
    Ok(done)
}

/// The model's files: its folder when it has one of its own, else what
/// of the pack's folder its command line names: a file at the top of the
/// pack, or the whole top folder holding a named file (`python3
/// model/solve.py` leaves out `model/` with the helpers the model
/// imports), unless that folder holds the suite.
fn model_files(dir: &Path, suite_dir: &Path, model: &pack_file::Model) -> BTreeSet<PathBuf> {
    let model_dir = clean(&dir.join(model.dir.as_deref().unwrap_or(".")));
    if model_dir != dir {
        return [model_dir].into();
    }
    model
        .command
        .split_whitespace()
        .chain(model.build.iter().flat_map(|b| b.split_whitespace()))
        .map(|w| w.trim_matches(|c| c == '"' || c == '\''))
        .filter(|w| !w.is_empty() && *w != "." && !w.starts_with('-'))
        .map(|w| clean(&dir.join(w)))
        .filter(|p| p.is_file() && p.starts_with(dir))
        .map(|p| {
            let top = p
                .strip_prefix(dir)
                .ok()
                .and_then(|rel| rel.components().next())
                .map(|c| dir.join(c));
            match top {
                Some(top) if top != p && !suite_dir.starts_with(&top) => top,
                _ => p,
            }
        })
        .collect()
}

/// Every case file of the suite: a `.yaml` file in a folder below it
/// (the suite's own files lie at its top), outside the model.
fn case_files(suite_dir: &Path, model: &BTreeSet<PathBuf>) -> Vec<PathBuf> {
    walkdir::WalkDir::new(suite_dir)
        .min_depth(2)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.file_name() != ".git" && !model.contains(e.path()))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect()
}

/// The sidecar files a case names, relative to its folder.
fn sidecars(case: &Case) -> impl Iterator<Item = &str> {
    let files = case
        .files
        .iter()
        .chain(&case.output_files)
        .filter_map(|f| f.file.as_deref());
    case.stdin_file
        .as_deref()
        .into_iter()
        .chain(case.stdout_file.as_deref())
        .chain(case.stderr_file.as_deref())
        // A kept trace names the model's rulings with the case's values.
        .chain(
            case.trace
                .as_deref()
                .filter(|t| *t != crate::judge::provenance::NO_TRACE),
        )
        .chain(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn the_students_copy_has_no_secret_case_and_no_model() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("pack");
        write(
            &p.join("pack.yaml"),
            "name: toy\nmodel:\n  command: sh model.sh\n",
        );
        write(&p.join("model.sh"), "echo answer\n");
        write(&p.join("toy-rulings.md"), "T-1: say it\n");
        write(&p.join("conformance_span.py"), "# helper\n");
        write(
            &p.join("suite.yaml"),
            "name: toy\ncategories:\n  - {name: a, marks: 1}\n  - {name: s, marks: 1, \
             visibility: secret}\n",
        );
        write(&p.join("rules.yaml"), "rules: []\n");
        let case = |cat: &str, extra: &str, sidecar: &str| {
            format!(
                "summary: x\ncategory: {cat}\nrules: [T-1]\nstatus: 0\n{extra}files:\n  - {{path: \
                 in.txt, file: {sidecar}}}\n"
            )
        };
        write(&p.join("a/open.yaml"), &case("a", "", "open.txt"));
        write(&p.join("a/open.txt"), "public bytes\n");
        write(
            &p.join("a/own.yaml"),
            &case("a", "visibility: secret\n", "own.txt"),
        );
        write(&p.join("a/own.txt"), "secret bytes\n");
        write(&p.join("s/big.yaml"), &case("s", "", "../a/open.txt"));
        write(&p.join("s/huge.yaml"), &case("s", "", "huge.txt"));
        write(&p.join("s/huge.txt"), "secret bytes\n");
        let out = tmp.path().join("student");
        let done = publish("harness", &p, &out).unwrap();
        assert_eq!(
            done,
            Published {
                copied: 7,
                public_cases: 1,
                secret_cases: 3,
                model_files: 1,
            }
        );
        for kept in [
            "pack.yaml",
            "toy-rulings.md",
            "conformance_span.py",
            "suite.yaml",
            "rules.yaml",
            "a/open.yaml",
            "a/open.txt",
            NOTE_FILE,
        ] {
            assert!(out.join(kept).is_file(), "{kept}");
        }
        for gone in ["model.sh", "a/own.yaml", "a/own.txt", "s"] {
            assert!(!out.join(gone).exists(), "{gone}");
        }
        // Never over a folder holding something.
        assert!(
            publish("harness", &p, &out)
                .unwrap_err()
                .contains("is not empty")
        );
        // A case that cannot be read may be secret: refused.
        write(&p.join("s/broken.yaml"), "summary: [\n");
        let again = tmp.path().join("again");
        assert!(
            publish("harness", &p, &again)
                .unwrap_err()
                .contains("may be secret")
        );
    }

    #[test]
    fn a_model_named_in_a_folder_leaves_out_the_whole_folder_but_never_the_suite() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("pack");
        write(
            &p.join("pack.yaml"),
            "name: toy\nmodel:\n  command: python3 model/toy.py\n",
        );
        write(&p.join("model/toy.py"), "import logic\n");
        write(&p.join("model/logic.py"), "ANSWER = 42\n");
        write(&p.join("suite.yaml"), "name: toy\ncategories: []\n");
        let model = pack_file::Model {
            dir: None,
            build: None,
            command: "python3 model/toy.py".to_owned(),
        };
        assert_eq!(
            model_files(&p, &p, &model),
            [p.join("model")].into_iter().collect()
        );
        // A suite inside the model's folder keeps the folder: the file only.
        assert_eq!(
            model_files(&p, &p.join("model/cases"), &model),
            [p.join("model/toy.py")].into_iter().collect()
        );
        let out = tmp.path().join("student");
        let done = publish("harness", &p, &out).unwrap();
        assert_eq!(done.model_files, 1);
        assert!(!out.join("model").exists());
        assert!(out.join("pack.yaml").is_file());
    }
}
