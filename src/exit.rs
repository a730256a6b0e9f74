//! Exit codes, decided once on the top-level error: [`exit_code`] looks
//! at the types of the errors in it.

use corera_pipeline::Failure;
use corera_placement::{MetisError, PlacementError, PlatformError};
use corera_replay::WorkloadError;
use corera_search::SearchError;
use corera_trace_ingest::ReadError;

/// An unexpected or internal error (a bug, or an I/O failure on output).
pub(crate) const INTERNAL: u8 = 1;
/// Bad input or usage: a malformed trace, a missing file, a bad flag
/// (clap also exits with 2 on usage errors).
pub(crate) const INPUT: u8 = 2;
/// The constraints cannot be met (pins on missing cores, overloaded pins).
pub(crate) const INFEASIBLE: u8 = 3;
/// `corera check`: a requirement fails; `corera calibrate`: the fit is
/// poor.
pub(crate) const FAILS: u8 = 4;

/// `corera check` found requirements that fail: (failing, all).
#[derive(Debug, thiserror::Error)]
#[error("{0} of {1} requirements fail")]
pub(crate) struct RequirementsFail(pub(crate) usize, pub(crate) usize);

/// `corera calibrate`'s fitted replay does not reproduce the multi-core
/// recording (the platform file is written all the same).
#[derive(Debug, thiserror::Error)]
#[error("the fitted replay does not reproduce {0}: predictions with these costs are not evidence")]
pub(crate) struct PoorFit(pub(crate) String);

/// A mistake in what the user asked for or gave (a file that cannot be
/// read, a wrong record, flags that do not go together): exit [`INPUT`].
/// Used as the error, or as the context of an I/O error on an input.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Usage(pub(crate) String);

/// A [`Usage`] error.
pub(crate) fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Usage(message.into()))
}

/// The exit code of `error`, from the types of the errors and contexts
/// in it (anyhow's `downcast_ref` sees every layer): a usage mistake or bad
/// input exits 2, constraints that cannot hold 3, anything else 1 (the
/// pipeline's typed errors say which they are: [`Failure`]).
pub(crate) fn exit_code(error: &anyhow::Error) -> u8 {
    if error.downcast_ref::<RequirementsFail>().is_some() || error.downcast_ref::<PoorFit>().is_some() {
        return FAILS;
    }
    if let Some(e) = error.downcast_ref::<corera_pipeline::Error>() {
        return match e.failure() {
            Failure::Input => INPUT,
            Failure::Infeasible => INFEASIBLE,
            Failure::Internal => INTERNAL,
        };
    }
    if let Some(e) = error.downcast_ref::<PlacementError>() {
        return if e.is_usage() { INPUT } else { INFEASIBLE };
    }
    if let Some(e) = error.downcast_ref::<SearchError>() {
        return match e {
            SearchError::Unsupported(_) => INPUT,
            SearchError::Infeasible(_) => INFEASIBLE,
            _ => INTERNAL,
        };
    }
    let input = error.downcast_ref::<Usage>().is_some()
        || error.downcast_ref::<ReadError>().is_some()
        || error.downcast_ref::<PlatformError>().is_some()
        || error.downcast_ref::<WorkloadError>().is_some()
        || error.downcast_ref::<MetisError>().is_some()
        || error.downcast_ref::<corera_emit::UnknownTask>().is_some();
    if input { INPUT } else { INTERNAL }
}

/// Whether `error` is a closed pipe (`corera ... | head`): not an error.
pub(crate) fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|e| e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
}

#[cfg(test)]
mod tests {
    use anyhow::Context;

    use super::*;

    #[test]
    fn the_types_in_the_error_decide() {
        let io = || std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let read: Result<(), _> = Err(io());
        assert_eq!(exit_code(&read.context(Usage("could not open trace `x`".into())).unwrap_err()), INPUT);
        let write: Result<(), _> = Err(io());
        assert_eq!(exit_code(&write.context("could not write `y`").unwrap_err()), INTERNAL);
        let conflict = PlacementError::Conflict { reason: "r".into(), rules: vec![] };
        assert_eq!(exit_code(&anyhow::Error::new(conflict).context("placing")), INFEASIBLE);
        let unknown = PlacementError::Usage { rule: "--apart A".into(), problem: "p".into() };
        assert_eq!(exit_code(&anyhow::Error::new(unknown)), INPUT);
        assert_eq!(exit_code(&anyhow::Error::new(SearchError::Infeasible(vec![]))), INFEASIBLE);
        assert_eq!(exit_code(&anyhow::Error::new(SearchError::Unsupported("no".into()))), INPUT);
        assert_eq!(exit_code(&anyhow::anyhow!("a bug")), INTERNAL);
        let pipe: Result<(), _> = Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert!(is_broken_pipe(&pipe.context("could not write to stdout").unwrap_err()));
    }
}
