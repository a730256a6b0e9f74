//! What a replay is worth under the user's objective, and how corera says
//! it to people.

use corera_placement::Objective;
use corera_replay::Outcome;

/// A value of the objective, compared lexicographically (smaller is
/// better): first whether the run keeps up with the recorded input (a
/// run that falls behind leaves work undone, so its READY and response
/// times say nothing good about it), then READY and mean response for
/// `ready`, the reverse for `response`, misses then lateness for
/// `deadlines`, traffic then READY for `traffic`; for `chains`, chain
/// deadline misses then the chains' summed p95 latency when some chain has
/// a deadline, else that summed p95 latency then READY.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// How far the run falls behind its input: 0 when it keeps up
    /// ([`corera_replay::KEEPS_UP`]), else the share of the input rate it
    /// does not sustain, in steps of 0.001.
    pub lag: f64,
    /// The objective itself (ns, or misses).
    pub primary: f64,
    /// The tie-breaker.
    pub secondary: f64,
    /// `chains` only: the primary measure counts chain deadline misses
    /// (some chain has a deadline) rather than the p95 latency.
    pub counted: bool,
}

/// Relative difference within which two scores count as equal when the
/// recommendation is chosen: the simpler set-up (one core per task, then
/// global SMP, then masks) wins unless a more complex one is better by
/// more than this. The costs behind the replay are estimates; a 1 %
/// difference is not worth a more complex set-up.
pub const CLOSE: f64 = 0.01;

impl Score {
    /// The score of `outcome` under `objective` (`traffic` is the
    /// placement's cross-core traffic).
    pub fn of(objective: Objective, outcome: &Outcome, traffic: u64) -> Score {
        let ready = outcome.ready_ns as f64;
        let response = outcome.response_mean_ns;
        let mut counted = false;
        let (primary, secondary) = match objective {
            Objective::Ready => (ready, response),
            Objective::Response => (response, ready),
            Objective::Deadlines => (
                outcome.tasks.iter().filter_map(|t| t.deadline_misses).sum::<u64>() as f64,
                outcome.tasks.iter().filter_map(|t| t.lateness_ns).sum::<u64>() as f64,
            ),
            Objective::Chains => {
                let p95: f64 = outcome.chains.iter().filter_map(|c| c.latency_p95_ns).map(|v| v as f64).sum();
                let misses: Vec<u64> = outcome.chains.iter().filter_map(|c| c.misses()).collect();
                counted = !misses.is_empty();
                if counted { (misses.iter().sum::<u64>() as f64, p95) } else { (p95, ready) }
            }
            Objective::Traffic => (traffic as f64, ready),
        };
        // In steps of 0.1 % of the input rate: two runs that fall behind by
        // less than that apart are behind alike (finer differences are the
        // replay's rounding), and the objective decides between them.
        let lag = if outcome.keeps_up() { 0.0 } else { ((1.0 - outcome.sustained_rate) * 1000.0).round() / 1000.0 };
        Score { lag, primary, secondary, counted }
    }

    /// The order of scores, better first.
    pub fn order(&self, other: &Score) -> std::cmp::Ordering {
        self.lag
            .total_cmp(&other.lag)
            .then(self.primary.total_cmp(&other.primary))
            .then(self.secondary.total_cmp(&other.secondary))
    }

    /// Whether `self` is better than `other`.
    pub fn beats(&self, other: &Score) -> bool {
        self.order(other).is_lt()
    }

    /// Whether `self` is no worse than `other` on the objective (keeping
    /// up, then the primary measure; the tie-breaker aside).
    pub fn no_worse_than(&self, other: &Score) -> bool {
        self.lag.total_cmp(&other.lag).then(self.primary.total_cmp(&other.primary)).is_le()
    }

    /// Whether `self` keeps up as well as `other` and is within [`CLOSE`]
    /// of it (or better) on both measures.
    pub fn close_to(&self, other: &Score) -> bool {
        let within = |a: f64, b: f64| a <= b + b.abs() * CLOSE;
        self.lag <= other.lag && within(self.primary, other.primary) && within(self.secondary, other.secondary)
    }

    /// Whether nothing can beat it on the objective: it keeps up and its
    /// objective is 0 (no READY, no deadline miss; every objective is a sum
    /// of non-negative terms). The tie-breaker may still differ.
    pub fn is_zero(&self) -> bool {
        self.lag == 0.0 && self.primary == 0.0
    }
}

