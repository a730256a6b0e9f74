//! The comparative HTML report: one self-contained file (inline CSS, SVG
//! and JavaScript; nothing fetched from the network).
//!
//! Static parts (tables, load bars, task graph, traffic heat map) are SVG
//! and HTML written here; the Gantt timelines are drawn by a small script
//! on canvases from data embedded in the page, with wheel zoom and drag
//! pan (`html/timeline.rs`, from the analysis's
//! [`TimelineRecord`](crate::timeline::TimelineRecord)).

use std::fmt::Write as _;

use corera_replay::Policy;
use corera_trace_ingest::TaskKind;

use crate::records::Analysis;
use crate::{Emitter, VERSION};

/// The `report.html` emitter.
#[derive(Clone, Copy, Debug, Default)]
pub struct HtmlReport;

const PALETTE: [&str; 8] = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"];

use crate::escape_markup as esc;

mod timeline;

pub use timeline::page as timeline_page;

fn ms(ns: f64) -> String {
    format!("{:.3}", ns / 1e6)
}

impl Emitter for HtmlReport {
    fn name(&self) -> &'static str {
        "html"
    }

    fn file_name(&self) -> &'static str {
        "report.html"
    }

    fn emit(&self, r: &Analysis) -> Vec<u8> {
        let mut s = String::with_capacity(1 << 20);
        let title = format!("corera report: {}", r.input.name);
        let _ = write!(
            s,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body data-js-errors=\"0\" data-rendered=\"\">\n",
            esc(&title)
        );
        let _ = writeln!(s, "<h1>{}</h1>", esc(&title));
        let _ = writeln!(
            s,
            "<p class=\"meta\">corera {VERSION} · input {} ({}, {} bytes, hash {}) · platform {}</p>",
            esc(&r.input.name),
            esc(&r.input.format),
            r.input.bytes,
            esc(&r.input.hash),
            esc(&r.platform.describe())
        );
        recommendation(&mut s, r);
        headline(&mut s, r);
        front(&mut s, r);
        distributions(&mut s, r);
        chain_distributions(&mut s, r);
        loads(&mut s, r);
        graph_svg(&mut s, r);
        heat_map(&mut s, r);
        timeline::section(&mut s, &r.replay.tasks, r.replay.timeline.as_ref());
        placement_table(&mut s, r);
        model(&mut s, r);
        search(&mut s, r);
        trace_summary(&mut s, r);
        let _ = write!(s, "<script>{JS_COMMON}{}{JS_REPORT}</script>\n</body>\n</html>\n", timeline::JS);
        s.into_bytes()
    }
}

/// The recommendation, first: set-up, value, why, gains, break-even.
fn recommendation(s: &mut String, r: &Analysis) {
    let Some(rec) = &r.recommendation else { return };
    let setup = crate::records::setup_text(&rec.setup);
    let _ = writeln!(
        s,
        "<section id=\"recommendation\"><h2>Recommendation</h2><p class=\"big\"><b>{}</b> — {} (objective <code>{}</code>)</p>\
         <p>{}.</p><table><tr><th>against</th><th>improvement</th></tr>",
        esc(setup),
        esc(&rec.value.text),
        r.objective,
        esc(&rec.reason)
    );
    for (what, pct) in &rec.improvement_pct {
        let name = crate::records::RecommendationRecord::reference_name(what);
        let class = if *pct > 0.0 { "good" } else { "" };
        let _ = writeln!(s, "<tr><td>{name}</td><td class=\"{class}\">{pct:+.1} %</td></tr>");
    }
    let _ = writeln!(s, "</table>");
    if let Some(caution) = r.replay.fidelity.as_ref().and_then(|f| crate::fidelity_caution(f, r.replay.rules.as_ref()))
    {
        let _ = writeln!(s, "<p id=\"caution\" class=\"bad\"><b>Caution:</b> {}.</p>", esc(&caution));
    }
    if let Some(c) = &rec.certificate {
        let _ = writeln!(s, "<p id=\"certificate\"><b>Proof:</b> {}.</p>", esc(&c.text));
    }
    if let Some(t) = &r.timing {
        let masks = t.masks.as_ref().map_or(String::new(), |m| format!("; the best mask placement: {}", esc(&m.text)));
        let _ = writeln!(
            s,
            "<p class=\"note\" id=\"certificates\">The best AMP placement: {}{masks}.</p>",
            esc(&t.amp.text)
        );
    }
    if let Some(b) = &rec.break_even {
        let _ = writeln!(s, "<p id=\"break-even\"><b>Break-even:</b> {}.</p>", esc(&b.statement));
    }
    let c = &rec.costs;
    let _ = writeln!(
        s,
        "<p class=\"note\">Judged by replaying the traced jobs with these costs: a cross-core signal {} ns late and {} ns \
         of CPU on the receiver, {} ns per byte carried, {} ns per migration, {} ns per dispatch of a task that may float \
         (change them in the platform file's <code>[costs]</code>; <code>corera simulate --sweep</code> shows where the \
         answer changes). Positive percentages are improvements.</p></section>",
        c.message_latency_ns, c.message_cpu_ns, c.byte_ns, c.migration_ns, c.schedule_ns
    );
}

