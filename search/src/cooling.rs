//! The one cooling schedule and acceptance rule of corera's annealers: the
//! traffic annealing ([`Annealer`](crate::Annealer)), the block mapping of
//! the multilevel method, and the timing surrogate's annealing (crate
//! `corera-tune`).
//!
//! The temperature starts at the mean of a sample of uphill changes (so
//! that a typical bad step is first accepted with probability 1/e) and
//! falls geometrically to a fixed fraction of it over the walk; a step that
//! worsens the value by Δ is accepted with probability exp(−Δ / T)
//! (Metropolis), one that does not worsen it always, without drawing.

use corera_placement::rng::SplitMix64;

/// A geometric cooling schedule with the Metropolis rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cooling {
    temperature: f64,
    factor: f64,
}

impl Cooling {
    /// From `start` down to `start × end` in `steps` calls of
    /// [`Cooling::step`].
    pub fn geometric(start: f64, end: f64, steps: u64) -> Cooling {
        Cooling { temperature: start, factor: end.powf(1.0 / steps.max(1) as f64) }
    }

    /// The starting temperature for a sample of changes: the mean of the
    /// uphill (positive) ones, 1 when there are none.
    pub fn start_from(changes: impl IntoIterator<Item = f64>) -> f64 {
        let (sum, n) = changes.into_iter().filter(|&d| d > 0.0).fold((0.0, 0u32), |(s, n), d| (s + d, n + 1));
        if n == 0 { 1.0 } else { sum / f64::from(n) }
    }

    /// Cools by one step.
    pub fn step(&mut self) {
        self.temperature *= self.factor;
    }

    /// The current temperature.
    pub fn temperature(&self) -> f64 {
        self.temperature
    }

    /// Whether a step that changes the value by `delta` is taken: always
    /// when it does not worsen it, else with probability exp(−Δ / T) (one
    /// draw of `rng`).
    pub fn accepts(&self, delta: f64, rng: &mut SplitMix64) -> bool {
        delta <= 0.0 || rng.unit() < (-delta / self.temperature).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_temperature_falls_to_its_end_and_uphill_steps_grow_rare() {
        let mut c = Cooling::geometric(10.0, 1e-3, 1000);
        for _ in 0..1000 {
            c.step();
        }
        assert!((c.temperature() - 0.01).abs() < 1e-9, "{}", c.temperature());
        let mut rng = SplitMix64::new(1);
        assert!(c.accepts(0.0, &mut rng) && c.accepts(-5.0, &mut rng));
        let taken = (0..1000).filter(|_| c.accepts(0.1, &mut rng)).count();
        assert!(taken < 5, "exp(-10) is tiny: {taken} of 1000 taken");
        assert_eq!(Cooling::start_from([-1.0, 2.0, 4.0]), 3.0);
        assert_eq!(Cooling::start_from([-1.0]), 1.0);
    }
}
