//! The target platform.

use serde::Serialize;

use crate::CoreId;

/// Default balance tolerance: a core may carry up to 10 % more than an
/// equal share of the load.
pub const DEFAULT_BALANCE_TOLERANCE: f64 = 0.10;

/// A multicore target: `cores` identical cores.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Platform {
    /// Number of cores (at least 1).
    pub cores: CoreId,
    /// Largest utilisation a core may carry (0 ..= 1, default 1.0): a core
    /// above it cannot keep up with its tasks.
    pub capacity: f64,
    /// Balance tolerance ε: a core's load may exceed an equal share of the
    /// total load by this fraction (default [`DEFAULT_BALANCE_TOLERANCE`]).
    pub balance_tolerance: f64,
}

impl Platform {
    /// `cores` identical cores with the default capacity and tolerance.
    pub fn identical(cores: CoreId) -> Platform {
        assert!(cores >= 1, "a platform has at least one core");
        Platform { cores, capacity: 1.0, balance_tolerance: DEFAULT_BALANCE_TOLERANCE }
    }

    /// The balance limit for a total load: `floor((1 + ε) · ceil(total / k))`
    /// (Walshaw's rule, as used by METIS and KaHIP).
    pub fn balance_limit(&self, total_load: u64) -> u64 {
        let share = total_load.div_ceil(u64::from(self.cores));
        ((1.0 + self.balance_tolerance) * share as f64).floor() as u64
    }
}