/// The front of evaluated placements: cross-core traffic against the
/// objective, the recommendation and the references marked.
fn front(s: &mut String, r: &Analysis) {
    let (Some(t), Some(rec)) = (&r.timing, &r.recommendation) else { return };
    if t.front.is_empty() {
        return;
    }
    let (w, h, m) = (760.0, 360.0, 60.0);
    let marks: Vec<(&str, f64, f64)> =
        std::iter::once(("recommended", r.cost.score.cross_traffic as f64, rec.value.value))
            .chain(r.alternatives.iter().map(|a| (a.label.as_str(), a.traffic as f64, a.value.value)))
            .collect();
    let points = t.front.iter().map(|p| (p.0 as f64, p.1)).chain(marks.iter().map(|m| (m.1, m.2)));
    let (x_max, y_max) = points.fold((1.0f64, 1.0f64), |acc, p| (acc.0.max(p.0), acc.1.max(p.1)));
    let x = |v: f64| m + v / x_max * (w - 2.0 * m);
    let y = |v: f64| h - m - v / y_max * (h - 2.0 * m);
    let _ = writeln!(
        s,
        "<section id=\"front\"><h2>Candidates evaluated</h2><p class=\"note\">Each dot a placement the search replayed \
         ({} of {} replays of the whole trace): cross-core traffic across, the objective up (lower is better); grey dots AMP \
         placements, blue mask placements; the recommendation and the references are named.</p>\
         <svg id=\"front-svg\" width=\"{w}\" height=\"{h}\" role=\"img\">\
         <line x1=\"{m}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"#999\"/><line x1=\"{m}\" y1=\"{m}\" x2=\"{m}\" y2=\"{b}\" stroke=\"#999\"/>\
         <text x=\"{r}\" y=\"{}\" text-anchor=\"end\">cross-core traffic</text><text x=\"4\" y=\"{}\">{}</text>",
        t.replays,
        t.budget,
        h - m + 30.0,
        m - 12.0,
        esc(r.objective.name()),
        b = h - m,
        r = w - m,
    );
    for p in &t.front {
        let _ = writeln!(
            s,
            "<circle class=\"candidate\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{}\" fill-opacity=\"0.6\"/>",
            x(p.0 as f64),
            y(p.1),
            if p.2 == 1 { "#1f78b4" } else { "#888" }
        );
    }
    for (label, tx, ty) in marks {
        let colour = if label == "recommended" { "#1a7f37" } else { "#c62828" };
        let _ = writeln!(
            s,
            "<g class=\"mark\"><circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"6\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" fill=\"{colour}\">{}</text></g>",
            x(tx),
            y(ty),
            x(tx) + 9.0,
            y(ty) - 6.0,
            esc(label)
        );
    }
    let _ = writeln!(s, "</svg></section>");
}

