//! `mark`'s outputs read by others and its other packs: Gradescope's
//! export naming the students, the class view rendered in a real browser
//! and listing each missing check once, and nogo's and gridgame's
//! submissions built with their own course lines.

use std::ffi::OsStr;

use super::{mark, read, rows, succeeds, wrapper, write};

/// Gradescope's export: the rows carry the students' names and e-mails.
#[test]
fn a_gradescope_export_names_the_students_in_the_rows() {
    let dir = tempfile::tempdir().expect("tempdir");
    let subs = dir.path().join("export");
    write(
        &subs.join("submission_7/main.c"),
        b"int main(void) { return x; }\n",
    );
    write(
        &subs.join("submission_metadata.yml"),
        b"submission_7:\n  :submitters:\n  - :name: Grace Hopper\n    :sid: '1906'\n    :email: grace@example.org\n",
    );
    let out = dir.path().join("out");
    let r = mark(
        dir.path(),
        [subs.as_os_str(), OsStr::new("--out"), out.as_os_str()],
    );
    succeeds(&r);
    let table = rows(&out);
    assert_eq!(
        table[1][..5],
        [
            "submission_7",
            "Grace Hopper",
            "grace@example.org",
            "1906",
            "failed"
        ]
    );
}

/// The class view in a real browser: headless Chromium (Debian's
/// `chromium`, which `.ci/run` installs) renders `index.html` from disk,
/// and its DOM holds the histogram's bars, the flagged cases and a link
/// to every submission's report. Without Chromium the test fails under CI
/// (`CI` set) and says why elsewhere.
#[test]
fn the_class_view_renders_in_headless_chromium() {
    let Some(chromium) = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find(|b| {
            std::process::Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
    else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is not installed (.ci/run installs Debian's chromium)"
        );
        eprintln!("chromium is not installed: the browser check did not run");
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let subs = root.join("subs");
    let variant = env!("CARGO_BIN_EXE_boxes-fixture-variant");
    let harness = env!("CARGO_BIN_EXE_boxes-harness");
    write(
        &subs.join("good/main.c"),
        wrapper(harness, "boxes", "boxes", false).as_bytes(),
    );
    for v in ["echo-moves", "trimmed-trailing-spaces"] {
        write(
            &subs.join(v).join("main.c"),
            wrapper(variant, v, "", false).as_bytes(),
        );
    }
    write(
        &subs.join("broken/main.c"),
        b"int main(void) { return x; }\n",
    );
    let out = root.join("out");
    // The page, not the suite: a few cases a category (issue 47).
    let spec = crate::boxes_mini::mini_boxes(
        &root.join("pack"),
        &[
            "initial-display/new-game-interactive-move",
            "initial-display/new-2x2",
            "full-games/assignment-worked-example",
        ],
    );
    let r = mark(
        root,
        [
            subs.as_os_str(),
            OsStr::new("--out"),
            out.as_os_str(),
            OsStr::new("--spec"),
            spec.as_os_str(),
        ],
    );
    succeeds(&r);
    let page = out.join("index.html");
    let dom = std::process::Command::new(chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("file://{}", page.display()))
        .env("HOME", root)
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert_eq!(dom.matches("<rect class=\"bar\"").count(), 10, "{dom}");
    let counted: usize = dom
        .split("data-count=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next()?.parse::<usize>().ok())
        .sum();
    assert_eq!(counted, 4, "the bars count every submission once");
    assert!(
        dom.contains("<li class=\"flagged\">"),
        "no flagged case: {dom}"
    );
    for slug in ["broken", "echo-moves", "good", "trimmed-trailing-spaces"] {
        let link = format!("href=\"submissions/{slug}/report.html\"");
        assert!(dom.contains(&link), "{link}");
        assert!(
            out.join("submissions")
                .join(slug)
                .join("report.html")
                .is_file()
        );
    }
    assert!(
        dom.contains("id=\"flagged-rules\""),
        "the flagged cases' rules"
    );
    // The students first, then the shared causes, then every case
    // collapsed by category; the build line and suite hash in the header.
    let at = |needle: &str| dom.find(needle).expect(needle);
    assert!(at("id=\"submissions\"") < at("id=\"causes\""));
    assert!(at("id=\"causes\"") < at("id=\"cases\""));
    assert!(at("id=\"cases\"") < at("<details>"));
    assert!(at("id=\"header\"") < at("id=\"submissions\""));
    assert!(
        dom.contains("built with <code>make with a Makefile, else gcc"),
        "{dom}"
    );
}

/// Every pack that builds from source marks with its own course line:
/// nogo's `gcc` and gridgame's `g++ … *.cpp`, each on its reference.
#[test]
fn nogo_and_gridgame_submissions_build_with_their_course_lines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let harness = env!("CARGO_BIN_EXE_boxes-harness");
    for (spec, file, text) in [
        ("nogo", "main.c", wrapper(harness, "nogo", "nogo", false)),
        (
            "gridgame",
            "main.cpp",
            format!(
                "#include <cstdlib>\n#include <unistd.h>\nint main(int, char **argv) {{\n    \
                 setenv(\"CONFORMANCE_REFERENCE\", \"gridgame\", 1);\n    \
                 execv(\"{harness}\", argv);\n    return 99;\n}}\n"
            ),
        ),
    ] {
        let subs = root.join(spec);
        write(&subs.join("student").join(file), text.as_bytes());
        let out = root.join(format!("{spec}-out"));
        let r = mark(
            root,
            [
                OsStr::new("--spec"),
                OsStr::new(spec),
                subs.as_os_str(),
                OsStr::new("--out"),
                out.as_os_str(),
            ],
        );
        succeeds(&r);
        let table = rows(&out);
        let total = table[0].iter().position(|h| h == "total").expect("total");
        let view: serde_json::Value =
            serde_json::from_str(&read(&out.join("cohort.json"))).expect("cohort.json");
        assert_eq!(table[1][4], "ok", "{spec}: {:?}", table[1]);
        let max = view["max"].as_f64().expect("max");
        assert_eq!(table[1][total], format!("{max}"), "{spec}: full marks");
    }
}

#[test]
fn the_class_view_lists_each_missing_check_once_with_its_submissions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let variant = env!("CARGO_BIN_EXE_boxes-fixture-variant");
    let subs = root.join("subs");
    for (student, v) in [
        ("s1-wrap", "boxes-wrap"),
        ("s2-spaces", "extra-spaces"),
        ("s3-three", "combo-wrap-spaces-h-row"),
        ("s4-rows", "h-row-against-width"),
        ("s5-crlf", "file-crlf-accepted"),
    ] {
        write(
            &subs.join(student).join("boxes.c"),
            wrapper(variant, v, "", false).as_bytes(),
        );
    }
    let out = root.join("out");
    let r = mark(
        root,
        [subs.as_os_str(), OsStr::new("--out"), out.as_os_str()],
    );
    succeeds(&r);
    let view: serde_json::Value =
        serde_json::from_str(&read(&out.join("cohort.json"))).expect("cohort.json");
    let listed: Vec<(String, String, Vec<String>)> = view["missing_checks"]
        .as_array()
        .expect("missing_checks")
        .iter()
        .map(|m| {
            let text = |k: &str| m[k].as_str().expect("text").to_owned();
            let subs = m["submissions"].as_array().expect("submissions");
            let ids = subs.iter().map(|s| s.as_str().expect("id").to_owned());
            (text("rule"), text("check"), ids.collect())
        })
        .collect();
    let find = |words: &str| {
        let found: Vec<&(String, String, Vec<String>)> = listed
            .iter()
            .filter(|(_, c, _)| c.contains(words))
            .collect();
        assert_eq!(found.len(), 1, "`{words}` once in {listed:?}");
        found[0].clone()
    };
    let ids = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let wrap = find("a number past a C int");
    assert_eq!(
        (wrap.0.as_str(), wrap.2),
        ("TURN-3", ids(&["s1-wrap", "s3-three"]))
    );
    let spaces = find("extra spaces");
    assert_eq!(
        (spaces.0.as_str(), spaces.2),
        ("TURN-2", ids(&["s2-spaces", "s3-three"]))
    );
    let rows = find("a horizontal edge's row past H");
    assert_eq!(
        (rows.0.as_str(), rows.2),
        ("TURN-3", ids(&["s3-three", "s4-rows"]))
    );
    let crlf = find("goes on where the reference stops");
    assert_eq!((crlf.0.as_str(), crlf.2), ("FILE-5", ids(&["s5-crlf"])));
    assert_eq!(listed.len(), 4, "{listed:?}");
    let page = read(&out.join("index.html"));
    assert!(page.contains("<h2>Checks the class misses</h2>"), "{page}");
}
