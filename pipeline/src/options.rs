//! What the pipeline is asked: the trace to read ([`Input`]) and how to
//! place it ([`Options`]), as plain values (the binary fills them from its
//! flags; a program fills them itself).

use std::path::PathBuf;
use std::sync::Arc;

use corera_placement::{Constraints, Objective, TrafficScore};
use corera_search::Method;
use corera_trace_ingest::{FormatChoice, PriorityOverride, ReadOptions};

/// The trace to read.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// The file; `None` or `-` reads standard input.
    pub path: Option<PathBuf>,
    /// More files of the same recording, one per core in core order.
    pub more: Vec<PathBuf>,
    /// Its format.
    pub format: FormatChoice,
    /// How to read it (its `path`, the name messages give, is the file's).
    pub read: ReadOptions,
    /// Task priorities the user gives, applied last.
    pub priority: Vec<PriorityOverride>,
}

impl Input {
    /// The trace in `path`, its format detected.
    pub fn file(path: impl Into<PathBuf>) -> Input {
        Input { path: Some(path.into()), ..Input::default() }
    }
}

/// Sees the pipeline's progress (the binary draws a spinner with it).
pub trait Observer: Send + Sync {
    /// A step begins (`reading trace`, `searching placements`, ...).
    fn step(&self, _what: &'static str) {}
    /// The traffic search finished a stage with this best and bound.
    fn searching(&self, _stage: &str, _best: TrafficScore, _bound: TrafficScore) {}
    /// The timing search has run `done` of `budget` replays, its best so
    /// far `best`.
    fn tuning(&self, _done: u64, _budget: u64, _best: &str) {}
    /// The steps of one call are over.
    fn finish(&self) {}
}

/// How to place a trace: the target, the constraints, the search.
#[derive(Clone)]
pub struct Options {
    /// Identical cores of the target, unless `platform` names one.
    pub cores: u16,
    /// The target: a spec (`rp2`, `clusters:2x4`, a core count) or a
    /// platform file (`.toml`).
    pub platform: Option<String>,
    /// A constraints file (TOML), added to `constraints`.
    pub constraints_file: Option<PathBuf>,
    /// Pins, forbidden cores, groups, deadlines, chains, the objective.
    pub constraints: Constraints,
    /// Balance tolerance (default: 0.1, or the platform file's).
    pub balance: Option<f64>,
    /// Weigh balance against traffic on the traffic/balance front
    /// instead of a fixed tolerance.
    pub balance_weight: Option<f64>,
    /// Search nodes of the exact search.
    pub node_budget: u64,
    /// Wall-clock limit of each search, s.
    pub time_limit: Option<f64>,
    /// Seed of the randomised searches.
    pub seed: u64,
    /// The traffic search's method.
    pub method: Method,
    /// What placements are judged by (default: the constraints file's,
    /// else READY).
    pub objective: Option<Objective>,
    /// Replays of the whole trace the timing search may run.
    pub replay_budget: Option<u64>,
    /// Also search affinity masks.
    pub masks: bool,
    /// Who sees the progress.
    pub observer: Option<Arc<dyn Observer>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            cores: 2,
            platform: None,
            constraints_file: None,
            constraints: Constraints::default(),
            balance: None,
            balance_weight: None,
            node_budget: corera_search::DEFAULT_NODE_BUDGET,
            time_limit: None,
            seed: 0,
            method: Method::default(),
            objective: None,
            replay_budget: None,
            masks: true,
            observer: None,
        }
    }
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("cores", &self.cores)
            .field("platform", &self.platform)
            .field("constraints_file", &self.constraints_file)
            .field("objective", &self.objective)
            .field("seed", &self.seed)
            .field("observer", &self.observer.is_some())
            .finish_non_exhaustive()
    }
}

/// An observer that sees nothing.
struct Unobserved;

impl Observer for Unobserved {}

impl Options {
    /// The observer, or one that sees nothing.
    pub(crate) fn observer(&self) -> Arc<dyn Observer> {
        self.observer.clone().unwrap_or_else(|| Arc::new(Unobserved))
    }
}
