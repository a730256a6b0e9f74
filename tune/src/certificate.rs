//! What is proven about an answer of the timing search, and on what the
//! proof rests.

/// The neighbourhood a local optimum is one of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Neighbourhood {
    /// Every single-task move to another core and every swap of two
    /// tasks on different cores, within the constraints and load limits.
    MovesAndSwaps,
    /// Every change of one core in one task's affinity mask (a core added
    /// or taken away; and the mask narrowed to the task's home core or
    /// widened to every core it may use), within the constraints and load
    /// limits.
    MaskCores,
}

impl Neighbourhood {
    /// How people read it.
    pub fn name(self) -> &'static str {
        match self {
            Neighbourhood::MovesAndSwaps => "single-task moves and swaps",
            Neighbourhood::MaskCores => "changes of one task's mask (a core added or taken, or all of them)",
        }
    }
}

/// What an optimality proof rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Every placement within the constraints and load limits was replayed
    /// (placements that differ only by a renaming of identical cores
    /// counted once).
    Enumeration {
        /// Placements replayed.
        placements: u64,
    },
    /// The objective is 0 and the run keeps up with the input: every
    /// objective is a sum of non-negative terms, so nothing can do better
    /// on it (placements equal on it are not searched for a better
    /// tie-breaker).
    Zero,
}

/// What is proven about an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// Optimal under the replay model.
    Optimal(Proof),
    /// No neighbour replays better: all of them were replayed.
    LocalOptimum {
        /// The neighbourhood.
        neighbourhood: Neighbourhood,
        /// Its size.
        neighbours: u64,
    },
    /// The budget (or the time limit) ran out while the neighbourhood
    /// was checked: `checked` neighbours replayed, none better.
    Partial {
        /// The neighbourhood.
        neighbourhood: Neighbourhood,
        /// Neighbours replayed.
        checked: u64,
        /// Its size.
        neighbours: u64,
    },
}

impl Certificate {
    /// The kind, as records name it: `optimal`, `local-optimum`,
    /// `partial`.
    pub fn kind(&self) -> &'static str {
        match self {
            Certificate::Optimal(_) => "optimal",
            Certificate::LocalOptimum { .. } => "local-optimum",
            Certificate::Partial { .. } => "partial",
        }
    }

    /// The certificate for people.
    pub fn describe(&self) -> String {
        match self {
            Certificate::Optimal(Proof::Enumeration { placements }) => format!(
                "optimal under the replay model: all {placements} placements within the limits replayed \
                 (identical cores counted once)"
            ),
            Certificate::Optimal(Proof::Zero) => {
                "optimal: its objective is 0 and it keeps up with the input, which nothing can beat".to_string()
            }
            Certificate::LocalOptimum { neighbourhood, neighbours } => format!(
                "a local optimum: none of its {neighbours} {} replays better (all replayed on the whole trace)",
                neighbourhood.name()
            ),
            Certificate::Partial { neighbourhood, checked, neighbours } => format!(
                "unproven: {checked} of its {neighbours} {} replayed on the whole trace when the budget ran out, \
                 none better",
                neighbourhood.name()
            ),
        }
    }
}
