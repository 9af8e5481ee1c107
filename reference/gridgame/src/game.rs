//! The whole program: the pre-game (PRE-1..4), turns (TURN-1, TURN-2) of
//! the human (MOVE-1..6) and the computer (COMP-8), each move applied
//! (APPLY-1..4), and the post-game (POST-1..3). Every way it ends is
//! status 0, except a stdout that cannot be written: status 1 (SYS-1).
//!
//! One piece: the whole program (pre-game, turns, post-game) is one
//! `Game` over the same streams; about 190 lines are its tests.

use std::io::{BufRead, Write};

use reference_kit::trace::{self, Context};

pub use reference_kit::exit::ExitTable;

use crate::chooser;
use crate::grid::{Grid, Player};
use crate::lines::Lines;
use crate::moves::{self, Line};
use crate::out::Out;
use crate::size;

const SIZE_PROMPT: &[u8] = b"What size grid would you like? (2..8) ";
const MOVE_PROMPT: &[u8] = b"What two dots would you like to connect? (Q to quit) ";
const SORRY: &[u8] = b"Sorry, try again.\n";

reference_kit::exit_table! {
    /// How the program ends: its exit status. Nothing is ever printed on
    /// stderr (PROG-2, SYS-1).
    pub enum Exit {
        /// Every ending of the game (PROG-2).
        Done = 0, None, "PROG-2";
        /// Stdout could not be written (SYS-1).
        WriteFailed = 1, None, "SYS-1";
    }
    cites crate::rules::ids;
}

/// Runs the program on `input` and `output` (arguments are ignored,
/// PROG-1).
pub fn run<R: BufRead, W: Write>(input: R, output: W) -> Exit {
    run_with(input, output, chooser::choose, |_| Vec::new())
}

/// [`run`] with another computer player in place of [`chooser::choose`]
/// and `after_read` printing something after each line read (the
/// reference prints nothing): how the pack's tests build a program that
/// departs in one rule, as a student's would.
pub fn run_with<R: BufRead, W: Write>(
    input: R,
    output: W,
    choose: Chooser,
    after_read: AfterRead,
) -> Exit {
    let mut game = Game {
        lines: Lines::new(input),
        out: Out::new(output),
        choose,
        after_read,
    };
    game.play();
    game.out.flush();
    if game.out.failed() {
        Exit::WriteFailed
    } else {
        Exit::Done
    }
}

/// The computer's choice of edge on a grid; `None` when none is open.
pub type Chooser = fn(&Grid) -> Option<crate::grid::Edge>;

/// What a program prints right after reading a line (given the line).
pub type AfterRead = fn(&[u8]) -> Vec<u8>;

struct Game<R, W: Write> {
    lines: Lines<R>,
    out: Out<W>,
    choose: Chooser,
    after_read: AfterRead,
}

impl<R: BufRead, W: Write> Game<R, W> {
    /// A line of input, stdout flushed first (PROG-3); `None` at end of
    /// input or once stdout failed (nothing more can be shown).
    fn read(&mut self) -> Option<Vec<u8>> {
        self.out.flush();
        if self.out.failed() {
            return None;
        }
        let line = self.lines.next_line()?;
        let extra = (self.after_read)(&line);
        if !extra.is_empty() {
            self.out.put(&extra);
        }
        Some(line)
    }

    fn play(&mut self) {
        let Some(n) = self.pre_game() else { return };
        let mut grid = Grid::new(n);
        let mut turn = Player::Human;
        loop {
            trace::enter(GRID);
            self.out.put(&grid.draw());
            self.score_line(&grid);
            let edge = match turn {
                Player::Human => match self.human_move(&grid) {
                    Some(edge) => edge,
                    None => break,
                },
                Player::Computer => {
                    let Some(edge) = (self.choose)(&grid) else {
                        break;
                    };
                    // Naming the levels costs a second decision: only
                    // when someone asks which rule the line obeys.
                    if trace::active()
                        && let Some(d) = chooser::decide(&grid)
                    {
                        trace::enter(computer_move(d));
                    }
                    let (a, b) = edge.dots();
                    self.out.put(b"I choose to connect dots ");
                    self.out.put(&a.name());
                    self.out.put(b" and ");
                    self.out.put(&b.name());
                    self.out.put(b".\n");
                    edge
                }
            };
            let claimed = grid.fill(edge, turn);
            trace::enter(Context::new("APPLY-3", "the empty line after a move"));
            self.out.put(b"\n");
            if grid.is_full() || self.out.failed() {
                break;
            }
            if claimed == 0 {
                turn = turn.other();
            }
        }
        self.post_game(&grid);
    }

