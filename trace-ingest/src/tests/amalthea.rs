//! Amalthea models: the real ones in `../shared/data/amalthea/` (counts from
//! grep in the comments, run in that folder) and hand-made bad input.

use super::parse_as;
use crate::{EventKind, FormatChoice, ObjectKind, Parsed, ReadError, ReadOptions, read};
use crate::{ModelOptions, TicksMode};

fn model(name: &str, options: ModelOptions) -> Parsed {
    let path = corera_testdata::shared_dir().join("amalthea").join(name);
    let mut read_options = ReadOptions::new(name);
    read_options.model = options;
    let file = std::fs::File::open(&path).unwrap();
    read(&mut std::io::BufReader::new(file), FormatChoice::AUTO, &read_options).unwrap()
}

fn count(p: &Parsed, task: &str, kind: EventKind) -> usize {
    let id = p.trace.tasks.iter().position(|t| t.name == task).unwrap() as u32;
    p.trace.events.iter().filter(|e| e.task == id && e.kind == kind).count()
}

#[test]
fn waters_2019_tasks_labels_hardware_and_mapping() {
    corera_testdata::shared_or_skip!("amalthea");
    let p = model("waters2019_challenge.amxmi", ModelOptions::default());
    assert_eq!(p.format, "amalthea");
    let m = p.model.as_ref().unwrap();
    assert_eq!(m.version, "1.0.0");
    // grep -c '<tasks ' F ; grep -c '<labels ' F
    assert_eq!(p.trace.tasks.len(), 14);
    assert_eq!(m.labels, 30);
    assert_eq!(p.trace.objects.iter().filter(|o| o.kind == ObjectKind::Label).count(), 30);
    // grep -c 'xsi:type="am:ProcessingUnit"' F: GP10B, Core2-5 (A57), Core0-1 (Denver).
    let cores: Vec<(&str, &str)> = m.cores.iter().map(|c| (c.name.as_str(), c.definition.as_str())).collect();
    assert_eq!(
        cores,
        [
            ("GP10B", "GPU_def"),
            ("Core2", "A57"),
            ("Core3", "A57"),
            ("Core4", "A57"),
            ("Core5", "A57"),
            ("Core0", "Denver"),
            ("Core1", "Denver")
        ]
    );
    assert_eq!(m.reference, "A57");
    assert!(m.cores.iter().all(|c| c.frequency_hz == if c.definition == "GPU_def" { 1.5e9 } else { 2e9 }));
    // Denver needs fewer ticks than A57 for the runnables that have both.
    let denver = m.cores.iter().find(|c| c.definition == "Denver").unwrap().speed;
    assert!(denver > 1.0 && denver < 1.5, "{denver}");
    // 13.2 s hyperperiod, capped at 10 s: DASM (5 ms) has 2000 jobs,
    // CANbus_polling (10 ms) 1000.
    assert_eq!(m.horizon_ns, 10_000_000_000);
    assert_eq!(count(&p, "DASM", EventKind::Ready), 2000);
    assert_eq!(count(&p, "CANbus_polling", EventKind::Ready), 1000);
    // The GPU tasks run only where all their runnables have ticks (the
    // GPU: their host/device copies have none elsewhere) and are released
    // by their CPU task's InterProcessTrigger: one wakeup per release.
    let sfm = m.allowed.iter().find(|(t, _)| t == "SFM").unwrap();
    assert_eq!(sfm.1, vec![0]);
    let s = crate::Schedule::of(&p.trace);
    let pre_sfm = p.trace.tasks.iter().position(|t| t.name == "PRE_SFM_gpu_POST").unwrap();
    assert_eq!(count(&p, "SFM", EventKind::Ready), s.tasks[pre_sfm].jobs.len());
    // It waits for SFM's event: two phases, the second released by SFM.
    let sfm = p.trace.tasks.iter().position(|t| t.name == "SFM").unwrap() as u32;
    assert_eq!(s.tasks[pre_sfm].jobs[0].phases.len(), 2);
    assert_eq!(s.tasks[pre_sfm].jobs[0].phases[1].release, crate::Release::Signal { by: sfm });
    // PRE_Detection_gpu_POST (every 200 ms) waits about 324 ms for
    // Detection: the activations that come while it waits queue (jobs of
    // their own), and only Detection's event resumes a job. They resumed
    // jobs at 200 ms, before the GPU's result, and the recording read
    // 4.2 s of READY on an idle core.
    let pre = p.trace.tasks.iter().position(|t| t.name == "PRE_Detection_gpu_POST").unwrap();
    let detection = p.trace.tasks.iter().position(|t| t.name == "Detection").unwrap() as u32;
    let jobs = &s.tasks[pre].jobs;
    assert!(jobs.len() > 10 && jobs.iter().filter(|j| j.finished()).all(|j| j.phases.len() == 2));
    assert!(jobs.iter().flat_map(|j| j.phases.get(1)).all(|ph| ph.release == crate::Release::Signal { by: detection }));
    assert!(jobs.windows(2).all(|w| w[1].release_ns == w[0].release_ns + 200_000_000));
    assert_eq!(s.tasks[pre].ready_ns(), 0);
    // grep -c '<taskAllocation' F: every task is mapped; the three whose
    // affinity (Core0, a Denver core) contradicts their A57 scheduler are
    // put on that scheduler's first core, with a warning each.
    assert_eq!(m.mapping.len(), 14);
    let dasm = &m.mapping.iter().find(|(t, _)| t == "DASM").unwrap().1;
    assert_eq!(dasm.len(), 1);
    assert_eq!(m.cores[usize::from(dasm[0])].name, "Core2");
    assert_eq!(p.warnings.iter().filter(|w| w.message.contains("is not among the cores of scheduler")).count(), 3);
    // grep -c ProcessRequirement F
    assert_eq!(m.deadlines.len(), 9);
    assert!(m.deadlines.contains(&("DASM".to_string(), 5_000_000)));
    // Label traffic: Lidar_Grabber writes Occupancy_grid_host (500 kB)
    // that Planner reads.
    let lidar = p.trace.tasks.iter().position(|t| t.name == "Lidar_Grabber").unwrap() as u32;
    let planner = p.trace.tasks.iter().position(|t| t.name == "Planner").unwrap() as u32;
    let grid = p.trace.objects.iter().position(|o| o.name == "Occupancy_grid_host").unwrap() as u32;
    let reads = p.trace.events.iter().filter(|e| e.kind == EventKind::Receive && e.task == planner && e.object == grid);
    assert!(reads.clone().count() > 0);
    assert!(reads.clone().any(|e| e.peer == lidar && e.bytes == 500_000));
    // Every task's CPU demand is the model's: DASM_Function's average
    // A57 ticks at 2 GHz per job.
    let dasm_id = p.trace.tasks.iter().position(|t| t.name == "DASM").unwrap();
    let per_job = s.tasks[dasm_id].jobs[0].exec_ns();
    let runnable = p.trace.runnables.iter().find(|r| r.name == "DASM_Function").unwrap();
    assert_eq!(runnable.calls, 2000);
    assert_eq!(runnable.exec_ns, per_job * 2000);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    // The recording ends at the horizon, so load is demand over it:
    // OS_Overhead runs 1e8 ticks at 2 GHz (50 ms) every 100 ms.
    let os = p.trace.tasks.iter().position(|t| t.name == "OS_Overhead").unwrap();
    assert_eq!(s.tasks[os].running_ns(), 100 * 50_000_000);
    let load = s.tasks[os].running_ns() as f64 / p.trace.duration() as f64;
    assert!((load - 0.5).abs() < 0.005, "{load}");
}

