//! The one case writer's policy: how an expected or given byte stream is
//! spelled in a case file (inline, a sidecar file, or base64) and how a
//! value is quoted. `bless` rewrites a case's expected keys with it and
//! `diff` writes whole cases with it, so a case looks the same whoever
//! wrote it. [`Draft`] assembles a whole case file with its sidecars;
//! `diff` and the packs' corpus generators write cases through it.
//!
//! Streams: stdout spanning lines goes to a raw sidecar (grids keep their
//! trailing spaces only there); stdin and stderr stay inline unless they
//! span lines and pass 1 KiB; inline bytes that are not UTF-8 go to
//! `<key>-base64`. Files: `text: |` when a block literal holds them exactly,
//! else `base64:`.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

/// The longest multi-line stdin or stderr kept inline.
const INLINE_LIMIT: usize = 1024;

/// Appends the YAML for one stream; true when the bytes go to the sidecar.
pub fn stream_entry(block: &mut String, key: &str, bytes: &[u8], sidecar: &str) -> bool {
    if bytes.is_empty() {
        return false;
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    // Grids keep their trailing spaces only in a raw sidecar; messages
    // and input stay readable inline unless they are long.
    let sidecar_wanted = if key == "stdout" {
        body.contains(&b'\n')
    } else {
        body.contains(&b'\n') && bytes.len() > INLINE_LIMIT
    };
    if sidecar_wanted {
        let _ = writeln!(block, "{key}-file: {}", quote(sidecar));
        return true;
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => {
            let _ = writeln!(block, "{key}: {}", quote(s));
        }
        Err(_) => {
            let _ = writeln!(block, "{key}-base64: {}", BASE64.encode(bytes));
        }
    }
    false
}

/// Appends `text: |` for readable file content, else `base64:`.
pub fn file_content(block: &mut String, bytes: &[u8]) {
    let literal = std::str::from_utf8(bytes).ok().filter(|s| {
        let body = s.strip_suffix('\n').unwrap_or(s);
        !body.is_empty()
            && !body.ends_with('\n')
            && !body.starts_with([' ', '\n'])
            && body
                .split('\n')
                .all(|l| !l.ends_with([' ', '\t']) && !l.chars().any(char::is_control))
    });
    match literal {
        Some(s) => {
            let chomp = if s.ends_with('\n') { "|" } else { "|-" };
            let _ = writeln!(block, "    text: {chomp}");
            for line in s.strip_suffix('\n').unwrap_or(s).split('\n') {
                if line.is_empty() {
                    block.push('\n');
                } else {
                    let _ = writeln!(block, "      {line}");
                }
            }
        }
        None => {
            let _ = writeln!(block, "    base64: {}", BASE64.encode(bytes));
        }
    }
}

/// Appends one `- path:` entry of a file list with its content.
pub fn file_entry(block: &mut String, path: &str, bytes: &[u8]) {
    let _ = writeln!(block, "  - path: {}", quote(path));
    file_content(block, bytes);
}

/// Appends `key: [a, b]`, each item quoted.
pub fn list(block: &mut String, key: &str, items: &[String]) {
    let items: Vec<String> = items.iter().map(|s| quote(s)).collect();
    let _ = writeln!(block, "{key}: [{}]", items.join(", "));
}

/// A YAML scalar holding exactly `s`: plain when that is unambiguous (file
/// names), double-quoted otherwise.
pub fn quote(s: &str) -> String {
    let plain = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '/' | '-'))
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "y" | "n"
        );
    if plain {
        return s.to_owned();
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' || c == '\u{feff}' => {
                let code = u32::from(c);
                if code < 0x100 {
                    let _ = write!(out, "\\x{code:02x}");
                } else {
                    let _ = write!(out, "\\u{code:04x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A case file or sidecar could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}: {source}")]
pub struct WriteError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    #[source]
    pub source: io::Error,
}

/// A whole case file being assembled, key by key in the order written,
/// with the sidecars it names (`<name>.<key>` beside the case).
#[derive(Debug, Clone)]
pub struct Draft {
    /// The file stem: the case is `<name>.yaml`.
    name: String,
    /// Comment lines at the top.
    header: String,
    /// The keys written so far.
    yaml: String,
    /// Files written beside the case: name and bytes.
    sidecars: Vec<(String, Vec<u8>)>,
}

impl Draft {
    /// An empty case named `name` whose file opens with the comment
    /// `header` (one line, without `#`).
    pub fn new(name: &str, header: &str) -> Self {
        Self {
            name: name.to_owned(),
            header: format!("# {header}\n"),
            yaml: String::new(),
            sidecars: Vec::new(),
        }
    }

    /// `key: value`, the value quoted when it must be.
    pub fn text(&mut self, key: &str, value: &str) {
        let _ = writeln!(self.yaml, "{key}: {}", quote(value));
    }

    /// `key: value` for a number.
    pub fn number(&mut self, key: &str, value: impl Into<u64>) {
        let _ = writeln!(self.yaml, "{key}: {}", value.into());
    }

    /// `reference-ms` for a case whose expectation came from the reference
    /// run in-process (a corpus generator): that takes well under a
    /// millisecond, and a process of it a few, so the smallest bucket,
    /// which gives the 1 s limit `bless` would keep.
    pub fn reference_in_process(&mut self) {
        self.number("reference-ms", 1_u64);
    }

    /// `key: [a, b]`, each item quoted.
    pub fn list(&mut self, key: &str, items: &[String]) {
        list(&mut self.yaml, key, items);
    }

