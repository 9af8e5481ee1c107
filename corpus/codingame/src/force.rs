//! The scripted opponent's search: on a small board, the harness plays the
//! other seat so that a situation the case is about (an extra request, two
//! boxes closed by one side, every listed box with one free side, …) is
//! *forced* whatever legal moves the bot chooses. An AND-OR search over the
//! whole game (bitmask positions, memoised) decides, for each position,
//! whether the opponent can force the bot into a request showing the
//! [`Scenario`]; the opponent then plays a move that keeps it forced. A case
//! on such a board is thus conclusive for every bot that answers legally.

use std::collections::HashMap;

use codingame_reference::board::{Board, Edge, Seat};
use serde::Deserialize;

/// The largest board the search runs on: 2×2 takes milliseconds; 3×3
/// positions number in the millions for some scenarios (seconds to minutes
/// per case), too slow for a suite run many times.
pub const MAX_SIZE: u8 = 2;

/// A situation a request to the bot can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scenario {
    /// The bot is asked again right after its own move closed a box
    /// (MOVE-3).
    ExtraRequest,
    /// The bot's move closed two boxes at once and it is asked once more
    /// (MOVE-3: one extra request, however many boxes). No 2×2 play forces
    /// it (the bot can always decline, and cannot be forced even to be
    /// offered it): the harness's seat then only offers it when it can
    /// ([`offers_double`]).
    DoubleClose,
    /// Every box listed has exactly one free side (TURN-2: `T` alone).
    SingleSides,
    /// No free side's mirror image (rows read from the top) is free
    /// (BOARD-2): a bot counting rows from the top names a drawn side.
    Mirror,
    /// The bot owns more boxes than its opponent (TURN-1: own first).
    Ahead,
    /// The bot owns fewer boxes than its opponent (TURN-1: own first).
    Behind,
}

/// A position in the search: drawn sides, whose turn, the last move, the
/// score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Node {
    drawn: u64,
    bot_to_move: bool,
    /// Boxes the bot's last move closed, when the last move was the bot's.
    bot_closed: Option<u8>,
    /// Bot's boxes minus the opponent's.
    lead: i8,
}

/// The board's geometry as bitmasks: each box's four sides.
#[derive(Debug, Clone)]
struct Geometry {
    sides: usize,
    boxes: Vec<u64>,
    mirror: Vec<usize>,
}

impl Geometry {
    fn new(board: &Board) -> Geometry {
        let boxes = board
            .boxes()
            .map(|b| {
                codingame_reference::board::Side::ALL
                    .into_iter()
                    .fold(0u64, |m, s| m | 1 << board.edge(b, s).0)
            })
            .collect();
        let n = board.size();
        let mirror =
            board
                .edges()
                .map(|e| {
                    board.boxes_of(e).into_iter().flatten().next().map_or(
                        usize::from(e.0),
                        |(b, s)| {
                            let flipped = codingame_reference::board::BoxId {
                                col: b.col,
                                row: n - 1 - b.row,
                            };
                            let side = match s {
                                codingame_reference::board::Side::T => {
                                    codingame_reference::board::Side::B
                                }
                                codingame_reference::board::Side::B => {
                                    codingame_reference::board::Side::T
                                }
                                other => other,
                            };
                            usize::from(board.edge(flipped, side).0)
                        },
                    )
                })
                .collect();
        Geometry {
            sides: board.edge_count(),
            boxes,
            mirror,
        }
    }

    fn full(&self) -> u64 {
        if self.sides >= 64 {
            u64::MAX
        } else {
            (1u64 << self.sides) - 1
        }
    }

    /// Boxes closed by drawing `side` on `drawn`.
    fn closes(&self, drawn: u64, side: usize) -> u8 {
        let after = drawn | 1 << side;
        self.boxes
            .iter()
            .filter(|&&m| m & (1 << side) != 0 && after & m == m)
            .count() as u8
    }

    fn shows(&self, node: Node, scenario: Scenario) -> bool {
        let free = self.full() & !node.drawn;
        match scenario {
            Scenario::ExtraRequest => node.bot_closed.is_some_and(|c| c >= 1),
            Scenario::DoubleClose => node.bot_closed == Some(2),
            Scenario::SingleSides => self
                .boxes
                .iter()
                .filter(|&&m| m & free != 0)
                .all(|&m| (m & free).is_power_of_two()),
            Scenario::Mirror => (0..self.sides)
                .filter(|&s| free & (1 << s) != 0)
                .all(|s| free & (1 << self.mirror[s]) == 0),
            Scenario::Ahead => node.lead > 0,
            Scenario::Behind => node.lead < 0,
        }
    }
}

/// The opponent's forcing search for one scenario on one board size.
#[derive(Debug, Clone)]
pub struct Forcer {
    geometry: Geometry,
    scenario: Scenario,
    memo: HashMap<Node, bool>,
}

impl Forcer {
    /// A search for `scenario` on boards like `board` (at most
    /// [`MAX_SIZE`]).
    pub fn new(board: &Board, scenario: Scenario) -> Option<Forcer> {
        (board.size() <= MAX_SIZE).then(|| Forcer {
            geometry: Geometry::new(board),
            scenario,
            memo: HashMap::new(),
        })
    }