#[test]
fn upper_ticks_and_a_horizon() {
    corera_testdata::shared_or_skip!("amalthea");
    let avg =
        model("waters2019_challenge.amxmi", ModelOptions { horizon_ns: Some(100_000_000), ticks: TicksMode::Avg });
    let upper =
        model("waters2019_challenge.amxmi", ModelOptions { horizon_ns: Some(100_000_000), ticks: TicksMode::Upper });
    assert_eq!(count(&avg, "DASM", EventKind::Ready), 20);
    let exec = |p: &Parsed| crate::Schedule::of(&p.trace).tasks.iter().map(|t| t.running_ns()).sum::<u64>();
    assert!(exec(&upper) > exec(&avg));
}

#[test]
fn democar_09_schema_with_call_graphs_and_custom_priorities() {
    corera_testdata::shared_or_skip!("amalthea");
    let p = model("democar.amxmi", ModelOptions::default());
    let m = p.model.as_ref().unwrap();
    assert_eq!(m.version, "0.9.5");
    // grep -c '<tasks ' F ; grep -c '<labels ' F ; their sizes in bits:
    // grep -o '<size value="[0-9]*" unit="bit"' F | grep -o '[0-9]*' | awk '{s+=$1} END{print s/8}'
    assert_eq!(p.trace.tasks.len(), 3);
    assert_eq!(m.labels, 71);
    assert_eq!(m.label_bytes, 103);
    assert!(p.trace.tasks.iter().all(|t| t.priority == Some(10)));
    assert_eq!(m.cores.len(), 1);
    assert!(m.mapping.is_empty(), "democar has no mapping model");
    // Hyperperiod of 5, 10, 20 ms.
    assert_eq!(m.horizon_ns, 20_000_000);
    assert_eq!(count(&p, "Task_5MS", EventKind::Ready), 4);
}

