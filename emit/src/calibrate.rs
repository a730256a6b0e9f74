//! `corera calibrate`'s table: per task kind, the recorded mean response
//! and jobs against the replay before and after the fit, the makespan, the
//! fitted costs, whether the fit is good enough to predict with, and the
//! kinds the replay cut into other jobs.

use std::fmt::Write as _;

use corera_replay::calibrate::{Comparison, FITTED, GOOD_KINDS, GOOD_MAKESPAN, KindRow};

use crate::records::CalibrateRecord;

/// The text `corera calibrate` prints.
pub fn calibrate_text(r: &CalibrateRecord) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} replayed under global SMP on the {} cores of {}, against it by task kind ({} replays)\n",
        r.single.name, r.platform.cores, r.multi.name, r.replays
    );
    let _ = writeln!(
        s,
        "{:<16} {:>9} {:>12} {:>6} {:>12} {:>8} {:>12} {:>8} {:>6}",
        "kind", "instances", "recorded µs", "jobs", "before µs", "err", "after µs", "err", "jobs"
    );
    for (b, a) in r.before.kinds.iter().zip(&r.after.kinds) {
        let _ = writeln!(
            s,
            "{:<16} {:>9} {:>12} {:>6} {:>12} {:>8} {:>12} {:>8} {:>6}",
            b.kind,
            b.instances,
            micros(b.recorded_ns),
            b.recorded_jobs,
            micros(b.predicted_ns),
            error(b),
            micros(a.predicted_ns),
            error(a),
            a.predicted_jobs
        );
    }
    let _ = writeln!(s);
    for (what, c) in [("before", &r.before), ("after ", &r.after)] {
        let _ = writeln!(
            s,
            "{what}: {} of {} kinds within 10 % on mean response; makespan {:.1} ms against {:.1} recorded ({:+.1} %)",
            c.within(0.1),
            c.compared(),
            c.predicted_makespan_ns as f64 / 1e6,
            c.recorded_makespan_ns as f64 / 1e6,
            100.0 * c.makespan_error()
        );
    }
    let fitted: Vec<String> =
        FITTED.iter().map(|k| format!("{k} {}", r.platform.costs.get(k).unwrap_or_default())).collect();
    let _ = writeln!(s, "fitted: {}", fitted.join(", "));
    if r.good {
        let _ = writeln!(s, "the fit is good: predictions on this platform rest on it");
    } else {
        let _ = writeln!(s, "{}", poor(&r.after));
    }
    if let Some(line) = cut_otherwise(&r.after) {
        let _ = writeln!(s, "{line}");
    }
    if let Some(line) = idle_cores(&r.after) {
        let _ = writeln!(s, "{line}");
    }
    if !r.releases_from_switches.is_empty() {
        let _ =
            writeln!(s, "releases of {}: {}", r.releases_from_switches.join(" and "), crate::records::RELEASES_CAUTION);
    }
    s
}

/// Why a fit is not good enough, and what that means.
fn poor(c: &Comparison) -> String {
    let worst: Vec<String> = {
        let mut rows: Vec<&KindRow> = c.kinds.iter().filter(|k| k.error().is_some()).collect();
        rows.sort_by(|a, b| b.error().unwrap_or(0.0).abs().total_cmp(&a.error().unwrap_or(0.0).abs()));
        rows.iter().take(3).map(|k| format!("{} {:+.0} %", k.kind, 100.0 * k.error().unwrap_or(0.0))).collect()
    };
    format!(
        "the fit is poor (a good one: {:.0} % of the kinds within 10 % and the makespan within {:.0} %); furthest: {}: \
         predictions with these costs are not evidence of what the multi-core run will do",
        100.0 * GOOD_KINDS,
        100.0 * GOOD_MAKESPAN,
        worst.join(", ")
    )
}

/// The kinds the fitted replay cut into other jobs than the recording
/// did, with their summed response: the replay blocked at other points,
/// so their means compare jobs of other lengths.
fn cut_otherwise(c: &Comparison) -> Option<String> {
    let rows: Vec<String> = c
        .kinds
        .iter()
        .filter(|k| k.cut_otherwise())
        .map(|k| {
            let summed =
                k.summed_error().map_or_else(String::new, |e| format!(", summed response {:+.0} %", 100.0 * e));
            format!("{} {} → {}{summed}", k.kind, k.recorded_jobs, k.predicted_jobs)
        })
        .collect();
    (!rows.is_empty()).then(|| {
        format!(
            "jobs cut otherwise (recorded → replayed): {}: the replay blocks at other points than the recording, so \
             these kinds' mean responses compare jobs of other lengths; the summed response says how far their time \
             is",
            rows.join("; ")
        )
    })
}

/// The cores the fitted replay left idle: nothing could run beside the
/// rest, so the fit stretched their work.
fn idle_cores(c: &Comparison) -> Option<String> {
    (!c.idle_cores.is_empty()).then(|| {
        format!(
            "in the fitted replay {} ran nothing: no task could run beside another, so the costs stretch the \
             others' work to the recorded time rather than describe what the cores did together",
            crate::cores_named(&c.idle_cores)
        )
    })
}

fn micros(ns: Option<f64>) -> String {
    ns.map_or_else(|| "-".to_string(), |v| format!("{:.1}", v / 1e3))
}

fn error(k: &KindRow) -> String {
    k.error().map_or_else(|| "-".to_string(), |e| format!("{:+.0} %", 100.0 * e))
}
