//! Kotlin, C#, Go and Ruby submissions compiled and run for real by
//! `verify` where their tools (`kotlinc`, `mcs` and `mono`, `go`,
//! `ruby`) are installed; where one is not, its row must say `skipped:
//! no …` and the test says SKIPPED on stderr (`apt-get install kotlin
//! mono-mcs golang-go ruby` adds them; CI's machine need not have them).

use super::*;

/// Whether every one of `tools` starts here; if not, says SKIPPED (which
/// language was not compiled, and why) rather than passing in silence.
fn installed(tools: &[&str], language: &str) -> bool {
    let missing: Vec<&str> = tools
        .iter()
        .copied()
        // Looked up, not started: a JVM's start costs a second.
        .filter(|t| {
            let path = std::env::var_os("PATH").unwrap_or_default();
            !std::env::split_paths(&path).any(|d| d.join(t).is_file())
        })
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "SKIPPED: {language} not compiled here: no {} (only its `skipped: no …` row is checked)",
            missing.join(", ")
        );
    }
    missing.is_empty()
}

#[test]
fn kotlin_csharp_go_and_ruby_submissions_compile_and_agree_where_their_tools_are() {
    let dir = tempfile::tempdir().expect("dir");
    // Python beside them: with neither compiler, something still runs.
    let kept = ["accepted/Hello.kt", "accepted/hello.py"];
    let package = copy("hello", dir.path(), &kept, &["sample/1"]);
    std::fs::write(
        package.join("submissions/accepted/hello.cs"),
        "using System;\n\nclass Hello {\n    static void Main() {\n        \
         Console.WriteLine(\"Hello, \" + Console.ReadLine().Trim() + \"!\");\n    }\n}\n",
    )
    .expect("write");
    // Go's build needs a cache folder: the sandbox's HOME is none of the
    // caller's, so this checks the build finds one.
    std::fs::write(
        package.join("submissions/accepted/hello.go"),
        "package main\n\nimport (\n\t\"bufio\"\n\t\"fmt\"\n\t\"os\"\n\t\"strings\"\n)\n\n\
         func main() {\n\tline, _ := bufio.NewReader(os.Stdin).ReadString('\\n')\n\t\
         fmt.Printf(\"Hello, %s!\\n\", strings.TrimSpace(line))\n}\n",
    )
    .expect("write");
    std::fs::write(
        package.join("submissions/accepted/hello.rb"),
        "name = gets.strip\nputs \"Hello, #{name}!\"\n",
    )
    .expect("write");
    let (code, text) = verify(&package);
    assert_eq!(code, Some(0), "{text}");
    for (sub, tools, language) in [
        ("accepted/Hello.kt", &["kotlinc", "kotlin"][..], "Kotlin"),
        ("accepted/hello.cs", &["mcs", "mono"][..], "C#"),
        ("accepted/hello.go", &["go"][..], "Go"),
        ("accepted/hello.rb", &["ruby"][..], "Ruby"),
    ] {
        let row = text
            .lines()
            .find(|l| l.starts_with(sub))
            .unwrap_or_else(|| panic!("{sub} in\n{text}"));
        if installed(tools, language) {
            assert!(row.contains(" AC ") && row.ends_with("agrees"), "{text}");
        } else {
            // The tool it lacks, named as the environment's failure.
            assert!(
                tools
                    .iter()
                    .any(|t| row.contains(&format!("skipped: no {t} ({language})"))),
                "{text}"
            );
        }
    }
}