/// A distribution as the box plots draw it: min and quartiles, p95, max.
type Spread = ([u64; 4], u64, u64);

/// Per task, the response-time distribution of each replay (min,
/// quartiles, p95, max) as box plots on a log scale.
fn distributions(s: &mut String, r: &Analysis) {
    let runs = &r.replay.policies;
    let stats =
        |t: &corera_replay::TaskResult| Some((t.response_quartiles_ns?, t.response_p95_ns?, t.response_max_ns?));
    let groups: Vec<(String, Vec<Option<Spread>>)> = r
        .replay
        .tasks
        .iter()
        .enumerate()
        .map(|(i, name)| (name.clone(), runs.iter().map(|run| run.outcome.tasks.get(i).and_then(stats)).collect()))
        .collect();
    box_plots(s, "distributions", "Response times per task", "For each task", &groups, r);
}

/// Per cause-effect chain, the latency distribution of each replay.
fn chain_distributions(s: &mut String, r: &Analysis) {
    let runs = &r.replay.policies;
    let stats = |c: &corera_replay::ChainResult| Some((c.latency_quartiles_ns?, c.latency_p95_ns?, c.latency_max_ns?));
    let groups: Vec<(String, Vec<Option<Spread>>)> = r
        .replay
        .chains
        .iter()
        .enumerate()
        .map(|(k, c)| (c.name.clone(), runs.iter().map(|run| run.outcome.chains.get(k).and_then(stats)).collect()))
        .collect();
    box_plots(
        s,
        "chains",
        "End-to-end latency per cause-effect chain",
        "For each chain (release of a first job to the finish of the last job it caused)",
        &groups,
        r,
    );
}

/// Box plots on a log scale: per group (a task, a chain), one box per
/// replay in the order of the replay table.
fn box_plots(
    s: &mut String,
    id: &str,
    title: &str,
    each: &str,
    groups: &[(String, Vec<Option<Spread>>)],
    r: &Analysis,
) {
    let runs = &r.replay.policies;
    let all: Vec<u64> =
        groups.iter().flat_map(|(_, g)| g.iter().flatten()).flat_map(|(q, _, max)| [q[0], *max]).collect();
    if all.is_empty() {
        return;
    }
    let lo = all.iter().copied().min().unwrap_or(1).max(1) as f64;
    let hi = (all.iter().copied().max().unwrap_or(1) as f64).max(lo * 2.0);
    let (w, left, row) = (760.0, 170.0, 12.0);
    let x = |ns: f64| left + (ns.max(lo).ln() - lo.ln()) / (hi.ln() - lo.ln()) * (w - left - 20.0);
    let h = 30.0 + (groups.len() * runs.len()) as f64 * row + groups.len() as f64 * 6.0;
    let _ = writeln!(
        s,
        "<section id=\"{id}\"><h2>{title}</h2><p class=\"note\">{each}, one box per \
         replay (in the order of the table above): whiskers from the fastest to the slowest, box from the 25th to \
         the 75th percentile, black bar at the median, tick at p95; log scale from {} to {} ms.</p>\
         <svg id=\"{id}-svg\" width=\"{w}\" height=\"{h:.0}\" role=\"img\">",
        ms(lo),
        ms(hi)
    );
    let mut top = 20.0;
    for (name, boxes) in groups {
        let _ =
            writeln!(s, "<text x=\"0\" y=\"{:.1}\">{}</text>", top + row * runs.len() as f64 / 2.0 + 4.0, esc(name));
        for (k, run) in runs.iter().enumerate() {
            let Some((q, p95, max)) = boxes.get(k).copied().flatten() else { continue };
            let (yy, colour) = (top + row * k as f64, PALETTE[k % PALETTE.len()]);
            let _ = writeln!(
                s,
                "<g class=\"box\"><title>{}, {}: min {} / median {} / p95 {} / max {} ms</title>\
                 <line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{m:.1}\" y2=\"{m:.1}\" stroke=\"{colour}\"/>\
                 <rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\" fill-opacity=\"0.4\" stroke=\"{colour}\"/>\
                 <line x1=\"{med:.1}\" x2=\"{med:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#000\"/>\
                 <line x1=\"{p:.1}\" x2=\"{p:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\"/></g>",
                esc(name),
                esc(&run.label),
                ms(q[0] as f64),
                ms(q[2] as f64),
                ms(p95 as f64),
                ms(max as f64),
                x(q[0] as f64),
                x(max as f64),
                x(q[1] as f64),
                yy + 2.0,
                (x(q[3] as f64) - x(q[1] as f64)).max(1.0),
                row - 4.0,
                yy + 1.0,
                yy + row - 1.0,
                yy + 2.0,
                yy + row - 2.0,
                m = yy + row / 2.0,
                med = x(q[2] as f64),
                p = x(p95 as f64),
            );
        }
        top += row * runs.len() as f64 + 6.0;
    }
    let _ = writeln!(s, "</svg></section>");
}

