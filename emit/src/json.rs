//! The analysis JSON.
//!
//! # Format
//! One object, `schema_version` first. Fields are added, never renamed or
//! removed, within a schema version; consumers must ignore unknown fields.
//! The book's JSON page documents every field with an example.

use serde::Serialize;
use serde_json::json;

use crate::{Emitter, Report, VERSION};

/// Version of the analysis JSON schema. 2: `cost.balance_limit_ns` became
/// the per-core `cost.core_limit_ns`, `platform.capacity` a per-core list;
/// `platform.speed`, `platform.costs` and `replay` added.
pub const SCHEMA_VERSION: u32 = 2;

/// The replay comparison: each policy's outcome, with the improvement over
/// the single-core run in READY time and mean response time.
fn replay_json(r: &Report<'_>) -> serde_json::Value {
    let single = r.replay.iter().find(|o| o.policy == corera_replay::Policy::Single);
    let policies: Vec<_> = r
        .replay
        .iter()
        .map(|o| {
            let mut v = serde_json::to_value(o).expect("serialisable");
            if let Some(s) = single {
                let (ready, response) = o.improvement_over(s);
                v["ready_improvement_pct"] = json!(ready);
                v["response_improvement_pct"] = json!(response);
            }
            v
        })
        .collect();
    json!({ "costs": r.platform.costs, "policies": policies })
}

/// The `analysis.json` emitter.
#[derive(Clone, Copy, Debug, Default)]
pub struct Json;

#[derive(Serialize)]
struct PlacedTask<'a> {
    task: &'a str,
    id: u32,
    core: u16,
    pinned: bool,
    load_ns: u64,
}

impl Emitter for Json {
    fn name(&self) -> &'static str {
        "json"
    }

    fn file_name(&self) -> &'static str {
        "analysis.json"
    }

    fn emit(&self, r: &Report<'_>) -> Vec<u8> {
        let p = r.problem;
        let placement: Vec<PlacedTask<'_>> = (0..p.len())
            .map(|i| PlacedTask {
                task: &p.names[i],
                id: p.task_ids[i],
                core: r.solution.placement.core_of[i],
                pinned: p.pinned[i].is_some(),
                load_ns: p.load[i],
            })
            .collect();
        let s = r.solution;
        let value = json!({
            "schema_version": SCHEMA_VERSION,
            "corera_version": VERSION,
            "input": { "name": r.input_name, "format": r.format, "bytes": r.source.bytes, "hash": format!("{:016x}", r.source.hash) },
            "trace": r.trace,
            "graph": {
                "communication_groups": r.graph.communication_groups(),
                "duration_ns": r.graph.duration_ns,
                "tasks": r.graph.tasks,
                "edges": r.graph.edges,
                "affinities": r.graph.affinities,
            },
            "platform": r.platform,
            "search": {
                "method": s.method,
                "proven_optimal": s.proven_optimal,
                "cross_traffic": s.objective.cross_traffic,
                "overload_ns": s.objective.overload_ns,
                "lower_bound": s.lower_bound,
                "gap": s.gap(),
                "nodes": s.nodes,
                "seed": s.seed,
                "notes": s.notes,
            },
            "placement": placement,
            "cost": r.cost,
            "replay": replay_json(r),
            "warnings": r.warnings.iter().map(|w| json!({ "line": w.line, "message": w.message })).collect::<Vec<_>>(),
        });
        let mut out = serde_json::to_vec_pretty(&value).expect("JSON values always serialise");
        out.push(b'\n');
        out
    }
}
