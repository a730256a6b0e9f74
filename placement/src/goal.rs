//! What a placement is judged by: the user's objective.

use serde::{Deserialize, Serialize};

/// The objective a placement is chosen by. The three timing objectives are
/// measured by replaying the traced jobs under the placement; `traffic` is
/// the cross-core traffic alone. Load limits and capacities are hard
/// constraints under every objective.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Goal {
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
    /// Cross-core traffic weighted by core distance (no replay).
    Traffic,
}

impl Goal {
    /// Every objective: the one list the CLI's `--objective` values and
    /// the book's list come from.
    pub const ALL: [Goal; 4] = [Goal::Ready, Goal::Response, Goal::Deadlines, Goal::Traffic];

    /// The `--objective` name.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Ready => "ready",
            Goal::Response => "response",
            Goal::Deadlines => "deadlines",
            Goal::Traffic => "traffic",
        }
    }

    /// One line for `--help`.
    pub fn help(self) -> &'static str {
        match self {
            Goal::Ready => "Summed READY time of the replayed jobs (the default for traces)",
            Goal::Response => "Mean response time of the replayed jobs",
            Goal::Deadlines => "Deadline misses of the replayed jobs, then summed lateness",
            Goal::Traffic => "Cross-core traffic x core distance, without a replay",
        }
    }

    /// The objective named `name`.
    pub fn from_name(name: &str) -> Option<Goal> {
        Goal::ALL.into_iter().find(|g| g.name() == name)
    }

    /// Whether the replay judges it.
    pub fn is_timing(self) -> bool {
        self != Goal::Traffic
    }
}

impl std::fmt::Display for Goal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
