//! The course's environment declared once in `pack.yaml`
//! (docs/folder-packs.md, `environment:`): a Python class whose model
//! imports a package installed from the pack's own wheelhouse (no
//! network; the wheel is made here, a zip written by Python's standard
//! library), marked with the student who imports it at the same mark as
//! the one who writes it out, and nothing of the marker's folders in a
//! student's file; a requirement that cannot be installed stops `mark`
//! before the first submission, naming it; a C class whose build line
//! names the course's static library by `{env}/lib`.

#![expect(
    clippy::expect_used,
    reason = "a failing set-up step in a test helper is that test's failure"
)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

use crate::files::{bless, text, write};

fn harness(cache: &Path) -> Command {
    let mut cmd = Command::cargo_bin("boxes-harness").expect("the harness binary");
    cmd.env("NO_COLOR", "1")
        .env("CONFORMANCE_CACHE", cache)
        .env_remove("CONFORMANCE_REFERENCE")
        .env_remove("CONFORMANCE_CONTAINMENT")
        .env_remove("GITHUB_ACTIONS");
    cmd
}

/// Writes `boxed-1.0-py3-none-any.whl` into `dir`: a pure-Python
/// package `boxed` whose `box(s)` returns `[s]`, its RECORD hashed as a
/// wheel's is.
fn wheel(dir: &Path) {
    std::fs::create_dir_all(dir).expect("wheelhouse");
    let script = r#"
import base64, hashlib, sys, zipfile
files = {
    "boxed/__init__.py": "def box(s):\n    return '[' + s + ']'\n",
    "boxed-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: boxed\nVersion: 1.0\n",
    "boxed-1.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}
record = []
for name, body in files.items():
    digest = base64.urlsafe_b64encode(hashlib.sha256(body.encode()).digest()).rstrip(b"=").decode()
    record.append(f"{name},sha256={digest},{len(body.encode())}")
record.append("boxed-1.0.dist-info/RECORD,,")
files["boxed-1.0.dist-info/RECORD"] = "\n".join(record) + "\n"
with zipfile.ZipFile(sys.argv[1] + "/boxed-1.0-py3-none-any.whl", "w") as z:
    for name, body in files.items():
        z.writestr(name, body)
"#;
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(dir)
        .output()
        .expect("python3");
    assert!(out.status.success(), "{}", text(&out));
}

const MODEL: &str = "import boxed\nprint(boxed.box(input()))\n";
/// Imports the course's package, as the model does.
const ALICE: &str = MODEL;
/// Writes it out by hand: the same bytes.
const BOB: &str = "print('[' + input() + ']')\n";
/// Forgets the closing bracket.
const CAROL: &str = "import boxed\nprint(boxed.box(input())[:-1])\n";

/// The `boxed` pack in `dir/boxed`, its requirement from its wheelhouse,
/// blessed from its model.
fn python_pack(dir: &Path, requirements: &str) -> PathBuf {
    let pack = dir.join("boxed");
    write(
        &pack.join("pack.yaml"),
        "name: boxed\nmodel:\n  dir: model\n  command: python3 main.py\nsubmissions:\n  \
         program: main.py\n  run: \"python3 {program}\"\nenvironment:\n  python:\n    \
         requirements: requirements.txt\n    wheelhouse: wheels/\n",
    );
    write(&pack.join("requirements.txt"), requirements);
    wheel(&pack.join("wheels"));
    write(&pack.join("model/main.py"), MODEL);
    write(
        &pack.join("suite.yaml"),
        "name: boxed\nversion: \"1\"\nspec: rulings.md\ncategories:\n  - {name: basics, \
         marks: 4}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - {id: BOX-1, summary: \"the line in brackets\", ambiguous: no}\n",
    );
    write(&pack.join("rulings.md"), "# boxed\n\n- **BOX-1** Box it.\n");
    for (name, stdin) in [("word", "cat"), ("two", "a b")] {
        write(
            &pack.join(format!("basics/{name}.yaml")),
            &format!("summary: {name}\ncategory: basics\nstdin: \"{stdin}\\n\"\nrules: [BOX-1]\n"),
        );
    }
    pack
}

#[test]
fn a_python_class_marks_with_its_requirement_from_a_wheelhouse() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = dir.path().join("cache");
    let pack = python_pack(dir.path(), "boxed==1.0\n");
    bless(harness(&cache), &pack);
    let expected = std::fs::read_to_string(pack.join("basics/word.yaml")).expect("case");
    assert!(expected.contains("[cat]"), "{expected}");

    for (who, source) in [("alice", ALICE), ("bob", BOB), ("carol", CAROL)] {
        write(
            &dir.path().join("submissions").join(who).join("main.py"),
            source,
        );
    }
    let marks = dir.path().join("marks");
    let out = harness(&cache)
        .env("TMPDIR", dir.path())
        .args(["mark", "--spec"])
        .arg(&pack)
        .arg(dir.path().join("submissions"))
        .arg("--out")
        .arg(&marks)
        .output()
        .expect("mark");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let csv = std::fs::read_to_string(marks.join("marks.csv")).expect("marks.csv");
    let row = |who: &str| {
        csv.lines()
            .find(|l| l.starts_with(&format!("{who},")))
            .unwrap_or_default()
            .to_owned()
    };
    // The student who imports the package is marked as the one who does
    // without it.
    // (`id, name, email, sid, build, warnings, basics, total, …`)
    assert!(row("alice").contains(",ok,0,4,4,"), "{csv}");
    assert!(row("bob").contains(",ok,0,4,4,"), "{csv}");
    assert!(row("carol").contains(",ok,0,0,0,"), "{csv}");

    let marker = [
        dir.path().display().to_string(),
        "conformance-case-".to_owned(),
    ];
    for who in ["alice", "bob", "carol"] {
        let folder = marks.join("submissions").join(who);
        for file in ["report.txt", "results.json", "gradescope.json"] {
            let body = std::fs::read_to_string(folder.join(file)).expect("a student's file");
            for path in &marker {
                assert!(
                    !body.contains(path.as_str()),
                    "{who}/{file} names {path}:\n{body}"
                );
            }
        }
    }
    let carol = std::fs::read_to_string(marks.join("submissions/carol/report.txt")).expect("read");
    // The header names the environment and the real interpreter; the
    // reproduce line sets the package's folder as the student has it.
    assert!(carol.contains("environment: COURSE_ENV"), "{carol}");
    assert!(
        carol.contains("requirements.txt installed from wheels/"),
        "{carol}"
    );
    assert!(
        carol.contains("PYTHONPATH=\"$COURSE_ENV\"/python"),
        "{carol}"
    );
    assert!(carol.contains("python3 \"$p\"/main.py"), "{carol}");
    assert!(
        carol.contains("pip install --target \"$COURSE_ENV\"/python -r"),
        "{carol}"
    );
    // Installed once, for every harness of the class.
    let installed = std::fs::read_dir(cache.join("python"))
        .expect("the cache")
        .count();
    assert_eq!(installed, 1);

    // `run` with `--bin` in the student's folder uses it too.
    let run = harness(&cache)
        .current_dir(dir.path().join("submissions/alice"))
        .args(["--score", "--spec"])
        .arg(&pack)
        .args(["--bin", "python3 main.py"])
        .output()
        .expect("run");
    assert_eq!(run.status.code(), Some(0), "{}", text(&run));
    assert!(
        text(&run).contains("interpreter /usr/bin/python3"),
        "{}",
        text(&run)
    );
}

