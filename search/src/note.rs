//! What a search tells the user about its answer, as typed notes: the
//! portfolio's proof bookkeeping matches on them, the outputs print them.

use std::fmt;

/// A note on a [`Solution`](crate::Solution).
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// The exhaustive search stopped at its node budget: no proof.
    NodeBudget {
        /// The budget it had.
        budget: u64,
        /// Set when the portfolio scaled `--node-budget` down for this many
        /// cores (more than 8).
        scaled_for_cores: Option<u16>,
    },
    /// Too many tasks for the exhaustive search: no proof.
    TooManyTasks {
        /// The task count.
        tasks: usize,
        /// The most the portfolio hands to the exhaustive search.
        max: usize,
    },
    /// No placement keeps every core within its load limit; this one
    /// exceeds the limits least.
    Overloaded {
        /// Whether that was proven (the search was complete), or only none
        /// was found.
        proven: bool,
        /// Each core's limit in % of the traced core.
        limits_pct: Vec<f64>,
        /// Tasks too big for any core alone, with their load in %.
        too_big: Vec<(String, f64)>,
    },
    /// The ILP's outcome.
    Ilp {
        /// The MIP back-end.
        backend: &'static str,
        /// Its final status.
        status: String,
        /// Seconds it ran.
        seconds: f64,
    },
    /// The ILP proved that no placement keeps every core within its limit.
    IlpNoBalancedPlacement,
    /// The time limit ran out before the ILP could run.
    NoTimeForIlp,
    /// The balance tolerance was chosen from the traffic/balance front.
    BalanceChosen {
        /// The tolerance chosen.
        tolerance: f64,
        /// `--balance-weight`.
        weight: f64,
        /// Placements on the front.
        front: usize,
    },
}

impl Note {
    /// Whether the note says the answer is unproven for lack of budget
    /// (a later, stronger method can withdraw it).
    pub fn is_budget(&self) -> bool {
        matches!(self, Note::NodeBudget { .. })
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::NodeBudget { budget, scaled_for_cores } => {
                write!(f, "node budget of {budget} reached: the placement is not proven optimal")?;
                if let Some(k) = scaled_for_cores {
                    write!(f, " (on {k} cores the exhaustive stage gets --node-budget x (8/{k})^2)")?;
                }
                Ok(())
            }
            Note::TooManyTasks { tasks, max } => {
                write!(f, "{tasks} tasks: too many for the exhaustive search (at most {max}); no optimality proof")
            }
            Note::Overloaded { proven, limits_pct, too_big } => {
                let limits: Vec<String> = limits_pct.iter().map(|l| format!("{l:.1}")).collect();
                write!(
                    f,
                    "no placement {} every core within its load limit ({} % of the traced core){}; this one exceeds \
                     it least",
                    if *proven { "keeps" } else { "that keeps" },
                    limits.join(" / "),
                    if *proven { "" } else { " was found" },
                )?;
                if !too_big.is_empty() {
                    let list: Vec<String> = too_big.iter().map(|(n, l)| format!("`{n}` ({l:.1} %)")).collect();
                    let verb = if too_big.len() == 1 { "exceeds" } else { "each exceed" };
                    write!(f, ": {} alone {verb} every core's limit", list.join(", "))?;
                }
                Ok(())
            }
            Note::Ilp { backend, status, seconds } => write!(f, "ILP ({backend}): {status} after {seconds:.2} s"),
            Note::IlpNoBalancedPlacement => f.write_str("no placement keeps every core within its load limit"),
            Note::NoTimeForIlp => f.write_str("time limit reached before the ILP could run"),
            Note::BalanceChosen { tolerance, weight, front } => write!(
                f,
                "balance tolerance {tolerance} chosen by --balance-weight {weight} from a traffic/balance front of \
                 {front} placements"
            ),
        }
    }
}
