//! Each form on outputs as its runtime prints them (Python 3.12, OpenJDK
//! 17, Node.js 20, Ruby 3.x), masked or not; and any bytes parse without
//! a panic.

use proptest::prelude::*;

use super::*;

#[expect(
    clippy::unnecessary_wraps,
    reason = "compared with the parsers' `Option<Frame>` results"
)]
fn frame(file: &str, line: u32) -> Option<Frame> {
    Some(Frame {
        file: file.to_owned(),
        line,
    })
}

#[test]
fn a_python_traceback_names_the_innermost_own_frame() {
    let text = "Traceback (most recent call last):\n  File \"./s.py\", line 11, in <module>\n    \
                main()\n  File \"./s.py\", line 5, in main\n    rows = read(sys.argv[1])\n           \
                ^^^^^^^^^^^^^^^^^\n  File \"./s.py\", line 8, in read\n    with open(path) as f:\n         \
                ^^^^^^^^^^\nFileNotFoundError: [Errno 2] No such file or directory: 'nope.csv'\n";
    let r = parse(text.as_bytes()).unwrap();
    assert_eq!(r.language, Language::Python);
    assert_eq!(r.kind, "FileNotFoundError");
    assert_eq!(r.message, "[Errno 2] No such file or directory: 'nope.csv'");
    assert_eq!(r.frame, frame("./s.py", 8));
    assert_eq!(r.headline(), "FileNotFoundError (`./s.py:8`)");
}

#[test]
fn a_python_frame_in_the_library_is_not_the_programs() {
    let text = "Some output first\nTraceback (most recent call last):\n  File \"./fuel.py\", line 3, \
                in <module>\n    print(int(x))\n  File \"/usr/lib/python3.12/csv.py\", line 9, in \
                reader\n    x\nValueError: invalid literal for int() with base 10: 'cat'\n";
    let r = parse(text.as_bytes()).unwrap();
    assert_eq!(r.kind, "ValueError");
    assert_eq!(r.frame, frame("./fuel.py", 3));
}

#[test]
fn the_last_of_chained_python_tracebacks_is_the_one_that_ended_it() {
    let text = "Traceback (most recent call last):\n  File \"./a.py\", line 2, in <module>\n    \
                d['k']\nKeyError: 'k'\n\nDuring handling of the above exception, another exception \
                occurred:\n\nTraceback (most recent call last):\n  File \"./a.py\", line 4, in \
                <module>\n    import tabulate\nModuleNotFoundError: No module named 'tabulate'\n";
    let r = parse(text.as_bytes()).unwrap();
    assert_eq!(r.kind, "ModuleNotFoundError");
    assert_eq!(r.message, "No module named 'tabulate'");
    assert_eq!(r.frame, frame("./a.py", 4));
}

#[test]
fn a_python_syntax_error_has_no_header() {
    let text = "  File \"./syn.py\", line 1\n    print(\"x\"\n         ^\nSyntaxError: '(' was \
                never closed\n";
    let r = parse(text.as_bytes()).unwrap();
    assert_eq!(r.kind, "SyntaxError");
    assert_eq!(r.frame, frame("./syn.py", 1));
}

#[test]
fn a_java_exception_names_its_own_frame_past_the_jdks() {
    let text = "Exception in thread \"main\" java.io.FileNotFoundException: nope.csv (No such file \
                or directory)\n\tat java.base/java.io.FileInputStream.open0(Native Method)\n\tat \
                java.base/java.io.FileInputStream.open(FileInputStream.java:216)\n\tat \
                java.base/java.io.FileReader.<init>(FileReader.java:60)\n\tat \
                Main.main(Main.java:4)\n";
    let r = parse(text.as_bytes()).unwrap();
    assert_eq!(r.language, Language::Java);
    assert_eq!(r.kind, "FileNotFoundException");
    assert_eq!(r.message, "nope.csv (No such file or directory)");
    assert_eq!(r.frame, frame("Main.java", 4));
}

#[test]
fn a_java_cause_is_the_exception_named() {
    let text = "Exception in thread \"main\" java.lang.RuntimeException: outer\n\tat \
                C.main(C.java:4)\nCaused by: java.lang.IllegalStateException: inner\n\tat \
                C.f(C.java:2)\n\t... 1 more\n";
    let r = parse(text.as_bytes()).unwrap();
    assert_eq!(r.kind, "IllegalStateException");
    assert_eq!(r.message, "inner");
    assert_eq!(r.frame, frame("C.java", 2));
    let load = "Error: Could not find or load main class Nope\nCaused by: \
                java.lang.ClassNotFoundException: Nope\n";
    let r = parse(load.as_bytes()).unwrap();
    assert_eq!((r.kind.as_str(), r.frame), ("ClassNotFoundException", None));
}