#[test]
fn the_tutorial_models_read_with_their_ignored_features_named() {
    corera_testdata::shared_or_skip!("amalthea");
    for name in ["modeling_example_periodic_9.amxmi", "modeling_example_feedback_loop_9.amxmi"] {
        let p = model(name, ModelOptions::default());
        assert_eq!(p.trace.tasks.len(), 7, "{name}");
        assert!(p.warnings.iter().any(|w| w.message.contains("model features corera does not use")), "{name}");
    }
}

fn error(text: &str) -> String {
    let err = parse_as(text, FormatChoice::of("amalthea")).unwrap_err();
    let ReadError::Parse(e) = &err else { panic!("{err}") };
    format!("{}: {}", e, e.kind)
}

const HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<am:Amalthea xmlns:am="http://app4mc.eclipse.org/amalthea/1.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
"#;

#[test]
fn bad_models_name_the_line_and_what_was_expected() {
    let unclosed = format!("{HEAD}  <swModel>\n    <tasks name=\"T\">\n  </swModel>\n</am:Amalthea>\n");
    let e = error(&unclosed);
    assert!(e.contains("t.log:5:") && e.contains("</tasks>"), "{e}");
    let truncated = format!("{HEAD}  <swModel>\n    <tasks name=\"T\"/>\n");
    let e = error(&truncated);
    assert!(e.contains("</swModel>") && e.contains("opened on line 3"), "{e}");
    let future = HEAD.replace("1.0.0", "7.1.0") + "</am:Amalthea>\n";
    let e = error(&future);
    assert!(e.contains("t.log:2:") && e.contains("0.9 to 3.x") && e.contains("amalthea/7.1.0"), "{e}");
    let missing = format!(
        "{HEAD}  <swModel>\n    <tasks name=\"T\">\n      <activityGraph>\n        \
         <items xsi:type=\"am:RunnableCall\" runnable=\"Nope?type=Runnable\"/>\n      </activityGraph>\n    \
         </tasks>\n  </swModel>\n</am:Amalthea>\n"
    );
    let e = error(&missing);
    assert!(e.contains("t.log:6:") && e.contains("a `runnable` the swModel defines") && e.contains("Nope"), "{e}");
    let bad_unit = format!(
        "{HEAD}  <stimuliModel>\n    <stimuli xsi:type=\"am:PeriodicStimulus\" name=\"P\">\n      \
         <recurrence value=\"5\" unit=\"fortnights\"/>\n    </stimuli>\n  </stimuliModel>\n</am:Amalthea>\n"
    );
    let e = error(&bad_unit);
    assert!(e.contains("t.log:5:") && e.contains("a time unit") && e.contains("fortnights"), "{e}");
    let e = error("");
    assert!(e.contains("empty"), "{e}");
    let bytes: &[u8] = b"<?xml version=\"1.0\"?>\n<a>\xff</a>";
    let e = read(&mut &bytes[..], FormatChoice::of("amalthea"), &ReadOptions::new("t.log")).unwrap_err();
    let ReadError::Parse(e) = e else { panic!() };
    assert_eq!(e.line, 2);
    assert!(e.kind.to_string().contains("not valid UTF-8"), "{}", e.kind);
    // Not an Amalthea root.
    let e = error("<?xml version=\"1.0\"?>\n<project/>\n");
    assert!(e.contains("<am:Amalthea> root element"), "{e}");
}