#[test]
fn a_requirement_that_cannot_be_installed_stops_before_the_first_submission() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = python_pack(dir.path(), "boxed==1.0\nnosuchpackage==2.0\n");
    write(&dir.path().join("submissions/alice/main.py"), ALICE);
    let out = harness(&dir.path().join("cache"))
        .args(["mark", "--spec"])
        .arg(&pack)
        .arg(dir.path().join("submissions"))
        .arg("--out")
        .arg(dir.path().join("marks"))
        .output()
        .expect("mark");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("nosuchpackage"), "{said}");
    assert!(said.contains("no submission was run"), "{said}");
    assert!(!dir.path().join("marks/marks.csv").exists());
}

/// A C class with the course's own library: `lib/cipher.h` and
/// `lib/libcipher.a`, built here with `cc` and `ar`.
#[test]
fn a_c_class_builds_with_its_library_named_by_env() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = dir.path().join("rot");
    let lib = pack.join("lib");
    write(&lib.join("cipher.h"), "int rot(int c, int k);\n");
    write(
        &lib.join("cipher.c"),
        "int rot(int c, int k) {\n  if (c >= 'a' && c <= 'z') return 'a' + (c - 'a' + k) % 26;\n  \
         return c;\n}\n",
    );
    let sh = |line: &str| {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(line)
            .current_dir(&lib)
            .output()
            .expect("sh");
        assert!(out.status.success(), "{line}: {}", text(&out));
    };
    sh("cc -c cipher.c -o cipher.o && ar rcs libcipher.a cipher.o && rm cipher.o cipher.c");
    let source = "#include <stdio.h>\n#include \"cipher.h\"\nint main(void) {\n  int c;\n  while \
                  ((c = getchar()) != EOF) putchar(rot(c, 13));\n  return 0;\n}\n";
    write(&pack.join("model/rot.c"), source);
    let build = "cc -I{env}/lib -o rot rot.c -L{env}/lib -lcipher";
    write(
        &pack.join("pack.yaml"),
        &format!(
            "name: rot\nmodel:\n  dir: model\n  build: {build}\n  command: ./rot\nsubmissions:\n  \
             program: rot\n  build: {build}\nenvironment:\n  read: [lib/]\n"
        ),
    );
    write(
        &pack.join("suite.yaml"),
        "name: rot\nversion: \"1\"\nspec: rulings.md\ncategories:\n  - {name: basics, marks: \
         2}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - {id: ROT-1, summary: \"rot13\", ambiguous: no}\n",
    );
    write(&pack.join("rulings.md"), "# rot\n\n- **ROT-1** Rotate.\n");
    write(
        &pack.join("basics/hello.yaml"),
        "summary: hello\ncategory: basics\nstdin: \"hello\\n\"\nrules: [ROT-1]\n",
    );
    let cache = dir.path().join("cache");
    bless(harness(&cache), &pack);
    let case = std::fs::read_to_string(pack.join("basics/hello.yaml")).expect("case");
    assert!(case.contains("uryyb"), "{case}");
    let yaml = std::fs::read_to_string(pack.join("pack.yaml")).expect("pack.yaml");
    assert!(!yaml.contains(&dir.path().display().to_string()), "{yaml}");

    // A student who rotates by 1 instead: built with the same library.
    let wrong = source.replace("rot(c, 13)", "rot(c, 1)");
    write(&dir.path().join("submissions/zed/rot.c"), &wrong);
    write(&dir.path().join("submissions/amy/rot.c"), source);
    let marks = dir.path().join("marks");
    let out = harness(&cache)
        .env("TMPDIR", dir.path())
        .args(["mark", "--spec"])
        .arg(&pack)
        .arg(dir.path().join("submissions"))
        .arg("--out")
        .arg(&marks)
        .output()
        .expect("mark");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let csv = std::fs::read_to_string(marks.join("marks.csv")).expect("marks.csv");
    assert!(
        csv.lines()
            .any(|l| l.starts_with("amy,") && l.contains(",ok,0,2,2,")),
        "{csv}"
    );
    assert!(
        csv.lines()
            .any(|l| l.starts_with("zed,") && l.contains(",ok,0,0,0,")),
        "{csv}"
    );
    for file in ["report.txt", "build.log"] {
        let path = marks.join("submissions/zed").join(file);
        if let Ok(body) = std::fs::read_to_string(&path) {
            assert!(
                !body.contains(&dir.path().display().to_string()),
                "{file}:\n{body}"
            );
        }
    }
}

