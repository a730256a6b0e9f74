//! Real inputs made by others: BTF, ftrace, Amalthea models, Tracealyzer and SystemView recordings, and malformed ones.

use predicates::prelude::*;

use crate::{corera, repo, shared};

#[test]
fn real_btf_and_ftrace_traces_analyse_from_files_stdin_and_gzip() {
    corera_testdata::shared_or_skip!("traces/btf");
    corera_testdata::shared_or_skip!("traces/ftrace");
    for (rel, tasks) in [
        (shared("traces/btf/freertos_v11_rv64sim_2cores.btf"), "59 tasks"),
        (shared("traces/ftrace/android_youtube_4cpu_atrace.txt"), "136 tasks"),
        (shared("traces/ftrace/lisa_juno_sched_load.trace-cmd-report.txt"), "31 tasks"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        corera()
            .args(["analyze", "--replay-budget", "20", rel, "-q", "-o"])
            .arg(dir.path())
            .assert()
            .success()
            .stdout(predicate::str::contains(tasks));
        let from_file = std::fs::read_to_string(dir.path().join("analysis.json")).unwrap();
        // The same bytes on stdin, gzip-compressed.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &std::fs::read(repo(rel)).unwrap()).unwrap();
        let gz = gz.finish().unwrap();
        let stdin = tempfile::tempdir().unwrap();
        corera()
            .args(["analyze", "--replay-budget", "20", "-", "-q", "-o"])
            .arg(stdin.path())
            .write_stdin(gz)
            .assert()
            .success();
        let from_stdin = std::fs::read_to_string(stdin.path().join("analysis.json")).unwrap();
        let name = std::path::Path::new(rel).file_name().unwrap().to_str().unwrap();
        assert_eq!(from_file.replace(&format!("\"{name}\""), "\"<stdin>\""), from_stdin, "{rel}");
    }
}

#[test]
fn format_flag_forces_a_reader_and_filters_select_threads() {
    corera_testdata::shared_or_skip!("traces/btf");
    corera_testdata::shared_or_skip!("traces/ftrace");
    corera()
        .args(["ingest", shared("traces/btf/app4mc_example1_task_only_short.btf"), "--format", "ftrace"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "app4mc_example1_task_only_short.btf:23:1: invalid ftrace input: expected an ftrace line",
        ));
    corera()
        .args(["ingest", shared("traces/ftrace/android_youtube_4cpu_atrace.txt"), "--comm", "^Binder", "--json"])
        .assert()
        .success()
        .stderr(predicate::str::contains("task filter kept"));
    corera()
        .args(["ingest", "x", "--comm", "("])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("regex parse error"));
}

#[test]
fn lenient_turns_errors_into_counted_warnings() {
    let bad = "#timeScale ns\n1,Core_0,0,T,A,0,start\nbroken line\n3,Core_0,0,T,A,0,terminate\n";
    corera()
        .args(["ingest", "-"])
        .write_stdin(bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("<stdin>:3:1: invalid btf input"));
    corera()
        .args(["ingest", "-", "--lenient"])
        .write_stdin(bad)
        .assert()
        .success()
        .stderr(predicate::str::contains("warning: <stdin>:3: skipped malformed line (column 1)"))
        .stdout(predicate::str::contains("2 events"));
}

/// The task entities of a BTF file, counted apart from corera: the names
/// of the `T` and `I` targets (FreeRTOS-logger labels by their id), idle
/// tasks left out.
fn btf_task_entities(text: &str) -> std::collections::BTreeSet<String> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.splitn(8, ',').collect();
            (f.len() >= 7 && (f[3] == "T" || f[3] == "I")).then(|| f[4].to_string())
        })
        .map(|name| match name.split_once(']') {
            Some((label, rest)) => format!("{}{rest}", label.rsplit('/').next().unwrap()),
            None => name,
        })
        .filter(|n| !n.to_ascii_lowercase().contains("idle"))
        .collect()
}

