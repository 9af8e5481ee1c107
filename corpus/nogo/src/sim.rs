//! A game followed line by line with the reference's own pieces: its move
//! grammar ([`command::parse_line`]), its placing and capture
//! ([`game::place`]), its computer player ([`game::computer_move`]). The
//! session generator asks it which lines make sense next; the classifier
//! asks it what a session did. It prints nothing and saves nothing: the
//! reference itself is what `diff` runs.

use nogo_reference::command::{self, Command};
use nogo_reference::game;
use nogo_reference::{Cell, Kind, Player, State, Stone};

use conformance_engine::rng::SplitMix64;

/// What a followed game did, for the classifier.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Events {
    /// Stones placed by humans.
    pub human_moves: usize,
    /// Stones placed by computers.
    pub computer_moves: usize,
    /// Lines read from stdin.
    pub lines_read: usize,
    /// Save lines read.
    pub saves: usize,
    /// Save lines whose path no file can be opened at (empty, cut).
    pub unopenable_saves: usize,
    /// Lines that were not moves (syntax).
    pub malformed: usize,
    /// Well-formed moves outside the grid.
    pub out_of_range: usize,
    /// Well-formed moves on a taken cell.
    pub occupied: usize,
    /// The winner, when someone won.
    pub winner: Option<Player>,
    /// The winning move was a suicide (the mover's own string died).
    pub suicide: bool,
}

/// A game in progress.
#[derive(Debug, Clone)]
pub struct Sim {
    kinds: [Kind; 2],
    state: State,
    /// False when the program never gets to play (bad arguments or file).
    started: bool,
    events: Events,
}

impl Sim {
    /// The game `kinds` play from `state`; one that never starts when
    /// either is missing. Computers move at once, as the program does.
    pub fn new(kinds: Option<[Kind; 2]>, state: Option<State>) -> Self {
        let started = kinds.is_some() && state.is_some();
        let mut sim = Self {
            kinds: kinds.unwrap_or([Kind::Human; 2]),
            state: state.unwrap_or_else(|| State::new(4, 4)),
            started,
            events: Events::default(),
        };
        sim.computers_play();
        sim
    }

    /// The position now.
    pub const fn state(&self) -> &State {
        &self.state
    }

    /// What happened so far.
    pub const fn events(&self) -> &Events {
        &self.events
    }

    /// The position, given up.
    pub fn into_state(self) -> State {
        self.state
    }

    /// Whether the program is waiting for a human's line.
    pub fn awaits_line(&self) -> bool {
        self.started
            && self.events.winner.is_none()
            && self.kinds[self.state.next.index()] == Kind::Human
    }

    /// One stdin line (without `\n`) as the program reads it; ignored when
    /// the program reads no more lines.
    pub fn feed(&mut self, line: &[u8]) {
        if !self.awaits_line() {
            return;
        }
        self.events.lines_read += 1;
        match command::parse_line(line) {
            Command::Save(path) => {
                self.events.saves += 1;
                if path.is_none_or(<[u8]>::is_empty) {
                    self.events.unopenable_saves += 1;
                }
            }
            Command::Move(cell) if self.state.grid.is_free(cell) => {
                self.events.human_moves += 1;
                self.place(cell);
                self.computers_play();
            }
            Command::Move(cell) if self.state.grid.contains(cell) => self.events.occupied += 1,
            Command::Move(_) => self.events.out_of_range += 1,
            Command::Invalid => self.events.malformed += 1,
        }
    }

    fn place(&mut self, cell: Cell) {
        let mover = self.state.next;
        if let Some(winner) = game::place(&mut self.state, cell, mover) {
            self.events.winner = Some(winner);
            self.events.suicide = winner != mover;
        } else {
            self.state.next = mover.other();
        }
    }

    fn computers_play(&mut self) {
        while self.started
            && self.events.winner.is_none()
            && self.kinds[self.state.next.index()] == Kind::Computer
        {
            let mover = self.state.next;
            let cell = game::computer_move(&mut self.state, mover);
            self.events.computer_moves += 1;
            self.place(cell);
        }
    }

