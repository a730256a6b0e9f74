//! The timing search in an analysis: the recommendation, its certificate
//! and break-even, the alternatives it was chosen over.

use corera_placement::{Costs, Objective};
use corera_replay::Policy;
use corera_tune::{Certificate, Proof, Score, TimingSolution};
use serde::{Deserialize, Serialize};

use super::*;

/// The objective's value for people and in %: smaller is better.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Value {
    /// The objective (ns, or misses for `deadlines`).
    pub value: f64,
    /// Its tie-breaker (mean response for `ready`, READY for `response`,
    /// lateness ns for `deadlines`).
    pub secondary: f64,
    /// For people: `READY 0.412 s`.
    pub text: String,
}

impl Value {
    pub(crate) fn of(objective: Objective, score: &Score) -> Value {
        Value { value: score.primary, secondary: score.secondary, text: corera_tune::describe(objective, score) }
    }
}

/// What the analysis recommends, against what, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecommendationRecord {
    /// `amp` (one core per task), `smp` or `masks` (some tasks float): a
    /// [`Policy`] name, one of [`corera_tune::RECOMMENDABLE`].
    pub setup: String,
    /// Why, in a sentence.
    pub reason: String,
    /// The recommended placement's objective on the whole trace.
    pub value: Value,
    /// Improvement of the objective over each reference, in %: positive
    /// is better (`single`, `smp`, `traffic_optimum`, `best_amp`).
    pub improvement_pct: Vec<(String, f64)>,
    /// The costs it was judged under.
    pub costs: Costs,
    /// Where it and its rival swap places.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_even: Option<BreakEvenRecord>,
    /// What is proven about the recommended placement (none for global
    /// SMP, which is not searched).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<CertificateRecord>,
}

/// A recommended set-up's name (`amp`, `smp`, `masks`) for people; the
/// name itself when it is not one.
pub fn setup_text(name: &str) -> &str {
    let help: fn(Policy) -> &'static str = corera_tune::setup_help;
    corera_tune::RECOMMENDABLE.into_iter().find(|p| p.name() == name).map_or(name, help)
}

/// What is proven about a placement the timing search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CertificateRecord {
    /// `optimal` (under the replay model), `local-optimum` (every neighbour
    /// replayed, none better) or `partial` (the budget ran out first).
    pub kind: String,
    /// For `optimal`: what the proof rests on, `enumeration` (every
    /// placement within the limits replayed) or `zero` (an objective of
    /// 0, which nothing beats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    /// For `enumeration`: placements replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placements: Option<u64>,
    /// For a local optimum or a partial check: `moves-and-swaps` or
    /// `mask-cores`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbourhood: Option<String>,
    /// Neighbours replayed without an improvement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked: Option<u64>,
    /// The neighbourhood's size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neighbours: Option<u64>,
    /// For people.
    pub text: String,
}

impl CertificateRecord {
    /// The record of `c`.
    pub fn of(c: &Certificate) -> CertificateRecord {
        let hood = |n: corera_tune::Neighbourhood| {
            Some(
                match n {
                    corera_tune::Neighbourhood::MovesAndSwaps => "moves-and-swaps",
                    corera_tune::Neighbourhood::MaskCores => "mask-cores",
                }
                .to_string(),
            )
        };
        let mut r = CertificateRecord {
            kind: c.kind().to_string(),
            proof: None,
            placements: None,
            neighbourhood: None,
            checked: None,
            neighbours: None,
            text: c.describe(),
        };
        match *c {
            Certificate::Optimal(Proof::Enumeration { placements }) => {
                r.proof = Some("enumeration".into());
                r.placements = Some(placements);
            }
            Certificate::Optimal(Proof::Zero) => r.proof = Some("zero".into()),
            Certificate::LocalOptimum { neighbourhood, neighbours } => {
                r.neighbourhood = hood(neighbourhood);
                r.checked = Some(neighbours);
                r.neighbours = Some(neighbours);
            }
            Certificate::Partial { neighbourhood, checked, neighbours } => {
                r.neighbourhood = hood(neighbourhood);
                r.checked = Some(checked);
                r.neighbours = Some(neighbours);
            }
        }
        r
    }
}

/// Where two placements swap places as one cost changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BreakEvenRecord {
    /// The cost varied (a `[costs]` key).
    pub key: String,
    /// Its value now.
    pub current: f64,
    /// What the recommendation is compared with.
    pub rival: String,
    /// The value at which they swap, if one was found in `range`.
    pub at: Option<f64>,
    /// Whether the recommendation is better below `at` (else above).
    pub better_below: bool,
    /// The range tried.
    pub range: (f64, f64),
    /// Whether both still keep up with the input at `at`.
    pub keeps_up_at: bool,
    /// For people.
    pub statement: String,
}