#[test]
fn btf_entities_that_are_not_tasks_never_reach_a_placement_or_a_header() {
    // The project's own hand-written file, and the real ones where the
    // shared data is there.
    let mut files = vec!["tests/data/btf/spec_entities.btf"];
    if corera_testdata::shared("traces/btf").is_some() {
        files.extend([
            shared("traces/btf/freertos_v11_rv64sim_2cores.btf"),
            shared("traces/btf/app4mc_example1_task_only_short.btf"),
            shared("traces/btf/app4mc_rtana2sim_vit.btf"),
        ]);
    }
    for rel in files {
        let bytes = std::fs::read(repo(rel)).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let entities = btf_task_entities(&text);
        let dir = tempfile::tempdir().unwrap();
        corera().args(["analyze", rel, "-q", "--replay-budget", "40", "-o"]).arg(dir.path()).assert().success();
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("analysis.json")).unwrap()).unwrap();
        let placed = json["placement"].as_array().unwrap();
        assert_eq!(placed.len(), entities.len(), "{rel}: one placement entry per T/I entity");
        let header = std::fs::read_to_string(dir.path().join("affinity.h")).unwrap();
        for non_task in ["SIM", "SEM_BUS", "STI_", "CORE0_COMPSCHED", "CORE_0", "FILTER", "LAW"] {
            assert!(!header.contains(&format!("CORERA_CORE_{non_task}")), "{rel}: `{non_task}` in the header");
        }
        if rel.contains("spec_entities") {
            let names: std::collections::BTreeSet<String> =
                placed.iter().map(|p| p["task"].as_str().unwrap().to_string()).collect();
            assert_eq!(names, entities);
            // The runnables are in the graph, with their calls.
            let tasks = json["graph"]["tasks"].as_array().unwrap();
            let sensor = tasks.iter().find(|t| t["name"] == "Sensor").unwrap();
            assert_eq!(sensor["runnables"][0]["name"], "Filter");
            assert_eq!(sensor["runnables"][0]["calls"], 2);
            // 100..450 and 1000..1150 ns.
            assert_eq!(sensor["runnables"][0]["exec_ns"], 500);
        }
    }
}

/// The WATERS 2019 challenge model (made by others, in `../shared/data/`).
fn waters() -> &'static str {
    shared("amalthea/waters2019_challenge.amxmi")
}

/// A placement list: task name to its cores (its `cores`, else its
/// `core`).
fn placed_cores(list: &serde_json::Value) -> std::collections::BTreeMap<String, Vec<u64>> {
    let cores = |p: &serde_json::Value| -> Vec<u64> {
        match p["cores"].as_array() {
            Some(c) if !c.is_empty() => c.iter().map(|x| x.as_u64().unwrap()).collect(),
            _ => vec![p["core"].as_u64().unwrap()],
        }
    };
    list.as_array().unwrap().iter().map(|p| (p["task"].as_str().unwrap().into(), cores(p))).collect()
}

#[test]
fn amalthea_models_analyse_beside_their_own_mapping_and_the_placement_goes_back() {
    corera_testdata::shared_or_skip!("amalthea");
    let dir = tempfile::tempdir().unwrap();
    corera()
        .args(["analyze", waters(), "-q", "--replay-budget", "60", "-o"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("14 tasks (0 ISRs)"))
        .stdout(predicate::str::contains("model: Amalthea 1.0.0, 7 processing units"))
        .stdout(predicate::str::contains("30 labels"))
        .stdout(predicate::str::contains("load per core type"))
        .stdout(predicate::str::contains("the model's mapping: topology-weighted traffic"))
        .stdout(predicate::str::contains("corera's placement:  topology-weighted traffic"))
        .stdout(predicate::str::contains("masks, the model's mapping"));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("analysis.json")).unwrap()).unwrap();
    // The GPU tasks stay on the GPU (core 0, GP10B: only it has ticks for
    // their copies); no CPU task goes there.
    let placed = placed_cores(&json["placement"]);
    let gpu = ["SFM", "Localization", "Lane_detection", "Detection"];
    for (task, cores) in &placed {
        if gpu.contains(&task.as_str()) {
            assert_eq!(cores, &[0], "{task}");
        } else {
            assert!(!cores.contains(&0), "{task} on the GPU: {cores:?}");
        }
    }
    assert_eq!(json["model"]["mapping"]["placement"].as_array().unwrap().len(), 14);
    // Back to Amalthea: the model with its mapping model replaced by
    // corera's maps every task where corera placed it.
    let mapping = dir.path().join("mapping.amxmi");
    corera()
        .args(["emit"])
        .arg(dir.path().join("analysis.json"))
        .args(["--target", "amalthea", "-o"])
        .arg(&mapping)
        .assert()
        .success();
    let emitted = std::fs::read_to_string(&mapping).unwrap();
    let original = std::fs::read_to_string(repo(waters())).unwrap();
    let cut = |s: &str| {
        let a = s.find("<mappingModel").unwrap();
        let b = s.find("</mappingModel>").unwrap() + "</mappingModel>".len();
        (a, b)
    };
    let (a, b) = cut(&original);
    let (c, d) = cut(&emitted);
    let spliced = format!("{}{}{}", &original[..a], &emitted[c..d], &original[b..]);
    let again = dir.path().join("again.amxmi");
    std::fs::write(&again, spliced).unwrap();
    let out = tempfile::tempdir().unwrap();
    corera().args(["analyze", "-q", "--objective", "traffic"]).arg(&again).arg("-o").arg(out.path()).assert().success();
    let json2: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("analysis.json")).unwrap()).unwrap();
    let mapped = placed_cores(&json2["model"]["mapping"]["placement"]);
    assert_eq!(mapped, placed, "the emitted mapping reads back as corera's placement");
}