fn headline(s: &mut String, r: &Analysis) {
    let _ = writeln!(s, "<section id=\"headline\"><h2>Single core vs SMP vs AMP</h2>");
    if r.replay.single().is_none() {
        let _ = writeln!(s, "<p>No replay in this report.</p></section>");
        return;
    }
    let _ = writeln!(
        s,
        "<table><tr><th>policy</th><th>cores</th><th>RUNNING s</th><th>READY s</th><th>mean response ms</th>\
         <th>READY improvement</th><th>response improvement</th><th>migrations</th><th>cross-core signals</th>\
         <th>idle core while work waited ms</th><th>input rate sustained</th></tr>"
    );
    for run in &r.replay.policies {
        let o = &run.outcome;
        let (ready, resp) = (run.ready_improvement_pct, run.response_improvement_pct);
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{:.3}</td><td>{:.3}</td><td>{}</td><td class=\"{}\">{}</td>\
             <td class=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"{}\">{:.1} %</td></tr>",
            esc(&run.label),
            o.cores,
            o.running_ns as f64 / 1e9,
            o.ready_ns as f64 / 1e9,
            ms(o.response_mean_ns),
            if ready > 0.0 { "good" } else { "" },
            if o.policy == Policy::Single { "–".to_string() } else { format!("{ready:+.1} %") },
            if resp > 0.0 { "good" } else { "" },
            if o.policy == Policy::Single { "–".to_string() } else { format!("{resp:+.1} %") },
            o.migrations,
            o.cross_core_messages,
            ms(o.non_work_conserving_ns as f64),
            if o.keeps_up() { "" } else { "bad" },
            o.sustained_rate * 100.0
        );
    }
    let _ = writeln!(
        s,
        "</table><p class=\"note\">The traced jobs replayed under each policy (costs: {} ns per cross-core signal and \
         distance unit, {} ns per byte, {} ns per migration). Improvements are over the single-core run: positive is \
         better (less waiting, faster response). The input rate sustained is the trace's length over the time the \
         run took: below {} % the cores fall behind.{}</p></section>",
        r.replay.costs.message_latency_ns,
        r.replay.costs.byte_ns,
        r.replay.costs.migration_ns,
        corera_replay::KEEPS_UP * 100.0,
        r.replay.rules.as_ref().map_or(String::new(), |rules| format!(" Kernel: {}.", esc(&rules.describe())))
    );
    if let Some(f) = &r.replay.fidelity {
        fidelity(s, f);
    }
}

