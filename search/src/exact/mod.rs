//! Exact methods: branch and bound with a min-cut bound, complete
//! enumeration in Gray-code order, and the ILP.

pub(crate) mod cut_bound;
pub(crate) mod exhaustive;
pub(crate) mod gray;
#[cfg(feature = "highs")]
pub(crate) mod highs;
pub(crate) mod ilp;
