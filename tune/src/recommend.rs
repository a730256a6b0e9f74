//! The recommendation: which set-up to use (one core per task, global
//! SMP, or affinity masks), and why.

use corera_placement::Objective;
use corera_replay::Policy;

#[cfg(doc)]
use crate::CLOSE;
use crate::{Candidate, Score, TimingSolution, describe, describe_secondary};

/// The set-ups a recommendation chooses among, simplest first: one core
/// per task ([`Policy::Amp`]), global SMP within the constraints
/// ([`Policy::Smp`]), affinity masks ([`Policy::Masks`]).
pub const RECOMMENDABLE: [Policy; 3] = [Policy::Amp, Policy::Smp, Policy::Masks];

/// What a set-up means, for people.
pub fn setup_help(policy: Policy) -> &'static str {
    match policy {
        Policy::Amp => "one core per task (AMP)",
        Policy::Masks => "affinity masks (some tasks float over several cores)",
        Policy::Smp => "global SMP (every task on every core it may use)",
        Policy::Single => "everything on one core",
        Policy::SmpLeastLoaded => "each job on the least-loaded core",
    }
}

impl TimingSolution {
    /// The recommended placement, its set-up, and why, in a sentence: the
    /// best of the best AMP placement, global SMP and the best mask
    /// placement, except that a simpler set-up within [`CLOSE`] of the
    /// best is preferred (one core per task only when it is also no worse
    /// than global SMP on the objective).
    pub fn recommendation(&self, objective: Objective) -> (&Candidate, Policy, String) {
        let value = |c: &Candidate| describe(objective, &c.score);
        let Some(m) = self.masks.as_ref().filter(|m| m.floats()) else {
            let why = if self.masks.is_some() {
                format!(
                    "the best AMP placement ({}) replays at least as well as every mask placement tried, global \
                     SMP ({}) among them",
                    value(&self.amp),
                    value(&self.smp)
                )
            } else {
                format!(
                    "the best AMP placement ({}; global SMP: {}); masks were not searched (--masks)",
                    value(&self.amp),
                    value(&self.smp)
                )
            };
            return (&self.amp, Policy::Amp, why);
        };
        let (amp, smp) = (&self.amp.score, &self.smp.score);
        let best = [amp, smp, &m.score].into_iter().fold(amp, |a, b| if b.beats(a) { b } else { a });
        let how = |a: &Score, b: &Score| if a.beats(b) { "better than" } else { "within 1 % of" };
        if amp.close_to(best) && amp.no_worse_than(smp) {
            let why = if best == amp {
                format!(
                    "the best AMP placement ({}) replays at least as well as every mask placement tried ({}), global \
                     SMP ({}) among them",
                    value(&self.amp),
                    value(m),
                    value(&self.smp)
                )
            } else {
                format!(
                    "the best AMP placement ({}) replays within 1 % of the best mask placement ({}) and no worse \
                     than global SMP ({}): one core per task is the simpler set-up",
                    value(&self.amp),
                    value(m),
                    value(&self.smp)
                )
            };
            (&self.amp, Policy::Amp, why)
        } else if smp.close_to(best) {
            let why = format!(
                "global SMP ({}) replays {} the best mask placement ({}) and better than the best AMP placement \
                 ({}): no affinity to set",
                value(&self.smp),
                how(smp, &m.score),
                value(m),
                value(&self.amp)
            );
            (&self.smp, Policy::Smp, why)
        } else {
            // Equal on the objective, better on the secondary measure: show both.
            let tie = [amp, smp].iter().any(|r| r.lag == m.score.lag && r.primary == m.score.primary);
            let value = |c: &Candidate| {
                if tie { format!("{}, {}", value(c), describe_secondary(objective, &c.score)) } else { value(c) }
            };
            let why = format!(
                "affinity masks replay better ({}) than the best AMP placement ({}) and global SMP ({})",
                value(m),
                value(&self.amp),
                value(&self.smp)
            );
            (m, Policy::Masks, why)
        }
    }
}