#[test]
fn detection_recognises_models_and_leaves_other_xml() {
    let p = parse_as(&format!("{HEAD}</am:Amalthea>\n"), FormatChoice::AUTO).unwrap();
    assert_eq!(p.format, "amalthea");
    assert!(p.trace.tasks.is_empty());
    assert!(parse_as("<?xml version=\"1.0\"?>\n<project/>\n", FormatChoice::AUTO).is_err());
}

#[test]
fn endless_or_huge_models_stop_with_an_error() {
    // A task that triggers itself and executes nothing.
    let endless = format!(
        "{HEAD}  <swModel>\n    <tasks name=\"T\" stimuli=\"Go?type=InterProcessStimulus Tick?type=PeriodicStimulus\">\n      \
         <activityGraph>\n        <items xsi:type=\"am:InterProcessTrigger\" stimulus=\"Go?type=InterProcessStimulus\"/>\n      \
         </activityGraph>\n    </tasks>\n  </swModel>\n  <stimuliModel>\n    \
         <stimuli xsi:type=\"am:InterProcessStimulus\" name=\"Go\"/>\n    \
         <stimuli xsi:type=\"am:PeriodicStimulus\" name=\"Tick\">\n      <recurrence value=\"1\" unit=\"ms\"/>\n    </stimuli>\n  \
         </stimuliModel>\n</am:Amalthea>\n"
    );
    let e = error(&endless);
    assert!(e.contains("triggers without end"), "{e}");
    let huge = endless.replace("value=\"1\" unit=\"ms\"", "value=\"1\" unit=\"us\"");
    let mut options = ReadOptions::new("t.log");
    options.model.horizon_ns = Some(10_000_000_000);
    let Err(ReadError::Parse(e)) = read(&mut huge.as_bytes(), FormatChoice::of("amalthea"), &options) else { panic!() };
    let e = e.kind.to_string();
    assert!(e.contains("10000000 periodic releases") && e.contains("--horizon"), "{e}");
}

/// A model's chains as (name, tasks, judged by data age, deadline).
fn chain_rows(m: &crate::ModelInfo) -> Vec<(&str, Vec<&str>, bool, Option<u64>)> {
    m.chains
        .iter()
        .map(|c| (c.name.as_str(), c.tasks.iter().map(String::as_str).collect(), c.age, c.deadline_ns))
        .collect()
}

/// TORO's example: its four event chains flattened from their sub-chains
/// (`grep -A8 '<eventChains' F`), their `Age` constraints, and its LET tasks
/// (every label access `timed`) with their response-time requirements as
/// LETs.
#[test]
fn toro_event_chains_and_let_tasks() {
    corera_testdata::shared_or_skip!("amalthea");
    let p = model("toro_example.amxmi", ModelOptions::default());
    let m = p.model.as_ref().unwrap();
    assert_eq!(
        chain_rows(m),
        [
            ("chain1_bet", vec!["BET_T1", "BET_T5", "BET_T2"], true, Some(45_000_000)),
            ("chain2_bet", vec!["BET_T6", "BET_T2"], true, Some(25_000_000)),
            ("chain3_let", vec!["LET_T7", "LET_T8", "LET_T9"], true, Some(25_000_000)),
            ("chain4_mixed", vec!["BET_T10", "BET_T11", "LET_T12", "LET_T13"], true, Some(50_000_000)),
        ]
    );
    let lets: Vec<(&str, u64)> = m.let_tasks.iter().map(|(t, ns)| (t.as_str(), *ns / 1_000_000)).collect();
    assert_eq!(lets, [("LET_T7", 4), ("LET_T8", 5), ("LET_T9", 8), ("LET_T12", 8), ("LET_T13", 3)]);
    // The event model is used now: no longer named among the ignored.
    assert!(p.warnings.iter().all(|w| !w.message.contains("eventModel")), "{:?}", p.warnings);
}

