//! The scheduling policies a replay runs under.

use serde::{Deserialize, Serialize};

/// How tasks are put on cores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// Everything on core 0.
    Single,
    /// Global fixed-priority scheduling: the most urgent ready tasks run,
    /// on any core; a task may migrate whenever it is switched in.
    Smp,
    /// Each job goes to the core with the least work queued when it is
    /// released, and stays there.
    SmpLeastLoaded,
    /// Partitioned: each task on its core of a placement.
    Amp,
    /// Global fixed-priority scheduling in which each task runs only on
    /// the cores of its affinity mask: between [`Policy::Amp`] (one core
    /// per task) and [`Policy::Smp`] (every core).
    Masks,
}

impl Policy {
    /// Every policy: the one list the CLI's `--policy` values and the
    /// book's policy table come from.
    pub const ALL: [Policy; 5] = [Policy::Single, Policy::Smp, Policy::SmpLeastLoaded, Policy::Amp, Policy::Masks];

    /// One line for `--help`.
    pub fn help(self) -> &'static str {
        match self {
            Policy::Single => "All tasks on one core, fixed-priority preemptive",
            Policy::Smp => "Global fixed-priority scheduling with migration",
            Policy::SmpLeastLoaded => "Each job on the least-loaded core when it is released",
            Policy::Amp => "Partitioned fixed-priority scheduling from a placement",
            Policy::Masks => {
                "Global fixed-priority scheduling within each task's affinity mask (a placement's `cores`)"
            }
        }
    }

    /// How reports name it.
    pub fn label(self) -> &'static str {
        match self {
            Policy::Single => "single core",
            Policy::Smp => "SMP (global)",
            Policy::SmpLeastLoaded => "SMP least-loaded",
            Policy::Amp => "AMP (placement)",
            Policy::Masks => "affinity masks",
        }
    }

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Single => "single",
            Policy::Smp => "smp",
            Policy::SmpLeastLoaded => "smp-least-loaded",
            Policy::Amp => "amp",
            Policy::Masks => "masks",
        }
    }
}