/// The recording replayed as recorded against the recording, per task:
/// what every comparison above is worth.
fn fidelity(s: &mut String, f: &crate::records::Fidelity) {
    let _ = writeln!(
        s,
        "<section id=\"fidelity\"><h2>Replay fidelity</h2><p class=\"{}\">{}.</p>\
         <table><tr><th>task</th><th>cores</th><th>mean response ms recorded</th><th>replayed</th><th>error</th>\
         <th>READY ms recorded</th><th>replayed</th><th>what is uncertain</th></tr>",
        if f.reproduces() { "" } else { "bad" },
        esc(&crate::fidelity_line(f))
    );
    let ms_of = |ns: Option<u64>| ns.map_or("–".to_string(), |v| format!("{:.3}", v as f64 / 1e6));
    for t in &f.rows {
        let within = t.response_within();
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{:.3}</td>\
             <td class=\"{}\">{:.3}</td><td>{}</td></tr>",
            esc(&t.task),
            t.cores.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","),
            ms_of(t.recorded_response_mean_ns),
            ms_of(t.replayed_response_mean_ns),
            if within == Some(false) { "bad" } else { "" },
            t.response_error().map_or("–".to_string(), |e| format!("{:+.1} %", e * 100.0)),
            t.recorded_ready_ns as f64 / 1e6,
            if t.ready_within() { "" } else { "bad" },
            t.replayed_ready_ns as f64 / 1e6,
            esc(&t.why.join("; "))
        );
    }
    let _ = writeln!(
        s,
        "</table><p class=\"note\">The recording replayed under its own placement (each task on the cores it ran \
         on), with no modelled overhead, against what was recorded. A figure within {} % (READY also within {} µs) \
         is reproduced; below {} % of tasks reproduced on mean response the recommendation says it rests on a replay \
         that does not reproduce the recording. <code>corera simulate --as-recorded</code> shows the same per task.</p>\
         </section>",
        (crate::records::Fidelity::WITHIN * 100.0).round(),
        crate::records::Fidelity::READY_FLOOR_NS / 1000,
        (crate::records::Fidelity::ENOUGH * 100.0).round()
    );
}

fn bar(s: &mut String, label: &str, value: f64, limit: Option<f64>, colour: &str) {
    let w = 420.0;
    let _ = write!(
        s,
        "<svg class=\"bar\" width=\"640\" height=\"22\" role=\"img\"><text x=\"0\" y=\"15\">{}</text>\
         <rect x=\"150\" y=\"3\" width=\"{w}\" height=\"16\" fill=\"#eee\"/>\
         <rect x=\"150\" y=\"3\" width=\"{:.1}\" height=\"16\" fill=\"{colour}\"/>",
        esc(label),
        (value.clamp(0.0, 1.0) * w)
    );
    if let Some(l) = limit {
        let _ = write!(
            s,
            "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"0\" y2=\"22\" stroke=\"#c00\" stroke-width=\"2\"/>",
            x = 150.0 + l.clamp(0.0, 1.0) * w
        );
    }
    let _ = writeln!(s, "<text x=\"{}\" y=\"15\">{:.1} %</text></svg>", 150.0 + w + 8.0, value * 100.0);
}

fn loads(s: &mut String, r: &Analysis) {
    let _ = writeln!(
        s,
        "<section id=\"loads\"><h2>Per-core load</h2><h3>Placement (trace load; red line: the core's limit)</h3>"
    );
    let horizon = r.graph.duration_ns.max(1) as f64;
    for (c, u) in r.cost.core_utilisation.iter().enumerate() {
        let limit = r.cost.core_limit_ns.get(c).map(|&l| l as f64 / horizon / r.platform.speed[c]);
        bar(s, &format!("core {c}"), *u, limit, PALETTE[c % PALETTE.len()]);
    }
    for run in &r.replay.policies {
        let o = &run.outcome;
        let _ = writeln!(s, "<h3>Replay: {} (busy share of the run)</h3>", esc(&run.label));
        for (c, b) in o.core_busy.iter().enumerate() {
            bar(s, &format!("core {c}"), *b, None, PALETTE[c % PALETTE.len()]);
        }
    }
    let _ = writeln!(s, "</section>");
}

