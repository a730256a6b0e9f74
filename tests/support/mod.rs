//! Helpers shared by the integration tests and the benchmarks.

pub(crate) mod baseline;
