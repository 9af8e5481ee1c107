//! An arena's results tallied: each bot's standing (wins, draws and
//! losses overall, per opponent, per board size and per seat, forfeits by
//! reason, answer times, a rating fitted on all results) and the win-rate
//! table with its breakdowns, in the manner of cg-brutaltester.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::board::Seat;
use crate::ratings::{Tally, wilson};
use crate::reason::Reason;

use super::outcome::{Entrant, Outcome};

/// Wins, draws and losses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

impl Wdl {
    fn add(&mut self, scored: f64) {
        if scored > 0.75 {
            self.wins += 1;
        } else if scored > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }
}

/// A bot's answer times over the arena, in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Times {
    /// Answers timed.
    pub answers: usize,
    /// The median answer.
    pub median_ms: f64,
    /// The 99th percentile.
    pub p99_ms: f64,
    /// The slowest answer.
    pub max_ms: f64,
}

impl Times {
    fn of(mut us: Vec<u64>) -> Times {
        if us.is_empty() {
            return Times::default();
        }
        us.sort_unstable();
        // Nearest rank: the smallest answer with at least `percent` % of
        // the answers at or below it.
        let at = |percent: usize| {
            let rank = (percent * us.len()).div_ceil(100).clamp(1, us.len());
            std::time::Duration::from_micros(us[rank - 1]).as_secs_f64() * 1000.0
        };
        Times {
            answers: us.len(),
            median_ms: at(50),
            p99_ms: at(99),
            max_ms: at(100),
        }
    }
}

/// A bot's line of the results.
#[derive(Debug, Clone, Serialize)]
pub struct Standing {
    /// The bot's name.
    pub name: String,
    /// Matches played.
    pub played: u32,
    /// Matches won.
    pub wins: u32,
    /// Matches drawn.
    pub draws: u32,
    /// Matches lost.
    pub losses: u32,
    /// Wins over matches played.
    pub win_rate: f64,
    /// The 95 % Wilson interval of the win rate, (low, high).
    pub win_rate_ci95: (f64, f64),
    /// Win rate against each other bot, by name.
    pub against: BTreeMap<String, f64>,
    /// Wins, draws and losses per board size.
    pub by_size: BTreeMap<u8, Wdl>,
    /// Wins, draws and losses in seat A and in seat B.
    pub by_seat: BTreeMap<Seat, Wdl>,
    /// The bot's forfeits by reason code.
    pub forfeits: BTreeMap<Reason, u32>,
    /// Answer times.
    pub times: Times,
    /// Rating (Elo scale, maximum likelihood on all results, 0 the anchor).
    pub rating: f64,
    /// Half-width of the rating's 95 % confidence interval.
    pub rating_ci95: f64,
}

/// Tallies the outcomes into standings, best rating first. Only totals
/// enter a standing, so the order of `outcomes` never changes it.
pub fn standings(entrants: &[Entrant], outcomes: &[Outcome]) -> Vec<Standing> {
    let n = entrants.len();
    let mut wins = vec![vec![0u32; n]; n];
    let mut games = vec![vec![0u32; n]; n];
    let mut draws = vec![0u32; n];
    let mut forfeits = vec![BTreeMap::new(); n];
    let mut by_size = vec![BTreeMap::<u8, Wdl>::new(); n];
    let mut by_seat = vec![BTreeMap::<Seat, Wdl>::new(); n];
    let mut times: Vec<Vec<u64>> = vec![Vec::new(); n];
    let mut tally = Tally::new(n);
    for o in outcomes {
        let (a, b) = (o.fixture.a, o.fixture.b);
        if a >= n || b >= n {
            continue;
        }
        games[a][b] += 1;
        games[b][a] += 1;
        let a_scored = match o.record.winner {
            Some(Seat::A) => {
                wins[a][b] += 1;
                1.0
            }
            Some(Seat::B) => {
                wins[b][a] += 1;
                0.0
            }
            None => {
                draws[a] += 1;
                draws[b] += 1;
                0.5
            }
        };
        tally.add(a, b, a_scored);
        for (who, seat, scored) in [(a, Seat::A, a_scored), (b, Seat::B, 1.0 - a_scored)] {
            by_size[who].entry(o.fixture.size).or_default().add(scored);
            by_seat[who].entry(seat).or_default().add(scored);
        }
        for m in &o.record.moves {
            let who = if m.seat == Seat::A { a } else { b };
            times[who].extend(m.us);
        }
        if let Some(f) = o.record.forfeit {
            let who = if f.seat == Seat::A { a } else { b };
            *forfeits[who].entry(f.reason).or_insert(0) += 1;
        }
    }
    let ratings = tally.ratings();
    let rate = |w: u32, g: u32| {
        if g == 0 {
            0.0
        } else {
            f64::from(w) / f64::from(g)
        }
    };
    let mut out: Vec<Standing> = (0..n)
        .map(|i| {
            let played: u32 = games[i].iter().sum();
            let won: u32 = wins[i].iter().sum();
            Standing {
                name: entrants[i].name.clone(),
                played,
                wins: won,
                draws: draws[i],
                losses: played - won - draws[i],
                win_rate: rate(won, played),
                win_rate_ci95: wilson(f64::from(won), f64::from(played)),
                against: (0..n)
                    .filter(|&j| j != i)
                    .map(|j| (entrants[j].name.clone(), rate(wins[i][j], games[i][j])))
                    .collect(),
                by_size: by_size[i].clone(),
                by_seat: by_seat[i].clone(),
                forfeits: forfeits[i].clone(),
                times: Times::of(std::mem::take(&mut times[i])),
                rating: ratings.get(i).map_or(0.0, |r| r.elo),
                rating_ci95: ratings.get(i).map_or(f64::INFINITY, |r| r.plus_minus),
            }
        })
        .collect();
    out.sort_by(|x, y| {
        y.rating
            .total_cmp(&x.rating)
            .then_with(|| x.name.cmp(&y.name))
    });
    out
}