fn graph_svg(s: &mut String, r: &Analysis) {
    let p = &r.placement;
    let n = p.len();
    let (w, h) = (760.0, 560.0);
    let (cx, cy, radius) = (w / 2.0, h / 2.0, 220.0);
    // Tasks around a circle, grouped by core.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (p[i].core, i));
    let mut pos = vec![(0.0, 0.0); n];
    for (k, &i) in order.iter().enumerate() {
        let a = std::f64::consts::TAU * k as f64 / n.max(1) as f64 - std::f64::consts::FRAC_PI_2;
        pos[i] = (cx + radius * a.cos(), cy + radius * a.sin());
    }
    let max = r.traffic.iter().map(|e| e.2).max().unwrap_or(1).max(1) as f64;
    let _ = writeln!(
        s,
        "<section id=\"graph\"><h2>Task graph</h2><p class=\"note\">Tasks coloured by core; cross-core edges in red, \
         width by traffic.</p><svg id=\"graph-svg\" width=\"{w}\" height=\"{h}\" role=\"img\">"
    );
    for e in &r.traffic {
        let (a, b, wgt) = (e.0 as usize, e.1 as usize, e.2);
        let cross = p[a].core != p[b].core;
        let _ = writeln!(
            s,
            "<line class=\"{}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke-width=\"{:.2}\"><title>{} – {}: {}</title></line>",
            if cross { "edge cross" } else { "edge" },
            pos[a].0,
            pos[a].1,
            pos[b].0,
            pos[b].1,
            0.5 + 5.0 * wgt as f64 / max,
            esc(&p[a].task),
            esc(&p[b].task),
            wgt
        );
    }
    for i in 0..n {
        let c = usize::from(p[i].core);
        let _ = writeln!(
            s,
            "<g class=\"node\"><circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"9\" fill=\"{}\"><title>{} (core {c}, {:.2} %)</title></circle>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
            pos[i].0,
            pos[i].1,
            PALETTE[c % PALETTE.len()],
            esc(&p[i].task),
            p[i].load_ns as f64 * 100.0 / r.graph.duration_ns.max(1) as f64,
            pos[i].0 + 12.0,
            pos[i].1 + 4.0,
            esc(&p[i].task)
        );
    }
    let _ = writeln!(s, "</svg></section>");
}

fn heat_map(s: &mut String, r: &Analysis) {
    let p = &r.placement;
    let n = p.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (p[i].core, i));
    let mut at = vec![0; n];
    for (k, &i) in order.iter().enumerate() {
        at[i] = k;
    }
    let mut m = vec![0u64; n * n];
    for e in &r.traffic {
        let (a, b, w) = (at[e.0 as usize], at[e.1 as usize], e.2);
        m[a * n + b] += w;
        m[b * n + a] += w;
    }
    let max = m.iter().copied().max().unwrap_or(1).max(1) as f64;
    let cell = (480.0 / n.max(1) as f64).clamp(3.0, 18.0);
    let (margin, top) = (130.0, 10.0);
    let size = margin + cell * n as f64 + 10.0;
    let height = top + cell * n as f64 + 10.0;
    let _ = writeln!(
        s,
        "<section id=\"heatmap\"><h2>Traffic matrix</h2><p class=\"note\">Tasks ordered by core; darker = more \
         traffic (log scale); blocks off the diagonal are cross-core traffic.</p>\
         <svg id=\"heatmap-svg\" width=\"{size:.0}\" height=\"{height:.0}\" role=\"img\">"
    );
    for (k, &i) in order.iter().enumerate() {
        let y = top + cell * k as f64 + cell * 0.8;
        if cell >= 8.0 {
            let _ = writeln!(
                s,
                "<text class=\"small\" x=\"{:.0}\" y=\"{y:.1}\" text-anchor=\"end\">{}</text>",
                margin - 4.0,
                esc(&p[i].task)
            );
        }
    }
    for a in 0..n {
        for b in 0..n {
            let v = m[a * n + b];
            if v == 0 {
                continue;
            }
            let t = (v as f64).ln_1p() / max.ln_1p();
            let shade = (255.0 * (1.0 - t)) as u8;
            let _ = writeln!(
                s,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{cell:.1}\" height=\"{cell:.1}\" fill=\"rgb(255,{shade},{shade})\"><title>{} – {}: {v}</title></rect>",
                margin + cell * b as f64,
                top + cell * a as f64,
                esc(&p[order[a]].task),
                esc(&p[order[b]].task)
            );
        }
    }
    // Core boundaries.
    let mut start = 0;
    for c in 0..r.platform.cores {
        let count = order.iter().filter(|&&i| p[i].core == c).count();
        if count > 0 {
            let _ = writeln!(
                s,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>",
                margin + cell * start as f64,
                top + cell * start as f64,
                cell * count as f64,
                cell * count as f64,
                PALETTE[usize::from(c) % PALETTE.len()]
            );
        }
        start += count;
    }
    let _ = writeln!(s, "</svg></section>");
}

