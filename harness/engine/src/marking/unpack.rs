//! A submission's files, read into memory whatever form it came in: a
//! folder (walked without following links, `.git` left out) or an archive
//! read with maintained readers. Every path is checked before it is
//! used: one that climbs out (`../`, absolute) or a link that points out
//! refuses the submission, with why. Sizes and counts are bounded, and a
//! single folder wrapping everything is unwrapped. Which files are
//! executable is kept (a folder's modes, a zip's and a tar's entries
//! carry them), so that a build line running `./configure` or a
//! submitted script works.

use std::io::Read;
use std::path::{Component, Path};

use super::intake::Source;
use crate::model::files::{Files, MAX_BYTES};

/// A path inside the submission, `/`-separated, or why it may not be
/// used.
fn inside(path: &Path) -> Result<Option<String>, String> {
    let mut parts = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(p) => parts.push(
                p.to_str()
                    .map_or_else(|| super::intake::readable(p), str::to_owned),
            ),
            Component::CurDir => {}
            _ => {
                return Err(format!(
                    "the archive entry {} climbs out of the submission",
                    super::intake::readable(path.as_os_str())
                ));
            }
        }
    }
    // Version control and the litter archivers leave (macOS's resource
    // forks, Finder's folder settings) are not part of a submission.
    if parts
        .iter()
        .any(|p| p == ".git" || p == "__MACOSX" || p == ".DS_Store")
    {
        return Ok(None);
    }
    Ok((!parts.is_empty()).then(|| parts.join("/")))
}

/// Whether a link at `at` with target `target` stays inside.
fn link_stays_inside(at: &str, target: &Path) -> bool {
    if target.is_absolute() {
        return false;
    }
    let mut depth = i64::try_from(at.matches('/').count()).unwrap_or(i64::MAX);
    for c in target.components() {
        match c {
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            _ => return false,
        }
        if depth < 0 {
            return false;
        }
    }
    true
}

fn refuse_link(at: &str, target: &Path) -> Result<(), String> {
    if link_stays_inside(at, target) {
        Ok(())
    } else {
        Err(format!(
            "the link {at} points out of the submission (to {})",
            target.display()
        ))
    }
}

fn read_bounded(r: impl Read, total: u64) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    r.take(MAX_BYTES.saturating_sub(total) + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    Ok(bytes)
}

/// Reads a submission's files.
pub fn read(source: &Source) -> Result<Files, String> {
    let files = match source {
        Source::Folder(dir) => read_folder(dir)?,
        Source::Zip(path) => read_zip(path)?,
        Source::Tar(path) => read_tar(open(path)?)?,
        Source::TarGz(path) => read_tar(flate2::read::GzDecoder::new(open(path)?))?,
    };
    Ok(files.unwrap_single_folder())
}

fn open(path: &Path) -> Result<std::fs::File, String> {
    std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))
}

fn read_folder(dir: &Path) -> Result<Files, String> {
    let mut files = Files::default();
    let mut total = 0;
    let walk = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.file_name() != ".git");
    for entry in walk {
        let entry = entry.map_err(|e| format!("cannot read the folder: {e}"))?;
        let Ok(rel) = entry.path().strip_prefix(dir) else {
            continue;
        };
        let Some(rel) = inside(rel)? else { continue };
        let kind = entry.file_type();
        if kind.is_symlink() {
            let target = std::fs::read_link(entry.path()).unwrap_or_default();
            refuse_link(&rel, &target)?;
        } else if kind.is_file() {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = entry.metadata().ok().map(|m| m.permissions().mode());
            let bytes = read_bounded(open(entry.path())?, total)?;
            files.add(&rel, bytes, mode, &mut total)?;
        }
    }
    Ok(files)
}

