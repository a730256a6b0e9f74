//! What can go wrong in the pipeline, typed: each error says whether the
//! input (or what was asked) is at fault, the constraints cannot hold, or
//! something else failed ([`Error::failure`]); the binary turns that into
//! its exit code in one place.

use corera_placement::{ConstraintsFileError, PlacementError, PlatformError};
use corera_replay::{ReplayError, WorkloadError};
use corera_search::SearchError;
use corera_task_graph::GraphError;
use corera_trace_ingest::ReadError;
use corera_trace_ingest::priority::UnknownPriorityTask;

/// Whose the failure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The input or the options: a malformed trace, a missing file, a task
    /// name the trace does not have, options that do not go together.
    Input,
    /// The constraints cannot be met (pins on missing cores, overloaded
    /// pins).
    Infeasible,
    /// Anything else: a bug, or a resource that failed.
    Internal,
}

/// A pipeline error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A mistake in what was asked for or given.
    #[error("{0}")]
    Usage(String),
    /// An input file that could not be read (`what`: `open trace`, `read
    /// constraints file`, ...).
    #[error("could not {what} `{path}`")]
    Open {
        /// What was being done.
        what: &'static str,
        /// The file, as given.
        path: String,
        /// Why it failed.
        #[source]
        source: std::io::Error,
    },
    /// The trace could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A priority given for a task the trace does not have.
    #[error(transparent)]
    Priority(#[from] UnknownPriorityTask),
    /// The constraints file is not one.
    #[error("invalid constraints file: {path}")]
    Constraints {
        /// The file, as given.
        path: String,
        /// What is wrong in it.
        #[source]
        source: ConstraintsFileError,
    },
    /// The platform given is not one.
    #[error("--platform {spec}")]
    Platform {
        /// The spec or file given.
        spec: String,
        /// What is wrong with it.
        #[source]
        source: PlatformError,
    },
    /// The placement problem cannot be built.
    #[error(transparent)]
    Placement(#[from] PlacementError),
    /// A search failed.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The replay cannot keep a setting, or resolve a chain.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A workload could not be prepared.
    #[error(transparent)]
    Workload(#[from] WorkloadError),
    /// The task graph could not be built.
    #[error(transparent)]
    Graph(#[from] GraphError),
}

impl Error {
    /// Whose the failure is.
    pub fn failure(&self) -> Failure {
        match self {
            Error::Usage(_)
            | Error::Open { .. }
            | Error::Read(_)
            | Error::Priority(_)
            | Error::Constraints { .. }
            | Error::Platform { .. }
            | Error::Replay(_)
            | Error::Workload(_) => Failure::Input,
            Error::Placement(e) if e.is_usage() => Failure::Input,
            Error::Placement(_) => Failure::Infeasible,
            Error::Search(SearchError::Unsupported(_)) => Failure::Input,
            Error::Search(SearchError::Infeasible(_)) => Failure::Infeasible,
            Error::Search(_) | Error::Graph(_) => Failure::Internal,
        }
    }
}

/// A [`Error::Usage`].
pub(crate) fn usage(message: impl Into<String>) -> Error {
    Error::Usage(message.into())
}

/// The pipeline's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;