/// The win-rate table (rows: a bot's win rate against each column's bot),
/// then forfeits and ratings.
pub fn table(standings: &[Standing]) -> String {
    let width = standings
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0)
        .max(8);
    let mut t = String::new();
    let _ = write!(t, "{:width$}", "");
    for s in standings {
        let _ = write!(t, " | {:>width$}", s.name);
    }
    let _ = writeln!(t, " | {:>width$}", "all");
    for s in standings {
        let _ = write!(t, "{:width$}", s.name);
        for o in standings {
            match s.against.get(&o.name) {
                Some(r) => {
                    let _ = write!(t, " | {:>width$}", format!("{:.2}%", r * 100.0));
                }
                None => {
                    let _ = write!(t, " | {:>width$}", "-");
                }
            }
        }
        let _ = writeln!(t, " | {:>width$}", format!("{:.2}%", s.win_rate * 100.0));
    }
    let _ = writeln!(t, "\nforfeits");
    for s in standings {
        let list: Vec<String> = s
            .forfeits
            .iter()
            .map(|(r, n)| format!("{} {n}", r.code()))
            .collect();
        let shown = if list.is_empty() {
            "none".to_owned()
        } else {
            list.join(", ")
        };
        let _ = writeln!(t, "{:width$}   {shown}", s.name);
    }
    t.push_str(&details(standings, width));
    t
}

/// The table's sections after the forfeits: win rates with their
/// intervals and seats, sizes, answer times, ratings.
fn details(standings: &[Standing], width: usize) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "\nwin rate (95% Wilson interval)   W-D-L   seat A W-D-L   seat B W-D-L"
    );
    let wdl = |w: Option<&Wdl>| {
        w.map_or("0-0-0".to_owned(), |w| {
            format!("{}-{}-{}", w.wins, w.draws, w.losses)
        })
    };
    for s in standings {
        let _ = writeln!(
            t,
            "{:width$}   {:6.2}% [{:6.2}%, {:6.2}%]   {}-{}-{}   {:>12}   {:>12}",
            s.name,
            s.win_rate * 100.0,
            s.win_rate_ci95.0 * 100.0,
            s.win_rate_ci95.1 * 100.0,
            s.wins,
            s.draws,
            s.losses,
            wdl(s.by_seat.get(&Seat::A)),
            wdl(s.by_seat.get(&Seat::B)),
        );
    }
    let sizes: std::collections::BTreeSet<u8> = standings
        .iter()
        .flat_map(|s| s.by_size.keys().copied())
        .collect();
    let _ = write!(t, "\nby board size (W-D-L){:width$}", "");
    for size in &sizes {
        let _ = write!(t, " | {:>9}", format!("{size}x{size}"));
    }
    let _ = writeln!(t);
    for s in standings {
        let _ = write!(t, "{:width$}{:21}", s.name, "");
        for size in &sizes {
            let _ = write!(t, " | {:>9}", wdl(s.by_size.get(size)));
        }
        let _ = writeln!(t);
    }
    let _ = writeln!(
        t,
        "\nanswer times (ms)   median      p99      max   answers"
    );
    for s in standings {
        let _ = writeln!(
            t,
            "{:width$}   {:8.3} {:8.3} {:8.3}   {}",
            s.name, s.times.median_ms, s.times.p99_ms, s.times.max_ms, s.times.answers
        );
    }
    let _ = writeln!(
        t,
        "\nrating (Elo scale, maximum likelihood on all results, 95% interval)"
    );
    for s in standings {
        let _ = writeln!(
            t,
            "{:width$}   {:7.1} ± {:6.1}",
            s.name, s.rating, s.rating_ci95
        );
    }
    t
}