fn read_zip(path: &Path) -> Result<Files, String> {
    let mut archive =
        zip::ZipArchive::new(open(path)?).map_err(|e| format!("not a zip archive: {e}"))?;
    let mut files = Files::default();
    let mut total = 0;
    for i in 0..archive.len() {
        let mut entry = archive
            .by_index(i)
            .map_err(|e| format!("cannot read the zip archive: {e}"))?;
        let raw = Path::new(
            <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(entry.name_raw()),
        )
        .to_owned();
        let Some(rel) = inside(&raw)? else { continue };
        if entry.is_symlink() {
            let target = read_bounded(&mut entry, total)?;
            refuse_link(
                &rel,
                Path::new(&String::from_utf8_lossy(&target).into_owned()),
            )?;
        } else if entry.is_file() {
            let mode = entry.unix_mode();
            let bytes = read_bounded(&mut entry, total)?;
            files.add(&rel, bytes, mode, &mut total)?;
        }
    }
    Ok(files)
}

fn read_tar(reader: impl Read) -> Result<Files, String> {
    let mut archive = tar::Archive::new(reader);
    let mut files = Files::default();
    let mut total = 0;
    let entries = archive
        .entries()
        .map_err(|e| format!("not a tar archive: {e}"))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| format!("cannot read the tar archive: {e}"))?;
        let raw = entry
            .path()
            .map_err(|e| format!("a tar entry's name: {e}"))?
            .into_owned();
        let Some(rel) = inside(&raw)? else { continue };
        let kind = entry.header().entry_type();
        if kind.is_symlink() || kind.is_hard_link() {
            let target = entry
                .link_name()
                .ok()
                .flatten()
                .map(std::borrow::Cow::into_owned)
                .unwrap_or_default();
            if kind.is_hard_link() {
                // A hard link names a path from the archive's root.
                inside(&target)?;
            } else {
                refuse_link(&rel, &target)?;
            }
        } else if kind.is_file() {
            let mode = entry.header().mode().ok();
            let bytes = read_bounded(&mut entry, total)?;
            files.add(&rel, bytes, mode, &mut total)?;
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    fn tar_with(entries: &[(&str, &[u8])], link: Option<(&str, &str)>) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        for (path, bytes) in entries {
            let mut h = tar::Header::new_gnu();
            h.set_size(bytes.len() as u64);
            h.set_mode(0o644);
            // Written raw: the builder itself refuses `..`.
            let name = h.as_old_mut().name.as_mut();
            name[..path.len()].copy_from_slice(path.as_bytes());
            h.set_cksum();
            b.append(&h, *bytes).unwrap();
        }
        if let Some((at, to)) = link {
            let mut h = tar::Header::new_gnu();
            h.set_entry_type(tar::EntryType::Symlink);
            h.set_size(0);
            b.append_link(&mut h, at, to).unwrap();
        }
        b.into_inner().unwrap()
    }

    #[test]
    fn a_tar_is_read_and_its_single_folder_unwrapped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.tar");
        std::fs::write(
            &path,
            tar_with(
                &[("alice/main.c", b"int main;"), ("alice/Makefile", b"x")],
                None,
            ),
        )
        .unwrap();
        let files = read(&Source::Tar(path)).unwrap();
        let names: Vec<&str> = files.0.keys().map(String::as_str).collect();
        assert_eq!(names, ["Makefile", "main.c"]);
    }

    #[test]
    fn paths_and_links_that_climb_out_refuse_the_submission() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.tar");
        std::fs::write(&path, tar_with(&[("../evil.c", b"x")], None)).unwrap();
        let err = read(&Source::Tar(path.clone())).unwrap_err();
        assert!(err.contains("climbs out"), "{err}");
        std::fs::write(
            &path,
            tar_with(&[("main.c", b"x")], Some(("up", "../../etc"))),
        )
        .unwrap();
        let err = read(&Source::Tar(path.clone())).unwrap_err();
        assert!(err.contains("points out"), "{err}");
        std::fs::write(&path, tar_with(&[("main.c", b"x")], Some(("in", "main.c")))).unwrap();
        assert!(read(&Source::Tar(path)).is_ok());
    }

    #[test]
    fn a_folder_and_its_zip_unwrap_the_same_way() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("alice");
        std::fs::create_dir_all(folder.join("nested/src")).unwrap();
        std::fs::write(folder.join("nested/src/ass1.c"), b"int main;").unwrap();
        let path = dir.path().join("alice.zip");
        let mut w = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        w.start_file(
            "alice/nested/src/ass1.c",
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
        w.write_all(b"int main;").unwrap();
        w.finish().unwrap();
        let from_folder = read(&Source::Folder(folder)).unwrap();
        let from_zip = read(&Source::Zip(path)).unwrap();
        assert_eq!(from_folder, from_zip);
        assert_eq!(from_zip.top_names().collect::<Vec<_>>(), ["ass1.c"]);
    }

    #[test]
    fn macos_litter_does_not_stop_a_folder_being_unwrapped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.zip");
        let mut w = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        let opts = zip::write::SimpleFileOptions::default();
        for name in ["alice/main.c", "__MACOSX/alice/._main.c", "alice/.DS_Store"] {
            w.start_file(name, opts).unwrap();
            w.write_all(b"x").unwrap();
        }
        w.finish().unwrap();
        let files = read(&Source::Zip(path)).unwrap();
        assert_eq!(files.0.keys().collect::<Vec<_>>(), ["main.c"]);
    }

    #[test]
    fn a_zip_is_read_and_a_climbing_entry_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.zip");
        let mut w = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        let opts = zip::write::SimpleFileOptions::default();
        w.start_file("main.c", opts).unwrap();
        w.write_all(b"int main(void){return 0;}").unwrap();
        w.finish().unwrap();
        let files = read(&Source::Zip(path.clone())).unwrap();
        assert_eq!(files.0.keys().collect::<Vec<_>>(), ["main.c"]);
        let mut w = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        w.start_file("../../x.c", opts).unwrap();
        w.finish().unwrap();
        assert!(read(&Source::Zip(path)).unwrap_err().contains("climbs out"));
    }

    #[test]
    fn executable_files_keep_their_mode_in_every_form() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let want = |files: &Files| {
            assert_eq!(files.1.iter().collect::<Vec<_>>(), ["configure"]);
            assert_eq!(files.0.len(), 2);
        };
        // A folder.
        let folder = dir.path().join("alice");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("configure"), b"#!/bin/sh\n").unwrap();
        std::fs::write(folder.join("main.c"), b"int main;").unwrap();
        std::fs::set_permissions(
            folder.join("configure"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        want(&read(&Source::Folder(folder)).unwrap());
        // A zip.
        let path = dir.path().join("a.zip");
        let mut w = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        let opts = zip::write::SimpleFileOptions::default();
        w.start_file("configure", opts.unix_permissions(0o755))
            .unwrap();
        w.write_all(b"#!/bin/sh\n").unwrap();
        w.start_file("main.c", opts.unix_permissions(0o644))
            .unwrap();
        w.finish().unwrap();
        want(&read(&Source::Zip(path)).unwrap());
        // A tar.
        let mut b = tar::Builder::new(Vec::new());
        for (name, mode) in [("configure", 0o755), ("main.c", 0o644)] {
            let mut h = tar::Header::new_gnu();
            h.set_size(1);
            h.set_mode(mode);
            h.set_cksum();
            b.append_data(&mut h, name, &b"x"[..]).unwrap();
        }
        let path = dir.path().join("a.tar");
        std::fs::write(&path, b.into_inner().unwrap()).unwrap();
        want(&read(&Source::Tar(path)).unwrap());
    }

    #[test]
    fn a_folder_skips_git_and_refuses_links_out() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        std::fs::write(dir.path().join(".git/HEAD"), b"x").unwrap();
        std::fs::write(dir.path().join("a.c"), b"x").unwrap();
        let files = read(&Source::Folder(dir.path().to_owned())).unwrap();
        assert_eq!(files.0.keys().collect::<Vec<_>>(), ["a.c"]);
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("p")).unwrap();
        assert!(
            read(&Source::Folder(dir.path().to_owned()))
                .unwrap_err()
                .contains("points out")
        );
    }

    #[test]
    fn the_hash_changes_with_a_byte_or_a_name() {
        let mut a = Files::default();
        a.0.insert("a.c".into(), b"x".to_vec());
        let h = a.hash();
        a.0.insert("a.c".into(), b"y".to_vec());
        assert_ne!(a.hash(), h);
    }
}
