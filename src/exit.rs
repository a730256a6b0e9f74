//! Exit codes, and the error type that carries one.

/// Success.
pub(crate) const OK: u8 = 0;
/// An unexpected or internal error (a bug, or an I/O failure on output).
pub(crate) const INTERNAL: u8 = 1;
/// Bad input or usage: a malformed trace, a missing file, a bad flag
/// (clap also exits with 2 on usage errors).
pub(crate) const INPUT: u8 = 2;
/// The constraints cannot be met (pins on missing cores, overloaded pins).
pub(crate) const INFEASIBLE: u8 = 3;

const _: () = assert!(OK == 0);

/// An error with the exit code it maps to.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) code: u8,
    pub(crate) error: anyhow::Error,
}

impl Failure {
    pub(crate) fn is_broken_pipe(&self) -> bool {
        self.error
            .chain()
            .any(|e| e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe))
    }
}

/// Attaches an exit code to an error.
pub(crate) trait WithCode<T> {
    /// Bad input or usage: exit 2.
    fn input(self) -> Result<T, Failure>;
    /// Infeasible constraints: exit 3.
    fn infeasible(self) -> Result<T, Failure>;
    /// Internal or output error: exit 1.
    fn internal(self) -> Result<T, Failure>;
}

impl<T, E: Into<anyhow::Error>> WithCode<T> for Result<T, E> {
    fn input(self) -> Result<T, Failure> {
        self.map_err(|e| Failure { code: INPUT, error: e.into() })
    }

    fn infeasible(self) -> Result<T, Failure> {
        self.map_err(|e| Failure { code: INFEASIBLE, error: e.into() })
    }

    fn internal(self) -> Result<T, Failure> {
        self.map_err(|e| Failure { code: INTERNAL, error: e.into() })
    }
}
