//! The values of an `explore.yaml` drawn into its templates: `{name}`
//! replaced by a draw of the value (an int mostly in its range, sometimes
//! at or past an end; a choice uniformly, its word a template itself; a
//! permutation: the characters of its word in a random order),
//! `{{`/`}}` as braces, chances and weighted picks. Deterministic from the
//! session's generator: the same seed draws the same session.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::model::rng::SplitMix64;

/// A named value: `{int: [lo, hi]}`, `{choice: [words]}` or
/// `{permutation: word}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "ValueKeys")]
pub enum Value {
    /// An integer in `[lo, hi]`, with the boundaries and beyond now and then.
    Int([i64; 2]),
    /// One of these words.
    Choice(Vec<String>),
    /// The characters of this word in a random order (a cipher key, a
    /// shuffled deck): every arrangement equally likely.
    Permutation(String),
}

/// A value as written: exactly one of its keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ValueKeys {
    int: Option<[i64; 2]>,
    choice: Option<Vec<String>>,
    permutation: Option<String>,
}

impl TryFrom<ValueKeys> for Value {
    type Error = &'static str;

    fn try_from(keys: ValueKeys) -> Result<Self, Self::Error> {
        match (keys.int, keys.choice, keys.permutation) {
            (Some(range), None, None) => Ok(Self::Int(range)),
            (None, Some(words), None) => Ok(Self::Choice(words)),
            (None, None, Some(word)) => Ok(Self::Permutation(word)),
            _ => Err(
                "a value is one of `{int: [lo, hi]}`, `{choice: [words]}` or \
                 `{permutation: word}`",
            ),
        }
    }
}

/// The names a template refers to, in order (`{{` and `}}` are braces).
pub(super) fn placeholders(template: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        if rest[open..].starts_with("{{") {
            rest = &rest[open + 2..];
            continue;
        }
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        names.push(rest[open + 1..open + close].to_owned());
        rest = &rest[open + close + 1..];
    }
    names
}

/// How deep a choice's word may hold templates of its own (a value that
/// names itself stops there, its last braces left as they are).
const DEPTH: usize = 4;

/// The most bytes a filled template grows to before expansion stops: depth
/// alone bounds nesting, not size (a word naming its own value `k` times
/// expands to `k^DEPTH` copies).
pub const MAX_FILL: usize = 64 * 1024;

/// A template with its values drawn; past [`MAX_FILL`] bytes the rest is
/// left out (the text ends within one template's length of the cap).
pub(super) fn fill(
    template: &str,
    values: &BTreeMap<String, Value>,
    rng: &mut SplitMix64,
) -> String {
    let mut out = String::new();
    fill_into(template, values, rng, 0, &mut out);
    out
}

fn fill_into(
    template: &str,
    values: &BTreeMap<String, Value>,
    rng: &mut SplitMix64,
    depth: usize,
    out: &mut String,
) {
    let mut rest = template;
    while out.len() < MAX_FILL {
        let Some(open) = rest.find(['{', '}']) else {
            out.push_str(rest);
            return;
        };
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        if let Some(close) = tail.find('}').filter(|_| tail.starts_with('{')) {
            match values.get(&tail[1..close]) {
                Some(Value::Choice(words)) if depth < DEPTH => {
                    let word = &words[rng.below(words.len())];
                    fill_into(word, values, rng, depth + 1, out);
                }
                Some(v) => out.push_str(&draw(v, rng)),
                None => {}
            }
            rest = &tail[close + 1..];
        } else {
            out.push_str(&tail[..1]);
            rest = &tail[1..];
        }
    }
}

/// One value: an integer mostly in its range, else a boundary or beyond
/// (where programs' range checks go wrong); a choice uniformly.
fn draw(value: &Value, rng: &mut SplitMix64) -> String {
    match value {
        Value::Choice(words) => words[rng.below(words.len())].clone(),
        Value::Permutation(word) => {
            let mut chars: Vec<char> = word.chars().collect();
            // Fisher-Yates: each arrangement equally likely.
            for i in (1..chars.len()).rev() {
                chars.swap(i, rng.below(i + 1));
            }
            chars.into_iter().collect()
        }
        Value::Int([lo, hi]) => {
            let (lo, hi) = (*lo, *hi);
            if rng.below(4) > 0 {
                let span = u64::try_from(i128::from(hi) - i128::from(lo)).unwrap_or(u64::MAX);
                let offset = if span == u64::MAX {
                    rng.next_u64()
                } else {
                    rng.next_u64() % (span + 1)
                };
                let n = i128::from(lo) + i128::from(offset);
                return n.to_string();
            }
            let edges = [
                i128::from(lo),
                i128::from(hi),
                i128::from(lo) - 1,
                i128::from(hi) + 1,
                0,
                -1,
                i128::from(i32::MAX) + 1,
            ];
            edges[rng.below(edges.len())].to_string()
        }
    }
}

