//! A slice of the class (`--partition K/N`): which submissions one of N
//! marking runs takes, dealt round robin.

/// Slice K of N.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Partition {
    /// 1-based.
    pub k: usize,
    /// Slices in all.
    pub n: usize,
}

impl Partition {
    /// Whether the `index`-th submission (0-based, ids sorted) is ours.
    pub fn holds(self, index: usize) -> bool {
        index % self.n + 1 == self.k
    }
}

/// Parses `K/N` with 1 ≤ K ≤ N.
pub fn parse_partition(text: &str) -> Result<Partition, String> {
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("`{text}` is not K/N"))?;
    let k: usize = k
        .trim()
        .parse()
        .map_err(|_| format!("`{k}` is not a number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("`{n}` is not a number"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("{k}/{n}: K must be 1 to N"));
    }
    Ok(Partition { k, n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_deal_round_robin_and_cover_everything_once() {
        assert_eq!(parse_partition("2/3"), Ok(Partition { k: 2, n: 3 }));
        assert!(parse_partition("0/3").is_err());
        assert!(parse_partition("4/3").is_err());
        assert!(parse_partition("3").is_err());
        let parts: Vec<Partition> = (1..=3).map(|k| Partition { k, n: 3 }).collect();
        for i in 0..10 {
            assert_eq!(parts.iter().filter(|p| p.holds(i)).count(), 1);
        }
        assert!(parts[0].holds(0) && parts[1].holds(1) && parts[0].holds(3));
    }
}
