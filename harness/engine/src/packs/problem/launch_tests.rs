//! Tests of [`super`]: the line each language's submission is built by,
//! and a launcher run from another folder (`sh` only: no JVM starts).

use super::*;

fn files(list: &[(&str, &str)]) -> Files {
    Files(
        list.iter()
            .map(|(n, t)| ((*n).to_owned(), t.as_bytes().to_vec()))
            .collect(),
        std::collections::BTreeSet::new(),
    )
}

fn line(build: SubmissionBuild) -> String {
    match build {
        SubmissionBuild::Line(l) => l,
        SubmissionBuild::Lacks(what) => panic!("lacks {what}"),
    }
}

fn table_with(yaml: &str) -> (tempfile::TempDir, Table) {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("languages.yaml"), yaml).expect("write");
    let table = Table::for_package(dir.path()).expect("table");
    (dir, table)
}

#[test]
fn each_kind_of_language_is_built_to_one_program() {
    let t = Table::defaults();
    let c = line(build_for(&t, &files(&[("a.c", ""), ("b.c", "")])));
    assert!(
        c.starts_with("gcc ")
            && c.contains(" -o prog a.c b.c ")
            && c.ends_with(" && mv -f prog solution"),
        "{c}"
    );
    // An interpreted language: a launcher, the student's file untouched.
    let py = line(build_for(&t, &files(&[("util.py", ""), ("main.py", "")])));
    assert_eq!(
        py,
        "printf '%s\\n' '#!/bin/sh' 'case $0 in */*) d=${0%/*} ;; *) d=. ;; esac' \
         'exec python3 \"$d\"/main.py \"$@\"' > solution && chmod +x solution"
    );
    let none = line(build_for(&t, &files(&[("notes.txt", "")])));
    assert!(
        none.starts_with("echo 'no source file of a language this package knows")
            && none.contains("*.java")
            && none.ends_with(">&2; exit 1"),
        "{none}"
    );
    // Java: compiled by the table's line, started by a launcher on the
    // class holding main, whatever its file is called.
    let java = build_for(
        &t,
        &files(&[
            ("Util.java", "public class Util {}"),
            (
                "Solution.java",
                "class Main { public static void main(String[] a) {} }",
            ),
        ]),
    );
    if languages::on_path("javac") && languages::on_path("java") {
        let java = line(java);
        assert!(
            java.starts_with("javac -encoding UTF-8 -sourcepath . -d . Solution.java Util.java && printf '%s\\n' '#!/bin/sh' "),
            "{java}"
        );
        assert!(
            java.contains(" -cp \"$d\" Main \"$@\"' > solution && chmod +x solution"),
            "{java}"
        );
        assert!(java.contains(&format!("-Xmx{}m", t.memlim())), "{java}");
    } else {
        assert!(matches!(java, SubmissionBuild::Lacks(w) if w.starts_with("no java")));
    }
}

#[test]
fn a_missing_compiler_is_what_the_machine_lacks() {
    let (_dir, t) = table_with("kotlin:\n  compile: no-such-kotlinc-here -d {path} {files}\n");
    assert_eq!(
        build_for(&t, &files(&[("hello.kt", "fun main() {}")])),
        SubmissionBuild::Lacks("no no-such-kotlinc-here (Kotlin)".to_owned())
    );
    if !languages::on_path("kotlinc") {
        assert_eq!(
            build_for(&Table::defaults(), &files(&[("hello.kt", "fun main() {}")])),
            SubmissionBuild::Lacks("no kotlinc (Kotlin)".to_owned())
        );
    }
}

/// `sources` written to `sub/` of a fresh folder and built there by
/// `table`'s line, as `mark` builds a submission: the folder and `sub`.
fn built(table: &Table, sources: &[(&str, &str)]) -> (tempfile::TempDir, std::path::PathBuf) {
    let build = line(build_for(table, &files(sources)));
    let work = tempfile::tempdir().expect("dir");
    let sub = work.path().join("sub");
    std::fs::create_dir(&sub).expect("mkdir");
    for (name, text) in sources {
        std::fs::write(sub.join(name), text).expect("write");
    }
    let made = std::process::Command::new("sh")
        .args(["-c", &build])
        .current_dir(&sub)
        .output()
        .expect("sh");
    assert!(made.status.success(), "{build}: {made:?}");
    (work, sub)
}

