//! A problem package sent as a `.zip`: unpacked into a temporary folder
//! (bounded: 512 MiB in all, names that would leave the folder refused,
//! links skipped), the package being the folder holding `problem.yaml`
//! at the top or one level down (`hello.zip` holding `hello/`).

use std::io::Read as _;
use std::path::{Path, PathBuf};

/// Bytes unpacked at most.
const UNPACK_CAP: u64 = 512 << 20;

/// Unpacks `zip`; the package's folder and the temporary folder holding
/// it (removed when dropped).
pub fn unpack(zip: &Path) -> Result<(PathBuf, tempfile::TempDir), String> {
    let shown = zip.display();
    let file = std::fs::File::open(zip).map_err(|e| format!("{shown}: {e}"))?;
    let mut archive =
        zip::ZipArchive::new(file).map_err(|e| format!("{shown}: not a zip archive: {e}"))?;
    let tmp = tempfile::Builder::new()
        .prefix("conformance-problem-")
        .tempdir()
        .map_err(|e| format!("cannot make a folder to unpack {shown}: {e}"))?;
    let mut left = UNPACK_CAP;
    for i in 0..archive.len() {
        let mut entry = archive
            .by_index(i)
            .map_err(|e| format!("{shown}: cannot read entry {i}: {e}"))?;
        let entry_name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        let Some(rel) = entry.enclosed_name() else {
            return Err(format!(
                "{shown}: `{entry_name}` would be unpacked outside its folder"
            ));
        };
        let to = tmp.path().join(rel);
        if entry.is_dir() {
            std::fs::create_dir_all(&to).map_err(|e| format!("{}: {e}", to.display()))?;
            continue;
        }
        if !entry.is_file() {
            continue;
        }
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        let mut bytes = Vec::new();
        (&mut entry)
            .take(left + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{shown}: {entry_name}: {e}"))?;
        let len = bytes.len() as u64;
        if len > left {
            return Err(format!(
                "{shown}: more than {} MiB unpacked",
                UNPACK_CAP >> 20
            ));
        }
        left -= len;
        std::fs::write(&to, bytes).map_err(|e| format!("{}: {e}", to.display()))?;
        if let Some(mode) = entry.unix_mode() {
            use std::os::unix::fs::PermissionsExt as _;
            let _ = std::fs::set_permissions(&to, std::fs::Permissions::from_mode(mode & 0o755));
        }
    }
    let top = tmp.path().to_owned();
    if top.join("problem.yaml").is_file() {
        return Ok((top, tmp));
    }
    let inner: Vec<PathBuf> = std::fs::read_dir(&top)
        .map_err(|e| format!("{}: {e}", top.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("problem.yaml").is_file())
        .collect();
    match inner.as_slice() {
        [one] => Ok((one.clone(), tmp)),
        _ => Err(format!(
            "{shown}: no problem.yaml at its top or in exactly one folder below it"
        )),
    }
}

/// Writes the zip `path` holding `files` (name, text): the packages the
/// tests send zipped.
#[cfg(test)]
pub fn write_test_zip(path: &Path, files: &[(&str, &str)]) {
    use std::io::Write as _;
    let mut w = zip::ZipWriter::new(std::fs::File::create(path).expect("create"));
    let opts = zip::write::SimpleFileOptions::default();
    for (name, body) in files {
        w.start_file(*name, opts).expect("entry");
        w.write_all(body.as_bytes()).expect("write");
    }
    w.finish().expect("finish");
}