impl RecommendationRecord {
    /// What an `improvement_pct` reference is, for people: `smp` is
    /// `global SMP`.
    pub fn reference_name(what: &str) -> &str {
        match what {
            "single" => "single core",
            "smp" => "global SMP",
            "traffic_optimum" => "the traffic-optimal placement",
            "best_amp" => "the best AMP placement",
            other => other,
        }
    }

    pub(crate) fn of(r: &Results<'_>, t: &TimingSolution) -> RecommendationRecord {
        let (best, choice, reason) = t.recommendation(r.objective);
        let single = r.replay.iter().map(|(_, o)| o).find(|o| o.policy == Policy::Single);
        let gain =
            |reference: f64| if reference > 0.0 { (reference - best.score.primary) * 100.0 / reference } else { 0.0 };
        let mut improvement = Vec::new();
        if let Some(s) = single {
            improvement.push(("single".to_string(), gain(Score::of(r.objective, s, 0).primary)));
        }
        improvement.push(("smp".to_string(), gain(t.smp.score.primary)));
        improvement.push(("traffic_optimum".to_string(), gain(t.traffic.score.primary)));
        if choice != Policy::Amp {
            improvement.push(("best_amp".to_string(), gain(t.amp.score.primary)));
        }
        RecommendationRecord {
            setup: choice.name().to_string(),
            reason,
            value: Value::of(r.objective, &best.score),
            improvement_pct: improvement,
            costs: r.platform.costs.clone(),
            break_even: r.break_even.map(|b| BreakEvenRecord {
                key: b.key.to_string(),
                current: b.current,
                rival: b.rival.clone(),
                at: b.at,
                better_below: b.better_below,
                range: b.range,
                keeps_up_at: b.keeps_up_at,
                statement: b.statement.clone(),
            }),
            certificate: best.certificate.as_ref().map(CertificateRecord::of),
        }
    }
}

/// A placement the recommendation was chosen over, replayed whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Alternative {
    /// What it is: `traffic optimum`, `best AMP`, `global SMP`.
    pub label: String,
    /// How the search found it.
    pub found_by: String,
    /// Its objective on the whole trace.
    pub value: Value,
    /// Its topology-weighted cross-core traffic.
    pub traffic: u64,
    /// The placement.
    pub placement: Vec<PlacedTask>,
}

impl Alternative {
    pub(crate) fn of(r: &Results<'_>, t: &TimingSolution) -> Vec<Alternative> {
        let (_, choice, _) = t.recommendation(r.objective);
        let mut list = vec![("traffic optimum", &t.traffic)];
        if choice != Policy::Smp {
            list.push(("global SMP", &t.smp));
        }
        if choice != Policy::Amp {
            list.push(("best AMP", &t.amp));
        }
        list.into_iter()
            .map(|(label, c)| Alternative {
                label: label.to_string(),
                found_by: c.label(),
                value: Value::of(r.objective, &c.score),
                traffic: c.traffic,
                placement: placed_tasks(r.problem, r.graph, &c.core_of, c.masks.as_deref()),
            })
            .collect()
    }
}

/// The timing search: what it replayed and how well its surrogate ranked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimingRecord {
    /// The budget (`--replay-budget`), in replays of the whole trace.
    pub budget: u64,
    /// Replays it ran.
    pub replays: u64,
    /// Whether `--time-limit` stopped it.
    pub out_of_time: bool,
    /// What is proven about the best AMP placement.
    pub amp: CertificateRecord,
    /// What is proven about the best mask placement, when masks were
    /// searched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub masks: Option<CertificateRecord>,
    /// Spearman's rank correlation between the surrogate and the replayed
    /// objective over the AMP placements evaluated.
    pub surrogate_rank: Option<f64>,
    /// Every placement evaluated: `[traffic, objective, masks]` (masks: 1
    /// for a mask placement), where it was judged.
    pub front: Vec<(u64, f64, u8)>,
}

impl TimingRecord {
    pub(crate) fn of(t: &TimingSolution) -> TimingRecord {
        TimingRecord {
            budget: t.budget,
            replays: t.replays,
            out_of_time: t.out_of_time,
            amp: CertificateRecord::of(t.amp.certificate.as_ref().expect("the search certifies its answers")),
            masks: t.masks.as_ref().and_then(|m| m.certificate.as_ref()).map(CertificateRecord::of),
            surrogate_rank: t.surrogate_rank,
            front: t.front.iter().map(|f| (f.traffic, f.score.primary, u8::from(f.masks))).collect(),
        }
    }
}