#[test]
fn democar_is_read_on_its_own_core_or_a_given_platform() {
    corera_testdata::shared_or_skip!("amalthea");
    corera()
        .args(["analyze", shared("amalthea/democar.amxmi"), "-q", "--platform", "2", "-o"])
        .arg(tempfile::tempdir().unwrap().path())
        .assert()
        .success()
        .stdout(predicate::str::contains("model: Amalthea 0.9.5, 1 processing units"))
        .stdout(predicate::str::contains("71 labels (103 B)"))
        .stdout(predicate::str::contains("the model's mapping: the model carries none"))
        .stdout(predicate::str::contains("recommended on 2 identical cores"));
    corera()
        .args(["graph", shared("amalthea/democar.amxmi"), "-q", "--horizon", "10", "--ticks", "upper", "--json"])
        .assert()
        .success();
    corera()
        .args(["graph", shared("amalthea/democar.amxmi"), "--ticks", "worst"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("expected avg or upper"));
}

/// The printer workload's chains (`samples/*/printer/main.c`), as edges.
const PRINTER_EDGES: [(&str, &str); 7] = [
    ("EncoderIrq", "MotorCtl"),
    ("NetRxIrq", "NetStack"),
    ("NetStack", "Parser"),
    ("Parser", "Raster"),
    ("Raster", "PrintEngine"),
    ("MotorCtl", "Logger"),
    ("Raster", "Logger"),
];

/// Analyses a recording of the printer workload: its analysis JSON, after
/// checking the header places the workload's tasks and the graph has its
/// chains and its one mutex.
fn analyse_printer_recording(rel: &str, format: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    corera()
        .args(["analyze", rel, "-q", "--replay-budget", "60", "-o"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("format {format}")));
    let header = std::fs::read_to_string(dir.path().join("affinity.h")).unwrap();
    for task in ["ENCODERIRQ", "MOTORCTL", "NETSTACK", "PARSER", "RASTER", "PRINTENGINE", "UIMGR", "LOGGER"] {
        assert!(header.contains(&format!("#define CORERA_CORE_{task} ")), "{rel}: {task}");
    }
    assert!(!header.contains("CORERA_CORE_IDLE "), "the idle task is never placed");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("analysis.json")).unwrap()).unwrap();
    for (a, b) in PRINTER_EDGES {
        assert!(edges_of(&json).contains(&(a.to_string(), b.to_string())), "{rel}: {a} -> {b}");
    }
    let affinities = json["graph"]["affinities"].as_array().unwrap();
    assert_eq!(affinities.len(), 1, "{rel}: the spi mutex: {affinities:?}");
    json
}

/// The interaction edges of an analysis, by task name.
fn edges_of(json: &serde_json::Value) -> Vec<(String, String)> {
    let name = |i: &serde_json::Value| {
        json["graph"]["tasks"][i.as_u64().unwrap() as usize]["name"].as_str().unwrap().to_string()
    };
    json["graph"]["edges"].as_array().unwrap().iter().map(|e| (name(&e["src"]), name(&e["dst"]))).collect()
}

#[test]
fn a_tracealyzer_recording_gives_a_placement_and_a_header() {
    let json = analyse_printer_recording("samples/tracealyzer/printer.psf", "psf");
    // TraceRecorder records the event group: PrintEngine -> UiMgr too, and
    // no edge the workload does not have.
    let edges = edges_of(&json);
    assert!(edges.contains(&("PrintEngine".to_string(), "UiMgr".to_string())), "{edges:?}");
    assert_eq!(edges.len(), 8, "{edges:?}");
}

#[test]
fn a_systemview_recording_gives_a_placement_and_a_header() {
    // SEGGER's FreeRTOS glue records no event-group call: PrintEngine ->
    // UiMgr is not asserted.
    analyse_printer_recording("samples/systemview/printer.SVDat", "systemview");
}