#[test]
fn a_launcher_runs_what_the_build_left_from_any_folder() {
    // A language whose compile joins its files and whose run prints the
    // result: the launcher's `{path}` must be its own folder, and names
    // with spaces and quotes must stay one word.
    let (_dir, t) = table_with(
        "notes:\n  files: \"*.note\"\n  compile: cat {files} > {path}/joined\n  run: cat {path}/joined {mainfile}\n",
    );
    let (work, sub) = built(&t, &[("main.note", "one\n"), ("b c'd.note", "two\n")]);
    let ran = std::process::Command::new("sub/solution")
        .current_dir(work.path())
        .output()
        .expect("launcher");
    assert_eq!(
        String::from_utf8_lossy(&ran.stdout),
        "two\none\none\n",
        "{:?}",
        std::fs::read_to_string(sub.join("solution"))
    );
}

#[test]
fn a_scripts_traceback_names_the_students_own_file_and_line() {
    // Raised on line 3 of main.py: the cause must say `./main.py:3`, as a
    // folder pack's Python student's does, never `./solution:4`.
    let source = "import util\n\nraise ValueError(util.WHY)\n";
    let sources = [("main.py", source), ("util.py", "WHY = 'on three'\n")];
    let (work, sub) = built(&Table::defaults(), &sources);
    assert_eq!(
        std::fs::read_to_string(sub.join("main.py")).expect("main.py"),
        source
    );
    let ran = std::process::Command::new(sub.join("solution"))
        .current_dir(work.path())
        .output()
        .expect("launcher");
    let shown = crate::judge::mask::in_program_folder(&sub, &String::from_utf8_lossy(&ran.stderr));
    let raised = crate::judge::exception::parse(shown.as_bytes()).expect("a traceback");
    assert_eq!(
        raised.to_string(),
        "ValueError (`./main.py:3`): on three",
        "{shown}"
    );
}

#[test]
fn bin_names_a_source_file_or_folder_else_nothing_of_ours() {
    let dir = tempfile::tempdir().expect("dir");
    // The copy a program runs from lives as long as the command's scope.
    let models = crate::packs::folder::model::Scope::enter();
    let t = Table::defaults();
    std::fs::write(dir.path().join("prog"), "").expect("write");
    assert!(student_target(&dir.path().join("prog"), &t).is_none());
    assert!(student_target(&dir.path().join("missing.py"), &t).is_none());
    assert!(student_target(Path::new("python3 mean.py"), &t).is_none());
    std::fs::write(dir.path().join("hello.py"), "print('hi')\n").expect("write");
    let target = student_target(&dir.path().join("hello.py"), &t)
        .expect("ours")
        .expect("ready");
    // Run from a copy, never from the student's folder, and not as a model.
    assert!(!target.is_reference());
    let words: Vec<String> = target
        .words()
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    assert!(
        words.len() == 1
            && words[0].ends_with("/hello.py")
            && !words[0].starts_with(&*dir.path().to_string_lossy()),
        "{words:?}"
    );
    let copy = Path::new(&words[0]).parent().expect("a folder").to_owned();
    assert!(copy.is_dir(), "{}", copy.display());
    let (_pkg, lacking) = table_with("python3:\n  run: no-python-here {mainfile}\n");
    let e = student_target(&dir.path().join("hello.py"), &lacking)
        .expect("ours")
        .unwrap_err();
    assert!(
        e.ends_with("cannot be built here: no no-python-here (Python 3)"),
        "{e}"
    );
    drop(models);
    assert!(!copy.exists(), "left: {}", copy.display());
}
