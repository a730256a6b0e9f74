//! What a placement is judged by: the user's objective.

use serde::{Deserialize, Serialize};

/// The objective a placement is chosen by. The timing objectives are
/// measured by replaying the traced jobs under the placement; `traffic` is
/// the cross-core traffic alone. Load limits and capacities are hard
/// constraints under every objective.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// Summed READY time in the replay (time jobs wait ready for a core):
    /// what the log-based placement literature measures. The default for
    /// traces.
    #[default]
    Ready,
    /// Mean job response time (release to finish) in the replay.
    Response,
    /// Deadline misses first (against each task's inferred period or the
    /// deadline the user gives), then summed lateness, in the replay.
    Deadlines,
    /// The cause-effect chains' end-to-end latency in the replay: chain
    /// deadline misses first when a chain has a deadline, then the summed
    /// 95th-percentile latency of the chains (the user's, the model's, else
    /// the ones discovered in the trace).
    Chains,
    /// Cross-core traffic weighted by core distance (no replay).
    Traffic,
}

impl Objective {
    /// Every objective: the one list the CLI's `--objective` values and
    /// the book's list come from.
    pub const ALL: [Objective; 5] =
        [Objective::Ready, Objective::Response, Objective::Deadlines, Objective::Chains, Objective::Traffic];

    /// The `--objective` name.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Ready => "ready",
            Objective::Response => "response",
            Objective::Deadlines => "deadlines",
            Objective::Chains => "chains",
            Objective::Traffic => "traffic",
        }
    }

    /// One line for `--help`.
    pub fn help(self) -> &'static str {
        match self {
            Objective::Ready => "Summed READY time of the replayed jobs (the default for traces)",
            Objective::Response => "Mean response time of the replayed jobs",
            Objective::Deadlines => "Deadline misses of the replayed jobs, then summed lateness",
            Objective::Chains => "Cause-effect chains: misses of their deadlines, then their summed p95 latency",
            Objective::Traffic => "Cross-core traffic x core distance, without a replay",
        }
    }

    /// The objective named `name`.
    pub fn from_name(name: &str) -> Option<Objective> {
        Objective::ALL.into_iter().find(|g| g.name() == name)
    }

    /// Whether the replay judges it.
    pub fn is_timing(self) -> bool {
        self != Objective::Traffic
    }
}

impl std::fmt::Display for Objective {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