    /// PRE-1..4: the size, or `None` at end of input.
    fn pre_game(&mut self) -> Option<u8> {
        trace::enter(Context::new("PRE-1", "the size prompt"));
        self.out.put(SIZE_PROMPT);
        loop {
            let line = self.read()?;
            match size::judge(&line) {
                Ok(n) => return Some(n),
                Err(why) => trace::rejected(why, &line, || why.rejection()),
            }
            self.ask_again(
                Context::new("PRE-2,PRE-3", "the answer to a rejected size line"),
                SIZE_PROMPT,
            );
        }
    }

    /// A refused line is answered with the apology and the same prompt
    /// again (PRE-2, MOVE-6), under `context`.
    fn ask_again(&mut self, context: Context, prompt: &[u8]) {
        trace::enter(context);
        self.out.put(SORRY);
        self.out.put(prompt);
    }

    /// SCORE-1.
    fn score_line(&mut self, grid: &Grid) {
        let line = format!(
            "You: {}    Me: {}\n\n",
            grid.score(Player::Human),
            grid.score(Player::Computer)
        );
        trace::enter(Context::new("SCORE-1,APPLY-1", "the score line"));
        self.out.put(line.as_bytes());
    }

    /// MOVE-1..6: the human's edge, or `None` for the post-game (a `Q`, or
    /// end of input).
    fn human_move(&mut self, grid: &Grid) -> Option<crate::grid::Edge> {
        trace::enter(Context::new("MOVE-1,TURN-1,APPLY-2", "the move prompt"));
        self.out.put(MOVE_PROMPT);
        loop {
            let line = self.read()?;
            match moves::judge(&line, grid) {
                Ok(Line::Quit) => return None,
                Ok(Line::Move(edge)) => return Some(edge),
                refused => {
                    if let Err(why) = refused {
                        trace::rejected(why, &line, || why.rejection());
                    }
                    self.ask_again(
                        Context::new(
                            "MOVE-3,MOVE-4,MOVE-5,MOVE-6",
                            "the answer to a rejected move line",
                        ),
                        MOVE_PROMPT,
                    );
                }
            }
        }
    }

    /// POST-1, POST-2.
    fn post_game(&mut self, grid: &Grid) {
        let (you, me) = (grid.score(Player::Human), grid.score(Player::Computer));
        trace::enter(Context::new(
            "POST-1,POST-3,DISP-1",
            "the grid of the post-game",
        ));
        self.out.put(&grid.draw());
        let text = format!(
            "\nFinal Score:\n  You:{you}\n  Me :{me}\n{}\n",
            match you.cmp(&me) {
                std::cmp::Ordering::Greater => "Congratulations!",
                std::cmp::Ordering::Less => "Better luck next time.",
                std::cmp::Ordering::Equal => "I think we need a rematch.",
            }
        );
        trace::enter(Context::new(
            "POST-1,POST-2",
            "the final score and farewell",
        ));
        self.out.put(text.as_bytes());
    }
}

/// The grid at the start of a turn.
const GRID: Context = Context::new("DISP-1,DISP-2,DISP-3,DISP-4,DISP-5", "the grid of a turn");