    fn play(&self, node: Node, side: usize) -> Node {
        let closed = self.geometry.closes(node.drawn, side);
        let gain = closed.cast_signed();
        let lead = if node.bot_to_move {
            node.lead + gain
        } else {
            node.lead - gain
        };
        Node {
            drawn: node.drawn | 1 << side,
            bot_to_move: if closed > 0 {
                node.bot_to_move
            } else {
                !node.bot_to_move
            },
            bot_closed: node.bot_to_move.then_some(closed),
            lead,
        }
    }

    fn forced(&mut self, node: Node) -> bool {
        if node.drawn == self.geometry.full() {
            return false;
        }
        if node.bot_to_move && self.geometry.shows(node, self.scenario) {
            return true;
        }
        if let Some(&known) = self.memo.get(&node) {
            return known;
        }
        let free: Vec<usize> = (0..self.geometry.sides)
            .filter(|&s| node.drawn & (1 << s) == 0)
            .collect();
        let result = if node.bot_to_move {
            free.iter().all(|&s| {
                let next = self.play(node, s);
                self.forced(next)
            })
        } else {
            free.iter().any(|&s| {
                let next = self.play(node, s);
                self.forced(next)
            })
        };
        self.memo.insert(node, result);
        result
    }

    fn node(board: &Board, bot: Seat, to_move: Seat, bot_closed: Option<u8>) -> Node {
        let drawn = board
            .edges()
            .filter(|&e| board.is_drawn(e))
            .fold(0u64, |m, e| m | 1 << e.0);
        let lead = board.score(bot) as i8 - board.score(bot.other()) as i8;
        Node {
            drawn,
            bot_to_move: to_move == bot,
            bot_closed,
            lead,
        }
    }

    /// Whether the scenario shows in a request to `bot` at this position,
    /// `bot_closed` being what the bot's last move closed when the last move
    /// was the bot's.
    pub fn shows(&self, board: &Board, bot: Seat, bot_closed: Option<u8>) -> bool {
        self.geometry
            .shows(Self::node(board, bot, bot, bot_closed), self.scenario)
    }

    /// Whether the opponent, to move at this position, can force the
    /// scenario.
    pub fn can_force(&mut self, board: &Board, bot: Seat) -> bool {
        let node = Self::node(board, bot, bot.other(), None);
        self.forced(node)
    }

    /// A move for the opponent (to move on `board`) that keeps the scenario
    /// forced, if there is one.
    pub fn forcing_move(&mut self, board: &Board, bot: Seat) -> Option<Edge> {
        let node = Self::node(board, bot, bot.other(), None);
        (0..self.geometry.sides)
            .filter(|&s| node.drawn & (1 << s) == 0)
            .find(|&s| {
                let next = self.play(node, s);
                self.forced(next)
            })
            .map(|s| Edge(s as u16))
    }
}

/// A move for the side to move on `board` after which some free side
/// closes two boxes at once, without closing a box itself, if there is one.
pub fn offers_double(board: &Board) -> Option<Edge> {
    if board.edge_count() >= 64 {
        return None;
    }
    let g = Geometry::new(board);
    let drawn = board
        .edges()
        .filter(|&e| board.is_drawn(e))
        .fold(0u64, |m, e| m | 1 << e.0);
    let full = g.full();
    (0..g.sides)
        .filter(|&s| drawn & (1 << s) == 0 && g.closes(drawn, s) == 0)
        .find(|&s| {
            let after = drawn | 1 << s;
            (0..g.sides).any(|t| full & !after & (1 << t) != 0 && g.closes(after, t) == 2)
        })
        .map(|s| Edge(s as u16))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forced_from_the_start(scenario: Scenario, bot: Seat) -> bool {
        let board = Board::new(2).unwrap();
        let mut f = Forcer::new(&board, scenario).unwrap();
        if bot == Seat::A {
            // Seat A's opponent moves second: every first move of A.
            board.edges().all(|e| {
                let mut b = board.clone();
                b.draw(e, Seat::A);
                f.can_force(&b, bot)
            })
        } else {
            f.can_force(&board, bot)
        }
    }

    /// What the 2×2 search forces from the empty board, for each seat of
    /// the bot: the suite's forced cases use only the `true` entries.
    #[test]
    fn forced_scenarios_on_2x2() {
        use Scenario::*;
        let table = [
            (ExtraRequest, true, true),
            (DoubleClose, false, false),
            (SingleSides, true, false),
            (Mirror, true, false),
            (Ahead, true, false),
            (Behind, false, false),
        ];
        for (scenario, a, b) in table {
            assert_eq!(
                forced_from_the_start(scenario, Seat::A),
                a,
                "{scenario:?} A"
            );
            assert_eq!(
                forced_from_the_start(scenario, Seat::B),
                b,
                "{scenario:?} B"
            );
        }
    }

    #[test]
    fn a_forcing_move_keeps_the_scenario_forced() {
        let mut board = Board::new(2).unwrap();
        board.draw(Edge(0), Seat::A);
        let mut f = Forcer::new(&board, Scenario::ExtraRequest).unwrap();
        let e = f.forcing_move(&board, Seat::A).unwrap();
        assert!(!board.is_drawn(e));
        assert!(Forcer::new(&Board::new(3).unwrap(), Scenario::Mirror).is_none());
    }
}
