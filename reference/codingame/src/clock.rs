//! Time limits (TIME-2, TIME-5): 1000 ms for a player's first request, 100 ms
//! after, both scaled by the referee's time factor. Measuring (TIME-1) is the
//! bot process's job, on the monotonic [`std::time::Instant`].

use std::time::Duration;

/// The unscaled limit of a player's first request.
pub const FIRST: Duration = Duration::from_secs(1);
/// The unscaled limit of every later request.
pub const LATER: Duration = Duration::from_millis(100);

/// A time factor that is not a positive finite number.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error("the time factor must be a positive number, not {0}")]
pub struct FactorError(pub f64);

/// The limits of one match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The limit of a player's first request.
    pub first: Duration,
    /// The limit of every later request.
    pub later: Duration,
}

impl Limits {
    /// The limits scaled by `factor` (TIME-5).
    pub fn scaled(factor: f64) -> Result<Limits, FactorError> {
        if !(factor.is_finite() && factor > 0.0 && factor < 1e6) {
            return Err(FactorError(factor));
        }
        Ok(Limits {
            first: FIRST.mul_f64(factor),
            later: LATER.mul_f64(factor),
        })
    }

    /// The limit of a request, `first` for a player's first one.
    pub fn of(self, first: bool) -> Duration {
        if first { self.first } else { self.later }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            first: FIRST,
            later: LATER,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_2_and_5_limits() {
        let l = Limits::scaled(1.0).unwrap();
        assert_eq!(l.of(true), Duration::from_secs(1));
        assert_eq!(l.of(false), Duration::from_millis(100));
        assert_eq!(
            Limits::scaled(2.5).unwrap().of(false),
            Duration::from_millis(250)
        );
        assert!(Limits::scaled(0.0).is_err() && Limits::scaled(f64::NAN).is_err());
    }
}
