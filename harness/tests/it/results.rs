//! The machine outputs of a run: `--results` validates against the
//! published schema (`cases/results.schema.json`) and carries the structured
//! verdicts (an error is not a failure), `--gradescope` follows Gradescope's
//! documented autograder format, and the JUnit file tells errors from
//! failures.

#![expect(clippy::unwrap_used, reason = "test helpers fail loudly")]
#![expect(clippy::panic, reason = "a schema violation fails the test")]

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/misbehave")
}

/// Runs the `files` fixtures (one passes, one fails, and with
/// `with_error` one that cannot be run) and returns the exit status, the
/// results and JUnit documents, the Gradescope one when written, and
/// stderr.
fn run(with_error: bool) -> (i32, Value, Option<Value>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let (results, grade, junit) = (
        dir.path().join("results.json"),
        dir.path().join("gradescope.json"),
        dir.path().join("junit.xml"),
    );
    // The fixtures' suite above the cases, as `--cases` finds it.
    std::fs::copy(fixtures().join("suite.yaml"), dir.path().join("suite.yaml")).unwrap();
    let cases = dir.path().join("files");
    std::fs::create_dir(&cases).unwrap();
    for name in ["ok.yaml", "write-files.yaml", "bad-key.yaml"] {
        if with_error || name != "bad-key.yaml" {
            std::fs::copy(fixtures().join("files").join(name), cases.join(name)).unwrap();
        }
    }
    let out = Command::cargo_bin("boxes-harness")
        .unwrap()
        .env("NO_COLOR", "1")
        .env_remove("BOXES_BIN")
        .args([
            "--bin",
            env!("CARGO_BIN_EXE_boxes-fixture-misbehave"),
            "--cases",
        ])
        .arg(&cases)
        .arg("--results")
        .arg(&results)
        .arg("--gradescope")
        .arg(&grade)
        .arg("--junit")
        .arg(&junit)
        .output()
        .unwrap();
    let read = |p: &Path| serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
    (
        out.status.code().unwrap_or(-1),
        read(&results),
        grade.exists().then(|| read(&grade)),
        std::fs::read_to_string(&junit).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A validator for the JSON Schema keywords the published schemas use:
/// `$ref` into `$defs`, `type` (one or several), `properties`, `required`,
/// `additionalProperties: false`, `items`, `enum`, `anyOf`/`oneOf`.
fn validate(schema: &Value, root: &Value, value: &Value, at: &str) {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        validate(&root["$defs"][name], root, value, at);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(options) = schema.get(key).and_then(Value::as_array) {
            let ok = options
                .iter()
                .any(|o| std::panic::catch_unwind(|| validate(o, root, value, at)).is_ok());
            assert!(ok, "{at}: matches none of {key}");
        }
    }
    if let Some(t) = schema.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let fits = |t: &str| match t {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "integer" => value.is_u64() || value.is_i64(),
            "number" => value.is_number(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            _ => panic!("{at}: unknown type {t}"),
        };
        assert!(
            types.iter().any(|t| fits(t)),
            "{at}: {value} is not {types:?}"
        );
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        assert!(values.contains(value), "{at}: {value} not in {values:?}");
    }
    if let Some(object) = value.as_object() {
        let props = schema.get("properties").and_then(Value::as_object);
        for key in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let key = key.as_str().unwrap();
            assert!(object.contains_key(key), "{at}: missing `{key}`");
        }
        for (key, v) in object {
            match props.and_then(|p| p.get(key)) {
                Some(sub) => validate(sub, root, v, &format!("{at}.{key}")),
                None => assert!(
                    schema.get("additionalProperties") != Some(&Value::Bool(false)),
                    "{at}: unknown key `{key}`"
                ),
            }
        }
    }
    if let (Some(items), Some(list)) = (schema.get("items"), value.as_array()) {
        for (i, v) in list.iter().enumerate() {
            validate(items, root, v, &format!("{at}[{i}]"));
        }
    }
}

