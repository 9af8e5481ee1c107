//! Ratings and rates of an arena, fitted on all results at once so that
//! the same results give the same table in any order: a Bradley–Terry
//! (Elo-scale) maximum-likelihood fit with draws as half a win, its 95 %
//! confidence intervals from the Fisher information, and Wilson score
//! intervals for win rates.
//!
//! Every bot also plays one virtual draw against an anchor rated 0: a weak
//! prior that keeps a bot that won (or lost) every match at a finite
//! rating. Ratings are shown about their mean (0 is the average bot).

/// Elo points per natural-log unit of strength: `400 / ln 10`.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// z of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A rating with its 95 % confidence half-width, in Elo points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The maximum-likelihood rating, about the bots' mean (0).
    pub elo: f64,
    /// Half the width of its 95 % confidence interval.
    pub plus_minus: f64,
}

/// The results between bots: `games[i][j]` matches between `i` and `j`,
/// `score[i][j]` what `i` scored in them (a win 1, a draw ½).
#[derive(Debug, Clone, PartialEq)]
pub struct Tally {
    games: Vec<Vec<f64>>,
    score: Vec<Vec<f64>>,
}

impl Tally {
    /// No results between `n` bots.
    pub fn new(n: usize) -> Tally {
        Tally {
            games: vec![vec![0.0; n]; n],
            score: vec![vec![0.0; n]; n],
        }
    }

    /// One match between `a` and `b`: `a_scored` is 1 (a won), ½ (a draw)
    /// or 0 (b won). Out-of-range bots are ignored.
    pub fn add(&mut self, a: usize, b: usize, a_scored: f64) {
        let n = self.games.len();
        if a >= n || b >= n || a == b {
            return;
        }
        self.games[a][b] += 1.0;
        self.games[b][a] += 1.0;
        self.score[a][b] += a_scored;
        self.score[b][a] += 1.0 - a_scored;
    }

    /// The fitted ratings, one per bot.
    pub fn ratings(&self) -> Vec<Rating> {
        let n = self.games.len();
        let mut theta = vec![0.0f64; n];
        for _ in 0..200 {
            let (grad, hess) = self.derivatives(&theta);
            let Some(step) = solve(&hess, &grad) else {
                break;
            };
            let biggest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
            // Newton on a concave log-likelihood; a step longer than 2 nats
            // (870 Elo) is shortened, as far from the optimum it can
            // overshoot.
            let scale = if biggest > 2.0 { 2.0 / biggest } else { 1.0 };
            for (t, s) in theta.iter_mut().zip(&step) {
                *t += s * scale;
            }
            if biggest < 1e-12 {
                break;
            }
        }
        let (_, hess) = self.derivatives(&theta);
        // Only differences of strength are measured: ratings are shown
        // about their mean, with the covariance of that centred vector
        // (P C P, P the centring projection), so the anchor's arbitrary
        // level does not widen every interval.
        let count = f64::from(u32::try_from(n.max(1)).unwrap_or(u32::MAX));
        let mean = theta.iter().sum::<f64>() / count;
        let centred_var = invert(&hess).map(|c| {
            let nf = count;
            let row_mean: Vec<f64> = c.iter().map(|r| r.iter().sum::<f64>() / nf).collect();
            let all_mean = row_mean.iter().sum::<f64>() / nf;
            (0..n)
                .map(|i| c[i][i] - 2.0 * row_mean[i] + all_mean)
                .collect::<Vec<f64>>()
        });
        theta
            .iter()
            .enumerate()
            .map(|(i, t)| Rating {
                elo: (t - mean) * ELO_PER_NAT,
                plus_minus: centred_var
                    .as_ref()
                    .and_then(|v| v.get(i))
                    .map_or(f64::INFINITY, |v| Z95 * v.max(0.0).sqrt() * ELO_PER_NAT),
            })
            .collect()
    }

