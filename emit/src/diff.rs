//! `corera diff A B`: what changed between two analyses, the changes beyond
//! a threshold first. Per task its recorded load and rate and, in each
//! analysis's recommended run, its READY and mean response; per
//! cause-effect chain its mean latency there; and the recommendation.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::records::{Analysis, SCHEMA_VERSION};

/// One figure in both analyses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiffRow {
    /// The task or chain.
    pub subject: String,
    /// The figure (`load %`, `jobs/s`, `READY ms`, `response ms`,
    /// `latency ms`).
    pub figure: String,
    /// Its value in A, where A has it.
    pub a: Option<f64>,
    /// Its value in B, where B has it.
    pub b: Option<f64>,
    /// B against A, %: `None` where one side has no value or A's is 0 and
    /// B's is not.
    pub change_pct: Option<f64>,
    /// Whether the change is beyond the threshold (or the figure appeared
    /// or went).
    pub beyond: bool,
}

/// `corera diff --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiffRecord {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The analyses' inputs, A then B.
    pub inputs: [String; 2],
    /// The recommendations, A then B: set-up, platform and value.
    pub recommendations: [String; 2],
    /// The threshold, %.
    pub threshold_pct: f64,
    /// Every figure, the changes beyond the threshold first (largest
    /// first), then the others in task order.
    pub rows: Vec<DiffRow>,
}

/// The figures of one analysis: (subject, figure) to value.
fn figures(a: &Analysis) -> Vec<((String, &'static str), Option<f64>)> {
    let mut out = Vec::new();
    for (i, placed) in a.placement.iter().enumerate() {
        if let Some(m) = a.metrics(i) {
            out.push(((placed.task.clone(), "load %"), Some(m.utilisation * 100.0)));
            out.push(((placed.task.clone(), "jobs/s"), Some(m.throughput_hz)));
        }
    }
    // The recommended run is the last.
    if let Some(run) = a.replay.policies.last() {
        for (name, t) in a.replay.tasks.iter().zip(&run.outcome.tasks) {
            out.push(((name.clone(), "READY ms"), Some(t.ready_ns as f64 / 1e6)));
            out.push(((name.clone(), "response ms"), t.response_mean_ns.map(|ns| ns as f64 / 1e6)));
        }
        for c in &run.outcome.chains {
            out.push(((c.name.clone(), "latency ms"), c.latency_mean_ns.map(|ns| ns as f64 / 1e6)));
        }
    }
    out
}

/// What a recommendation says, in one line.
fn recommendation(a: &Analysis) -> String {
    let platform = a.platform.describe();
    match &a.recommendation {
        Some(r) => format!("{} on {platform}, {}", crate::records::setup_text(&r.setup), r.value.text),
        None => format!("the traffic-optimal placement on {platform} (objective {})", a.objective),
    }
}

/// B against A, the changes beyond `threshold_pct` first.
pub fn diff(a: &Analysis, b: &Analysis, threshold_pct: f64) -> DiffRecord {
    let fa = figures(a);
    let fb = figures(b);
    let mut keys: Vec<(String, &'static str)> = fa.iter().map(|(k, _)| k.clone()).collect();
    for (k, _) in &fb {
        if !keys.contains(k) {
            keys.push(k.clone());
        }
    }
    let value = |f: &[((String, &'static str), Option<f64>)], k: &(String, &'static str)| {
        f.iter().find(|(key, _)| key == k).and_then(|(_, v)| *v)
    };
    let mut rows: Vec<DiffRow> = keys
        .iter()
        .map(|k| {
            let (va, vb) = (value(&fa, k), value(&fb, k));
            let change_pct = match (va, vb) {
                (Some(x), Some(y)) if x == 0.0 && y == 0.0 => Some(0.0),
                (Some(x), Some(y)) if x != 0.0 => Some((y - x) / x.abs() * 100.0),
                _ => None,
            };
            // Times closer than 10 µs did not change, whatever the ratio.
            let close = k.1.ends_with(" ms") && va.zip(vb).is_some_and(|(x, y)| (y - x).abs() < 0.01);
            let beyond = match change_pct {
                Some(c) => c.abs() > threshold_pct && !close,
                None => va.is_some() != vb.is_some() || va != vb,
            };
            DiffRow { subject: k.0.clone(), figure: k.1.to_string(), a: va, b: vb, change_pct, beyond }
        })
        .collect();
    // Beyond first, largest change first (appeared or went, or from 0,
    // first of all); the others keep task order.
    let size = |r: &DiffRow| r.change_pct.map_or(f64::INFINITY, f64::abs);
    rows.sort_by(|x, y| {
        y.beyond
            .cmp(&x.beyond)
            .then_with(|| if x.beyond { size(y).total_cmp(&size(x)) } else { std::cmp::Ordering::Equal })
    });
    DiffRecord {
        schema_version: SCHEMA_VERSION,
        inputs: [a.input.name.clone(), b.input.name.clone()],
        recommendations: [recommendation(a), recommendation(b)],
        threshold_pct,
        rows,
    }
}

/// The text `corera diff` prints: the changes beyond the threshold, and
/// with `all` the others too.
pub fn diff_text(d: &DiffRecord, all: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "A: {} — {}", d.inputs[0], d.recommendations[0]);
    let _ = writeln!(s, "B: {} — {}", d.inputs[1], d.recommendations[1]);
    if d.recommendations[0] == d.recommendations[1] {
        let _ = writeln!(s, "recommendation: unchanged");
    } else {
        let _ = writeln!(s, "recommendation: changed");
    }
    let beyond = d.rows.iter().filter(|r| r.beyond).count();
    let _ = writeln!(
        s,
        "\n{beyond} of {} figures changed beyond {} % (B against A){}",
        d.rows.len(),
        d.threshold_pct,
        if beyond > 0 { ":" } else { "" }
    );
    let w = d.rows.iter().map(|r| r.subject.chars().count()).max().unwrap_or(4).max(4);
    let num = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.3}"));
    let line = |s: &mut String, r: &DiffRow| {
        let change = match r.change_pct {
            Some(c) => format!("{c:+.1} %"),
            None if r.a.is_none() => "new".to_string(),
            None if r.b.is_none() => "gone".to_string(),
            None => "from 0".to_string(),
        };
        let _ = writeln!(s, "  {:<w$}  {:<11} {:>12} {:>12} {:>9}", r.subject, r.figure, num(r.a), num(r.b), change);
    };
    if beyond > 0 {
        let _ = writeln!(s, "  {:<w$}  {:<11} {:>12} {:>12} {:>9}", "task/chain", "figure", "A", "B", "change");
        for r in d.rows.iter().filter(|r| r.beyond) {
            line(&mut s, r);
        }
    }
    let within = d.rows.len() - beyond;
    if within > 0 && !all {
        let _ = writeln!(s, "({within} more within {} %: --all lists them)", d.threshold_pct);
    } else if within > 0 {
        let _ = writeln!(s, "\n{within} within {} %:", d.threshold_pct);
        for r in d.rows.iter().filter(|r| !r.beyond) {
            line(&mut s, r);
        }
    }
    s
}
