//! The committed JSON Schema of the case format matches the Rust types.

#[test]
fn committed_schema_matches_the_types() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../cases/schema.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    let generated = boxes_harness::engine::schema::json_schema();
    assert!(
        committed == generated,
        "cases/schema.json drifted from the case types; regenerate it with\n  \
         cargo run -p boxes-harness -- schema > cases/schema.json"
    );
}

#[test]
fn schema_names_every_key() {
    let schema = boxes_harness::engine::schema::json_schema();
    for key in [
        "stdout-file",
        "stdout-base64",
        "output-files",
        "absent-files",
        "output-cap",
        "stdout-full",
        "additionalProperties",
    ] {
        assert!(schema.contains(key), "{key} missing");
    }
}
