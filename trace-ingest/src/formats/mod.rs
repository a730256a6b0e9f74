//! The readers, one module per input format, beside the scaffolding they
//! share (`crate::lines` for text formats, `crate::core_state` for kernel
//! recorder streams, `crate::error` for located errors and warnings).
//!
//! [`crate::FormatChoice`] is the registry: the one list of formats that
//! `--format`, detection and the book read.

pub mod amalthea;
pub mod btf;
pub mod corera_log;
pub mod ctf;
pub mod ftrace;
pub mod psf;
pub mod systemview;
