//! Whole replays for other tools: Chrome/Perfetto trace JSON and BTF.

use std::fmt::Write as _;

use corera_replay::{Outcome, Replay};
use serde_json::json;

use crate::VERSION;

/// Chrome trace-event JSON (opens in the Perfetto UI and `chrome://tracing`):
/// one track per core, one slice per stretch a task ran, and flow arrows
/// from each sender to the first run of the task it released.
pub fn perfetto(replay: &Replay, outcome: &Outcome) -> Vec<u8> {
    let us = |ns: u64| ns as f64 / 1000.0;
    let mut events = Vec::with_capacity(outcome.timeline.len() + 2 * outcome.flows.len() + outcome.cores + 1);
    events.push(json!({
        "ph": "M", "pid": 1, "name": "process_name",
        "args": { "name": format!("corera replay: {}", outcome.policy.name()) },
    }));
    for c in 0..outcome.cores {
        events.push(
            json!({ "ph": "M", "pid": 1, "tid": c, "name": "thread_name", "args": { "name": format!("core {c}") } }),
        );
    }
    for s in &outcome.timeline {
        let t = &replay.tasks[s.task as usize];
        events.push(json!({
            "ph": "X", "pid": 1, "tid": s.core, "name": t.name, "cat": if t.isr { "isr" } else { "task" },
            "ts": us(s.start_ns), "dur": us(s.end_ns - s.start_ns),
        }));
    }
    // Segments by task, in time order, to find where each flow lands.
    let mut by_task: Vec<Vec<(u64, u16)>> = vec![Vec::new(); replay.tasks.len()];
    for s in &outcome.timeline {
        by_task[s.task as usize].push((s.start_ns, s.core));
    }
    for (id, f) in outcome.flows.iter().enumerate() {
        let runs = &by_task[f.to_task as usize];
        let at = runs.partition_point(|&(start, _)| start < f.arrive_ns);
        let Some(&(start, core)) = runs.get(at) else { continue };
        let name = format!("{} -> {}", replay.tasks[f.from_task as usize].name, replay.tasks[f.to_task as usize].name);
        events.push(json!({ "ph": "s", "pid": 1, "tid": f.from_core, "id": id, "name": name, "cat": "signal", "ts": us(f.at_ns) }));
        events.push(json!({ "ph": "f", "bp": "e", "pid": 1, "tid": core, "id": id, "name": name, "cat": "signal", "ts": us(start) }));
    }
    let value = json!({
        "displayTimeUnit": "ns",
        "otherData": { "generator": format!("corera {VERSION}"), "policy": outcome.policy.name() },
        "traceEvents": events,
    });
    let mut out = serde_json::to_vec(&value).expect("JSON values always serialise");
    out.push(b'\n');
    out
}

/// BTF (Best Trace Format) of a replay: for each stretch a task ran,
/// `resume` on its core at the start and `preempt` at the end (ISRs:
/// `start` / `terminate`), which corera's own BTF reader, Trace Compass and
/// other BTF tools read back.
pub fn btf(replay: &Replay, outcome: &Outcome) -> Vec<u8> {
    let mut s = String::new();
    let _ = writeln!(s, "#version 2.2.0");
    let _ = writeln!(s, "#creator corera {VERSION} (replay, policy {})", outcome.policy.name());
    let _ = writeln!(s, "#timeScale ns");
    let name = |i: u32| replay.tasks[i as usize].name.replace([',', '\n', '\r'], "_");
    // (time, order, line): at one instant, ends before starts.
    let mut lines: Vec<(u64, u8, u16, String)> = Vec::with_capacity(2 * outcome.timeline.len());
    for seg in &outcome.timeline {
        let isr = replay.tasks[seg.task as usize].isr;
        let (kind, start, end) = if isr { ("I", "start", "terminate") } else { ("T", "resume", "preempt") };
        let who = name(seg.task);
        lines.push((seg.start_ns, 1, seg.core, format!("{},Core_{},0,{kind},{who},0,{start}", seg.start_ns, seg.core)));
        lines.push((seg.end_ns, 0, seg.core, format!("{},Core_{},0,{kind},{who},0,{end}", seg.end_ns, seg.core)));
    }
    lines.sort_by_key(|l| (l.0, l.1, l.2));
    for (_, _, _, line) in lines {
        s.push_str(&line);
        s.push('\n');
    }
    s.into_bytes()
}
