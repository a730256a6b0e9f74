//! Emitter tests on a small pipeline run.

use corera_placement::{Constraints, Cost, Platform, Problem};
use corera_search::{Options, portfolio};
use corera_task_graph::TaskGraph;
use corera_trace_ingest::{FormatChoice, ReadOptions, TraceSummary, read};

use crate::records::{Analysis, Input, Results};
use crate::{CHeader, Emitter, HeaderTarget, Json, c_identifiers, read_analysis, summary};

#[test]
fn c_identifiers_are_valid_unique_and_deterministic() {
    let ids = c_identifiers(["motor ctl", "Motor-Ctl", "1wire", "", "ä", "x__y", "MOTOR_CTL"]);
    assert_eq!(ids, ["MOTOR_CTL", "MOTOR_CTL_2", "_1WIRE", "TASK", "TASK_2", "X_Y", "MOTOR_CTL_3"]);
}

const LOG: &str = "corera-log 1 clock=us\n\
task 1 task 3 Net Rx\ntask 2 task 2 Parser\ntask 3 task 1 \"Quoted\"\ntask 4 isr 9 Irq\n\
0 0 rdy 1\n0 0 in 1\n5 0 send 1 q 64\n10 0 out 1 done\n10 0 rdy 2\n10 0 in 2\n10 0 recv 2 q 64\n\
15 0 ienter 4\n16 0 iexit 4\n30 0 send 2 r 8\n40 0 out 2 done\n40 0 rdy 3\n40 0 in 3\n40 0 recv 3 r 8\n70 0 out 3 done\n";

fn with_report<T>(f: impl FnOnce(&Analysis) -> T) -> T {
    let parsed = read(&mut LOG.as_bytes(), FormatChoice::AUTO, &ReadOptions::new("demo.log")).unwrap();
    let summary = TraceSummary::of(&parsed.trace);
    let (graph, warnings) = TaskGraph::build(&parsed.trace).unwrap();
    let platform = Platform::identical(2);
    let problem = Problem::from_graph(&graph, &platform, &Constraints::default()).unwrap();
    let solution = portfolio(&problem, &platform, &Options::default()).unwrap();
    let cost = Cost::of(&problem, &platform, &solution.placement);
    let report = Analysis::new(&Results {
        fidelity: None,
        recording: None,
        input: Input::new("demo.log", parsed.format, parsed.source),
        trace: &summary,
        graph: &graph,
        platform: &platform,
        problem: &problem,
        solution: &solution,
        objective: corera_placement::Objective::Traffic,
        placement: &solution.placement.core_of,
        masks: None,
        timing: None,
        break_even: None,
        cost: &cost,
        warnings: &warnings,
        replay: &[],
        replay_tasks: &[],
        chains: Vec::new(),
        rules: None,
        model: None,
    });
    f(&report)
}

#[test]
fn amalthea_mapping_snapshot() {
    let text = with_report(|r| String::from_utf8(crate::AmaltheaMapping.emit(r)).unwrap());
    insta::assert_snapshot!(text);
}

#[test]
fn header_snapshot() {
    let text = with_report(|r| String::from_utf8(CHeader::default().emit(r)).unwrap());
    insta::assert_snapshot!(text);
}

/// Every RTOS header on the same analysis, reviewed once by eye.
#[test]
fn rtos_header_snapshots() {
    for target in
        [HeaderTarget::FreeRtos, HeaderTarget::EspIdf, HeaderTarget::Zephyr, HeaderTarget::ThreadX, HeaderTarget::NuttX]
    {
        let header = CHeader { target };
        let text = with_report(|r| String::from_utf8(header.emit(r)).unwrap());
        insta::assert_snapshot!(format!("header_{}", header.name()), text);
    }
}

#[test]
fn json_has_schema_version_first_and_the_placement() {
    let bytes = with_report(|r| Json.emit(r));
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.starts_with(&format!("{{\n  \"schema_version\": {},", crate::SCHEMA_VERSION)), "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["placement"].as_array().unwrap().len(), 4);
    assert_eq!(v["placement"][3]["task"], "Irq");
    assert_eq!(v["placement"][3]["pinned"], true);
    assert_eq!(v["search"]["proven_optimal"], true);
    assert_eq!(v["input"]["bytes"], LOG.len());
    // The record reads back to itself, and prints the same bytes again.
    let back = read_analysis(&text).unwrap();
    assert_eq!(String::from_utf8(Json.emit(&back)).unwrap(), text);
}

#[test]
fn summary_lists_every_task_and_core() {
    let text = with_report(summary);
    for needle in ["Net Rx", "Parser", "\"Quoted\"", "Irq", "core 0:", "core 1:", "proven optimal", "* = pinned"] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

/// A warning about no one line has no line in Rust, and `0` in JSON (as
/// schemas 4 and 5 write it); read back, `0` is no line again.
#[test]
fn a_warning_without_a_line_is_written_as_line_0() {
    use corera_trace_ingest::Warning;
    let general = Warning { line: None, message: "about the whole input".into() };
    let at = Warning { line: Some(7), message: "about line 7".into() };
    let text = String::from_utf8(crate::to_json(&[&general, &at])).unwrap();
    assert!(text.contains("\"line\": 0") && text.contains("\"line\": 7"), "{text}");
    let back: Vec<Warning> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, [general, at]);
    assert_eq!(back[1].to_string(), "line 7: about line 7");
}

/// A saved analysis whose timeline names a task it does not have is
/// refused on reading, naming the timeline, rather than drawn wrong.
#[test]
fn a_timeline_naming_a_missing_task_is_refused_on_reading() {
    use crate::timeline::{Pick, Run, TimelineRecord};
    let mut analysis = with_report(Clone::clone);
    analysis.replay.tasks = vec!["A".into(), "B".into()];
    let run = Run {
        label: "r".into(),
        recorded: false,
        cores: 1,
        segments: vec![corera_replay::Segment { core: 0, task: 1, start_ns: 0, end_ns: 10 }],
        ready: vec![(0, 0, 10)],
        flows: &[],
        chains: Vec::new(),
    };
    analysis.replay.timeline = Some(TimelineRecord::new(&[run], vec![], &[], Pick::Given([0, 10])));
    let text = String::from_utf8(Json.emit(&analysis)).unwrap();
    assert!(read_analysis(&text).is_ok(), "a whole timeline reads back");
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["replay"]["timeline"]["rows"][0]["lanes"][0][2] = serde_json::json!(7);
    let e = read_analysis(&v.to_string()).unwrap_err();
    assert!(matches!(e, crate::RecordError::OutOfRange(_)), "{e}");
    assert!(e.to_string().contains("replay.timeline"), "{e}");
}
