//! corera's pipeline as a library: read a trace, build its task graph,
//! search placements (traffic, then judged by replays), replay every
//! set-up and recommend one, over plain option structs. The `corera`
//! binary parses its flags into [`Input`] and [`Options`], calls this and
//! prints; any Rust program can do the same.
//!
//! ```
//! use corera_pipeline::{Input, Options, analyze};
//!
//! let input = Input::file(concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/printer/printer.log"));
//! let options = Options { cores: 2, replay_budget: Some(20), ..Options::default() };
//! let analyzed = analyze(&input, &options)?;
//! let record = analyzed.analysis();
//! // Every task placed, and a recommendation judged by the replays.
//! assert_eq!(record.placement.len(), 24);
//! let recommendation = record.recommendation.expect("a timing objective recommends a set-up");
//! println!("{}: {}", recommendation.setup, recommendation.reason);
//! # Ok::<(), corera_pipeline::Error>(())
//! ```
//!
//! - [`read`](mod@read): the trace, its schedule, priorities and task graph;
//! - [`prepare`](mod@prepare): the placement problem on a platform, and the
//!   replays of a set-up or of the recording as recorded ([`Prepared`]);
//! - [`analyze`](mod@analyze): the searches and every set-up's replay
//!   ([`Analyzed`]), from which `corera_emit` renders each output;
//! - [`simulate`](mod@simulate): one policy on one placement
//!   ([`Simulation`]), and its timeline under the recording;
//! - [`calibrate`](mod@calibrate): the costs that make a single-core
//!   recording's replay reproduce a multi-core one ([`Calibration`]).
//!
//! Errors are typed ([`Error`]), each saying whose the failure is
//! ([`Failure`]); progress goes to an [`Observer`] when one is given.

pub mod analyze;
pub mod calibrate;
pub mod error;
pub mod options;
pub mod prepare;
pub mod read;
pub mod simulate;

pub use analyze::{Analyzed, ModelMapping, analyze, model_mapping, pareto, search};
pub use calibrate::{Calibration, calibrate};
pub use error::{Error, Failure, Result};
pub use options::{Input, Observer, Options};
pub use prepare::{DISCOVERED_CHAINS, Prepared, constrained_smp, constraints, platform, prepare, read_placement};
pub use read::{Read, ingest, input_name, read};
pub use simulate::{Simulation, simulation, timeline};