#[test]
fn results_validate_against_the_published_schema() {
    let published: Value = serde_json::from_slice(
        &std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../cases/results.schema.json"))
            .unwrap(),
    )
    .unwrap();
    let generated: Value =
        serde_json::from_str(&boxes_harness::engine::results::json_schema()).unwrap();
    assert_eq!(
        published, generated,
        "cases/results.schema.json drifted; regenerate it with\n  \
         cargo run -p boxes-harness -- schema --results > cases/results.schema.json"
    );

    let (code, results, grade, _, stderr) = run(true);
    assert_eq!(code, 2, "an error among the cases exits 2");
    // A case not judged: no Gradescope mark (Gradescope then shows an
    // autograder failure, not a mark over the other cases), and why.
    assert!(grade.is_none(), "{grade:?}");
    assert!(
        stderr.contains(
            "1 case(s) not judged (the harness or the suite could not run it: invalid case file"
        ),
        "{stderr}"
    );
    validate(&published, &published, &results, "$");

    let cases = results["cases"].as_array().unwrap();
    let verdict = |name: &str| {
        cases
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no case {name}: {results}"))
    };
    assert_eq!(verdict("files/ok")["verdict"], "passed");
    let failed = verdict("files/write-files");
    assert_eq!(failed["verdict"], "failed");
    let first = &failed["differences"][0];
    assert_eq!(first["part"], "file", "{failed}");
    assert_eq!(first["path"], "saved.txt", "{failed}");
    assert_eq!(first["line"], 1, "{failed}");
    assert!(first["expected"].is_string() && first["actual"].is_string());
    let error = verdict("files/bad-key");
    assert_eq!(error["verdict"], "error");
    assert!(
        error["error"].as_str().unwrap().contains("unknown field"),
        "{error}"
    );
    // The error counts neither way: one passed of two judged.
    let row = results["score"]["categories"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "files")
        .unwrap();
    assert_eq!(
        (row["passed"].as_u64(), row["total"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(row["errors"], 1);
}

#[test]
fn gradescope_file_follows_the_documented_format() {
    let (_, _, grade, junit, _) = run(false);
    let grade = grade.unwrap();
    // Top level: https://gradescope-autograders.readthedocs.io/en/latest/specs/
    let top = grade.as_object().unwrap();
    for key in top.keys() {
        assert!(
            [
                "score",
                "execution_time",
                "output",
                "visibility",
                "stdout_visibility",
                "output_format",
                "tests"
            ]
            .contains(&key.as_str()),
            "unknown top-level key {key}"
        );
    }
    assert!(grade["score"].is_number());
    assert!(grade["execution_time"].is_number());
    for key in ["visibility", "stdout_visibility"] {
        assert!(
            ["hidden", "after_due_date", "after_published", "visible"]
                .contains(&grade[key].as_str().unwrap()),
            "{key}"
        );
    }
    assert_eq!(grade["output_format"], "text");
    let tests = grade["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 3, "one test per marking category");
    let mut total = 0.0;
    for t in tests {
        for key in t.as_object().unwrap().keys() {
            assert!(
                [
                    "score",
                    "max_score",
                    "status",
                    "name",
                    "number",
                    "output",
                    "output_format",
                    "visibility"
                ]
                .contains(&key.as_str()),
                "unknown test key {key}"
            );
        }
        assert!(t["score"].as_f64().unwrap() <= t["max_score"].as_f64().unwrap());
        assert!(["passed", "failed"].contains(&t["status"].as_str().unwrap()));
        assert!(t["name"].is_string() && t["output"].is_string());
        // Preformatted: a diff keeps its columns.
        assert_eq!(t["output_format"], "text");
        total += t["score"].as_f64().unwrap();
    }
    assert!((grade["score"].as_f64().unwrap() - total).abs() < 1e-9);
    let files = tests
        .iter()
        .find(|t| t["name"].as_str().unwrap().ends_with("(files)"))
        .unwrap();
    assert_eq!(files["max_score"], 1.0);
    assert!(
        (files["score"].as_f64().unwrap() - 0.5).abs() < 1e-9,
        "{files}"
    );
    assert_eq!(files["status"], "failed");
    let output = files["output"].as_str().unwrap();
    // The category's failures by cause, as the report shows them: the
    // label, the case, its diff.
    assert!(output.contains("cause 1 of 1: 1 case(s)"), "{output}");
    assert!(output.contains("case files/write-files:"), "{output}");
    assert!(output.contains("saved.txt"), "{output}");
    assert!(junit.contains("<failure"), "{junit}");
    let (_, _, _, junit, _) = run(true);
    assert!(junit.contains("<error"), "{junit}");
}