    /// A stream (`stdin`, `stdout`, `stderr`) by the writer's policy
    /// ([`stream_entry`]); a sidecar is `<name>.<key>`.
    pub fn stream(&mut self, key: &str, bytes: &[u8]) {
        let sidecar = format!("{}.{key}", self.name);
        if stream_entry(&mut self.yaml, key, bytes, &sidecar) {
            self.sidecars.push((sidecar, bytes.to_vec()));
        }
    }

    /// A file list (`files`, `output-files`) with every file's content
    /// inline ([`file_entry`]); nothing when `files` is empty.
    pub fn files(&mut self, key: &str, files: &[(&str, &[u8])]) {
        if files.is_empty() {
            return;
        }
        let _ = writeln!(self.yaml, "{key}:");
        for (path, bytes) in files {
            file_entry(&mut self.yaml, path, bytes);
        }
    }

    /// A `files` list whose contents are files already beside the case
    /// (`file: SIDECAR`), each placed in the sandbox at its `path`: for
    /// inputs that are the point of a case (a corpus's labelled files),
    /// written by their generator and kept readable as files of their own.
    pub fn file_sidecars(&mut self, key: &str, files: &[SidecarFile<'_>]) {
        if files.is_empty() {
            return;
        }
        let _ = writeln!(self.yaml, "{key}:");
        for f in files {
            let _ = writeln!(self.yaml, "  - path: {}", quote(f.path));
            let _ = writeln!(self.yaml, "    file: {}", quote(f.sidecar));
        }
    }

    /// Writes the sidecars and then `<dir>/<name>.yaml` (the folder must
    /// exist); returns the case file's path.
    pub fn write(self, dir: &Path) -> Result<PathBuf, WriteError> {
        for (file, bytes) in &self.sidecars {
            let path = dir.join(file);
            fs::write(&path, bytes).map_err(|source| WriteError { path, source })?;
        }
        let path = dir.join(format!("{}.yaml", self.name));
        match fs::write(&path, self.header + &self.yaml) {
            Ok(()) => Ok(path),
            Err(source) => Err(WriteError { path, source }),
        }
    }
}

/// One input file already beside its case ([`Draft::file_sidecars`]).
#[derive(Debug, Clone, Copy)]
pub struct SidecarFile<'a> {
    /// Where the file is placed in the sandbox.
    pub path: &'a str,
    /// Its name beside the case.
    pub sidecar: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_round_trips() {
        for s in [
            "A> ",
            "say \"hi\"\\\n",
            "\t\r\0\x01é~",
            "a-b.stdout",
            "true",
            "1",
            "",
        ] {
            let yaml = format!("v: {}\n", quote(s));
            let back: std::collections::BTreeMap<String, String> =
                yaml_serde::from_str(&yaml).unwrap();
            assert_eq!(back["v"], s, "{yaml}");
        }
    }

    #[test]
    fn stream_entries() {
        let mut b = String::new();
        assert!(!stream_entry(
            &mut b,
            "stderr",
            b"End of user input\n",
            "x.stderr"
        ));
        assert!(stream_entry(&mut b, "stdout", b"+ +\n| |\n", "x.stdout"));
        assert!(!stream_entry(&mut b, "stdout", b"\xff\n", "x.stdout"));
        assert!(!stream_entry(&mut b, "stdout", b"", "x.stdout"));
        assert_eq!(
            b,
            "stderr: \"End of user input\\n\"\nstdout-file: x.stdout\nstdout-base64: /wo=\n"
        );
    }

    #[test]
    fn file_contents_round_trip() {
        for bytes in [&b"1\n11\n0,0\n"[..], b"1\n\n2", b" x\n", b"a \n", b"\xff"] {
            let mut block = String::from("f:\n  - path: p\n");
            file_content(&mut block, bytes);
            let v: yaml_serde::Value = yaml_serde::from_str(&block).unwrap();
            let entry = &v["f"][0];
            let got = if let Some(t) = entry.get("text") {
                t.as_str().unwrap().as_bytes().to_vec()
            } else {
                BASE64.decode(entry["base64"].as_str().unwrap()).unwrap()
            };
            assert_eq!(got, bytes, "{block}");
        }
    }

    #[test]
    fn a_draft_writes_its_case_and_sidecars_in_key_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut case = Draft::new("c", "Written by a test.");
        case.text("summary", "a: b");
        case.text("category", "load");
        case.list("args", &["2".to_owned(), "g/x.grid".to_owned()]);
        case.file_sidecars(
            "files",
            &[SidecarFile {
                path: "g/x.grid",
                sidecar: "c.grid",
            }],
        );
        case.files("output-files", &[]);
        case.number("status", 6_u8);
        case.stream("stdout", b"+ +\n| |\n");
        case.stream("stderr", b"End\n");
        let path = case.write(dir.path()).unwrap();
        assert_eq!(path, dir.path().join("c.yaml"));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "# Written by a test.\nsummary: \"a: b\"\ncategory: load\nargs: [\"2\", g/x.grid]\n\
             files:\n  - path: g/x.grid\n    file: c.grid\nstatus: 6\n\
             stdout-file: c.stdout\nstderr: \"End\\n\"\n"
        );
        assert_eq!(
            std::fs::read(dir.path().join("c.stdout")).unwrap(),
            b"+ +\n| |\n"
        );
        let missing = Draft::new("c", "x").write(&dir.path().join("absent"));
        assert!(missing.is_err_and(|e| e.path.ends_with("absent/c.yaml")));
    }
}
