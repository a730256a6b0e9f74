//! Refinement of a partition within the load limits: k-way FM moves
//! ([`fm`]) and max-flow min-cut between pairs of cores ([`flows`]),
//! both topology-aware.

pub(crate) mod flows;
pub(crate) mod fm;