/// Whether a draw with chance `p` comes up.
pub(super) fn chance(p: f64, rng: &mut SplitMix64) -> bool {
    // 2^53 steps: as fine as an f64 in [0, 1) can be.
    #[expect(
        clippy::cast_precision_loss,
        reason = "53 bits fit an f64's mantissa exactly"
    )]
    let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    x < p
}

/// A uniform index below `n`; `None` when there is none.
pub fn uniform(n: usize, rng: &mut SplitMix64) -> Option<usize> {
    (n > 0).then(|| rng.below(n))
}

/// One of `indices` drawn by `weight`; `None` when all weigh nothing
/// (a grammar's check refuses lists that do).
pub(super) fn pick(
    indices: &[usize],
    weight: impl Fn(usize) -> u32,
    rng: &mut SplitMix64,
) -> Option<usize> {
    let total: u64 = indices.iter().map(|&i| u64::from(weight(i))).sum();
    if total == 0 {
        return None;
    }
    let mut at = rng.next_u64() % total;
    for &i in indices {
        let w = u64::from(weight(i));
        if at < w {
            return Some(i);
        }
        at -= w;
    }
    None
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn integers_reach_their_boundaries_and_beyond() {
        let v = Value::Int([1, 8]);
        let mut rng = SplitMix64::new(3);
        let drawn: BTreeSet<i64> = (0..2000)
            .filter_map(|_| draw(&v, &mut rng).parse().ok())
            .collect();
        for n in [-1, 0, 1, 8, 9, 2_147_483_648] {
            assert!(drawn.contains(&n), "{n} never drawn: {drawn:?}");
        }
    }

    #[test]
    fn a_permutation_rearranges_its_word() {
        let v = Value::Permutation("ABCDE".to_owned());
        let mut rng = SplitMix64::new(7);
        let drawn: BTreeSet<String> = (0..500).map(|_| draw(&v, &mut rng)).collect();
        for word in &drawn {
            let mut sorted: Vec<char> = word.chars().collect();
            sorted.sort_unstable();
            assert_eq!(sorted.into_iter().collect::<String>(), "ABCDE");
        }
        // 120 arrangements: 500 draws reach most of them.
        assert!(drawn.len() > 100, "{}", drawn.len());
        assert_eq!(
            draw(&Value::Permutation(String::new()), &mut rng),
            String::new()
        );
    }

    #[test]
    fn templates_fill_values_and_keep_doubled_braces() {
        let mut values = BTreeMap::new();
        values.insert("x".to_owned(), Value::Choice(vec!["7".to_owned()]));
        let mut rng = SplitMix64::new(0);
        assert_eq!(fill("a{x}b{{x}}c}", &values, &mut rng), "a7b{x}c}");
        values.insert("y".to_owned(), Value::Choice(vec!["<{x}{y}>".to_owned()]));
        assert_eq!(fill("{y}", &values, &mut rng), "<7<7<7<7<{x}{y}>>>>>");
        assert_eq!(placeholders("{{a}} {b} {c"), ["b"]);
    }

    #[test]
    fn a_word_that_multiplies_itself_fills_to_a_bounded_size() {
        // 32 self-references over DEPTH levels would be 32^4 copies of 200
        // bytes: 200 MiB.
        let word = format!("{}{}", "x".repeat(200), "{w}".repeat(32));
        let mut values = BTreeMap::new();
        values.insert("w".to_owned(), Value::Choice(vec![word.clone()]));
        let mut rng = SplitMix64::new(0);
        let text = fill("{w}{w}", &values, &mut rng);
        assert!(text.len() >= MAX_FILL, "{}", text.len());
        assert!(text.len() <= MAX_FILL + word.len(), "{}", text.len());
    }
}