/// A Java class with the course's jar: `{classpath}` in the run line
/// (`java -cp .:{classpath} Main`), since `-cp` overrides `CLASSPATH`.
#[test]
fn a_java_class_runs_with_the_courses_jar_on_its_class_path() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pack = dir.path().join("greet");
    let src = dir.path().join("jar-src");
    write(
        &src.join("course/Greet.java"),
        "package course;\npublic class Greet {\n  public static String hi(String s) { return \
         \"hi \" + s; }\n}\n",
    );
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("javac course/Greet.java && jar cf greet.jar course/Greet.class")
        .current_dir(&src)
        .output()
        .expect("javac");
    assert!(out.status.success(), "{}", text(&out));
    std::fs::create_dir_all(pack.join("lib")).expect("lib");
    std::fs::copy(src.join("greet.jar"), pack.join("lib/greet.jar")).expect("copy");
    let main = "import java.util.Scanner;\npublic class Main {\n  public static void \
                main(String[] a) {\n    Scanner in = new Scanner(System.in);\n    \
                System.out.println(course.Greet.hi(in.nextLine()));\n  }\n}\n";
    write(&pack.join("model/Main.java"), main);
    write(
        &pack.join("pack.yaml"),
        "name: greet\nmodel:\n  dir: model\n  build: javac -cp {classpath} Main.java\n  \
         command: java -cp .:{classpath} Main\nsubmissions:\n  program: Main.class\n  build: \
         javac -cp {classpath} Main.java\n  run: \"java -cp .:{classpath} Main\"\nenvironment:\n  \
         java: {classpath: [\"lib/*.jar\"]}\ntimeout: 20s\n",
    );
    write(
        &pack.join("suite.yaml"),
        "name: greet\nversion: \"1\"\nspec: rulings.md\ncategories:\n  - {name: basics, marks: \
         1}\n",
    );
    write(
        &pack.join("rules.yaml"),
        "rules:\n  - {id: HI-1, summary: \"hi\", ambiguous: no}\n",
    );
    write(&pack.join("rulings.md"), "# greet\n\n- **HI-1** Greet.\n");
    write(
        &pack.join("basics/bob.yaml"),
        "summary: bob\ncategory: basics\nstdin: \"bob\\n\"\nrules: [HI-1]\n",
    );
    let cache = dir.path().join("cache");
    bless(harness(&cache), &pack);
    let case = std::fs::read_to_string(pack.join("basics/bob.yaml")).expect("case");
    assert!(case.contains("hi bob"), "{case}");
    write(&dir.path().join("submissions/kim/Main.java"), main);
    let marks = dir.path().join("marks");
    let out = harness(&cache)
        .env("TMPDIR", dir.path())
        .args(["mark", "--spec"])
        .arg(&pack)
        .arg(dir.path().join("submissions"))
        .arg("--out")
        .arg(&marks)
        .output()
        .expect("mark");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let csv = std::fs::read_to_string(marks.join("marks.csv")).expect("marks.csv");
    assert!(
        csv.lines()
            .any(|l| l.starts_with("kim,") && l.contains(",ok,0,1,1,")),
        "{csv}"
    );
}