#[test]
fn a_node_error_names_its_type_and_own_frame() {
    let text = "node:fs:448\n    return binding.readFileUtf8(path, stringToFlags(options.flag));\n \
                ^\n\nError: ENOENT: no such file or directory, open 'nope.csv'\n    at \
                Object.readFileSync (node:fs:448:20)\n    at Object.<anonymous> (./a.js:2:17)\n    \
                at Module._compile (node:internal/modules/cjs/loader:1521:14)\n    at \
                node:internal/main/run_main_module:28:49 {\n  errno: -2,\n  code: 'ENOENT',\n}\n\n\
                Node.js v20.20.2\n";
    let r = parse(text.as_bytes()).unwrap();
    assert_eq!(r.language, Language::Node);
    assert_eq!(r.kind, "Error");
    assert_eq!(
        r.message,
        "ENOENT: no such file or directory, open 'nope.csv'"
    );
    assert_eq!(r.frame, frame("./a.js", 2));
    let typed = "./b.js:1\nfunction f(x) { return x.y.z; }\n                           ^\n\n\
                 TypeError: Cannot read properties of undefined (reading 'z')\n    at f \
                 (./b.js:1:28)\n    at Object.<anonymous> (./b.js:2:1)\n\nNode.js v20.20.2\n";
    let r = parse(typed.as_bytes()).unwrap();
    assert_eq!(r.kind, "TypeError");
    assert_eq!(r.frame, frame("./b.js", 1));
    let module = "node:internal/modules/cjs/loader:1210\n  throw err;\n  ^\n\nError: Cannot find \
                  module 'tabulate'\nRequire stack:\n- ./c.js\n    at Module._resolveFilename \
                  (node:internal/modules/cjs/loader:1207:15)\n    at Object.<anonymous> \
                  (./c.js:1:1)\n";
    let r = parse(module.as_bytes()).unwrap();
    assert_eq!(r.message, "Cannot find module 'tabulate'");
    assert_eq!(r.frame, frame("./c.js", 1));
}

#[test]
fn a_ruby_backtrace_names_the_type_in_parentheses() {
    let text = "./scourgify.rb:7:in `initialize': No such file or directory @ rb_sysopen - \
                before.csv (Errno::ENOENT)\n\tfrom ./scourgify.rb:7:in `open'\n\tfrom \
                ./scourgify.rb:7:in `<main>'\n";
    let r = parse(text.as_bytes()).unwrap();
    assert_eq!(r.language, Language::Ruby);
    assert_eq!(r.kind, "Errno::ENOENT");
    assert_eq!(
        r.message,
        "No such file or directory @ rb_sysopen - before.csv"
    );
    assert_eq!(r.frame, frame("./scourgify.rb", 7));
    let library = "/usr/lib/ruby/3.1.0/csv.rb:1:in 'parse': bad (CSV::MalformedCSVError)\n\tfrom \
                   ./a.rb:3:in '<main>'\n";
    let r = parse(library.as_bytes()).unwrap();
    assert_eq!(r.kind, "CSV::MalformedCSVError");
    assert_eq!(r.frame, frame("./a.rb", 3));
}

#[test]
fn a_message_of_the_programs_choice_is_no_exception() {
    for text in [
        "Could not read before.csv\n",
        "Error: too few arguments\n",
        "Usage: python scourgify.py in.csv out.csv\n",
        "Too many command-line arguments\n",
        "",
        "main.c:3: warning: unused\n",
    ] {
        assert_eq!(parse(text.as_bytes()), None, "{text:?}");
    }
}

proptest! {
    #[test]
    fn any_bytes_parse_without_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse(&bytes);
    }

    #[test]
    fn any_lines_of_the_forms_parse_without_a_panic(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("Traceback (most recent call last):".to_owned()),
                Just("  File \"./a.py\", line ".to_owned()),
                Just("Exception in thread \"main\" ".to_owned()),
                Just("Caused by: ".to_owned()),
                Just("\tat A.b(A.java:".to_owned()),
                Just("    at f (./a.js:1:".to_owned()),
                Just("\tfrom ./a.rb:".to_owned()),
                Just("a.rb:3:in `x': m (".to_owned()),
                "[ -~]{0,20}",
            ],
            0..12,
        )
    ) {
        let _ = parse(lines.join("\n").as_bytes());
    }
}
