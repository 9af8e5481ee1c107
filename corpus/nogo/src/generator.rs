//! Drawing a session from a seed: every kind (counts, types, dimensions,
//! files, a game) from one seed by [`Session::generate`], sharing the
//! play that reaches positions and the save bytes they place. Above the
//! session's types ([`crate::session`]) and the lines and classes it
//! draws from ([`crate::lines`], [`crate::classify`]).

use nogo_reference::rules::Rule;
use nogo_reference::savefile::to_bytes;
use nogo_reference::{Cell, Kind, Player, State, Stone};

use crate::samples::{self, Spec};
use crate::session::{Ambiguity, Args, GAME, Input, Options, Session, Source};
use crate::sim::Sim;
use conformance_engine::rng::SplitMix64;

impl Session {
    /// The `index`-th session of the run seeded with `seed`.
    pub fn generate(seed: u64, index: u64, options: Options) -> Self {
        let mut rng = SplitMix64::new(seed).fork(index);
        match rng.below(100) {
            0..=4 => count_session(&mut rng),
            5..=9 => type_session(&mut rng),
            10..=15 => dims_session(&mut rng, options),
            16..=18 => missing_file_session(&mut rng),
            19..=26 => bad_file_session(&mut rng, options),
            _ => game_session(&mut rng, options),
        }
    }
}

fn pick<'a, T>(rng: &mut SplitMix64, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

fn types(rng: &mut SplitMix64) -> [String; 2] {
    [0, 1].map(|_| pick(rng, &["h", "c"]).to_string())
}

fn game_args(rng: &mut SplitMix64, source: Source) -> Args {
    Args::Game {
        types: types(rng),
        source,
    }
}

fn new_source(height: usize, width: usize) -> Source {
    Source::New {
        height: height.to_string(),
        width: width.to_string(),
    }
}

/// ARGS-1: 0, 1, 2, 5 or 6 arguments.
fn count_session(rng: &mut SplitMix64) -> Session {
    let n = *pick(rng, &[0, 1, 2, 5, 6]);
    let pool = ["h", "c", "5", "4", "game", "x"];
    let args = (0..n).map(|_| pick(rng, &pool).to_string()).collect();
    bare(Args::Count(args))
}

fn bare(args: Args) -> Session {
    Session {
        args,
        setup_label: None,
        lines: Vec::new(),
        unterminated: false,
    }
}

/// ARGS-2 (and ARGS-5: a bad type beats bad dimensions or a missing file).
fn type_session(rng: &mut SplitMix64) -> Session {
    let bad = ["C", "H", "cc", "c ", "", "x", "0", "hc", "human"];
    let mut t = types(rng);
    let which = rng.below(3);
    for (i, slot) in t.iter_mut().enumerate() {
        if which == i || which == 2 {
            *slot = pick(rng, &bad).to_string();
        }
    }
    let source = match rng.below(3) {
        0 => new_source(rng.between(4, 8), rng.between(4, 8)),
        1 => new_source(rng.between(0, 3), 1001),
        _ => Source::Load {
            path: "missing".into(),
            file: None,
        },
    };
    let mut s = bare(Args::Game { types: t, source });
    s.lines.push(Input::plain("0 0"));
    s
}

/// ARGS-3: dimensions out of range or malformed; the lax spellings only
/// with `--ambiguous`.
fn dims_session(rng: &mut SplitMix64, options: Options) -> Session {
    let bad = [
        "3",
        "0",
        "1001",
        "-4",
        "abc",
        "",
        "99999999999999999999",
        "4294967300",
        "4.0",
        "1e3",
    ];
    let good = ["4", "5", "007", "1000", "12"];
    let lax = [" 5", "+5", "5x", "\t6", "6 "];
    let mut height = pick(rng, &good).to_string();
    let mut width = pick(rng, &good).to_string();
    let mut label = None;
    let spoil = |rng: &mut SplitMix64, label: &mut Option<Ambiguity>| {
        if options.ambiguous && rng.below(3) == 0 {
            *label = Some(Ambiguity::new("lax-dimension", Rule::Args3));
            pick(rng, &lax).to_string()
        } else {
            pick(rng, &bad).to_string()
        }
    };
    if rng.below(4) == 0 {
        // Both good, one at the edge of the range: humans, so that the
        // one line read ends the game quickly on a grid of 1000 rows.
        let edge = ["4", "1000", "0004", "1000"][rng.below(4)].to_owned();
        let (height, width) = if rng.below(2) == 0 {
            (edge, "4".to_owned())
        } else {
            ("4".to_owned(), edge)
        };
        let mut s = bare(Args::Game {
            types: ["h".into(), "h".into()],
            source: Source::New { height, width },
        });
        s.lines.push(Input::plain("0 0"));
        return s;
    }
    match rng.below(3) {
        0 => height = spoil(rng, &mut label),
        1 => width = spoil(rng, &mut label),
        _ => {
            height = spoil(rng, &mut label);
            width = spoil(rng, &mut label);
        }
    }
    let mut s = bare(game_args(rng, Source::New { height, width }));
    s.setup_label = label;
    // A 1000-wide grid is a lot of output: keep the human from playing on.
    s.lines.push(Input::plain("0 0"));
    s
}

