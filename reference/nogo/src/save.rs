//! Saving a game on a human's request (rulings SAVE-1..4).

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;

use crate::savefile;
use crate::state::State;

/// Why a save failed; all are reported alike (SAVE-4).
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// `w` alone names the empty path, which cannot be opened.
    #[error("the path is empty")]
    EmptyPath,
    /// The path is longer than any `open` accepts.
    #[error("the path is too long")]
    PathTooLong,
    /// The file could not be opened for writing.
    #[error("opening the file: {0}")]
    Open(#[source] io::Error),
    /// A write after the open failed (a full disk).
    #[error("writing the file: {0}")]
    Write(#[source] io::Error),
}

/// Writes `state` to `path` in the save-file format, truncating any
/// existing file (SAVE-2). `None` is a path too long to open.
pub fn save(state: &State, path: Option<&[u8]>) -> Result<(), SaveError> {
    let path = match path {
        None => return Err(SaveError::PathTooLong),
        Some([]) => return Err(SaveError::EmptyPath),
        Some(p) => p,
    };
    let mut file = File::create(OsStr::from_bytes(path)).map_err(SaveError::Open)?;
    file.write_all(&savefile::to_bytes(state))
        .map_err(SaveError::Write)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Stone};
    use crate::player::Player;

    #[test]
    fn save_2_writes_the_file_format_and_replaces() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("game");
        std::fs::write(&path, vec![b'z'; 500]).expect("write");
        let mut state = State::new(4, 5);
        state.grid.set(Cell::new(1, 2), Stone::Taken(Player::O));
        state.next = Player::X;
        assert!(save(&state, Some(path.as_os_str().as_bytes())).is_ok());
        let bytes = std::fs::read(&path).expect("read");
        assert_eq!(
            bytes,
            b"4 5 1 1 4 0 2 0 0\n.....\n..O..\n.....\n.....\n".to_vec()
        );
    }

    #[test]
    fn save_4_failures() {
        let state = State::new(4, 4);
        assert!(matches!(save(&state, Some(b"")), Err(SaveError::EmptyPath)));
        assert!(matches!(save(&state, None), Err(SaveError::PathTooLong)));
        assert!(matches!(
            save(&state, Some(b"/nonexistent/dir/file")),
            Err(SaveError::Open(_))
        ));
        let dir = tempfile::tempdir().expect("temporary directory");
        assert!(matches!(
            save(&state, Some(dir.path().as_os_str().as_bytes())),
            Err(SaveError::Open(_))
        ));
        if std::path::Path::new("/dev/full").exists() {
            assert!(matches!(
                save(&state, Some(b"/dev/full")),
                Err(SaveError::Write(_))
            ));
        }
    }
}
