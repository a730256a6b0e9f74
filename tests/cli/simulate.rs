//! `simulate`: each policy, timeline exports, mask placements, sweeps, and replays as recorded.

use predicates::prelude::*;

use super::SAMPLE;
use crate::{corera, shared};

#[test]
fn simulate_replays_each_policy_and_analyze_compares_them() {
    let json = |args: &[&str]| {
        let out = corera().arg("simulate").arg(SAMPLE).args(args).args(["--json", "-q"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["outcome"].clone()
    };
    let single = json(&["--policy", "single"]);
    let smp = json(&["--policy", "smp", "--cores", "2"]);
    assert_eq!(single["cores"], 1);
    assert_eq!(smp["cores"], 2);
    // Same work, less waiting on two cores.
    assert!(smp["ready_ns"].as_u64() < single["ready_ns"].as_u64());
    assert_eq!(smp["non_work_conserving_ns"].as_u64().map(|x| x < 1_000_000), Some(true));
    // AMP from a placement file equals AMP from the search it came from.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.json");
    let placed = corera().args(["place", SAMPLE, "--json", "-q"]).output().unwrap();
    std::fs::write(&file, &placed.stdout).unwrap();
    let from_file = json(&["--policy", "amp", "--placement", file.to_str().unwrap()]);
    assert_eq!(from_file, json(&["--policy", "amp"]));
    assert_eq!(from_file["migrations"], 0);
    // The placement `simulate` replayed is the one `place` wrote.
    let record: serde_json::Value = serde_json::from_slice(&placed.stdout).unwrap();
    let simulated = corera().args(["simulate", SAMPLE, "--json", "-q", "--placement"]).arg(&file).output().unwrap();
    let simulated: serde_json::Value = serde_json::from_slice(&simulated.stdout).unwrap();
    assert_eq!(simulated["placement"], record["placement"]);
    for (text, want) in [
        (
            "{\"schema_version\": 3, \"placement\": [{\"task\": \"Nobody\", \"core\": 0}]}",
            "no task `Nobody` in the trace",
        ),
        ("{\"placement\": [{\"task\": \"Nobody\", \"core\": 0}]}", "no `schema_version`"),
        ("{\"schema_version\": 2, \"placement\": []}", "schema_version 2 is from an older corera"),
        ("{\"schema_version\": 3,\n\"placement\": [{\"core\": 0}]}", "missing field `task` at line 2"),
    ] {
        std::fs::write(&file, text).unwrap();
        corera()
            .args(["simulate", SAMPLE, "--policy", "amp", "--placement"])
            .arg(&file)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(want));
    }
    // analyze puts all three into its JSON and summary.
    let out = corera().args(["analyze", SAMPLE, "-q", "-o"]).arg(dir.path()).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let rows = ["single core", "global SMP", "AMP, traffic-optimal", "AMP, best", "masks, recommended"];
    for row in rows {
        assert!(text.contains(row), "{text}");
    }
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("analysis.json")).unwrap()).unwrap();
    let policies = v["replay"]["policies"].as_array().unwrap();
    assert_eq!(policies.iter().map(|p| p["label"].as_str().unwrap()).collect::<Vec<_>>(), rows);
    assert_eq!(
        policies.iter().map(|p| p["policy"].as_str().unwrap()).collect::<Vec<_>>(),
        ["single", "smp", "amp", "amp", "masks"]
    );
    assert_eq!(policies[0]["ready_ns"], single["ready_ns"]);
    // `place` recommends the best AMP placement (masks not searched).
    assert_eq!(policies[3]["ready_ns"], from_file["ready_ns"]);
    // The recommendation replays no worse than global SMP, as analyze says.
    assert!(policies[4]["ready_ns"].as_u64() <= policies[1]["ready_ns"].as_u64());
}

/// Each task's RUNNING in `btf` (a replay's timeline) as `corera graph`
/// reads it back, by name (`dir` holds the graph written on the way).
fn running_read_back(dir: &std::path::Path, btf: &std::path::Path) -> std::collections::HashMap<String, u64> {
    let graph = dir.join("graph.json");
    corera().args(["graph", "-q", "-o"]).arg(&graph).arg(btf).assert().success();
    let g: serde_json::Value = serde_json::from_slice(&std::fs::read(&graph).unwrap()).unwrap();
    g["graph"]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["name"].as_str().unwrap().to_string(), t["running_ns"].as_u64().unwrap()))
        .collect()
}