fn placement_table(s: &mut String, r: &Analysis) {
    let runnables = r.graph.tasks.iter().any(|t| !t.runnables.is_empty());
    let _ = writeln!(
        s,
        "<section id=\"placement\"><h2>Placement</h2><table><tr><th>task</th><th>kind</th><th>priority</th><th>load %</th>\
         <th>jobs/s</th><th>p95 response ms</th><th>core</th>{}</tr>",
        if runnables { "<th>runnables (calls, execution µs)</th>" } else { "" }
    );
    for (i, task) in r.placement.iter().enumerate() {
        let m = r.metrics(i);
        let priority = m.and_then(|m| m.priority).map_or("-".to_string(), |x| match m.map(|m| m.priority_source) {
            Some(corera_trace_ingest::PrioritySource::Given) | None => x.to_string(),
            Some(source) => format!("{x} ({})", source.name()),
        });
        let list = m.filter(|_| runnables).map_or(String::new(), |m| {
            let items: Vec<String> = m
                .runnables
                .iter()
                .map(|x| format!("{} ({}, {:.3})", esc(&x.name), x.calls, x.exec_ns as f64 / 1e3))
                .collect();
            format!("<td>{}</td>", items.join(", "))
        });
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td><td>{:.1}</td><td>{}</td><td><span class=\"dot\" style=\"background:{}\"></span>{}{}</td>{list}</tr>",
            esc(&task.task),
            if task.kind == TaskKind::Isr { "isr" } else { "task" },
            priority,
            m.map_or(0.0, |m| m.utilisation * 100.0),
            m.map_or(0.0, |m| m.throughput_hz),
            m.and_then(|m| m.response_p95_ns).map_or("-".to_string(), |x| ms(x as f64)),
            PALETTE[usize::from(task.core) % PALETTE.len()],
            task.core,
            if task.pinned { " (pinned)" } else { "" }
        );
    }
    let _ = writeln!(s, "</table></section>");
}

/// For a model input: the model and its mapping beside corera's.
fn model(s: &mut String, r: &Analysis) {
    let Some(m) = &r.model else { return };
    let mut text = String::new();
    crate::summary::model_block(&mut text, &m.info);
    crate::summary::mapping_comparison(&mut text, r, m);
    let _ = writeln!(s, "<section id=\"model\"><h2>The model</h2><pre>{}</pre></section>", esc(text.trim()));
}

