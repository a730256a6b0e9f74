//! Placement solvers