/// A score for people: `READY 0.412 s`, `mean response 120.4 µs`,
/// `3 deadline misses, 1.250 ms late`; a run that falls behind its input
/// says so.
pub fn describe(objective: Objective, score: &Score) -> String {
    let value = match objective {
        Objective::Ready => format!("READY {}", span(score.primary)),
        Objective::Response => format!("mean response {}", span(score.primary)),
        Objective::Deadlines => format!("{} deadline misses, {} late", score.primary, span(score.secondary)),
        Objective::Chains if score.counted => {
            format!("{} chain deadline misses, chains' p95 {}", score.primary, span(score.secondary))
        }
        Objective::Chains => format!("chains' p95 {}", span(score.primary)),
        Objective::Traffic => format!("traffic {}", score.primary),
    };
    if score.lag > 0.0 {
        format!("{value}, falling behind at {:.1} % of the input rate", (1.0 - score.lag) * 100.0)
    } else {
        value
    }
}

/// The secondary measure of a score for people (what decides between
/// placements equal on the objective): `mean response 120.4 µs`.
pub fn describe_secondary(objective: Objective, score: &Score) -> String {
    match objective {
        Objective::Ready => format!("mean response {}", span(score.secondary)),
        Objective::Response | Objective::Traffic => format!("READY {}", span(score.secondary)),
        Objective::Deadlines => format!("{} late", span(score.secondary)),
        Objective::Chains if score.counted => format!("chains' p95 {}", span(score.secondary)),
        Objective::Chains => format!("READY {}", span(score.secondary)),
    }
}

/// A span of time for people, in seconds, milliseconds or microseconds,
/// to four significant figures: `1.779 s`, `785.2 ms`, `52.61 µs`.
pub fn span(ns: f64) -> String {
    let (v, unit) = if ns >= 1e9 {
        (ns / 1e9, "s")
    } else if ns >= 1e6 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e3, "µs")
    };
    if v == 0.0 {
        return "0 s".to_string();
    }
    let decimals = (3 - v.abs().log10().floor() as i32).clamp(0, 3) as usize;
    format!("{v:.decimals$} {unit}")
}

/// Spearman's rank correlation of the pairs (average ranks for ties);
/// `None` below five pairs or when one side is constant.
pub fn spearman(pairs: &[(f64, f64)]) -> Option<f64> {
    if pairs.len() < 5 {
        return None;
    }
    let ranks = |values: Vec<f64>| -> Vec<f64> {
        let mut idx: Vec<usize> = (0..values.len()).collect();
        idx.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
        let mut r = vec![0.0; values.len()];
        let mut i = 0;
        while i < idx.len() {
            let mut j = i;
            while j + 1 < idx.len() && values[idx[j + 1]] == values[idx[i]] {
                j += 1;
            }
            for &x in &idx[i..=j] {
                r[x] = (i + j) as f64 / 2.0;
            }
            i = j + 1;
        }
        r
    };
    let a = ranks(pairs.iter().map(|p| p.0).collect());
    let b = ranks(pairs.iter().map(|p| p.1).collect());
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (ma, mb) = (mean(&a), mean(&b));
    let cov: f64 = a.iter().zip(&b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = a.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = b.iter().map(|y| (y - mb).powi(2)).sum();
    if va == 0.0 || vb == 0.0 { None } else { Some(cov / (va * vb).sqrt()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_ranks() {
        let same: Vec<(f64, f64)> = (0..6).map(|i| (i as f64, (i * i) as f64)).collect();
        assert!((spearman(&same).unwrap() - 1.0).abs() < 1e-12);
        let reversed: Vec<(f64, f64)> = (0..6).map(|i| (i as f64, -(i as f64))).collect();
        assert!((spearman(&reversed).unwrap() + 1.0).abs() < 1e-12);
        assert_eq!(spearman(&same[..4]), None);
        assert_eq!(spearman(&[(1.0, 2.0); 6]), None);
    }

    #[test]
    fn scores_order_by_lag_then_objective_then_tie_breaker() {
        let s = |lag, primary, secondary| Score { lag, primary, secondary, counted: false };
        assert!(s(0.0, 9.0, 9.0).beats(&s(0.001, 1.0, 1.0)));
        assert!(s(0.0, 1.0, 9.0).beats(&s(0.0, 2.0, 0.0)));
        assert!(s(0.0, 1.0, 1.0).beats(&s(0.0, 1.0, 2.0)));
        assert!(s(0.0, 1.0, 2.0).no_worse_than(&s(0.0, 1.0, 1.0)));
        assert!(s(0.0, 100.5, 10.0).close_to(&s(0.0, 100.0, 10.0)));
        assert!(!s(0.0, 102.0, 10.0).close_to(&s(0.0, 100.0, 10.0)));
        assert!(s(0.0, 0.0, 1.0).is_zero() && !s(0.0, 1.0, 0.0).is_zero() && !s(0.001, 0.0, 0.0).is_zero());
        assert_eq!(span(1_779_000_000.0), "1.779 s");
        assert_eq!(span(52_610.0), "52.61 µs");
    }
}
