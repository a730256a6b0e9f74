//! The replay-judged placement search.
//!
//! The fifth stage of corera's pipeline: after the traffic partitioner
//! (`corera-search`) has found the placement with the least cross-core
//! traffic, this crate searches the placement (one core per task, or
//! affinity masks) that replays best on what the user judges it by —
//! READY time, response times, deadline misses — by replaying the traced
//! jobs ([`corera_replay`]) under each candidate, steered by a fast
//! surrogate. Every answer comes with a [`Certificate`]: optimal under the
//! replay model (every placement replayed, or an objective of 0), a local
//! optimum (every neighbour replayed), or how far the check got. It then
//! recommends a set-up and finds the cost at which that would change.
//!
//! # Brief overview
//! - [`TimingInput`]: the problem, the workload, who waited on whom on one
//!   core, the traffic optimum.
//! - [`tune`]: the anytime search ([`TimingOptions`] → [`TimingSolution`]).
//! - [`Score`]: a replay's value under the objective; [`describe`] says
//!   it for people.
//! - [`Candidate`], [`Origin`], [`Certificate`]: what was found, from
//!   where, and what is proven about it.
//! - [`TimingSolution::recommendation`]: AMP, masks or global SMP, and
//!   why; [`break_even`]: the cost at which that changes.
//! - [`surrogate`]: `S = Σ waited[i][j]` over tasks on one core, and its
//!   annealing.
//!
//! # Example
//! ```
//! use corera_placement::{Constraints, Objective, Platform, Problem};
//! use corera_replay::{Replay, Workload, generate};
//! use corera_search::{Options, portfolio};
//! use corera_trace_ingest::Schedule;
//! use corera_tune::{TimingInput, TimingOptions, tune};
//!
//! let workload = Workload::from_toml(r#"
//!     name = "demo"
//!     duration_ms = 20
//!     [[task]]
//!     name = "Fast"
//!     priority = 3
//!     period_us = 1000
//!     exec_us = [300, 300]
//!     [[task]]
//!     name = "Slow"
//!     priority = 1
//!     period_us = 4000
//!     exec_us = [1500, 1500]
//! "#)?;
//! let trace = generate(&workload)?;
//! let schedule = Schedule::of(&trace);
//! let (graph, _) = corera_task_graph::TaskGraph::from_schedule(&trace, &schedule)?;
//! let platform = Platform::identical(2);
//! let problem = Problem::from_graph(&graph, &platform, &Constraints::default())?;
//! let replay = Replay::new(&trace, &schedule, &vec![None; trace.tasks.len()]);
//! let traffic = portfolio(&problem, &platform, &Options::default())?;
//! let input = TimingInput::new(&problem, &platform, Objective::Ready, &replay, &traffic);
//! let found = tune(&input, &TimingOptions::default())?;
//! // Apart, neither waits for the other: nothing can do better.
//! assert_eq!(found.amp.score.primary, 0.0);
//! assert_eq!(found.amp.certificate.unwrap().kind(), "optimal");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod break_even;
mod candidate;
mod certificate;
mod explore;
mod input;
mod recommend;
mod score;
mod setups;
pub mod surrogate;

pub use break_even::{BreakEven, break_even};
pub use candidate::{Candidate, FrontPoint, Origin};
pub use certificate::{Certificate, Neighbourhood, Proof};
pub use explore::{
    AUTO_BUDGET, EXACT_LIMIT, TimingOptions, TimingSolution, TuneProgress, TuneProgressFn, auto_budget, tune,
};
pub use input::TimingInput;
pub use recommend::{RECOMMENDABLE, setup_help};
pub use score::{CLOSE, Score, describe, describe_secondary, span, spearman};
pub use setups::Setups;
