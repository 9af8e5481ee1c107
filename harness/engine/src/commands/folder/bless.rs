//! Blessing from a model solution: a case is blessed only when two runs of
//! the model give the same bytes (status, stdout, stderr and the files it
//! leaves), so that a model that reads the clock, an address or an
//! uninitialised byte is named rather than written into the suite.

use crate::exec::run::Outcome;

/// The first part in which two runs of the same case differ, named for
/// people (`stdout at byte 12`), or `None` when they agree.
pub fn unstable(first: &Outcome, second: &Outcome) -> Option<String> {
    if first.ending != second.ending {
        return Some(format!(
            "the ending ({} then {})",
            first.ending, second.ending
        ));
    }
    for (name, a, b) in [
        ("stdout", &first.stdout, &second.stdout),
        ("stderr", &first.stderr, &second.stderr),
    ] {
        if a != b {
            let at = a.iter().zip(b.iter()).take_while(|(x, y)| x == y).count();
            return Some(format!("{name} at byte {at}"));
        }
    }
    if first.files != second.files {
        let name = first
            .files
            .iter()
            .find(|(path, bytes)| second.files.get(*path) != Some(bytes))
            .or_else(|| {
                second
                    .files
                    .iter()
                    .find(|(path, _)| !first.files.contains_key(*path))
            })
            .map_or_else(String::new, |(path, _)| format!(" {path}"));
        return Some(format!("the file{name}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::run::Ending;

    fn outcome(stdout: &[u8]) -> Outcome {
        Outcome::exited_with(stdout)
    }

    #[test]
    fn the_first_differing_byte_is_named() {
        assert_eq!(unstable(&outcome(b"abc"), &outcome(b"abc")), None);
        assert_eq!(
            unstable(&outcome(b"abc"), &outcome(b"abd")).as_deref(),
            Some("stdout at byte 2")
        );
        let mut other = outcome(b"abc");
        other.ending = Ending::Exited(1);
        assert!(unstable(&outcome(b"abc"), &other).is_some_and(|p| p.starts_with("the ending")));
        other = outcome(b"abc");
        other.files.insert("save".into(), b"1".to_vec());
        assert_eq!(
            unstable(&outcome(b"abc"), &other).as_deref(),
            Some("the file save")
        );
    }
}
