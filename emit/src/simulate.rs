//! `corera simulate`'s table: one policy's replay, task by task, then its
//! cores, its totals, the kernel's rules it kept and its chains.

use corera_placement::Cost;
use corera_replay::{Outcome, Rules};
use corera_tune::span;

use crate::records::ChainRecord;

/// What `simulate` replayed.
#[derive(Clone, Copy, Debug)]
pub struct SimulateRun<'a> {
    /// The input's name.
    pub name: &'a str,
    /// Jobs replayed.
    pub jobs: usize,
    /// The replay.
    pub outcome: &'a Outcome,
    /// For a placement (AMP, masks): its cost, and whether traffic is
    /// weighted by the platform's distances.
    pub placement: Option<(&'a Cost, bool)>,
    /// The kernel's rules the replay kept.
    pub rules: &'a Rules,
    /// The chains it measured.
    pub chains: &'a [ChainRecord],
    /// The recording has no ready events: its releases were read from the
    /// switches ([`crate::records::RELEASES_CAUTION`]).
    pub releases_from_switches: bool,
}

/// The text `simulate` prints for `run`.
pub fn simulate_text(run: &SimulateRun<'_>) -> String {
    let o = run.outcome;
    let ms = |ns: Option<u64>| ns.map_or("-".to_string(), |x| format!("{:.3}", x as f64 / 1e6));
    let width = o.tasks.iter().map(|t| t.name.len()).max().unwrap_or(4).max(4);
    let mut text = format!(
        "{}: {} jobs replayed, policy {} on {} core(s)\n\n{:<width$} {:>11} {:>11} {:>7} {:>9} {:>9} {:>9} {:>6} {:>5}\n",
        run.name,
        run.jobs,
        o.policy.name(),
        o.cores,
        "task",
        "RUNNING ms",
        "READY ms",
        "jobs",
        "resp ms",
        "p95 ms",
        "max ms",
        "misses",
        "migr."
    );
    for t in &o.tasks {
        text.push_str(&format!(
            "{:<width$} {:>11.3} {:>11.3} {:>7} {:>9} {:>9} {:>9} {:>6} {:>5}\n",
            t.name,
            t.running_ns as f64 / 1e6,
            t.ready_ns as f64 / 1e6,
            t.jobs,
            ms(t.response_mean_ns),
            ms(t.response_p95_ns),
            ms(t.response_max_ns),
            t.deadline_misses.map_or("-".to_string(), |m| m.to_string()),
            t.migrations
        ));
    }
    text.push('\n');
    for line in crate::core_lines(o.core_busy.len(), |c| o.core_busy_ns[c] > 0) {
        match line {
            crate::CoreLine::One(c) => {
                let b = o.core_busy[c] * 100.0;
                text.push_str(&format!("core {c}: {b:5.1} % busy, {:5.1} % idle\n", 100.0 - b));
            }
            crate::CoreLine::Unused(first, last) => text.push_str(&format!("cores {first}-{last}: unused\n")),
        }
    }
    if let Some((cost, weighted)) = run.placement {
        text.push_str(&format!(
            "placement: {} cross-core traffic{}, busiest core {:.1} % load\n",
            cost.score.cross_traffic,
            if weighted { " (topology-weighted)" } else { "" },
            cost.core_utilisation.iter().copied().fold(0.0, f64::max) * 100.0
        ));
    }
    text.push_str(&format!(
        "makespan {:.3} s, {:.1} jobs/s, RUNNING {}, READY {}, mean response {}\n\
         migrations {}, cross-core messages {}, modelled overheads {}, idle core while a task waited {:.3} ms\n\
         input rate sustained {:.1} % of the recorded rate ({})\n",
        o.makespan_ns as f64 / 1e9,
        o.throughput_jobs_per_s,
        span(o.running_ns as f64),
        span(o.ready_ns as f64),
        span(o.response_mean_ns),
        o.migrations,
        o.cross_core_messages,
        span(o.overhead_ns as f64),
        o.non_work_conserving_ns as f64 / 1e6,
        o.sustained_rate * 100.0,
        if o.keeps_up() { "keeps up" } else { "falls behind: work piles up faster than the cores do it" }
    ));
    if o.deadlocks > 0 {
        text.push_str(&crate::deadlock_note(&format!("{} times", o.deadlocks)));
        text.push('\n');
    }
    if let Some(caution) = prediction_caution(run) {
        text.push_str(&format!("releases: {caution}\n"));
    }
    text.push_str(&format!("kernel: {}\n", run.rules.describe()));
    text.push_str(&crate::chains_text(run.chains, &[(o.policy.label(), o.chains.as_slice())]));
    text
}

/// On several cores, from a recording whose releases were read from the
/// switches: what the replay can show, and the cores that ran nothing.
fn prediction_caution(run: &SimulateRun<'_>) -> Option<String> {
    let o = run.outcome;
    if !run.releases_from_switches || o.cores < 2 {
        return None;
    }
    let idle = o.idle_cores();
    let mut text = crate::records::RELEASES_CAUTION.to_string();
    if !idle.is_empty() {
        text.push_str(&format!(" (here {} ran nothing)", crate::cores_named(&idle)));
    }
    Some(text)
}
