//! Initial partitions: the greedy construction (also the repair and
//! single-move polish every candidate goes through) and METIS.

pub(crate) mod greedy;
pub(crate) mod metis;