    /// For positions reached by play: `mover` places a stone (where its
    /// generator says, or on a random empty cell) unless it would end the
    /// game, in which case it is taken back and the turn passes all the
    /// same. `false` once so few empty cells are left that a saved file
    /// would be close to full.
    pub fn try_quiet_move(
        &mut self,
        mover: Player,
        by_generator: bool,
        rng: &mut SplitMix64,
    ) -> bool {
        if self.state.grid.empty_cells() <= 2 {
            return false;
        }
        let cell = if by_generator {
            game::computer_move(&mut self.state, mover)
        } else {
            match self.random_empty(rng) {
                Some(c) => c,
                None => return false,
            }
        };
        if game::place(&mut self.state, cell, mover).is_some() {
            self.state.grid.set(cell, Stone::Empty);
        }
        self.state.next = mover.other();
        true
    }

    /// A random empty cell, if any.
    pub fn random_empty(&self, rng: &mut SplitMix64) -> Option<Cell> {
        let (h, w) = (self.state.grid.height(), self.state.grid.width());
        let free = self.state.grid.empty_cells();
        if free == 0 {
            return None;
        }
        let mut k = rng.below(free);
        for r in 0..h {
            for c in 0..w {
                let cell = Cell::new(r, c);
                if self.state.grid.is_free(cell) {
                    if k == 0 {
                        return Some(cell);
                    }
                    k -= 1;
                }
            }
        }
        None
    }

    /// The empty cells where the player to move would capture its own
    /// string with no opponent stone beside the placed one (CAPTURE-2).
    pub fn lonely_suicides(&self) -> Vec<Cell> {
        let grid = &self.state.grid;
        let mover = self.state.next;
        let (h, w) = (grid.height(), grid.width());
        (0..h)
            .flat_map(|r| (0..w).map(move |c| Cell::new(r, c)))
            .filter(|&cell| {
                grid.is_free(cell)
                    && !grid
                        .neighbours(cell)
                        .any(|n| grid.get(n) == Some(Stone::Taken(mover.other())))
                    && {
                        let mut after = grid.clone();
                        after.set(cell, Stone::Taken(mover));
                        !after.has_liberty(cell)
                    }
            })
            .collect()
    }

    /// A random taken cell, if any.
    pub fn random_taken(&self, rng: &mut SplitMix64) -> Option<Cell> {
        let (h, w) = (self.state.grid.height(), self.state.grid.width());
        let taken: Vec<Cell> = (0..h)
            .flat_map(|r| (0..w).map(move |c| Cell::new(r, c)))
            .filter(|&c| !self.state.grid.is_free(c))
            .collect();
        (!taken.is_empty()).then(|| taken[rng.below(taken.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comp_5_game_followed_to_its_end() {
        let sim = Sim::new(Some([Kind::Computer; 2]), Some(State::new(4, 4)));
        assert_eq!(sim.events().winner, Some(Player::O));
        assert_eq!(sim.events().computer_moves, 9);
        assert!(!sim.awaits_line());
    }

    #[test]
    fn lines_are_judged_as_the_program_judges_them() {
        let mut sim = Sim::new(Some([Kind::Human; 2]), Some(State::new(4, 4)));
        for line in [&b"0 0"[..], b"0 0", b"4 0", b"x", b"w", b"wsave", b"1 1"] {
            sim.feed(line);
        }
        let e = sim.events();
        assert_eq!((e.human_moves, e.occupied, e.out_of_range), (2, 1, 1));
        assert_eq!((e.malformed, e.saves, e.unopenable_saves), (1, 2, 1));
        assert_eq!(sim.state().next, Player::O);
    }

    #[test]
    fn a_game_that_never_starts_reads_nothing() {
        let mut sim = Sim::new(None, Some(State::new(4, 4)));
        sim.feed(b"0 0");
        assert_eq!(sim.events().lines_read, 0);
    }
}