/// ARGS-4: nothing at the path, or a missing directory on the way.
fn missing_file_session(rng: &mut SplitMix64) -> Session {
    let path = pick(rng, &["missing", "no/such/game", "game.txt"]).to_string();
    bare(game_args(rng, Source::Load { path, file: None }))
}

/// FILE-1..6: one of the corpus's faulty files (its ambiguous classes
/// only with `--ambiguous`).
fn bad_file_session(rng: &mut SplitMix64, options: Options) -> Session {
    let (height, width) = (rng.between(4, 6), rng.between(4, 6));
    let spec = Spec {
        height,
        width,
        seed: rng.next_u64() % 1000,
    };
    let all = samples::build(&spec);
    let usable: Vec<_> = all
        .iter()
        .filter(|s| options.ambiguous || !s.class.ambiguous())
        .collect();
    let Some(sample) = usable.get(rng.below(usable.len())) else {
        return missing_file_session(rng);
    };
    let mut s = bare(game_args(
        rng,
        Source::Load {
            path: GAME.into(),
            file: Some(sample.bytes.clone()),
        },
    ));
    if sample.class.ambiguous() {
        s.setup_label = Some(Ambiguity {
            name: sample.class.name(),
            rule: class_rule(sample.class.rules()),
        });
    }
    if sample.class.is_control() {
        // A control loads: give its humans something to do.
        let mut sim = Sim::new(s.kinds(), load_state(&sample.bytes));
        play_lines(rng, &mut sim, &mut s, options, false);
    }
    s
}

fn class_rule(rules: &[&str]) -> Rule {
    nogo_reference::rules::ALL
        .iter()
        .copied()
        .find(|r| rules.first() == Some(&r.id()))
        .unwrap_or(Rule::File6)
}

fn load_state(bytes: &[u8]) -> Option<State> {
    nogo_reference::savefile::load_bytes(bytes).ok()
}

/// A game: new or loaded from a position reached by play, then lines.
fn game_session(rng: &mut SplitMix64, options: Options) -> Session {
    let (height, width) = if rng.below(10) == 0 {
        (rng.between(4, 12), rng.between(4, 12))
    } else {
        (rng.between(4, 6), rng.between(4, 6))
    };
    let (source, state, label) = if rng.below(3) == 0 {
        let state = if rng.below(4) == 0 {
            lonely_corner(rng, height, width)
        } else {
            reached_by_play(rng, height, width)
        };
        let (bytes, label) = save_bytes(rng, &state, options);
        (
            Source::Load {
                path: GAME.into(),
                file: Some(bytes),
            },
            state,
            label,
        )
    } else {
        let spelled = |rng: &mut SplitMix64, n: usize| {
            if rng.below(8) == 0 {
                format!("0{n}")
            } else {
                n.to_string()
            }
        };
        let source = Source::New {
            height: spelled(rng, height),
            width: spelled(rng, width),
        };
        (source, State::new(height, width), None)
    };
    let mut s = bare(game_args(rng, source));
    s.setup_label = label;
    let to_the_end = rng.below(3) == 0;
    // The game as the program starts it: from the file's bytes when loaded.
    let start = crate::classify::start(&s).unwrap_or(state);
    let mut sim = Sim::new(s.kinds(), Some(start));
    play_lines(rng, &mut sim, &mut s, options, to_the_end);
    s
}

/// A position some turns into a new game, both generators used as a
/// computer would; a move that would end the game is taken back.
pub fn reached_by_play(rng: &mut SplitMix64, height: usize, width: usize) -> State {
    let turns = rng.below(height * width / 2);
    reached_from(rng, State::new(height, width), turns)
}

