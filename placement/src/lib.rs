//! Platforms, placements and their cost
