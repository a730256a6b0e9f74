//! What a model (or a recording) says about the system beyond its events:
//! the hardware ([`ModelCore`], [`DefinitionLoad`], [`ModelScheduler`]),
//! a given mapping, deadlines, cause-effect chains ([`ModelChain`]) and
//! LET tasks, gathered in [`ModelInfo`]; and how a model is turned into
//! jobs ([`ModelOptions`]). Readers fill them (today the Amalthea reader);
//! the placement, the replay and the outputs read them from here, without
//! knowing the format.

use serde::{Deserialize, Serialize};

/// Which ticks a job executes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TicksMode {
    /// The average (the midpoint of the bounds where no average is given).
    #[default]
    Avg,
    /// The upper bound: the worst case.
    Upper,
}

impl TicksMode {
    /// Its `--ticks` name.
    pub fn name(self) -> &'static str {
        match self {
            TicksMode::Avg => "avg",
            TicksMode::Upper => "upper",
        }
    }

    /// The mode named `name`.
    ///
    /// # Errors
    /// A message naming the choices.
    pub fn parse(name: &str) -> Result<TicksMode, String> {
        match name {
            "avg" => Ok(TicksMode::Avg),
            "upper" => Ok(TicksMode::Upper),
            _ => Err(format!("`{name}`: expected avg or upper")),
        }
    }
}

/// How a model becomes jobs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelOptions {
    /// Horizon in ns (default: the hyperperiod, capped at
    /// [`crate::amalthea::MAX_HORIZON_NS`]).
    pub horizon_ns: Option<u64>,
    /// Average or worst-case ticks.
    pub ticks: TicksMode,
}

/// A processing unit of the model, as a core of the platform.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelCore {
    /// Its name in the model.
    pub name: String,
    /// Its processing-unit definition.
    pub definition: String,
    /// Its clock, Hz.
    pub frequency_hz: f64,
    /// The structure (cluster) it sits in.
    pub cluster: String,
    /// Speed relative to the reference definition.
    pub speed: f64,
}

/// The load the model puts on one kind of processing unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DefinitionLoad {
    /// The processing-unit definition.
    pub name: String,
    /// Its `puType` (CPU, GPU, ...).
    pub pu_type: String,
    /// Processing units of it.
    pub cores: usize,
    /// Tasks that can run on it.
    pub tasks: usize,
    /// Their demand in units of one such core (execution on it per unit of
    /// time), were they all on cores of this kind.
    pub load: f64,
}

/// A task scheduler of the model and the cores it is responsible for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelScheduler {
    /// Its name.
    pub name: String,
    /// Indexes into [`ModelInfo::cores`].
    pub cores: Vec<u16>,
}

/// What the placement and the report need from a model besides its jobs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// The schema version (from the namespace).
    pub version: String,
    /// Its processing units, in document order: core `i` is `cores[i]`.
    pub cores: Vec<ModelCore>,
    /// The definition execution times are given on.
    pub reference: String,
    /// Load per processing-unit definition.
    pub definitions: Vec<DefinitionLoad>,
    /// Labels and their summed size in bytes.
    pub labels: usize,
    /// See `labels`.
    pub label_bytes: u64,
    /// Per task (by name): the cores it may run on, where not all.
    pub allowed: Vec<(String, Vec<u16>)>,
    /// The model's own mapping: task name to the cores of its affinity
    /// (one core, or several it may float over), for every task it maps.
    pub mapping: Vec<(String, Vec<u16>)>,
    /// Task schedulers.
    pub schedulers: Vec<ModelScheduler>,
    /// The scheduler each task is allocated to, by name.
    pub task_scheduler: Vec<(String, String)>,
    /// Response-time requirements: task name, ns.
    pub deadlines: Vec<(String, u64)>,
    /// Cause-effect chains (`eventChains`), with their latency constraints.
    #[serde(default)]
    pub chains: Vec<ModelChain>,
    /// LET tasks (every label access `timed`): name and logical execution
    /// time (the response-time requirement, else the period), ns.
    #[serde(default)]
    pub let_tasks: Vec<(String, u64)>,
    /// The horizon the jobs were generated over, ns.
    pub horizon_ns: u64,
    /// The ticks used.
    pub ticks: TicksMode,
}

/// A cause-effect chain of a model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelChain {
    /// Its name (a branch of a parallel chain: `name/k`).
    pub name: String,
    /// Its tasks, stimulus first.
    pub tasks: Vec<String>,
    /// Whether its latency is the data age (the model's constraint says
    /// `Age`, the default) rather than the reaction time.
    pub age: bool,
    /// Its latency constraint's maximum, ns.
    pub deadline_ns: Option<u64>,
}
