//! cg-bot's strength, in process and deterministic: it never forfeits and it
//! beats the greedy bot over every size in both seats. (The 95% measurement
//! over many more matches is in the bench.)

use codingame_reference::duel::{duel, greedy, strong, strong_vs_greedy};
use codingame_reference::replay::replay;

#[test]
fn cg_bot_beats_greedy_without_forfeit() {
    let t = strong_vs_greedy(2..=9, 3);
    assert_eq!(t.played, 48);
    assert_eq!(t.forfeits, 0);
    assert!(t.won >= 42, "{t:?}");
}

#[test]
fn cg_bot_against_itself_is_legal_and_replays() {
    for size in 2..=9 {
        let rec = duel(size, strong, strong, [size.into(), 7]);
        assert_eq!(rec.forfeit, None);
        assert_eq!(
            rec.moves.len(),
            2 * usize::from(size) * (usize::from(size) + 1)
        );
        replay(&rec).unwrap();
        let rec = duel(size, greedy, strong, [1, 2]);
        assert_eq!(rec.forfeit, None);
    }
}