/// Parallel chains become one chain per branch, references are followed,
/// and a chain through events that are not on tasks is skipped and named.
#[test]
fn event_chain_shapes() {
    let text = r#"<?xml version="1.0" encoding="UTF-8"?>
<am:Amalthea xmlns:am="http://app4mc.eclipse.org/amalthea/0.9.9" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <swModel>
    <tasks name="A" stimuli="P?type=PeriodicStimulus"><activityGraph><items xsi:type="am:Ticks"><default xsi:type="am:DiscreteValueConstant" value="10"/></items></activityGraph></tasks>
    <tasks name="B" stimuli="P?type=PeriodicStimulus"/>
    <tasks name="C" stimuli="P?type=PeriodicStimulus"/>
    <runnables name="R"/>
  </swModel>
  <stimuliModel><stimuli xsi:type="am:PeriodicStimulus" name="P"><recurrence value="1" unit="ms"/></stimuli></stimuliModel>
  <eventModel>
    <events xsi:type="am:ProcessEvent" name="eA" entity="A?type=Task"/>
    <events xsi:type="am:ProcessEvent" name="eB" entity="B?type=Task"/>
    <events xsi:type="am:ProcessEvent" name="eC" entity="C?type=Task"/>
    <events xsi:type="am:RunnableEvent" name="eR" entity="R?type=Runnable"/>
  </eventModel>
  <constraintsModel>
    <eventChains name="ab" stimulus="eA?type=ProcessEvent" response="eB?type=ProcessEvent"/>
    <eventChains name="fork" stimulus="eA?type=ProcessEvent" response="eC?type=ProcessEvent" itemType="parallel">
      <items xsi:type="am:EventChainReference" eventChain="ab?type=EventChain"/>
      <items xsi:type="am:EventChainContainer"><eventChain name="ac" stimulus="eA?type=ProcessEvent" response="eC?type=ProcessEvent"/></items>
    </eventChains>
    <eventChains name="viaR" stimulus="eA?type=ProcessEvent" response="eR?type=RunnableEvent"/>
    <timingConstraints xsi:type="am:EventChainLatencyConstraint" name="L" scope="ab?type=EventChain" type="Reaction"><maximum value="3" unit="ms"/></timingConstraints>
  </constraintsModel>
</am:Amalthea>
"#;
    let p = parse_as(text, FormatChoice::of("amalthea")).unwrap();
    let m = p.model.as_ref().unwrap();
    assert_eq!(
        chain_rows(m),
        [
            ("ab", vec!["A", "B"], false, Some(3_000_000)),
            ("fork/0", vec!["A", "B"], true, None),
            ("fork/1", vec!["A", "C"], true, None),
        ]
    );
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message.contains("event chains through events other than ProcessEvents on tasks (1)")),
        "{:?}",
        p.warnings
    );
    assert!(m.let_tasks.is_empty());
}

/// Regression (issue 33): a file nesting 200,000 elements aborted corera
/// with a stack overflow (the tree, dropped or walked, recursed once per
/// level). It is an error at the line of the first element too deep.
#[test]
fn elements_nested_without_end_are_an_error_at_their_line() {
    let depth = 200_000;
    let deep = format!("{HEAD}{}{}</am:Amalthea>\n", "<swModel>\n".repeat(depth), "</swModel>".repeat(depth));
    let e = error(&deep);
    // HEAD is two lines; the root is element 1, the first `<swModel>` on
    // line 3 is element 2, so the one opened 513 deep is on line 514.
    assert!(e.contains(":514:") && e.contains("nested at most 512 deep"), "{e}");
    // Within the bound, a deep file reads (here as an empty model).
    let fine = format!("{HEAD}{}{}</am:Amalthea>\n", "<x>".repeat(500), "</x>".repeat(500));
    assert!(parse_as(&fine, FormatChoice::of("amalthea")).is_ok());
}
