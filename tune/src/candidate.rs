//! A placement the timing search replayed: where it came from, what it
//! scored, and what is proven about it.

use corera_placement::{CoreId, CoreSet};
use corera_replay::Outcome;

use crate::{Certificate, Score};

/// Where a placement the timing search replayed started from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The traffic search's optimum.
    TrafficOptimum,
    /// Most urgent first, each onto the core with the least load at
    /// least as urgent.
    PrioritySpread,
    /// An optimum of the timing surrogate, annealed from the traffic
    /// optimum.
    Surrogate,
    /// An optimum of the timing surrogate, annealed from the priority
    /// spread.
    SurrogateFromSpread,
    /// The surrogate with traffic priced at ten times a cross-core
    /// interrupt's CPU time.
    TrafficLeaning,
    /// The surrogate with traffic priced at a cross-core interrupt's CPU
    /// time.
    SurrogateWithTraffic,
    /// A mapping given with the input (an Amalthea model's own).
    Given,
    /// Every placement within the limits, replayed.
    Enumeration,
    /// The best AMP placement, as a start of the mask search.
    BestAmp,
    /// Global SMP within the constraints.
    GlobalSmp,
    /// Each task that may float over the cores nearest its home core (a
    /// cluster of a clustered platform, the neighbours on a mesh).
    LocalSmp,
}

impl Origin {
    /// How people read it.
    pub fn name(self) -> &'static str {
        match self {
            Origin::TrafficOptimum => "traffic optimum",
            Origin::PrioritySpread => "priority spread",
            Origin::Surrogate => "surrogate",
            Origin::SurrogateFromSpread => "surrogate from priority spread",
            Origin::TrafficLeaning => "traffic-leaning surrogate",
            Origin::SurrogateWithTraffic => "surrogate with traffic",
            Origin::Given => "the input's own mapping",
            Origin::Enumeration => "enumeration",
            Origin::BestAmp => "the best AMP placement",
            Origin::GlobalSmp => "global SMP",
            Origin::LocalSmp => "SMP within each home core's cluster",
        }
    }
}

/// A placement the timing search replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Where the search that found it started.
    pub origin: Origin,
    /// Improving steps (moves, swaps, mask changes) taken from there.
    pub steps: u32,
    /// Perturbations it went through (the iterated local search's kicks
    /// that led to a better optimum).
    pub kicks: u32,
    /// Each task's core (for a mask placement: its home core, where it
    /// starts).
    pub core_of: Vec<CoreId>,
    /// For a mask placement: each task's cores.
    pub masks: Option<Vec<CoreSet>>,
    /// Its topology-weighted cross-core traffic (by home core).
    pub traffic: u64,
    /// Its surrogate value, ns (NaN where it has none: global SMP).
    pub surrogate: f64,
    /// Its score on the whole trace.
    pub score: Score,
    /// Its replay of the whole trace.
    pub outcome: Option<Outcome>,
    /// What is proven about it (the best AMP and the best mask
    /// placement).
    pub certificate: Option<Certificate>,
}

impl Candidate {
    /// Whether it gives some task more than one core.
    pub fn floats(&self) -> bool {
        self.masks.as_ref().is_some_and(|m| m.iter().any(|s| s.len() > 1))
    }

    /// How it was found, for people: `surrogate, refined by 12 steps and
    /// 3 perturbations`.
    pub fn label(&self) -> String {
        let name = self.origin.name();
        match (self.steps, self.kicks) {
            (0, 0) => name.to_string(),
            (s, 0) => format!("{name}, refined by {s} step{}", plural(s)),
            (s, k) => format!("{name}, refined by {s} step{} and {k} perturbation{}", plural(s), plural(k)),
        }
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// One evaluated placement, for the report's front.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrontPoint {
    /// Topology-weighted cross-core traffic.
    pub traffic: u64,
    /// Its objective where it was judged.
    pub score: Score,
    /// Whether it was a mask placement.
    pub masks: bool,
}
