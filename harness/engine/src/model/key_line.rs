//! Where a key sits in a YAML text, for the errors serde cannot place (a
//! value that parses but is wrong): the line of `key:` written as a key —
//! at the start of a line after its indentation, `- ` or `{`, or after a
//! `,` or `{` of a flow mapping — never the same letters inside a value or
//! another key. A chain of keys ([`line_of_path`]) finds a key below
//! another (`stdin:` then `damage:`) or the n-th of its name (the third
//! file's `path:`).

/// The 1-based lines where `key` is written as a key, in order (a line
/// with it twice, as in a flow mapping, appears twice).
pub fn key_lines<'a>(text: &'a str, key: &'a str) -> impl Iterator<Item = usize> + 'a {
    text.lines().enumerate().flat_map(move |(i, line)| {
        line.match_indices(key)
            .filter(move |&(at, _)| is_key_at(line, at, key.len()))
            .map(move |_| i + 1)
    })
}

/// Whether the `len` bytes of `line` at `at` are a key: what precedes is
/// indentation, a sequence dash or a flow mapping's `{` or `,`, and a `:`
/// follows.
fn is_key_at(line: &str, at: usize, len: usize) -> bool {
    let before = line[..at].trim_end();
    let opens = before.is_empty()
        || before.ends_with(['{', ','])
        || before.chars().all(|c| c == '-' || c.is_whitespace());
    opens && line[at + len..].trim_start().starts_with(':')
}

/// The 1-based line of the first `key:` in `text`.
pub fn line_of(text: &str, key: &str) -> Option<usize> {
    key_lines(text, key).next()
}

/// The line reached by `path`, a chain of (key, n): the `n`-th (from 0)
/// `key:` at or after the line of the previous step.
pub fn line_of_path(text: &str, path: &[(&str, usize)]) -> Option<usize> {
    let mut at = 1;
    for &(key, n) in path {
        at = key_lines(text, key).filter(|&l| l >= at).nth(n)?;
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any text: every line found exists and holds the key followed by
        /// a colon.
        #[test]
        fn found_lines_hold_the_key(text in "[ a-c:{},\\n-]{0,80}", key in "[a-c]{1,2}") {
            let lines: Vec<&str> = text.lines().collect();
            for l in key_lines(&text, &key) {
                let line = lines[l - 1];
                prop_assert!(line.contains(key.as_str()) && line.contains(':'), "{line:?}");
            }
            let _ = line_of_path(&text, &[(&key, 1), (&key, 0)]);
        }
    }

    const TEXT: &str = "values:\n  s: {choice: [a]}\n  n: {int: [1, 2]}\nfiles:\n  - {path: a, \
                        chance: 1}\n  - path: b\n    chance: 2\nstdin:\n  length: [0, 1]\n";

    #[test]
    fn a_key_is_found_where_it_is_written_as_one() {
        assert_eq!(line_of(TEXT, "s"), Some(2), "not the `s` of `values:`");
        assert_eq!(line_of(TEXT, "n"), Some(3));
        assert_eq!(line_of(TEXT, "length"), Some(9));
        assert_eq!(line_of(TEXT, "chance"), Some(5), "inside a flow mapping");
        assert_eq!(line_of(TEXT, "a"), None, "a value is not a key");
        assert_eq!(line_of("- - x: 1\n", "x"), Some(1));
    }

    #[test]
    fn a_chain_finds_a_key_below_another_or_the_nth_of_its_name() {
        assert_eq!(
            line_of_path(TEXT, &[("files", 0), ("path", 1), ("chance", 0)]),
            Some(7)
        );
        assert_eq!(
            line_of_path(TEXT, &[("files", 0), ("path", 0), ("chance", 0)]),
            Some(5)
        );
        assert_eq!(line_of_path(TEXT, &[("stdin", 0), ("values", 0)]), None);
    }
}
