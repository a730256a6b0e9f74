//! Platforms, placements and their cost.
//!
//! The third stage of corera's pipeline. A [`Problem`] is what placement
//! needs from a [`TaskGraph`](corera_task_graph::TaskGraph): the placeable
//! tasks with their load, the undirected traffic between them, and pins.
//! A [`Platform`] gives the cores and the balance rule; a [`Placement`]
//! maps each task to a core; [`Cost`] evaluates it.
//!
//! # Brief overview
//! - [`Platform`]: `n` identical cores, a per-core capacity and a balance
//!   tolerance.
//! - [`Problem::from_graph`]: tasks and ISRs of a task graph (idle tasks
//!   excluded), ISRs pinned to core 0, [`Constraints`] applied (pins to
//!   cores or core sets, forbidden cores, together, apart), conflicts
//!   named.
//! - [`TrafficScore`]: what placement minimises, lexicographically: first the
//!   load above the balance limit, then the cross-core traffic.
//! - [`Cost::of`]: full evaluation of a placement (traffic, loads,
//!   imbalance).
//!
//! # Example
//! ```
//! use corera_placement::{Placement, Platform, Problem, Cost};
//!
//! let problem = Problem::new(
//!     vec!["A".into(), "B".into(), "C".into()],
//!     vec![40, 30, 30],
//!     vec![(0, 1, 5), (1, 2, 1)],
//!     100,
//! );
//! let platform = Platform::identical(2);
//! let cost = Cost::of(&problem, &platform, &Placement::new(vec![0, 0, 1]));
//! assert_eq!(cost.score.cross_traffic, 1);
//! assert_eq!(cost.core_load_ns, vec![70, 30]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod apply;
mod constraints;
mod coreset;
mod cost;
mod metis;
mod objective;
mod platform;
mod problem;
mod renaming;
pub mod rng;

pub use constraints::{Chain, ChainKind, Constraints, ConstraintsFileError, CoreRule, Deadline, OsApplication};
pub use coreset::CoreSet;
pub use cost::{Cost, TrafficScore};
pub use metis::{MetisError, read_metis, write_partition};
pub use objective::Objective;
pub use platform::{Costs, DEFAULT_BALANCE_TOLERANCE, Kernel, KernelLock, Platform, PlatformError};
pub use problem::{PlacementError, Problem};
pub use renaming::Renaming;

use serde::Serialize;

/// A core index.
pub type CoreId = u16;

/// A task → core assignment, indexed like [`Problem`]'s tasks.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Placement {
    /// Core of each task.
    pub core_of: Vec<CoreId>,
}

impl Placement {
    /// Wraps a core-per-task vector.
    pub fn new(core_of: Vec<CoreId>) -> Placement {
        Placement { core_of }
    }

    /// Renumbers cores in order of first use, so that placements that
    /// differ only by a permutation of identical cores compare equal.
    /// Cores that hold pinned tasks must not be renumbered: pass them in
    /// `fixed`.
    pub fn canonical(&self, cores: CoreId, fixed: &[bool]) -> Placement {
        let mut map: Vec<Option<CoreId>> = (0..cores).map(|c| fixed[c as usize].then_some(c)).collect();
        let mut free = (0..cores).filter(|&c| !fixed[c as usize]);
        let core_of = self
            .core_of
            .iter()
            .map(|&c| *map[c as usize].get_or_insert_with(|| free.next().expect("no more cores than cores")))
            .collect();
        Placement { core_of }
    }
}