fn search(s: &mut String, r: &Analysis) {
    let sol = &r.search;
    let _ = writeln!(
        s,
        "<section id=\"search\"><h2>Search</h2><table>\
         <tr><th>cross-core traffic (× distance)</th><td>{} of {}</td></tr>\
         <tr><th>lower bound</th><td>{}</td></tr><tr><th>gap</th><td>{:.1} %</td></tr>\
         <tr><th>found by</th><td>{}</td></tr><tr><th>proven optimal</th><td>{}</td></tr>\
         <tr><th>imbalance</th><td>{:.1} %</td></tr><tr><th>seed</th><td>{}</td></tr></table>",
        sol.cross_traffic,
        r.cost.total_traffic,
        sol.lower_bound.cross_traffic,
        sol.gap * 100.0,
        esc(&sol.method),
        if sol.proven_optimal { "yes" } else { "no" },
        r.cost.imbalance * 100.0,
        sol.seed
    );
    for note in &sol.notes {
        let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(note));
    }
    let _ = writeln!(s, "</section>");
}

fn trace_summary(s: &mut String, r: &Analysis) {
    let t = &r.trace;
    let _ = writeln!(
        s,
        "<section id=\"trace\"><h2>Trace</h2><p>{} tasks ({} ISRs), {} events over {:.3} s on {} core(s); {} warnings.</p><table><tr><th>event</th><th>count</th></tr>",
        t.tasks,
        t.isrs,
        t.events,
        t.duration_ns as f64 / 1e9,
        t.cores_seen,
        r.warnings.len()
    );
    for (kind, count) in &t.events_by_kind {
        let _ = writeln!(s, "<tr><td>{}</td><td>{count}</td></tr>", esc(kind));
    }
    let _ = writeln!(s, "</table></section>");
}

pub(crate) const CSS: &str = r##"
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ddd; padding-bottom: .2em; margin-top: 2em; }
h3 { font-size: 1em; margin: 1em 0 .3em; }
table { border-collapse: collapse; margin: .5em 0; } th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: right; }
th:first-child, td:first-child { text-align: left; } .good { color: #1a7f37; font-weight: 600; } .bad { color: #c62828; font-weight: 600; }
.meta, .note { color: #555; } .big { font-size: 1.2em; } svg text { font-size: 12px; fill: #222; } svg text.small { font-size: 10px; }
.edge { stroke: #bbb; } .edge.cross { stroke: #d00; } .node circle { stroke: #333; }
.dot { display: inline-block; width: .8em; height: .8em; border-radius: 50%; margin-right: .4em; }
.gantt-wrap { margin: .6em 0; break-inside: avoid; } .gantt-wrap h3 { margin: .4em 0 .2em; }
.gantt-wrap canvas { border: 1px solid #ccc; cursor: grab; width: 100%; display: block; }
.gantt-controls button { margin-right: .4em; }
.gantt-legend { margin: .4em 0; font-size: 12px; } .gantt-key { display: inline-block; margin: 0 .8em .2em 0; cursor: pointer; }
.gantt-key i { display: inline-block; width: .9em; height: .9em; margin-right: .3em; vertical-align: -1px; } .gantt-controls span { color: #555; }
.gantt-tip { position: absolute; display: none; background: #fff; border: 1px solid #999; padding: .2em .4em; font-size: 12px; pointer-events: none; }
@media print { body { max-width: none; margin: 0; } .gantt-controls, .gantt-hint, .gantt-tip { display: none; } section { break-inside: avoid-page; } }
"##;

/// What every page's script shares: a count of script errors and the list
/// of what rendered, on `<body>` for the browser test to read.
const JS_COMMON: &str = r##"
var coreraRendered = [];
window.addEventListener("error", function () {
  document.body.dataset.jsErrors = String(Number(document.body.dataset.jsErrors || 0) + 1);
});
function done(what) { coreraRendered.push(what); document.body.dataset.rendered = coreraRendered.join(","); }
"##;

/// The report's static sections, counted for the browser test.
const JS_REPORT: &str = r##"
done("graph:" + document.querySelectorAll("#graph-svg .node").length);
done("heatmap:" + document.querySelectorAll("#heatmap-svg rect").length);
done("front:" + document.querySelectorAll("#front-svg .candidate").length);
done("distributions:" + document.querySelectorAll("#distributions-svg .box").length);
"##;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(esc("<a href=\"x\">&</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
    }
}