#[test]
fn timelines_export_to_perfetto_and_btf_and_the_btf_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let (btf, trace_json) = (dir.path().join("amp.btf"), dir.path().join("amp.json"));
    let out = corera()
        .args(["simulate", SAMPLE, "--policy", "amp", "-q", "--json", "--btf"])
        .arg(&btf)
        .arg("--perfetto")
        .arg(&trace_json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let outcome = serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["outcome"].clone();
    // The BTF, read by corera's own BTF reader, gives each task the RUNNING
    // time the replay gave it.
    let running = running_read_back(dir.path(), &btf);
    for t in outcome["tasks"].as_array().unwrap() {
        assert_eq!(running[t["name"].as_str().unwrap()], t["running_ns"].as_u64().unwrap(), "{}", t["name"]);
    }
    // The Perfetto JSON: a track per core, a slice per run, flow arrows.
    let p: serde_json::Value = serde_json::from_slice(&std::fs::read(&trace_json).unwrap()).unwrap();
    let events = p["traceEvents"].as_array().unwrap();
    let count = |ph: &str| events.iter().filter(|e| e["ph"] == ph).count();
    assert_eq!(count("M"), 3, "process name and two core tracks");
    assert!(count("X") > 10_000);
    assert_eq!(count("s"), count("f"));
    assert!(count("s") > 1_000);
    let sliced: f64 = events.iter().filter(|e| e["ph"] == "X").map(|e| e["dur"].as_f64().unwrap()).sum();
    let total: u64 = outcome["running_ns"].as_u64().unwrap();
    assert!((sliced * 1000.0 - total as f64).abs() < 1.0, "{sliced} us vs {total} ns");
    assert!(events.iter().filter(|e| e["ph"] == "X").all(|e| e["tid"].as_u64() < Some(2)));
    // analyze --timelines writes one per replayed set-up plus the
    // recommendation's BTF, and a DOT graph coloured by core.
    corera()
        .args(["analyze", "--replay-budget", "20", SAMPLE, "-q", "--timelines", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let files = [
        "timeline-single-core.json",
        "timeline-global-smp.json",
        "timeline-amp-traffic-optimal.json",
        "timeline-amp-best.json",
        "recommended.btf",
        "graph.dot",
    ];
    for file in files {
        assert!(dir.path().join(file).metadata().unwrap().len() > 1000, "{file}");
    }
    // The recommendation's own timeline, whichever set-up it is.
    let recommended = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().ends_with("-recommended.json"))
        .map(|e| e.metadata().unwrap().len())
        .collect::<Vec<_>>();
    assert!(matches!(recommended[..], [len] if len > 1000), "{recommended:?}");
    let dot = std::fs::read_to_string(dir.path().join("graph.dot")).unwrap();
    assert!(dot.contains("\\ncore 1") && dot.contains("fillcolor=\"#ffffb3\""), "{dot}");
}

#[test]
fn mask_placements_round_trip_and_the_sweep_shows_where_smp_overtakes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("masks.json");
    let placed =
        corera().args(["place", SAMPLE, "--masks", "--replay-budget", "120", "--json", "-q"]).output().unwrap();
    assert!(placed.status.success(), "{}", String::from_utf8_lossy(&placed.stderr));
    std::fs::write(&file, &placed.stdout).unwrap();
    let record: serde_json::Value = serde_json::from_slice(&placed.stdout).unwrap();
    assert_eq!(record["recommendation"]["setup"], "masks", "{}", record["recommendation"]);
    let placement = record["placement"].as_array().unwrap();
    let cores = |t: &serde_json::Value| t["cores"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
    let sets: Vec<Vec<u64>> = placement.iter().map(cores).collect();
    assert!(sets.iter().any(|s| s.len() > 1), "some task floats");
    for (t, s) in placement.iter().zip(&sets) {
        // The home core is one of the task's cores; ISRs never float.
        assert!(s.contains(&t["core"].as_u64().unwrap()), "{t}");
        if t["kind"] == "isr" {
            assert_eq!(s.len(), 1, "{t}");
        }
    }
    // Replaying the file gives what the recommendation reported.
    let args = ["simulate", SAMPLE, "--policy", "masks", "--json", "-q", "--placement"];
    let simulated = corera().args(args).arg(&file).output().unwrap();
    let simulated: serde_json::Value = serde_json::from_slice(&simulated.stdout).unwrap();
    let ready = simulated["outcome"]["ready_ns"].as_u64().unwrap();
    assert_eq!(record["recommendation"]["value"]["value"].as_f64(), Some(ready as f64));
    assert_eq!(simulated["placement"], record["placement"]);
    // The sweep: one row per value, the current cost's row equal to the
    // plain replay, for people and as JSON.
    let sweep = ["simulate", SAMPLE, "--policy", "masks", "--sweep", "migration_ns=0:4600:2300", "--placement"];
    let text = corera().args(sweep).arg(&file).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("policy masks against global SMP as migration_ns changes (objective ready)"), "{text}");
    let rows: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with(char::is_numeric)).collect();
    assert_eq!(rows.len(), 3, "{text}");
    let json = corera().args(sweep).arg(&file).arg("--json").output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let points = json["points"].as_array().unwrap();
    assert_eq!(points.iter().map(|p| p["value"].as_f64().unwrap()).collect::<Vec<_>>(), [0.0, 2300.0, 4600.0]);
    assert_eq!(points[1]["ready_ns"].as_u64(), Some(ready));
    // Dearer migrations make global SMP wait longer.
    assert!(points[0]["smp_ready_ns"].as_u64() < points[2]["smp_ready_ns"].as_u64());
    // an AMP placement is not a mask placement; bad sweeps are usage errors.
    let amp = dir.path().join("amp.json");
    let out = corera().args(["place", SAMPLE, "--objective", "traffic", "--json", "-q"]).output().unwrap();
    std::fs::write(&amp, out.stdout).unwrap();
    corera()
        .args(["simulate", SAMPLE, "--policy", "masks", "--placement"])
        .arg(&amp)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the placement file gives every task one core (use `cores`)"));
    for (sweep, want) in [
        ("nokey=0:1:1", "unknown cost `nokey`; the costs are message_latency_ns, message_cpu_ns"),
        ("migration_ns=5:1:1", "expected FROM <= TO and a STEP above 0"),
        ("migration_ns=0:100000:1", "use a larger STEP (at most 200 values)"),
        ("migration_ns=0-1", "expected KEY=FROM:TO:STEP"),
    ] {
        corera().args(["simulate", SAMPLE, "--sweep", sweep]).assert().code(2).stderr(predicate::str::contains(want));
    }
}

