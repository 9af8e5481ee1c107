//! Smaller sessions for `diff`'s shrink loop, the most reducing first:
//! fewer stdin lines, a terminated last line, a smaller grid, a simpler
//! save file (an empty grid, fresh generators, O to play: each through the
//! reference's own serialiser), plainer arguments (`h` for `c`, a
//! dimension spelled plainly, fewer arguments of a wrong count). The
//! engine keeps a candidate only when the mismatch survives it.

use nogo_reference::savefile::{load_bytes, to_bytes};
use nogo_reference::{Generator, Player, State};

use crate::session::{Args, Session, Source};

/// Candidates smaller than `session`.
pub fn candidates(session: &Session) -> Vec<Session> {
    let mut out = Vec::new();
    fewer_lines(session, &mut out);
    if session.unterminated {
        out.push(Session {
            unterminated: false,
            ..session.clone()
        });
    }
    smaller_grid(session, &mut out);
    simpler_file(session, &mut out);
    plainer_args(session, &mut out);
    out.retain(|c| c != session);
    out
}

fn fewer_lines(s: &Session, out: &mut Vec<Session>) {
    let n = s.lines.len();
    if n == 0 {
        return;
    }
    let with = |lines: Vec<_>| Session { lines, ..s.clone() };
    out.push(with(Vec::new()));
    if n >= 4 {
        out.push(with(s.lines[..n / 2].to_vec()));
        out.push(with(s.lines[n / 2..].to_vec()));
    }
    for i in (0..n).rev() {
        let mut lines = s.lines.clone();
        lines.remove(i);
        out.push(with(lines));
    }
}

fn smaller_grid(s: &Session, out: &mut Vec<Session>) {
    let Args::Game { types, source } = &s.args else {
        return;
    };
    let with = |source: Source| Session {
        args: Args::Game {
            types: types.clone(),
            source,
        },
        ..s.clone()
    };
    match source {
        Source::New { height, width } => {
            let (Ok(h), Ok(w)) = (height.parse::<usize>(), width.parse::<usize>()) else {
                return;
            };
            for (nh, nw) in [
                (4, 4),
                (4, w),
                (h, 4),
                (h.saturating_sub(1), w),
                (h, w.saturating_sub(1)),
            ] {
                if (4..=h).contains(&nh) && (4..=w).contains(&nw) && (nh, nw) != (h, w) {
                    out.push(with(Source::New {
                        height: nh.to_string(),
                        width: nw.to_string(),
                    }));
                }
            }
        }
        Source::Load {
            path,
            file: Some(bytes),
        } => {
            // A loadable file on a grid one row or column shorter, its
            // stones cut off with it.
            let Ok(state) = load_bytes(bytes) else {
                return;
            };
            let (h, w) = (state.grid.height(), state.grid.width());
            for (nh, nw) in [(4, 4), (h - 1, w), (h, w - 1)] {
                if nh < 4 || nw < 4 || (nh, nw) == (h, w) || nh > h || nw > w {
                    continue;
                }
                let smaller = cropped(&state, nh, nw);
                if smaller.grid.empty_cells() > 0 {
                    out.push(with(Source::Load {
                        path: path.clone(),
                        file: Some(to_bytes(&smaller)),
                    }));
                }
            }
        }
        Source::Load { .. } => {}
    }
}

/// `state` on an `h` × `w` grid: its top-left stones and its generators
/// reduced into the smaller grid.
fn cropped(state: &State, h: usize, w: usize) -> State {
    let mut small = State::new(h, w);
    small.next = state.next;
    for r in 0..h {
        for (c, stone) in state.grid.row(r).iter().take(w).enumerate() {
            small.grid.set(nogo_reference::Cell::new(r, c), *stone);
        }
    }
    for p in Player::BOTH {
        let mut g = state.generators[p.index()].state();
        g.row %= h;
        g.col %= w;
        small.generators[p.index()] = Generator::with_state(p, h, w, g);
    }
    small
}

