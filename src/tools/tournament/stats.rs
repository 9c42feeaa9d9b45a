//! Match statistics: Elo from a score with a 95% error bar, likelihood of
//! superiority, and the sequential probability ratio test.
//!
//! The SPRT is the generalised SPRT with a normal approximation that
//! fishtest and OpenBench use, on **pentanomial** counts: games come in pairs
//! (one opening, colours reversed), and each pair's total score 0, 0.5, 1,
//! 1.5 or 2 is one trial. Pairs capture the correlation between the two games
//! of an opening, which trinomial counts ignore.

/// Logistic expected score for an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score in (0, 1).
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// Wins, draws and losses from the first engine's point of view, plus the
/// pentanomial counts of completed pairs (index = pair score x 2).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub pairs: [u32; 5],
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score in [0, 1].
    pub fn score(&self) -> f64 {
        let n = self.games().max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// Elo difference and the bounds of its 95% confidence interval
    /// (trinomial per-game variance, normal approximation of the mean
    /// score). A bound is infinite when the score's interval reaches 0 or 1:
    /// near a perfect score the interval on the score is fine but its Elo
    /// image is unbounded.
    pub fn elo_interval(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, 0.0, 0.0);
        }
        let (w, d, l) = (self.wins as f64 / n, self.draws as f64 / n, self.losses as f64 / n);
        let mu = w + 0.5 * d;
        let var = w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * (0.0 - mu).powi(2);
        let dev = 1.959_964 * (var / n).sqrt();
        let bound = |s: f64| {
            if s >= 1.0 {
                f64::INFINITY
            } else if s <= 0.0 {
                f64::NEG_INFINITY
            } else {
                elo_from_score(s)
            }
        };
        (elo_from_score(mu), bound(mu - dev), bound(mu + dev))
    }

    /// Elo difference and the half-width of its 95% confidence interval
    /// (infinite when the interval is unbounded, see [`Tally::elo_interval`]).
    pub fn elo(&self) -> (f64, f64) {
        let (elo, lo, hi) = self.elo_interval();
        (elo, (hi - lo) / 2.0)
    }

    /// The Elo difference as text: `+35.7 +/- 53.4`; a one-sided interval
    /// when the two-sided one has no upper (or lower) end, `+441.1 (> +252)`
    /// after 38 wins and 3 losses; and a bound alone when one engine scored
    /// every point (no estimate then: the one-sided 95% bound of the exact
    /// binomial, `> +449` after 41 wins out of 41).
    pub fn elo_text(&self) -> String {
        let n = self.games();
        let perfect = |points: u32| n > 0 && points == n;
        if perfect(self.wins) || perfect(self.losses) {
            let bound = elo_from_score(0.05f64.powf(1.0 / n as f64));
            return if perfect(self.wins) { format!("> {bound:+.0}") } else { format!("< {:+.0}", -bound) };
        }
        let (elo, lo, hi) = self.elo_interval();
        // `+ 0.0` turns an even score's -0.0 into +0.0.
        let elo = elo + 0.0;
        if hi.is_infinite() && lo.is_infinite() {
            format!("{elo:+.1} +/- inf")
        } else if hi.is_infinite() {
            format!("{elo:+.1} (> {lo:+.0})")
        } else if lo.is_infinite() {
            format!("{elo:+.1} (< {hi:+.0})")
        } else {
            format!("{elo:+.1} +/- {:.1}", (hi - lo) / 2.0)
        }
    }

    /// Likelihood of superiority: P(first engine is stronger), from wins and losses.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// Game pairs an SPRT plays before it may stop.
pub const SPRT_MIN_PAIRS: u32 = 20;

/// SPRT parameters: H0 elo = `elo0`, H1 elo = `elo1` (logistic Elo), error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    AcceptH0,
    AcceptH1,
    Continue,
}

impl Sprt {
    /// Parses `elo0=0,elo1=10,alpha=0.05,beta=0.05` (any order; defaults as shown).
    pub fn parse(s: &str) -> Result<Sprt, String> {
        let mut p = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        for part in s.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) = part.split_once('=').ok_or(format!("--sprt: expected key=value, got '{part}'"))?;
            let v: f64 = v.trim().parse().map_err(|_| format!("--sprt: bad number '{v}'"))?;
            match k.trim() {
                "elo0" => p.elo0 = v,
                "elo1" => p.elo1 = v,
                "alpha" => p.alpha = v,
                "beta" => p.beta = v,
                other => return Err(format!("--sprt: unknown key '{other}'")),
            }
        }
        if !(0.0 < p.alpha && p.alpha < 1.0 && 0.0 < p.beta && p.beta < 1.0) || p.elo1 <= p.elo0 {
            return Err("--sprt: need 0 < alpha, beta < 1 and elo0 < elo1".into());
        }
        Ok(p)
    }

    /// (lower, upper) log-likelihood-ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// Log-likelihood ratio of H1 against H0 for pentanomial pair counts.
    pub fn llr(&self, pairs: &[u32; 5]) -> f64 {
        if pairs.iter().all(|&c| c == 0) {
            return 0.0;
        }
        // Empty bins get a tiny count (as fishtest does), so that a match
        // where every pair ends alike still has a variance and can stop.
        let pairs: Vec<f64> = pairs.iter().map(|&c| (c as f64).max(1e-3)).collect();
        let n: f64 = pairs.iter().sum();
        // Per-pair score in [0, 1]: 0, 0.25, 0.5, 0.75, 1.
        let mean: f64 = pairs.iter().enumerate().map(|(i, &c)| c * i as f64 / 4.0).sum::<f64>() / n;
        let var: f64 = pairs.iter().enumerate().map(|(i, &c)| c * (i as f64 / 4.0 - mean).powi(2)).sum::<f64>() / n;
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The verdict; none before [`SPRT_MIN_PAIRS`] pairs, where the normal
    /// approximation's sample variance means nothing (one drawn-and-lost
    /// pair alone would give an LLR of -8).
    pub fn verdict(&self, pairs: &[u32; 5]) -> SprtVerdict {
        if pairs.iter().sum::<u32>() < SPRT_MIN_PAIRS {
            return SprtVerdict::Continue;
        }
        let llr = self.llr(pairs);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::AcceptH1
        } else if llr <= lo {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}