#[test]
fn as_recorded_replays_the_recorded_placement_against_the_recording() {
    corera_testdata::shared_or_skip!("traces/btf");
    let json = as_recorded_json(shared("traces/btf/freertos_v11_rv64sim_2cores.btf"), &[]);
    assert_eq!(json["policy"], "masks");
    assert_eq!(json["platform"]["cores"], 2);
    let tasks = json["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 57, "59 task ids less the two idle tasks");
    for t in tasks {
        let (rec, rep) = (t["recorded_running_ns"].as_f64().unwrap(), t["replayed_running_ns"].as_f64().unwrap());
        assert!((rep - rec).abs() <= 0.02 * rec, "{}: RUNNING {rep} against {rec}", t["task"]);
    }
    // Tasks that stayed on one core are bound to it: Tmr_Svc ran on core 1
    // only: grep 'Tmr_Svc,0,resume' F | cut -d, -f5 | sort -u
    let tmr = tasks.iter().find(|t| t["task"] == "Tmr_Svc").unwrap();
    assert_eq!(tmr["cores"], serde_json::json!([1]));
    let runner = tasks.iter().find(|t| t["task"] == "Runner").unwrap();
    assert_eq!(runner["cores"], serde_json::json!([0, 1]));
    // FreeRTOS SMP runs one priority at a time here: the record states the
    // recorded yields (32 spans, 10 to 11 µs) and charges their upper
    // quartile.
    assert_eq!(json["rules"]["multiple_priorities"], false);
    assert_eq!(json["yield_latency"]["wakes"], 32);
    assert_eq!(json["platform"]["costs"]["yield_ns"], 11_000);
    // The text table says how many tasks are within the bounds.
    corera()
        .args(["simulate", shared("traces/btf/app4mc_rtana2sim_vit.btf"), "--as-recorded", "-q"])
        .assert()
        .success()
        .stdout(predicate::str::contains("RUNNING within 2 % for 9 of 9 tasks"))
        .stdout(predicate::str::contains("policy masks on 9 core(s)"));
    corera()
        .args(["simulate", SAMPLE, "--as-recorded", "--placement", "x.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}

/// `simulate --as-recorded` writes the replay it compares, to look at beside
/// the recording: `--btf` and `--perfetto` as any replay, `--timeline` the
/// page with the recording above the replay.
#[test]
fn as_recorded_writes_its_replay_beside_the_recording() {
    let dir = tempfile::tempdir().unwrap();
    let (btf, perfetto, page) = (dir.path().join("r.btf"), dir.path().join("r.json"), dir.path().join("r.html"));
    let out = corera()
        .args(["simulate", SAMPLE, "--as-recorded", "-q", "--json", "--btf"])
        .arg(&btf)
        .arg("--perfetto")
        .arg(&perfetto)
        .arg("--timeline")
        .arg(&page)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The BTF, read back, gives each task the RUNNING the fidelity record
    // states for the replay.
    let running = running_read_back(dir.path(), &btf);
    let tasks = record["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 24);
    for t in tasks {
        assert_eq!(running[t["task"].as_str().unwrap()], t["replayed_running_ns"].as_u64().unwrap(), "{}", t["task"]);
    }
    let p: serde_json::Value = serde_json::from_slice(&std::fs::read(&perfetto).unwrap()).unwrap();
    assert!(p["traceEvents"].as_array().unwrap().iter().filter(|e| e["ph"] == "X").count() > 10_000);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("printer.log replayed as recorded on 1 core(s), below the recording"));
}

/// A corera log of task `T` made ready on an idle core once a millisecond,
/// starting `delay` µs later each time and running 30 µs, written to `dir`.
fn wakes_log(dir: &std::path::Path, os: &str, delays: &[u64]) -> std::path::PathBuf {
    let mut text = format!("corera-log 1 clock=us os={os}\ntask 1 task 120 T\ntask 9 idle 0 IDLE\n0 0 in 9\n");
    for (k, delay) in delays.iter().enumerate() {
        let t = 1000 * (k as u64 + 1);
        let (start, end) = (t + delay, t + delay + 30);
        text += &format!("{t} 0 rdy 1\n{start} 0 out 9 preempt\n{start} 0 in 1\n{end} 0 out 1 done\n{end} 0 in 9\n");
    }
    let path = dir.join("wakes.log");
    std::fs::write(&path, text).unwrap();
    path
}

/// `corera simulate TRACE --as-recorded -q`, which must succeed.
fn as_recorded(trace: &std::path::Path) -> assert_cmd::assert::Assert {
    corera().arg("simulate").arg(trace).args(["--as-recorded", "-q"]).assert().success()
}

/// `corera simulate TRACE --as-recorded -q --json` and `more` (the
/// recording's other files, flags), which must succeed: its record.
fn as_recorded_json(trace: impl AsRef<std::ffi::OsStr>, more: &[&std::ffi::OsStr]) -> serde_json::Value {
    let out = corera().arg("simulate").arg(trace).args(["--as-recorded", "-q", "--json"]).args(more).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A task whose every job takes no time (an Amalthea task with no work:
/// switched in and out at one instant) ran on the core it was switched in
/// on: `simulate --as-recorded` replays it there, not on core 0 behind the
/// task that runs there (it read `cores: [0]` and a 500 µs response, where
/// 0 was recorded).
#[test]
fn as_recorded_keeps_a_task_of_no_work_on_its_core() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = "corera-log 1 clock=us\ntask 1 task 2 A\ntask 2 task 1 B\n".to_string();
    for k in 0..5 {
        let t = 1000 * k;
        text += &format!("{t} 0 rdy 1\n{t} 0 in 1\n{t} 1 rdy 2\n{t} 1 in 2\n{t} 1 out 2 done\n");
        text += &format!("{} 0 out 1 done\n", t + 500);
    }
    let trace = dir.path().join("no-work.log");
    std::fs::write(&trace, text).unwrap();
    let json = as_recorded_json(&trace, &[]);
    let b = &json["tasks"][1];
    assert_eq!(b["task"], "B");
    assert_eq!(b["cores"], serde_json::json!([1]), "{b}");
    assert_eq!((&b["recorded_response_mean_ns"], &b["replayed_response_mean_ns"]), (&0.into(), &0.into()), "{b}");
}

/// A BTF scheduler entity running two tasks at once has two execution
/// lanes, which the trace does not place on cores: `simulate
/// --as-recorded` lets a task that ran on one lane run on either (it was
/// bound to the lane the reader gave it, and RTAna2sim's `C4__G` waited
/// for its lanes while others idled: +94 %).
#[test]
fn as_recorded_lets_a_task_use_every_lane_of_its_scheduler() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("lanes.btf");
    let text = "#timeScale ns\n#entityTypeTable\n#-SCHED Sched\n\
        0,S,0,T,A,0,activate\n0,Sched,0,T,A,0,start\n0,S,0,T,B,0,activate\n0,Sched,0,T,B,0,start\n\
        10,Sched,0,T,A,0,terminate\n20,Sched,0,T,B,0,terminate\n";
    std::fs::write(&trace, text).unwrap();
    let json = as_recorded_json(&trace, &[]);
    assert_eq!(json["tasks"][1]["task"], "B");
    assert_eq!(json["tasks"][1]["cores"], serde_json::json!([0, 1]), "{}", json["tasks"][1]);
}

/// A recording whose every wake onto an idle core takes 7 µs (an untraced
/// dispatch path): `simulate --as-recorded` measures it, says so and
/// charges it, and reproduces the recorded responses.
#[test]
fn as_recorded_charges_the_recorded_dispatch_delay() {
    let dir = tempfile::tempdir().unwrap();
    let trace = wakes_log(dir.path(), "freertos", &[7; 5]);
    as_recorded(&trace)
        .stdout(predicate::str::contains("dispatch on the same core: 7.0 µs (median of 5 wakes onto an idle core"))
        .stdout(predicate::str::contains("charged to each local release"))
        .stdout(predicate::str::contains(
            "mean response within 10 % for 1 of 1 tasks with job ends; largest error 0.0 %",
        ));
}

/// A recording whose wakes onto an idle core take from 30 to 300 µs (an
/// idle state's exit, as a phone's do): no one latency, so `simulate
/// --as-recorded` states the lower quartile, which three wakes in four
/// took at least, as the dispatch it charges where a job's own wake is
/// not recorded, rather than nothing (which replayed every wake of the
/// Android YouTube trace sooner than three in four recorded ones). Each of
/// these jobs has its own wake recorded (the idle task made way for it),
/// and is charged that: every response as recorded, where the quartile
/// alone gave each job 35 µs of dispatch and then its 30 µs (65 µs
/// against a recorded mean of 126.9).
#[test]
fn as_recorded_charges_the_lower_quartile_of_a_spread_dispatch_delay() {
    let dir = tempfile::tempdir().unwrap();
    let trace = wakes_log(dir.path(), "linux", &[300, 30, 150, 35, 70, 40, 100, 50]);
    let text = "dispatch on the same core: 35.0 µs to 100.0 µs in the middle half of 8 wakes onto an idle core \
                (median 50.0 µs): no one latency; its lower quartile, which three in four took at least, charged to \
                each local release";
    as_recorded(&trace).stdout(predicate::str::contains(text));
    let json = as_recorded_json(&trace, &[]);
    assert_eq!(json["platform"]["costs"]["dispatch_ns"], 35_000);
    // Each job: its own wake, then its 30 µs.
    let task = &json["tasks"][0];
    assert_eq!(task["recorded_response_mean_ns"], 126_875, "{task}");
    assert_eq!(task["replayed_response_mean_ns"], 126_875, "{task}");
}

/// A recording with no ready events (switches only, as the FreeRTOS trace
/// logger's stock hooks write them) has its releases read from the
/// switches: `simulate --as-recorded`, its JSON record, `analyze`'s
/// fidelity line and its caution say the recorded READY and responses
/// are lower bounds, and a prediction on several cores that it runs side
/// by side only what the recording did; a recording with ready events says
/// nothing of it.
#[test]
fn a_recording_without_ready_events_says_its_releases_are_read_from_the_switches() {
    let dir = tempfile::tempdir().unwrap();
    let mut text =
        "corera-log 1 clock=us os=freertos\ntask 1 task 2 A\ntask 2 task 1 B\ntask 9 idle 0 IDLE\n0 0 in 9\n"
            .to_string();
    for k in 0..5u64 {
        let t = 1000 * (k + 1);
        text += &format!(
            "{t} 0 out 9 preempt\n{t} 0 in 1\n{} 0 out 1 block\n{} 0 in 2\n{} 0 out 2 block\n{} 0 in 9\n",
            t + 100,
            t + 100,
            t + 150,
            t + 150
        );
    }
    let stock = dir.path().join("switches.log");
    std::fs::write(&stock, text).unwrap();
    let said = "releases: the recording has no ready events, so corera read each release from the switches";
    as_recorded(&stock).stdout(predicate::str::contains(said));
    assert_eq!(as_recorded_json(&stock, &[])["releases_from_switches"], true);
    corera()
        .arg("analyze")
        .arg(&stock)
        .arg("-o")
        .arg(dir.path().join("out"))
        .args(["-q", "--cores", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "releases read from the switches (no ready events): recorded READY and responses are lower bounds",
        ))
        .stdout(predicate::str::contains("caution: the recording has no ready events"));
    // A prediction says what it cannot show: B, handed the core as A
    // left, runs after A on two cores as on one, and core 1 runs nothing.
    let predicted = |trace: &std::path::Path, json: bool| {
        let mut cmd = corera();
        cmd.arg("simulate").arg(trace).args(["-q", "--policy", "smp", "--cores", "2"]);
        if json {
            cmd.arg("--json");
        }
        String::from_utf8(cmd.assert().success().get_output().stdout.clone()).unwrap()
    };
    let text = predicted(&stock, false);
    assert!(text.contains("releases: the recording has no ready events"), "{text}");
    assert!(text.contains("on several cores only what the recording ran side by side"), "{text}");
    assert!(text.contains("(here core 1 ran nothing)"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&predicted(&stock, true)).unwrap();
    assert_eq!(json["releases_from_switches"], true);
    let single = corera().arg("simulate").arg(&stock).args(["-q", "--policy", "single"]).assert().success();
    single.stdout(predicate::str::contains("releases:").not());
    let readies = wakes_log(dir.path(), "freertos", &[7; 5]);
    assert!(as_recorded_json(&readies, &[]).get("releases_from_switches").is_none());
    as_recorded(&readies).stdout(predicate::str::contains("releases:").not());
    assert!(!predicted(&readies, false).contains("releases:"));
    let json: serde_json::Value = serde_json::from_str(&predicted(&readies, true)).unwrap();
    assert!(json.get("releases_from_switches").is_none());
}

/// `tests/data/log/context-switches.log`, whose switches from A to B take
/// 4 µs (the kernel's, between A's switch-out and B's switch-in, no task's
/// RUNNING): `simulate
/// --as-recorded` charges them, so B's responses come out as recorded, and
/// leaves them out of B's replayed RUNNING, which then equals the recorded
/// 150 µs (it read 170 µs, 13 % over, when the switches counted).
#[test]
fn as_recorded_counts_the_context_switch_to_no_tasks_running() {
    let trace = crate::repo("tests/data/log/context-switches.log");
    as_recorded(&trace).stdout(predicate::str::contains("context switch: 4.0 µs (median of 5 switches"));
    let json = as_recorded_json(&trace, &[]);
    let b = &json["tasks"][1];
    assert_eq!(b["task"], "B");
    assert_eq!((&b["recorded_running_ns"], &b["replayed_running_ns"]), (&150_000.into(), &150_000.into()), "{b}");
    assert_eq!((&b["recorded_response_mean_ns"], &b["replayed_response_mean_ns"]), (&64_000.into(), &64_000.into()));
}

/// A recording holds its own overheads: `simulate --as-recorded` with a
/// platform file that states the kernel or the cores but no `[costs]`
/// charges none of corera's default costs (the global scheduler's
/// `schedule_ns`, migrations, cross-core interrupts), so a task floating
/// over two cores replays its 50 µs jobs as recorded; a file that states
/// costs has them charged (a dispatch of 1 µs: 51 µs).
#[test]
fn as_recorded_charges_only_the_costs_a_platform_file_states() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("float.log");
    std::fs::write(
        &trace,
        "corera-log 1 clock=us os=freertos\ntask 1 task 1 A\ntask 8 idle 0 IDLE0\ntask 9 idle 0 IDLE1\n\
         0 0 in 8\n0 1 in 9\n100 0 rdy 1\n100 0 out 8 preempt\n100 0 in 1\n150 0 out 1 block\n150 0 in 8\n\
         300 1 rdy 1\n300 1 out 9 preempt\n300 1 in 1\n350 1 out 1 block\n350 1 in 9\n",
    )
    .unwrap();
    let response = |platform: &str| {
        let file = dir.path().join("platform.toml");
        std::fs::write(&file, platform).unwrap();
        let json = as_recorded_json(&trace, &["--platform".as_ref(), file.as_ref()]);
        let a = &json["tasks"][0];
        assert_eq!((&a["task"], &a["cores"]), (&"A".into(), &serde_json::json!([0, 1])), "{a}");
        assert_eq!(a["recorded_response_mean_ns"], 50_000);
        a["replayed_response_mean_ns"].as_u64().unwrap()
    };
    assert_eq!(response("cores = 2\ntime_slicing = false\n"), 50_000);
    assert_eq!(response("cores = 2\n[costs]\nschedule_ns = 1000\n"), 51_000);
}

/// A kernel that runs several priorities at once asks no core to yield:
/// the record of an ESP32 pair (ESP-IDF, its cores running two priorities
/// side by side 4,797 times) states no yield latency.
#[test]
fn as_recorded_states_a_yield_latency_only_where_the_kernel_asks_for_yields() {
    corera_testdata::shared_or_skip!("recordings/others");
    let app = shared("recordings/others/sv_esp32_lilusoft_app-cpu3.SVDat");
    let json = as_recorded_json(shared("recordings/others/sv_esp32_lilusoft_pro-cpu3.SVDat"), &[app.as_ref()]);
    assert_eq!(json["rules"]["multiple_priorities"], true);
    assert!(json.get("yield_latency").is_none(), "{}", json["yield_latency"]);
}

/// Queue lengths come from the platform file and are checked against the
/// recording: the pipeline's queues each held 4 items at once on one
/// core, so a length of 2 is refused, as is a queue it does not have; its
/// real length, 4, is kept and stated in the JSON record.
#[test]
fn queue_lengths_the_recording_contradicts_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let trace = crate::repo("samples/freertos-smp-pairs/pipeline-1core-ready.btf.gz");
    let run = |platform: &str| {
        let file = dir.path().join("platform.toml");
        std::fs::write(&file, platform).unwrap();
        corera().arg("simulate").arg(&trace).args(["--as-recorded", "-q", "--json", "--platform"]).arg(&file).assert()
    };
    run("cores = 1\nqueue_length = 2\n").code(2).stderr(predicate::str::contains(
        "queue `0x80007680` held 4 items at once in the recording; the platform file gives it a length of 2",
    ));
    run("cores = 1\n[queues]\nq1 = 4\n").code(2).stderr(predicate::str::contains(
        "the platform file's [queues] names `q1`; the recording's queues are: 0x800063b8, 0x80007680, 0x80007740, \
         0x80007800",
    ));
    let out = run("cores = 1\nqueue_length = 4\n").success().get_output().stdout.clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["platform"]["kernel"]["queue_length"], 4, "{}", json["platform"]);
}