    /// The gradient of the log-likelihood (with the anchor's virtual draws)
    /// and the negated Hessian (the observed information) at `theta`.
    fn derivatives(&self, theta: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
        let n = theta.len();
        let mut grad = vec![0.0; n];
        let mut info = vec![vec![0.0; n]; n];
        for i in 0..n {
            // The virtual draw against the anchor at 0.
            let p0 = logistic(theta[i]);
            grad[i] += 0.5 - p0;
            info[i][i] += p0 * (1.0 - p0);
            for j in 0..n {
                let g = self.games[i][j];
                if i == j || g == 0.0 {
                    continue;
                }
                let p = logistic(theta[i] - theta[j]);
                grad[i] += self.score[i][j] - g * p;
                let w = g * p * (1.0 - p);
                info[i][i] += w;
                info[i][j] -= w;
            }
        }
        (grad, info)
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None`
/// when `a` is singular.
fn solve(matrix: &[Vec<f64>], rhs: &[f64]) -> Option<Vec<f64>> {
    let size = rhs.len();
    let mut rows: Vec<Vec<f64>> = matrix
        .iter()
        .zip(rhs)
        .map(|(row, &value)| {
            let mut r = row.clone();
            r.push(value);
            r
        })
        .collect();
    for col in 0..size {
        let pivot =
            (col..size).max_by(|&x, &y| rows[x][col].abs().total_cmp(&rows[y][col].abs()))?;
        if rows[pivot][col].abs() < 1e-300 {
            return None;
        }
        rows.swap(col, pivot);
        for row in 0..size {
            if row != col {
                let factor = rows[row][col] / rows[col][col];
                let pivot_row = rows[col].clone();
                for (cell, p) in rows[row].iter_mut().zip(&pivot_row).skip(col) {
                    *cell -= factor * p;
                }
            }
        }
    }
    Some((0..size).map(|i| rows[i][size] / rows[i][i]).collect())
}

/// The inverse of `a`, column by column.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut columns = Vec::with_capacity(n);
    for j in 0..n {
        let e: Vec<f64> = (0..n).map(|i| if i == j { 1.0 } else { 0.0 }).collect();
        columns.push(solve(a, &e)?);
    }
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

/// The Wilson score interval of `successes` out of `trials` at 95 %, as
/// (low, high); (0, 1) when there are no trials.
pub fn wilson(successes: f64, trials: f64) -> (f64, f64) {
    if trials <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / trials;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / trials;
    let centre = (p + z2 / (2.0 * trials)) / denom;
    let half = Z95 * (p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_bots_rate_equal_and_a_stronger_one_higher() {
        let mut t = Tally::new(2);
        for _ in 0..10 {
            t.add(0, 1, 1.0);
            t.add(1, 0, 1.0);
        }
        let r = t.ratings();
        assert!((r[0].elo - r[1].elo).abs() < 1e-6, "{r:?}");
        let mut t = Tally::new(2);
        for i in 0..20 {
            t.add(0, 1, if i % 4 == 0 { 0.0 } else { 1.0 });
        }
        let r = t.ratings();
        assert!(r[0].elo > r[1].elo + 100.0, "{r:?}");
        assert!(
            r[0].plus_minus.is_finite() && r[0].plus_minus > 0.0,
            "{r:?}"
        );
    }

    #[test]
    fn a_bot_that_won_everything_keeps_a_finite_rating() {
        let mut t = Tally::new(3);
        for _ in 0..6 {
            t.add(0, 1, 1.0);
            t.add(0, 2, 1.0);
            t.add(1, 2, 0.5);
        }
        let r = t.ratings();
        assert!(
            r.iter()
                .all(|x| x.elo.is_finite() && x.plus_minus.is_finite()),
            "{r:?}"
        );
        assert!(
            r[0].elo > r[1].elo && (r[1].elo - r[2].elo).abs() < 1e-6,
            "{r:?}"
        );
    }

    #[test]
    fn more_matches_narrow_the_interval() {
        let few = {
            let mut t = Tally::new(2);
            for _ in 0..4 {
                t.add(0, 1, 1.0);
                t.add(0, 1, 0.0);
            }
            t.ratings()
        };
        let many = {
            let mut t = Tally::new(2);
            for _ in 0..40 {
                t.add(0, 1, 1.0);
                t.add(0, 1, 0.0);
            }
            t.ratings()
        };
        assert!(
            many[0].plus_minus < few[0].plus_minus / 2.0,
            "{few:?} {many:?}"
        );
    }

    #[test]
    fn wilson_intervals() {
        let (lo, hi) = wilson(5.0, 10.0);
        assert!(
            (lo - 0.2366).abs() < 1e-3 && (hi - 0.7634).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
        let (lo, hi) = wilson(10.0, 10.0);
        assert!(lo > 0.69 && (hi - 1.0).abs() < 1e-12, "{lo} {hi}");
    }
}