/// Espressif's own ESP32 recordings (`../shared/data/recordings/esp-idf-sysview/`): one file per core
/// given together, and SystemView 3.60's multi-core file alone, read as the
/// same two-core recording; its placement replays as recorded.
#[test]
fn an_esp32_recording_is_two_cores_from_one_file_per_core_or_one_multicore_file() {
    corera_testdata::shared_or_skip!("recordings/esp-idf-sysview");
    let ingest = |files: &[&str]| -> serde_json::Value {
        let out = corera().arg("ingest").args(files).args(["--json", "-q"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let pair = ingest(&[
        shared("recordings/esp-idf-sysview/2025-sysview360/heap_log0.svdat"),
        shared("recordings/esp-idf-sysview/2025-sysview360/heap_log1.svdat"),
    ]);
    let single = ingest(&[shared("recordings/esp-idf-sysview/2025-sysview360/heap_log_mcore.svdat")]);
    for j in [&pair, &single] {
        assert_eq!(j["trace"]["cores_seen"], 2, "{j}");
        let notes = j["input"]["notes"].to_string();
        assert!(notes.contains("ESP-IDF FreeRTOS") && notes.contains("2 cores"), "{notes}");
    }
    assert_eq!(pair["input"]["name"], "heap_log0.svdat+heap_log1.svdat");
    // Both layouts hold the same run: the same tasks and events per kind.
    assert_eq!(pair["trace"]["events_by_kind"], single["trace"]["events_by_kind"]);
    assert_eq!(pair["trace"]["tasks"], single["trace"]["tasks"]);
    // The recorded placement replays: each ISR on the core it ran on.
    corera()
        .args([
            "simulate",
            "--as-recorded",
            shared("recordings/esp-idf-sysview/2025-sysview360/heap_log_mcore.svdat"),
            "-q",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("on 2 core(s)"))
        .stdout(predicate::str::is_match(r"(?m)^SysTick@cpu1 +1 ").unwrap());
    // Sliced at the recording's own tick (`SysTick` entries, 1 ms), the three
    // `alloc` tasks of one priority on core 0 respond as recorded (alloc1
    // was 84 % slow when the ticks were not moved to the replay's clock);
    // woken from core 0 with the recording's own 62.6 µs cross-core wake,
    // the `free` tasks on core 1 too (17 to 24 % fast without it).
    let out = corera()
        .args([
            "simulate",
            "--as-recorded",
            shared("recordings/esp-idf-sysview/2025-sysview360/heap_log_mcore.svdat"),
            "-q",
            "--json",
        ])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["rules"]["slice"]["period_ns"].as_u64().is_some_and(|p| p.abs_diff(1_000_000) < 10_000), "{json}");
    let wake = json["cross_core_wake"]["median_ns"].as_u64().unwrap();
    assert!((62_000..=63_000).contains(&wake), "{json}");
    assert_eq!(json["platform"]["costs"]["message_latency_ns"], wake);
    for name in ["alloc0", "alloc1", "alloc2", "free0", "free1", "free2"] {
        let t = json["tasks"].as_array().unwrap().iter().find(|t| t["task"] == name).unwrap();
        let (rec, rep) =
            (t["recorded_response_mean_ns"].as_f64().unwrap(), t["replayed_response_mean_ns"].as_f64().unwrap());
        assert!((rep - rec).abs() <= 0.1 * rec, "{name}: mean response {rep} ns replayed, {rec} ns recorded");
    }
    // A file that is not a SystemView recording cannot be one of a core's.
    corera()
        .args(["ingest", shared("recordings/esp-idf-sysview/2018-pair/cpu0.svdat"), "samples/printer/printer.log"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("printer.log").and(predicate::str::contains("one stream per core")));
}

/// Regression (issue 33): an Amalthea file nesting 200,000 elements
/// aborted corera with a stack overflow (exit 134, no message); it is an
/// input error at the line of the first element too deep, exit 2.
#[test]
fn a_model_nested_without_end_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deep.amxmi");
    let depth = 200_000;
    let head = "<?xml version=\"1.0\"?>\n<am:Amalthea xmlns:am=\"http://app4mc.eclipse.org/amalthea/1.0.0\">\n";
    std::fs::write(
        &file,
        format!("{head}{}{}</am:Amalthea>\n", "<swModel>\n".repeat(depth), "</swModel>".repeat(depth)),
    )
    .unwrap();
    corera()
        .arg("analyze")
        .arg(&file)
        .arg("-o")
        .arg(dir.path().join("out"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("deep.amxmi:514:1: invalid amalthea input"))
        .stderr(predicate::str::contains("nested at most 512 deep"));
}