/// The computer's announcement, with the rules that decided its edge.
fn computer_move(d: chooser::Decision) -> Context {
    use chooser::{FirstLevel as F, TieLevel as T};
    let rules = match (d.first, d.settled_by) {
        (F::Complete, T::Alone) => "COMP-8,COMP-2",
        (F::Complete, T::Freedom) => "COMP-8,COMP-2,COMP-5",
        (F::Complete, T::XSum) => "COMP-8,COMP-2,COMP-6",
        (F::Complete, T::YSum) => "COMP-8,COMP-2,COMP-7",
        (F::Safe, T::Alone) => "COMP-8,COMP-3",
        (F::Safe, T::Freedom) => "COMP-8,COMP-3,COMP-5",
        (F::Safe, T::XSum) => "COMP-8,COMP-3,COMP-6",
        (F::Safe, T::YSum) => "COMP-8,COMP-3,COMP-7",
        (F::Any, T::Alone) => "COMP-8,COMP-4",
        (F::Any, T::Freedom) => "COMP-8,COMP-4,COMP-5",
        (F::Any, T::XSum) => "COMP-8,COMP-4,COMP-6",
        (F::Any, T::YSum) => "COMP-8,COMP-4,COMP-7",
    };
    Context::new(rules, "the computer's move")
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn session(input: &[u8]) -> String {
        let mut out = Vec::new();
        assert_eq!(run(input, &mut out), Exit::Done);
        String::from_utf8(out).unwrap()
    }

    /// The rulings' worked session, byte for byte (`$` there is `\n`).
    #[test]
    fn the_worked_session() {
        let expected = "\
What size grid would you like? (2..8) a + + +
       
b + + +
       
c + + +
  1 2 3 
You: 0    Me: 0

What two dots would you like to connect? (Q to quit) 
a +-+ +
       
b + + +
       
c + + +
  1 2 3 
You: 0    Me: 0

I choose to connect dots b1 and b2.

a +-+ +
       
b +-+ +
       
c + + +
  1 2 3 
You: 0    Me: 0

What two dots would you like to connect? (Q to quit) 
a +-+ +
    |  
b +-+ +
       
c + + +
  1 2 3 
You: 0    Me: 0

I choose to connect dots a1 and b1.

a +-+ +
  |C|  
b +-+ +
       
c + + +
  1 2 3 
You: 0    Me: 1

I choose to connect dots c1 and c2.

a +-+ +
  |C|  
b +-+ +
       
c +-+ +
  1 2 3 
You: 0    Me: 1

What two dots would you like to connect? (Q to quit) a +-+ +
  |C|  
b +-+ +
       
c +-+ +
  1 2 3 

Final Score:
  You:0
  Me :1
Better luck next time.
";
        assert_eq!(session(b"2\na1 a2\n2a,b2\nQ\n"), expected);
    }

    /// The rulings' second example: rejected sizes, then end of input at
    /// the move prompt.
    #[test]
    fn rejected_sizes_then_end_of_input() {
        let text = session(b"x\n9\n 3 \n");
        let prompt = "What size grid would you like? (2..8) ";
        let grid = "a + + + +\n         \nb + + + +\n         \nc + + + +\n         \nd + + + +\n  1 2 3 4 \n";
        let expected = format!(
            "{prompt}Sorry, try again.\n{prompt}Sorry, try again.\n{prompt}{grid}You: 0    Me: 0\n\n\
             What two dots would you like to connect? (Q to quit) {grid}\nFinal Score:\n  You:0\n  Me :0\n\
             I think we need a rematch.\n"
        );
        assert_eq!(text, expected);
    }

    #[test]
    fn pre_4_end_of_input_at_the_size_prompt() {
        assert_eq!(session(b""), "What size grid would you like? (2..8) ");
        assert_eq!(
            session(b"1"),
            "What size grid would you like? (2..8) Sorry, try again.\nWhat size grid would you like? (2..8) "
        );
    }

    #[test]
    fn a_bad_move_line_reprints_only_the_prompt() {
        let text = session(b"2\nq\nQ\n");
        assert!(text.contains(
            "(Q to quit) Sorry, try again.\nWhat two dots would you like to connect? (Q to quit) a +"
        ));
    }

    /// A whole game to the last edge: the human always plays the first
    /// open edge in the grid's order.
    #[test]
    fn a_whole_game_ends_right_after_a_claim() {
        for n in 2..=8u8 {
            let mut input = format!("{n}\n").into_bytes();
            // Every edge named; the ones already filled are bad lines.
            let g = Grid::new(n);
            for _ in 0..3 {
                for e in g.edges() {
                    let (a, b) = e.dots();
                    input.extend_from_slice(&a.name());
                    input.push(b' ');
                    input.extend_from_slice(&b.name());
                    input.push(b'\n');
                }
            }
            let text = session(&input);
            assert!(text.contains("Final Score:"), "{n}");
            let total = u32::from(n) * u32::from(n);
            // The number after a score line's label, up to its line's end.
            let score = |label: &str| -> u32 {
                let after = text.split(label).nth(1).unwrap();
                after.lines().next().unwrap().parse().unwrap()
            };
            assert_eq!(score("  You:") + score("  Me :"), total, "{n}");
            // The last move's APPLY-3 newline, then the final grid: the
            // game ended after a move (a quit or end of input would put
            // the grid right after the prompt).
            let before = text.split("Final Score:").next().unwrap();
            let at = before.rfind("\na +").unwrap();
            let upto = &before[..=at];
            assert!(
                upto.ends_with("(Q to quit) \n") || upto.ends_with(".\n\n"),
                "{n}: {upto}"
            );
        }
    }

    #[test]
    fn sys_1_a_failing_stdout_is_status_1() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        assert_eq!(run(&b"2\na1 a2\n"[..], Full), Exit::WriteFailed);
    }
}
