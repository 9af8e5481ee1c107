//! Reading a grouped report's causes in tests: each cause's lines, and
//! whether every cause names a rule (issue 45: the nogo suite's causes on
//! every variant `nogo_variants` and `causes` run).

/// Whether `line` names a rule ID (`SAVE-1`, `FILE-6`; `SAVE-#` in a
/// key whose numbers are masked).
pub fn names_a_rule(line: &str) -> bool {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '#'))
        .any(|word| {
            word.split_once('-').is_some_and(|(head, tail)| {
                !head.is_empty()
                    && head.bytes().all(|b| b.is_ascii_uppercase())
                    && (tail == "#" || !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()))
            })
        })
}

/// Each cause of a grouped report `text`: its headline, with the key or
/// the example's lines that follow it.
pub fn cause_blocks(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("cause ") && l.contains(" case(s): "))
        .map(|(i, l)| {
            let next = lines
                .get(i + 1)
                .filter(|n| n.starts_with("  the check") || n.starts_with("  for example"));
            next.map_or_else(|| (*l).to_owned(), |n| format!("{l}\n{n}"))
        })
        .collect()
}

/// Every cause of `text` names at least one rule (issue 45).
pub fn assert_every_cause_names_a_rule(name: &str, text: &str) {
    for cause in cause_blocks(text) {
        assert!(
            names_a_rule(&cause),
            "{name}: a cause naming no rule:\n{cause}"
        );
    }
}