fn simpler_file(s: &Session, out: &mut Vec<Session>) {
    let Args::Game {
        types,
        source: Source::Load {
            path,
            file: Some(bytes),
        },
    } = &s.args
    else {
        return;
    };
    let Ok(state) = load_bytes(bytes) else {
        return;
    };
    let (h, w) = (state.grid.height(), state.grid.width());
    let with = |state: &State| Session {
        args: Args::Game {
            types: types.clone(),
            source: Source::Load {
                path: path.clone(),
                file: Some(to_bytes(state)),
            },
        },
        // The reference's own spelling of the file rests on no ambiguity.
        setup_label: None,
        ..s.clone()
    };
    let mut empty = state.clone();
    empty.grid = State::new(h, w).grid;
    let mut fresh = state.clone();
    fresh.generators = State::new(h, w).generators;
    let mut o_first = state.clone();
    o_first.next = Player::O;
    for simpler in [State::new(h, w), empty, fresh, o_first, state] {
        out.push(with(&simpler));
    }
    // A loaded file as a new game of its size.
    out.push(Session {
        args: Args::Game {
            types: types.clone(),
            source: Source::New {
                height: h.to_string(),
                width: w.to_string(),
            },
        },
        setup_label: None,
        ..s.clone()
    });
}

fn plainer_args(s: &Session, out: &mut Vec<Session>) {
    match &s.args {
        Args::Count(args) => {
            for i in 0..args.len() {
                let mut fewer = args.clone();
                fewer.remove(i);
                if !(3..=4).contains(&fewer.len()) {
                    out.push(Session {
                        args: Args::Count(fewer),
                        ..s.clone()
                    });
                }
            }
        }
        Args::Game { types, source } => {
            for i in 0..2 {
                if types[i] == "c" {
                    let mut t = types.clone();
                    t[i] = "h".into();
                    out.push(Session {
                        args: Args::Game {
                            types: t,
                            source: source.clone(),
                        },
                        ..s.clone()
                    });
                }
            }
            if let Source::New { height, width } = source {
                let plain = |a: &str| {
                    nogo_reference::args::parse_strtol(a.as_bytes())
                        .map_or_else(|| a.to_owned(), |n| n.to_string())
                };
                let (ph, pw) = (plain(height), plain(width));
                if (&ph, &pw) != (height, width) {
                    out.push(Session {
                        args: Args::Game {
                            types: types.clone(),
                            source: Source::New {
                                height: ph,
                                width: pw,
                            },
                        },
                        setup_label: None,
                        ..s.clone()
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Options;

    #[test]
    fn every_candidate_differs_and_none_grows_the_input() {
        for i in 0..300 {
            let s = Session::generate(9, i, Options { ambiguous: true });
            for c in candidates(&s) {
                assert_ne!(c, s);
                assert!(c.lines.len() <= s.lines.len());
                assert!(c.argv().len() <= s.argv().len().max(4));
            }
        }
    }

    #[test]
    fn a_loaded_file_shrinks_to_a_loadable_smaller_file() {
        let mut state = State::new(6, 5);
        state.grid.set(
            nogo_reference::Cell::new(5, 4),
            nogo_reference::Stone::Taken(Player::X),
        );
        let s = Session {
            args: Args::Game {
                types: ["h".into(), "h".into()],
                source: Source::Load {
                    path: "game".into(),
                    file: Some(to_bytes(&state)),
                },
            },
            setup_label: None,
            lines: Vec::new(),
            unterminated: false,
        };
        let files: Vec<Vec<u8>> = candidates(&s)
            .iter()
            .flat_map(Session::files)
            .map(|(_, b)| b)
            .collect();
        assert!(files.iter().any(|b| b.starts_with(b"4 4 ")));
        assert!(files.iter().all(|b| load_bytes(b).is_ok()));
    }
}
