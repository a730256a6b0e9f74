//! Where a timeline opens: the window of a readable width in which two
//! runs differ most in how long their tasks waited READY.

/// Segments the busiest core lane shows, on average, in the opening
/// window: enough to see who preempts whom, few enough to read the names.
const SEGMENTS_IN_VIEW: u64 = 60;

/// The opening window's width for a run of `end_ns` whose busiest core
/// lane has `busiest` segments: about [`SEGMENTS_IN_VIEW`] of them, rounded
/// down to 1, 2 or 5 times a power of ten ns, at least 10 µs and at most
/// the run.
pub(crate) fn width(end_ns: u64, busiest: usize) -> u64 {
    let end = end_ns.max(1);
    let raw = (u128::from(end) * u128::from(SEGMENTS_IN_VIEW) / (busiest.max(1) as u128)) as u64;
    let raw = raw.clamp(10_000.min(end), end);
    let mut unit = 1u64;
    while unit.saturating_mul(10) <= raw {
        unit *= 10;
    }
    let nice = [5, 2, 1].into_iter().map(|k| k * unit).find(|&w| w <= raw).unwrap_or(unit);
    nice.max(1)
}

/// READY of `spans` (`task, start, end`) in each bin of `step` ns over
/// `bins` bins from 0.
fn binned(spans: &[(u32, u64, u64)], step: u64, bins: usize) -> Vec<u64> {
    let mut out = vec![0u64; bins];
    for &(_, start, end) in spans {
        let mut t = start;
        while t < end {
            let bin = (t / step) as usize;
            if bin >= bins {
                break;
            }
            let edge = (bin as u64 + 1) * step;
            let next = edge.min(end);
            out[bin] += next - t;
            t = next;
        }
    }
    out
}

/// The window `width` wide, starting on a quarter of it, in which the
/// READY of runs `a` and `b` (each a list of `task, start, end` waits)
/// differ most, over `0..end_ns`; the earliest of equals. Returns the
/// window and each run's READY in it.
pub(crate) fn most_ready_difference(
    a: &[(u32, u64, u64)],
    b: &[(u32, u64, u64)],
    end_ns: u64,
    width: u64,
) -> ([u64; 2], u64, u64) {
    let step = (width / 4).max(1);
    let bins = end_ns.div_ceil(step).max(1) as usize;
    let (ra, rb) = (binned(a, step, bins), binned(b, step, bins));
    let per = (width / step).max(1) as usize;
    let sum = |r: &[u64], i: usize| r[i..(i + per).min(bins)].iter().sum::<u64>();
    let mut best = (0usize, 0u64, 0u64);
    let mut best_diff = 0u64;
    for i in 0..bins.saturating_sub(per - 1).max(1) {
        let (x, y) = (sum(&ra, i), sum(&rb, i));
        if x.abs_diff(y) > best_diff {
            best_diff = x.abs_diff(y);
            best = (i, x, y);
        }
    }
    let from = best.0 as u64 * step;
    ([from, (from + width).min(end_ns.max(from + 1))], best.1, best.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_width_is_a_round_number_near_the_segments_wanted() {
        // 8.5 s, 60,000 segments on the busiest lane: 8.5 ms, rounded down.
        assert_eq!(width(8_500_000_000, 60_000), 5_000_000);
        assert_eq!(width(8_500_000_000, 15_000), 20_000_000);
        assert_eq!(width(1_000_000, 10), 1_000_000, "a short run is shown whole");
        assert_eq!(width(100_000_000_000, 1_000_000_000), 10_000, "at least 10 µs");
    }

    #[test]
    fn the_window_is_where_the_runs_wait_differently() {
        // Both runs wait everywhere alike except around 70 ms, where `a`
        // waits 3 ms more.
        let mut a: Vec<(u32, u64, u64)> = (0..100).map(|i| (0, i * 1_000_000, i * 1_000_000 + 200_000)).collect();
        let b = a.clone();
        a.push((1, 70_500_000, 73_500_000));
        let (w, ra, rb) = most_ready_difference(&a, &b, 100_000_000, 4_000_000);
        assert!(w[0] <= 70_500_000 && w[1] >= 73_500_000, "{w:?}");
        assert_eq!(ra - rb, 3_000_000);
        // Symmetric: which run waits more does not matter.
        let (w2, _, _) = most_ready_difference(&b, &a, 100_000_000, 4_000_000);
        assert_eq!(w, w2);
    }

    #[test]
    fn runs_that_never_differ_open_at_the_start() {
        let a = vec![(0, 5, 10)];
        let (w, ra, rb) = most_ready_difference(&a, &a, 1_000, 100);
        assert_eq!((w, ra, rb), ([0, 100], 0, 0));
    }
}
