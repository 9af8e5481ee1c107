//! Tests of [`super`]: detection by count and priority, the lines
//! filled, the heap from the memory limit, a package's overrides.

use super::*;

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn extensions_pick_the_language_and_fill_its_lines() {
    let t = Table::defaults();
    let java = t.detect(&names(&["Hello.java"])).expect("java");
    assert_eq!(java.name, "Java");
    let (compile, run) = t.lines(java, &names(&["Hello.java"]), None);
    assert_eq!(
        compile.as_deref(),
        Some("javac -encoding UTF-8 -sourcepath . -d . Hello.java")
    );
    let heap = format!("-Xmx{}m", t.memlim());
    assert!(
        run.starts_with("java -Dfile.encoding=UTF-8 -XX:+UseSerialGC -XX:ActiveProcessorCount=1 ")
            && run.ends_with(&format!("-Xss64m {heap} -cp . Hello")),
        "{run}"
    );
    // The class found holding main is the one started.
    assert!(
        t.lines(java, &names(&["Hello.java"]), Some("Main"))
            .1
            .ends_with(" Main")
    );
    let py = t.detect(&names(&["util.py", "main.py"])).expect("python");
    assert_eq!(
        t.lines(py, &names(&["util.py", "main.py"]), None).1,
        "python3 main.py"
    );
    assert_eq!(
        t.detect(&names(&["a.cc"])).map(|l| l.id.as_str()),
        Some("cpp")
    );
    assert!(t.detect(&names(&["README"])).is_none());
    assert_eq!(java.tools(), ["javac", "java"]);
    let kotlin = t.detect(&names(&["hello.kt"])).expect("kotlin");
    let run = t.lines(kotlin, &names(&["hello.kt"]), None).1;
    assert!(
        run.starts_with("kotlin -J-Dfile.encoding=UTF-8 -J-XX:+UseSerialGC "),
        "{run}"
    );
    assert!(run.ends_with(&format!("-J{heap} -cp . HelloKt")), "{run}");
    // A file name a shell would split is one word.
    assert_eq!(
        t.lines(py, &names(&["my prog.py"]), None).1,
        "python3 'my prog.py'"
    );
}

#[test]
fn several_languages_go_to_the_most_files_then_the_priority() {
    let t = Table::defaults();
    let id = |files: &[&str]| t.detect(&names(files)).map(|l| l.id.clone());
    // A Java submission with a Python helper script is Java.
    assert_eq!(id(&["A.java", "B.java", "gen.py"]).as_deref(), Some("java"));
    // One each: problemtools' priorities (C++ 1000, C 950, Python 850,
    // Java 800, C# 700, Kotlin 250).
    assert_eq!(id(&["a.c", "b.cpp"]).as_deref(), Some("cpp"));
    assert_eq!(id(&["a.c", "b.py"]).as_deref(), Some("c"));
    assert_eq!(id(&["A.java", "b.py"]).as_deref(), Some("python3"));
    assert_eq!(id(&["A.java", "b.kt"]).as_deref(), Some("java"));
    assert_eq!(id(&["A.cs", "b.kt"]).as_deref(), Some("csharp"));
    // Files in folders count by their names.
    assert_eq!(
        id(&["src/A.kt", "src/B.kt", "x.py"]).as_deref(),
        Some("kotlin")
    );
}

#[test]
fn the_heap_is_the_packages_memory_limit_within_a_quarter_of_the_bound() {
    let dir = tempfile::tempdir().expect("dir");
    let bound = conformance_sandbox::policy::get().bounds.memory >> 20;
    assert_eq!(
        Table::for_package(dir.path()).expect("table").memlim(),
        DEFAULT_MEMORY_MIB.min(bound / 4)
    );
    std::fs::write(dir.path().join("problem.yaml"), "limits:\n  memory: 64\n").expect("write");
    let t = Table::for_package(dir.path()).expect("table");
    assert_eq!(t.memlim(), 64.min(bound / 4).max(16));
    std::fs::write(
        dir.path().join("problem.yaml"),
        "limits:\n  memory: 1000000\n",
    )
    .expect("write");
    assert_eq!(
        Table::for_package(dir.path()).expect("table").memlim(),
        bound / 4
    );
    std::fs::write(dir.path().join("problem.yaml"), "limits:\n  memory: lots\n").expect("write");
    let e = Table::for_package(dir.path()).unwrap_err();
    assert!(e.contains("limits.memory") && e.contains("lots"), "{e}");
}

#[test]
fn a_package_overrides_a_language() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(
        dir.path().join("languages.yaml"),
        "python3:\n  run: pypy3 {mainfile}\nlua:\n  name: Lua\n  priority: 2000\n  files: \"*.lua\"\n  run: lua {mainfile}\n",
    )
    .expect("write");
    let t = Table::for_package(dir.path()).expect("table");
    let py = t.detect(&names(&["a.py"])).expect("python");
    assert_eq!(t.lines(py, &names(&["a.py"]), None).1, "pypy3 a.py");
    assert_eq!(
        t.detect(&names(&["x.lua", "a.c"])).map(|l| l.name.as_str()),
        Some("Lua")
    );
    std::fs::write(dir.path().join("languages.yaml"), "c:\n  compiler: cc\n").expect("write");
    assert!(
        Table::for_package(dir.path())
            .unwrap_err()
            .contains("compiler")
    );
}

#[test]
fn a_compiler_only_on_the_callers_path_is_missing_where_builds_run() {
    let (sandbox, caller) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    for tool in ["rustc", "ruby"] {
        std::fs::write(caller.path().join(tool), "").expect("write");
    }
    let t = Table::defaults();
    let missing = |file: &str| {
        t.detect(&names(&[file]))
            .expect("a language")
            .missing_in(sandbox.path().as_os_str(), caller.path().as_os_str())
    };
    // A build runs with the sandbox's PATH alone: the caller's rustc
    // would be `not found` there, a compile error charged to the student.
    let rust = missing("a.rs").expect("rustc is missing there");
    assert!(
        rust.starts_with("no rustc (Rust) on the build's PATH ") && rust.contains("is not used"),
        "{rust}"
    );
    // An interpreter is looked up in the caller's PATH too.
    assert_eq!(missing("a.rb"), None);
    assert_eq!(missing("a.go"), Some("no go (Go)".to_owned()));
    std::fs::write(sandbox.path().join("go"), "").expect("write");
    assert_eq!(missing("a.go"), None);
}