/// A position some turns into a game whose top left corner is set for a
/// self-capture beside no opponent stone (CAPTURE-2): the mover's stones
/// at 0 1 and 1 0, the opponent's at 0 2, 1 1 and 2 0, so that the mover
/// playing 0 0 loses with no enemy next to the stone placed. Neither
/// player can fill 0 0 without ending the game, so it stays open.
fn lonely_corner(rng: &mut SplitMix64, height: usize, width: usize) -> State {
    let mut state = State::new(height, width);
    let own = if rng.below(2) == 0 {
        Player::O
    } else {
        Player::X
    };
    for (r, c) in [(0, 1), (1, 0)] {
        state.grid.set(Cell::new(r, c), Stone::Taken(own));
    }
    for (r, c) in [(0, 2), (1, 1), (2, 0)] {
        state.grid.set(Cell::new(r, c), Stone::Taken(own.other()));
    }
    let turns = rng.below(height * width / 4);
    let mut state = reached_from(rng, state, turns);
    state.next = own;
    state
}

/// `state` after `turns` quiet moves (fewer if the grid fills up).
fn reached_from(rng: &mut SplitMix64, state: State, turns: usize) -> State {
    let mut sim = Sim::new(Some([Kind::Human; 2]), Some(state));
    for _ in 0..turns {
        let mover = sim.state().next;
        let by_generator = rng.below(2) == 0;
        if !sim.try_quiet_move(mover, by_generator, rng) {
            break;
        }
    }
    sim.into_state()
}

/// The save file of `state`, now and then in a spelling only an ambiguous
/// ruling accepts.
fn save_bytes(
    rng: &mut SplitMix64,
    state: &State,
    options: Options,
) -> (Vec<u8>, Option<Ambiguity>) {
    let bytes = to_bytes(state);
    if !options.ambiguous || rng.below(4) != 0 {
        return (bytes, None);
    }
    let roll = rng.below(3);
    if roll == 0 {
        // CAPTURE-4: a string without a liberty in a corner, far from the
        // next move unless play goes there.
        let mut dead = state.clone();
        dead.grid.set(Cell::new(0, 0), Stone::Taken(Player::O));
        dead.grid.set(Cell::new(0, 1), Stone::Taken(Player::X));
        dead.grid.set(Cell::new(1, 0), Stone::Taken(Player::X));
        if dead.grid.empty_cells() > 0 {
            let label = Ambiguity::new("dead-string-loaded", Rule::Capture4);
            return (to_bytes(&dead), Some(label));
        }
        return (bytes, None);
    }
    if roll == 1 {
        // Decision 1: `next` with a leading zero.
        let mut fields: Vec<Vec<u8>> = Vec::new();
        let end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .unwrap_or(bytes.len());
        fields.extend(bytes[..end].split(|&b| b == b' ').map(<[u8]>::to_vec));
        if let Some(next) = fields.get_mut(2) {
            next.insert(0, b'0');
        }
        let mut out = fields.join(&b' ');
        out.extend_from_slice(&bytes[end..]);
        let label = Ambiguity::new("next-leading-zero", Rule::File2);
        (out, Some(label))
    } else {
        let mut out = bytes;
        let tails: [&[u8]; 4] = [b"\n", b"junk\n", b"....\n", b"x"];
        let tail: &[u8] = tails[rng.below(tails.len())];
        out.extend_from_slice(tail);
        let label = Ambiguity::new("after-the-grid", Rule::File5);
        (out, Some(label))
    }
}

/// Adds stdin lines to `s` while `sim` plays them: mostly moves, some bad
/// lines and saves; `to_the_end` keeps going until someone wins.
fn play_lines(
    rng: &mut SplitMix64,
    sim: &mut Sim,
    s: &mut Session,
    options: Options,
    to_the_end: bool,
) {
    let budget = if to_the_end { 400 } else { rng.below(16) };
    let mut saves = 0;
    while s.lines.len() < budget && sim.awaits_line() {
        let roll = rng.below(100);
        let line = if roll < 70 {
            crate::lines::valid_move(rng, sim, options)
        } else if roll < 86 || saves >= 3 {
            crate::lines::bad_line(rng, sim, options)
        } else {
            saves += 1;
            crate::lines::save_line(rng, options)
        };
        sim.feed(&line.bytes);
        s.lines.push(line);
    }
    if !to_the_end && rng.below(10) == 0 && sim.awaits_line() {
        // A stray line after the game or a last line cut short.
        if options.ambiguous && !s.lines.is_empty() {
            s.unterminated = true;
        }
    }
}
