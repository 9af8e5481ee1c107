//! Folder packs with build lines: `mark` builds and marks submissions
//! with the pack's line, and a model with a build line is built contained
//! and its folder removed.

use super::{bless, harness, script_pack};

#[test]
fn mark_builds_and_marks_submissions_with_the_packs_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tmp = tempfile::tempdir().expect("TMPDIR");
    let pack = script_pack(dir.path(), "echo same\n", &[("one", "args: []\n")]);
    // A model with a build line: built once by `mark`, whose checks (each
    // its own harness) run the folder it left.
    std::fs::write(
        pack.join("pack.yaml"),
        "name: toy\nmodel:\n  build: cp model.sh model && chmod +x model\n  command: sh \
         model\nsubmissions:\n  program: prog\n  build: cp prog.sh prog && chmod +x prog\n",
    )
    .expect("pack.yaml");
    bless(&["--spec".as_ref(), pack.as_os_str()]);
    for (who, says) in [("alice", "same"), ("bob", "other")] {
        let sub = dir.path().join("subs").join(who);
        std::fs::create_dir_all(&sub).expect("mkdir");
        std::fs::write(sub.join("prog.sh"), format!("#!/bin/sh\necho {says}\n")).expect("sub");
    }
    let out = harness()
        .current_dir(dir.path())
        .env("TMPDIR", tmp.path())
        .args(["mark", "--spec", "./pack", "subs", "--out", "marks"])
        .output()
        .expect("mark");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(dir.path().join("marks/marks.csv")).expect("marks.csv");
    assert!(csv.contains("\nalice,,,,ok,0,1,1,1,0,0,,,\n"), "{csv}");
    assert!(
        csv.contains("\nbob,,,,ok,0,0,0,0,1,0,stdout: `other\\n` where `same\\n` was expected,,\n"),
        "{csv}"
    );
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .expect("TMPDIR")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "mark left {left:?}");
}

#[test]
fn a_model_with_a_build_line_is_built_contained_and_its_folder_removed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tmp = tempfile::tempdir().expect("TMPDIR");
    let pack = script_pack(dir.path(), "unused\n", &[("one", "args: [x]\n")]);
    std::fs::create_dir_all(pack.join("model")).expect("mkdir");
    std::fs::write(pack.join("model/prog.in"), "echo built \"$1\"\n").expect("source");
    std::fs::write(
        pack.join("pack.yaml"),
        "name: toy\nmodel:\n  dir: model\n  build: \"(echo '#!/bin/sh'; cat prog.in) > prog\"\n  \
         command: ./prog\n",
    )
    .expect("pack.yaml");
    let run = |args: &[&str]| {
        let out = harness()
            .env("TMPDIR", tmp.path())
            .args(args)
            .arg("--spec")
            .arg(&pack)
            .output()
            .expect("run");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        // Nothing of the build, the model or its runs is left behind.
        let left: Vec<_> = std::fs::read_dir(tmp.path())
            .expect("TMPDIR")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert!(left.is_empty(), "{args:?} left {left:?}: {text}");
        (out.status.code(), text)
    };
    let (code, text) = run(&["bless"]);
    assert_eq!(code, Some(0), "{text}");
    let case = std::fs::read_to_string(pack.join("c/one.yaml")).expect("case");
    assert!(case.contains("stdout: \"built x\\n\""), "{case}");
    let junit = dir.path().join("j.xml");
    let gradescope = dir.path().join("g.json");
    let (code, text) = run(&[
        "--score",
        "--junit",
        junit.to_str().expect("UTF-8"),
        "--gradescope",
        gradescope.to_str().expect("UTF-8"),
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("estimated mark: 1.00 / 1"), "{text}");
    let junit = std::fs::read_to_string(junit).expect("JUnit");
    assert!(junit.contains("c/one"), "{junit}");
    let gradescope = std::fs::read_to_string(gradescope).expect("Gradescope");
    assert!(gradescope.contains("\"score\""), "{gradescope}");
    // A build that fails is exit 2 with its output.
    std::fs::write(
        pack.join("pack.yaml"),
        "name: toy\nmodel:\n  dir: model\n  build: echo no compiler here >&2; exit 3\n  \
         command: ./prog\n",
    )
    .expect("pack.yaml");
    let (code, text) = run(&["--score"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("no compiler here"), "{text}");
}

/// `bless` starts a Java model as a checked program starts: with the
/// class-data archive one run made, kept in the cache (a stand-in `java`
/// says on stdout how it was started, so the blessed bytes tell).
#[test]
fn bless_starts_a_java_model_from_its_class_data_archive() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tmp = tempfile::tempdir().expect("TMPDIR");
    let pack = script_pack(dir.path(), "unused\n", &[("one", "args: []\n")]);
    std::fs::write(
        pack.join("java.sh"),
        "#!/bin/sh\nfor a; do case $a in\n  -XX:ArchiveClassesAtExit=*) printf jsa > \"${a#*=}\"; \
         echo making; exit 0;;\n  -XX:SharedArchiveFile=*) echo archive; exit 0;;\nesac; done\n\
         echo plain\n",
    )
    .expect("java");
    std::fs::write(
        pack.join("pack.yaml"),
        "name: toy\nmodel:\n  build: cp java.sh java && chmod +x java\n  command: ./java -cp . \
         Main\n",
    )
    .expect("pack.yaml");
    let out = harness()
        .env("TMPDIR", tmp.path())
        .env("CONFORMANCE_CACHE", dir.path().join("cache"))
        .arg("bless")
        .arg("--spec")
        .arg(&pack)
        .output()
        .expect("bless");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let case = std::fs::read_to_string(pack.join("c/one.yaml")).expect("case");
    assert!(case.contains("stdout: \"archive\\n\""), "{case}");
    let kept = std::fs::read_dir(dir.path().join("cache/jvm"))
        .expect("the cache")
        .count();
    assert_eq!(kept, 1, "the model's archive is kept");
}
