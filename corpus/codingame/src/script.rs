//! The `script` of a codingame case: the board, the bot's seat, the lines
//! the harness plays first for the other seat, how it plays after them, and
//! when the conversation stops. Parsed from the case's `script` mapping.

use codingame_reference::board::{MAX_SIZE, MIN_SIZE, Seat};
use codingame_reference::judge::Judge;
use serde::Deserialize;

use crate::force::{self, Scenario};

/// One case's conversation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Script {
    /// The board size N, 2 to 9 (BOARD-1).
    pub size: u8,
    /// The bot's seat: `A` moves first (MATCH-1).
    pub seat: SeatName,
    /// Answer lines the harness plays for the other seat first, in order,
    /// each when that seat is asked; every one must be legal then.
    #[serde(default)]
    pub opening: Vec<String>,
    /// A situation the harness's seat forces after the opening, whatever
    /// the bot plays (boards up to 3×3): the case fails to run (an error,
    /// never the bot's fault) if it cannot be forced.
    #[serde(default)]
    pub force: Option<Scenario>,
    /// Stop after the bot answered this many requests (default: play the
    /// match to its end).
    #[serde(default)]
    pub requests: Option<u32>,
    /// Seeds the harness's own play (cg-bot's strategy) after the opening.
    #[serde(default)]
    pub seed: u64,
}

/// A seat as the script names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum SeatName {
    /// Seat A.
    A,
    /// Seat B.
    B,
}

impl From<SeatName> for Seat {
    fn from(s: SeatName) -> Seat {
        match s {
            SeatName::A => Seat::A,
            SeatName::B => Seat::B,
        }
    }
}

/// Parses and checks a script: the size, and every opening line legal in
/// turn when the bot's seat never moves in between (the harness can only
/// promise lines it plays before the bot's first move).
pub fn parse(value: &serde_json::Value) -> Result<Script, String> {
    let script: Script = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
    if !(MIN_SIZE..=MAX_SIZE).contains(&script.size) {
        return Err(format!("size {} is outside 2..=9", script.size));
    }
    let searched = script.force.is_some_and(|f| f != Scenario::DoubleClose);
    if searched && script.size > force::MAX_SIZE {
        return Err(format!(
            "`force` needs a board of at most {0}×{0}",
            force::MAX_SIZE
        ));
    }
    if script.requests == Some(0) {
        return Err("`requests` must be at least 1".to_owned());
    }
    let bot = Seat::from(script.seat);
    let mut judge = Judge::new(u64::from(script.size)).map_err(|e| e.to_string())?;
    for line in &script.opening {
        match judge.next_request() {
            Some(r) if r.seat != bot => {}
            _ => {
                return Err(format!(
                    "opening line `{line}` comes after the bot's first move; openings \
                     are played before it"
                ));
            }
        }
        judge
            .answer(line.as_bytes())
            .map_err(|r| format!("opening line `{line}` is not legal ({})", r.code()))?;
    }
    Ok(script)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scripts_parse_and_are_checked() {
        let s = parse(&json!({"size": 2, "seat": "B", "opening": ["A1 R"]})).unwrap();
        assert_eq!(s.seat, SeatName::B);
        assert!(parse(&json!({"size": 10, "seat": "A"})).is_err());
        assert!(parse(&json!({"size": 2, "seat": "A", "opening": ["A1 R"]})).is_err());
        assert!(parse(&json!({"size": 2, "seat": "B", "opening": ["C1 R"]})).is_err());
        assert!(parse(&json!({"size": 5, "seat": "B", "force": "mirror"})).is_err());
        assert!(parse(&json!({"size": 2, "seat": "B", "colour": 1})).is_err());
        let s = parse(&json!({"size": 2, "seat": "A", "force": "double-close"})).unwrap();
        assert_eq!(s.force, Some(Scenario::DoubleClose));
    }
}
