//! The command line from the outside.

use predicates::prelude::*;

use crate::{corera, repo, shared};

const SAMPLE: &str = "samples/printer/printer.log";

#[test]
fn analyze_writes_header_and_json_and_prints_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    corera()
        .args(["analyze", SAMPLE, "--cores", "2", "-o"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("recommended on 2 identical cores (objective ready)"))
        .stdout(predicate::str::contains("proven optimal"))
        .stdout(predicate::str::contains("settings: --cores 2"));
    let header = std::fs::read_to_string(dir.path().join("affinity.h")).unwrap();
    assert!(header.contains("#define CORERA_CORE_RASTERIZER "));
    assert!(header.contains("#define CORERA_CORES_RASTERIZER    0x3ull"), "{header}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("analysis.json")).unwrap()).unwrap();
    assert_eq!(json["placement"].as_array().unwrap().len(), 24);
    // Only the outputs are in the directory: no temporary files left.
    let mut files: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    assert_eq!(files, ["affinity.h", "analysis.json", "graph.dot", "report.html"]);
}

#[test]
fn analyze_keeps_other_files_in_the_output_directory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    corera().args(["analyze", SAMPLE, "-q", "-o"]).arg(dir.path()).assert().success();
    assert_eq!(std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(), "mine");
}

#[test]
fn stdin_gives_the_same_analysis_as_a_file() {
    let file = tempfile::tempdir().unwrap();
    let stdin = tempfile::tempdir().unwrap();
    corera().args(["analyze", "--replay-budget", "20", SAMPLE, "-o"]).arg(file.path()).assert().success();
    corera()
        .args(["analyze", "--replay-budget", "20", "-", "-o"])
        .arg(stdin.path())
        .pipe_stdin(repo(SAMPLE))
        .unwrap()
        .assert()
        .success()
        .stdout(predicate::str::starts_with("<stdin>: 25 tasks"));
    let from_file = std::fs::read_to_string(file.path().join("analysis.json")).unwrap();
    let from_stdin = std::fs::read_to_string(stdin.path().join("analysis.json")).unwrap();
    assert_eq!(from_file.replace("\"printer.log\"", "\"<stdin>\""), from_stdin);
}

#[test]
fn reruns_and_thread_counts_give_identical_bytes() {
    let outputs: Vec<(String, String)> = ["1", "2", "2"]
        .iter()
        .map(|threads| {
            let dir = tempfile::tempdir().unwrap();
            corera()
                .env("RAYON_NUM_THREADS", threads)
                .args(["analyze", "--replay-budget", "20", SAMPLE, "-o"])
                .arg(dir.path())
                .assert()
                .success();
            (
                std::fs::read_to_string(dir.path().join("analysis.json")).unwrap(),
                std::fs::read_to_string(dir.path().join("affinity.h")).unwrap(),
            )
        })
        .collect();
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[1], outputs[2]);
}

#[test]
fn malformed_log_exits_2_naming_file_line_and_expectation() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.log");
    std::fs::write(&bad, "corera-log 1 clock=us\ntask 1 task 3 A\n10 0 rdy 1\n12 0 out 1 sideways\n").unwrap();
    let out = dir.path().join("out");
    corera().arg("analyze").arg(&bad).arg("-o").arg(&out).assert().code(2).stderr(predicate::str::contains(
        "bad.log:4:12: invalid corera-log input: expected `preempt`, `block` or `done`, found `sideways`",
    ));
    assert!(!out.exists(), "a failed run must not create outputs");
}

#[test]
fn a_failed_run_leaves_an_existing_header_untouched() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("affinity.h"), "previous").unwrap();
    corera()
        .args(["analyze", "-", "-o"])
        .arg(dir.path())
        .write_stdin("corera-log 1 clock=us\n5 0 zap 1\n")
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(dir.path().join("affinity.h")).unwrap(), "previous");
}

#[test]
fn empty_unknown_and_missing_inputs_exit_2() {
    corera()
        .args(["ingest", "-"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("<stdin>:1:1: invalid corera-log input: the input is empty"));
    corera().args(["ingest", "-"]).write_stdin("something else\n").assert().code(2).stderr(predicate::str::contains(
        "not in a known trace format (known formats: corera-log, btf, ftrace, amalthea, psf, systemview, ctf); pass --format",
    ));
    corera()
        .args(["ingest", "no/such/file.log"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("error: could not open trace `no/such/file.log`: No such file"));
    corera().args(["ingest", "-"]).write_stdin(&b"corera-log 1 clock=us\n\xfe\n"[..]).assert().code(2).stderr(
        predicate::str::contains("<stdin>:2:1: invalid corera-log input: the line is not valid UTF-8 (byte 0xfe)"),
    );
}

#[test]
fn truncated_log_is_analysed_with_a_warning() {
    let text = std::fs::read_to_string(repo(SAMPLE)).unwrap();
    let cut = &text[..text.len() / 2];
    let cut = &cut[..cut.rfind('\n').unwrap() + 4];
    let dir = tempfile::tempdir().unwrap();
    corera()
        .args(["analyze", "--replay-budget", "20", "-", "-o"])
        .arg(dir.path())
        .write_stdin(cut)
        .assert()
        .success()
        .stderr(predicate::str::is_match(r"warning: <stdin>:\d+: last line is truncated").unwrap());
    corera()
        .args(["analyze", "--replay-budget", "20", "-", "-q", "-o"])
        .arg(dir.path())
        .write_stdin(cut)
        .assert()
        .success()
        .stderr("");
}

#[test]
fn pins_are_honoured_and_impossible_pins_exit_3() {
    let out =
        corera().args(["place", SAMPLE, "--json", "--pin", "Rasterizer=0", "--pin", "MotorPaper=1"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let cores = cores_of(&out.stdout);
    assert_eq!((cores["Rasterizer"], cores["MotorPaper"]), (0, 1));
    corera()
        .args(["place", SAMPLE, "--pin", "Rasterizer=2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--pin Rasterizer=2: the platform has cores 0..=1 only"));
    corera()
        .args(["place", SAMPLE, "--pin", "Nobody=1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("there is no task `Nobody` in the trace"));
    corera()
        .args(["place", SAMPLE, "--pin", "Rasterizer"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("expected NAME=CORES"));
}

/// The placement core of each task, from `place --json`.
fn cores_of(json: &[u8]) -> std::collections::HashMap<String, u64> {
    let v: serde_json::Value = serde_json::from_slice(json).unwrap();
    v["placement"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["task"].as_str().unwrap().into(), t["core"].as_u64().unwrap()))
        .collect()
}

#[test]
fn core_sets_forbidden_cores_together_and_apart_hold() {
    let out = corera()
        .args([
            "place",
            "--replay-budget",
            "20",
            SAMPLE,
            "--json",
            "--platform",
            "4",
            "--pin",
            "Rasterizer=2-3",
            "--forbid",
            "Rasterizer=3",
        ])
        .args([
            "--forbid",
            "MotorPaper=0,1",
            "--together",
            "NetStack,JobParser,Logger",
            "--apart",
            "Halftone,ColorConv",
        ])
        .args(["--apart", "MotorPaper,MotorCarriage"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let core = cores_of(&out.stdout);
    assert_eq!(core["Rasterizer"], 2);
    assert!(core["MotorPaper"] >= 2);
    assert_eq!((core["NetStack"], core["JobParser"]), (core["Logger"], core["Logger"]));
    assert_ne!(core["Halftone"], core["ColorConv"]);
    assert_ne!(core["MotorPaper"], core["MotorCarriage"]);
    // The same constraints from a file give the same placement.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rules.toml");
    std::fs::write(
        &file,
        "together = [[\"NetStack\", \"JobParser\", \"Logger\"]]\n\
         apart = [[\"Halftone\", \"ColorConv\"], [\"MotorPaper\", \"MotorCarriage\"]]\n\
         [[pin]]\ntask = \"Rasterizer\"\ncores = [2, 3]\n\
         [[forbid]]\ntask = \"Rasterizer\"\ncores = [3]\n[[forbid]]\ntask = \"MotorPaper\"\ncores = [0, 1]\n",
    )
    .unwrap();
    let from_file = corera()
        .args(["place", "--replay-budget", "20", SAMPLE, "--json", "--platform", "4", "--constraints"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(from_file.status.success(), "{}", String::from_utf8_lossy(&from_file.stderr));
    assert_eq!(cores_of(&from_file.stdout), core);
    // analyze prints them back as flags, so that the run can be repeated.
    corera()
        .args(["analyze", "--replay-budget", "20", SAMPLE, "--cores", "2", "--apart", "Halftone,ColorConv", "-o"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("--apart 'Halftone,ColorConv'"));
}

#[test]
fn conflicting_constraints_exit_3_and_name_each_other() {
    for (args, want) in [
        (
            vec!["--pin", "Rasterizer=1", "--forbid", "Rasterizer=1"],
            "the constraints conflict: no core is left for `Rasterizer`; see --pin Rasterizer=1 and --forbid Rasterizer=1",
        ),
        (
            vec!["--together", "Rasterizer,EncoderIsr", "--pin", "Rasterizer=1"],
            "see --together Rasterizer,EncoderIsr and ISR `EncoderIsr` on core 0 (the default; --pin it elsewhere) \
             and --pin Rasterizer=1",
        ),
        (vec!["--apart", "Halftone,ColorConv,Compressor"], "3 tasks must run on different cores, but only 2 cores"),
        (
            vec!["--together", "Halftone,ColorConv", "--apart", "ColorConv,Halftone"],
            "`ColorConv` and `Halftone` must share a core and run apart",
        ),
    ] {
        corera().args(["place", SAMPLE]).args(&args).assert().code(3).stderr(predicate::str::contains(want));
    }
    corera()
        .args(["place", SAMPLE, "--apart", "Halftone"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--apart Halftone: name at least two tasks"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rules.toml");
    std::fs::write(&file, "[[pin]]\ntask = \"A\"\ncore = 1\n").unwrap();
    corera()
        .args(["place", SAMPLE, "--constraints"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid constraints file"))
        .stderr(predicate::str::contains("unknown field `core`"));
}

#[test]
fn more_cores_never_increase_the_peak_core_load() {
    let peak = |cores: &str| -> f64 {
        let out =
            corera().args(["place", "--replay-budget", "20", SAMPLE, "--json", "--cores", cores]).output().unwrap();
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["cost"]["core_utilisation"].as_array().unwrap().iter().map(|u| u.as_f64().unwrap()).fold(0.0, f64::max)
    };
    let (one, two, three) = (peak("1"), peak("2"), peak("3"));
    assert!(one > two && two > three, "{one} {two} {three}");
    assert!((one - 0.725).abs() < 0.01, "single-core load of the sample is about 72.5 %: {one}");
}

#[test]
fn ingest_converts_and_summarises() {
    let out = corera().args(["ingest", SAMPLE, "--write-log", "-"]).output().unwrap();
    assert!(out.status.success());
    let original = std::fs::read_to_string(repo(SAMPLE)).unwrap();
    let without_comments: String = original.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), without_comments);
    corera().args(["ingest", SAMPLE]).assert().success().stdout(predicate::str::contains(
        "printer.log: format corera-log, 25 tasks (3 ISRs), 324584 events on 1 core(s), 8.499560 s",
    ));
    let out = corera().args(["ingest", SAMPLE, "--json"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["schema_version"].as_u64(), &v["input"]["bytes"]),
        (Some(u64::from(corera_emit::SCHEMA_VERSION)), &original.len().into())
    );
}

#[test]
fn graph_writes_json_and_dot() {
    let dir = tempfile::tempdir().unwrap();
    let dot = dir.path().join("g.dot");
    let out = corera().args(["graph", SAMPLE, "--json", "--dot"]).arg(&dot).output().unwrap();
    assert!(out.status.success());
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let v = &record["graph"];
    assert_eq!(v["tasks"].as_array().unwrap().len(), 25);
    let dot = std::fs::read_to_string(dot).unwrap();
    assert!(dot.starts_with("digraph tasks {"));
    assert_eq!(
        dot.matches(" -> ").count(),
        v["edges"].as_array().unwrap().len() + v["affinities"].as_array().unwrap().len()
    );
    // `-o FILE` writes the same JSON; without either, a table for people.
    let file = dir.path().join("g.json");
    corera().args(["graph", SAMPLE, "-o"]).arg(&file).assert().success().stdout("");
    assert_eq!(std::fs::read(&file).unwrap(), out.stdout);
    let table = corera().args(["graph", SAMPLE]).output().unwrap();
    let table = String::from_utf8(table.stdout).unwrap();
    let rows = table.lines().skip(2).take_while(|l| !l.is_empty()).count();
    assert_eq!(rows, 24, "every task but IDLE has a row");
    assert!(table.contains("\n27 interaction edges, total weight 57443; the 15 heaviest:\n"), "{table}");
    assert!(
        table.contains("  EncoderIsr -> MotorPaper: 17000 (0 messages, 0 bytes, 8500 notifications, 8500 wakeups)\n"),
        "the heaviest edge first: {table}"
    );
    assert_eq!(table.lines().filter(|l| l.contains(" -> ")).count(), 15);
    let edges = v["edges"].as_array().unwrap();
    let heaviest = edges.iter().map(|e| e["weight"].as_u64().unwrap()).max().unwrap();
    assert_eq!(heaviest, 17000, "the table's first edge is the JSON's heaviest");
}

#[test]
fn emit_and_gen_print_a_json_record_of_what_they_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let header = dir.path().join("a.h");
    let out = corera().args(["emit", SAMPLE, "--target", "freertos", "--json", "-o"]).arg(&header).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bytes = std::fs::read(&header).unwrap();
    assert_eq!(v["target"], "freertos");
    assert_eq!(v["bytes"], bytes.len());
    assert_eq!(v["file"], header.display().to_string());
    assert_eq!(v["placement"].as_array().unwrap().len(), 24);
    let text = String::from_utf8(bytes).unwrap();
    for p in v["placement"].as_array().unwrap() {
        let (name, core) =
            (format!("CORERA_CORE_{}", p["task"].as_str().unwrap().to_uppercase()), p["core"].to_string());
        let defined = text.lines().any(|l| l.split_whitespace().take(3).eq(["#define", name.as_str(), core.as_str()]));
        assert!(defined, "no `#define {name} {core}` in the header");
    }
    let log = dir.path().join("p.log");
    let out = corera().args(["gen", "samples/printer/workload.toml", "--json", "-o"]).arg(&log).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["bytes"], std::fs::metadata(&log).unwrap().len());
    assert_eq!(v["seed"], 2026);
    assert_eq!(v["trace"]["events"], 324_584);
    // The record goes to stdout, so the artifact cannot.
    for cmd in [&["emit", SAMPLE][..], &["gen", "samples/printer/workload.toml"][..]] {
        corera()
            .args(cmd)
            .arg("--json")
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--json prints a record on stdout, so the output needs a file"));
    }
}

#[test]
fn emit_prints_the_same_header_as_analyze() {
    let dir = tempfile::tempdir().unwrap();
    corera().args(["analyze", "--replay-budget", "20", SAMPLE, "-o"]).arg(dir.path()).assert().success();
    let header = std::fs::read_to_string(dir.path().join("affinity.h")).unwrap();
    corera().args(["emit", SAMPLE, "--replay-budget", "20"]).assert().success().stdout(header);
}

#[test]
fn gen_reproduces_the_committed_sample() {
    let out = corera().args(["gen", "samples/printer/workload.toml"]).output().unwrap();
    assert!(out.status.success());
    assert!(out.stdout == std::fs::read(repo(SAMPLE)).unwrap(), "samples/printer/printer.log is stale: regenerate it");
    let out = corera().args(["gen", "samples/rp2-cluster/workload.toml"]).output().unwrap();
    assert!(out.status.success());
    let committed = std::fs::read(repo("samples/rp2-cluster/ecu.log")).unwrap();
    assert!(out.stdout == committed, "samples/rp2-cluster/ecu.log is stale: regenerate it");
    let out = corera().args(["gen", "samples/tile64-daq/workload.toml"]).output().unwrap();
    assert!(out.status.success());
    let committed = std::fs::read(repo("samples/tile64-daq/daq.log")).unwrap();
    assert!(out.stdout == committed, "samples/tile64-daq/daq.log is stale: regenerate it");
    corera().args(["gen", "-"]).assert().code(2).stderr(predicate::str::contains("could not read workload `-`"));
}

#[test]
fn usage_errors_exit_2_and_help_has_examples() {
    corera().args(["analyze", "--cores", "0"]).assert().code(2);
    corera().args(["frobnicate"]).assert().code(2);
    for cmd in ["analyze", "ingest", "graph", "place", "emit", "simulate", "gen"] {
        corera().args([cmd, "--help"]).assert().success().stdout(predicate::str::contains("Example:\n  corera "));
    }
}

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

/// Cut and largest block weight of a METIS partition, computed here from
/// the graph text, independently of corera's reader.
fn cut_of(graph: &str, partition: &str) -> (u64, u64) {
    let part: Vec<usize> = partition.lines().map(|l| l.parse().unwrap()).collect();
    let mut cut = 0;
    let mut weight = vec![0u64; 64];
    for (v, line) in graph.lines().skip(1).enumerate() {
        let nums: Vec<u64> = line.split_whitespace().map(|t| t.parse().unwrap()).collect();
        weight[part[v]] += nums[0];
        for pair in nums[1..].chunks(2) {
            let u = pair[0] as usize - 1;
            if part[u] != part[v] {
                cut += pair[1];
            }
        }
    }
    (cut / 2, weight.into_iter().max().unwrap())
}

#[test]
fn place_graph_proves_the_optimum_and_writes_a_metis_partition() {
    corera_testdata::shared_or_skip!("graphs/tasks");
    for (name, optimum) in [("30x2_s1", 535), ("30x2_s2", 381)] {
        let dir = tempfile::tempdir().unwrap();
        let part = dir.path().join("p.part");
        let graph = repo(shared(&format!("graphs/tasks/{name}.graph")));
        corera()
            .args(["place", "--cores", "2", "--eps", "0.05", "--graph"])
            .arg(&graph)
            .arg("--partition")
            .arg(&part)
            .assert()
            .success()
            .stdout(predicate::str::contains(format!("cut {optimum} (")))
            .stdout(predicate::str::contains("proven optimal"));
        let text = std::fs::read_to_string(&graph).unwrap();
        let (cut, max) = cut_of(&text, &std::fs::read_to_string(&part).unwrap());
        assert_eq!(cut, optimum, "{name}");
        let total: u64 =
            text.lines().skip(1).map(|l| l.split_whitespace().next().unwrap().parse::<u64>().unwrap()).sum();
        // Walshaw's balance rule with eps = 5 %.
        assert!(max <= (1.05 * total.div_ceil(2) as f64).floor() as u64, "{name}: block {max} of {total}");
    }
    corera()
        .args(["place", "--graph", "no/such.graph"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("could not read graph `no/such.graph`"));
}

#[test]
fn the_seed_is_recorded_and_reproduces_the_placement() {
    corera_testdata::shared_or_skip!("traces/btf");
    let run = |seed: &str| {
        let out = corera()
            .args([
                "place",
                "--replay-budget",
                "20",
                shared("traces/btf/freertos_v11_rv64sim_2cores.btf"),
                "--cores",
                "4",
                "--node-budget",
                "20000",
                "--seed",
                seed,
                "--json",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["search"]["seed"].as_u64().unwrap(), seed.parse::<u64>().unwrap());
        v["placement"].clone()
    };
    assert_eq!(run("5"), run("5"));
}

#[test]
fn platforms_from_shorthands_and_files() {
    // rp2: the printer's chain tasks should stay inside a cluster; the
    // summary reports topology-weighted traffic.
    corera()
        .args([
            "place",
            "--objective",
            "traffic",
            "samples/printer/printer.log",
            "--platform",
            "rp2",
            "--node-budget",
            "100000",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("placement on rp2 (8 cores): topology-weighted traffic"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("board.toml");
    std::fs::write(&file, "name = \"board\"\nmesh = { rows = 2, cols = 2 }\nbalance = 0.2\n").unwrap();
    corera()
        .args([
            "place",
            "--objective",
            "traffic",
            "samples/printer/printer.log",
            "--node-budget",
            "100000",
            "--platform",
        ])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("placement on board (4 cores)"));
    corera()
        .args(["place", "--objective", "traffic", "samples/printer/printer.log", "--platform", "torus:4"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("error: --platform torus:4: unknown platform `torus:4`; expected"));
    std::fs::write(&file, "cores = 2\nspeeds = [1, 2]\n").unwrap();
    corera()
        .args(["place", "--objective", "traffic", "samples/printer/printer.log", "--platform"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid platform file: TOML parse error at line 2, column 1"))
        .stderr(predicate::str::contains("unknown field `speeds`"));
    // A core twice as fast takes about two thirds of the load.
    std::fs::write(&file, "name = \"big.LITTLE\"\ncores = 2\nspeed = [1.0, 2.0]\n").unwrap();
    let out =
        corera().args(["place", "--objective", "traffic", SAMPLE, "--json", "--platform"]).arg(&file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let load: Vec<f64> = v["cost"]["core_load_ns"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    let share = load[1] / (load[0] + load[1]);
    assert!((0.55..0.75).contains(&share), "fast core share {share}: {load:?}");
    assert_eq!(v["platform"]["speed"], serde_json::json!([1.0, 2.0]));
}

#[test]
fn every_method_runs_and_enumeration_certifies_the_portfolio() {
    // A 16-vertex weighted ring with chords, written here.
    let n = 16u32;
    let mut lines = Vec::new();
    let mut edges = 0;
    for v in 0..n {
        let mut line = format!("{}", 5 + (v * 7) % 11);
        for u in [(v + 1) % n, (v + n - 1) % n, (v + 5) % n, (v + n - 5) % n] {
            let w = 1 + (v.min(u) * 3 + v.max(u)) % 9;
            line.push_str(&format!(" {} {w}", u + 1));
            edges += 1;
        }
        lines.push(line);
    }
    let dir = tempfile::tempdir().unwrap();
    let graph = dir.path().join("ring.graph");
    std::fs::write(&graph, format!("{n} {} 011\n{}\n", edges / 2, lines.join("\n"))).unwrap();
    let cut = |method: &str| -> u64 {
        let out = corera()
            .args(["place", "--cores", "2", "--json", "--method", method, "--graph"])
            .arg(&graph)
            .arg("--partition")
            .arg(dir.path().join(format!("{method}.part")))
            .output()
            .unwrap();
        assert!(out.status.success(), "{method}: {}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["cost"]["score"]["overload_ns"], 0, "{method}");
        v["search"]["cross_traffic"].as_u64().unwrap()
    };
    let optimum = cut("enumerate");
    assert_eq!(cut("auto"), optimum);
    assert_eq!(cut("exhaustive"), optimum);
    for heuristic in ["greedy", "multilevel", "anneal"] {
        assert!(cut(heuristic) >= optimum, "{heuristic}");
    }
    corera()
        .args(["place", "--cores", "3", "--method", "enumerate", "--graph"])
        .arg(&graph)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("gray-code enumeration needs 2 identical cores"));
}

#[test]
fn ilp_pareto_and_balance_weight() {
    // The ILP proves the printer optimum that the portfolio proves.
    let ilp = corera()
        .args(["place", "--objective", "traffic", SAMPLE, "--json", "--method", "ilp", "--time-limit", "60"])
        .output()
        .unwrap();
    assert!(ilp.status.success(), "{}", String::from_utf8_lossy(&ilp.stderr));
    let portfolio = corera().args(["place", "--objective", "traffic", SAMPLE, "--json"]).output().unwrap();
    let objective = |out: &[u8]| {
        let v: serde_json::Value = serde_json::from_slice(out).unwrap();
        let s = &v["search"];
        ((s["cross_traffic"].clone(), s["overload_ns"].clone()), s["proven_optimal"].as_bool().unwrap())
    };
    assert_eq!(objective(&ilp.stdout), objective(&portfolio.stdout));
    assert!(objective(&ilp.stdout).1);
    // The front: busiest core up, traffic down, ending with one core.
    let out = corera().args(["place", "--objective", "traffic", SAMPLE, "--pareto", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let front = v["front"].as_array().unwrap();
    assert!(front.len() >= 3, "{front:?}");
    for pair in front.windows(2) {
        assert!(pair[0]["max_core_utilisation"].as_f64() < pair[1]["max_core_utilisation"].as_f64());
        assert!(pair[0]["cross_traffic"].as_u64() > pair[1]["cross_traffic"].as_u64());
    }
    // Weight 0 takes the least traffic, a large weight the most balanced.
    for (weight, point) in [("0", front.last().unwrap()), ("1000", &front[0])] {
        let out = corera()
            .args(["place", "--objective", "traffic", SAMPLE, "--json", "--balance-weight", weight])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["search"]["cross_traffic"], point["cross_traffic"], "weight {weight}");
        assert!(v["search"]["notes"].to_string().contains("chosen by --balance-weight"));
    }
    corera()
        .args(["place", "--objective", "traffic", SAMPLE, "--time-limit", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("seconds"));
    corera()
        .args(["place", "--objective", "traffic", SAMPLE, "--balance", "0.1", "--balance-weight", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}

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
    let rows = ["single core", "global SMP", "AMP, traffic-optimal", "AMP, best strict", "masks, recommended"];
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
    // `place` recommends the best strict placement (masks not searched).
    assert_eq!(policies[3]["ready_ns"], from_file["ready_ns"]);
    // The recommendation replays no worse than global SMP, as analyze says.
    assert!(policies[4]["ready_ns"].as_u64() <= policies[1]["ready_ns"].as_u64());
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
    let graph = dir.path().join("graph.json");
    corera().args(["graph", "-q", "-o"]).arg(&graph).arg(&btf).assert().success();
    let g: serde_json::Value = serde_json::from_slice(&std::fs::read(&graph).unwrap()).unwrap();
    let running: std::collections::HashMap<&str, u64> = g["graph"]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["name"].as_str().unwrap(), t["running_ns"].as_u64().unwrap()))
        .collect();
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
        "timeline-amp-best-strict.json",
        "timeline-masks-recommended.json",
        "recommended.btf",
        "graph.dot",
    ];
    for file in files {
        assert!(dir.path().join(file).metadata().unwrap().len() > 1000, "{file}");
    }
    let dot = std::fs::read_to_string(dir.path().join("graph.dot")).unwrap();
    assert!(dot.contains("\\ncore 1") && dot.contains("fillcolor=\"#ffffb3\""), "{dot}");
}

#[test]
fn color_follows_the_flag_and_no_color_and_verbose_times_each_stage() {
    // Not a terminal here: auto means no colour; always forces it, also for
    // clap's own messages; NO_COLOR is honoured by auto.
    let plain = corera().args(["place", "no-such.log"]).output().unwrap();
    assert!(String::from_utf8_lossy(&plain.stderr).starts_with("error: could not open trace"));
    let forced = corera().args(["place", "no-such.log", "--color", "always"]).output().unwrap();
    assert!(String::from_utf8_lossy(&forced.stderr).starts_with("\x1b[1;31merror:\x1b[0m could not open trace"));
    let clap_forced = corera().args(["place", "--frobnicate", "--color=always"]).output().unwrap();
    assert_eq!(clap_forced.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&clap_forced.stderr).contains("\x1b["));
    let never = corera().env("NO_COLOR", "1").args(["place", "no-such.log", "--color", "auto"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&never.stderr).contains('\x1b'));
    // -v names every stage with its time; -q and -v together are a usage error.
    let dir = tempfile::tempdir().unwrap();
    let out = corera().args(["analyze", SAMPLE, "-v", "-o"]).arg(dir.path()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    for stage in ["reading trace", "building task graph", "searching placements", "replaying the trace"] {
        assert!(stderr.lines().any(|l| l.starts_with(&format!("corera: {stage}")) && l.ends_with(" s")), "{stderr}");
    }
    corera().args(["-q", "-v", "place", SAMPLE]).assert().code(2);
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
    // A strict placement is not a mask placement; bad sweeps are usage errors.
    let strict = dir.path().join("strict.json");
    let out = corera().args(["place", SAMPLE, "--objective", "traffic", "--json", "-q"]).output().unwrap();
    std::fs::write(&strict, out.stdout).unwrap();
    corera()
        .args(["simulate", SAMPLE, "--policy", "masks", "--placement"])
        .arg(&strict)
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
fn objectives_and_deadlines_come_from_flags_or_the_constraints_file() {
    let dir = tempfile::tempdir().unwrap();
    // The traffic objective: no replay in the search, one AMP row.
    let out = corera().args(["analyze", SAMPLE, "--objective", "traffic", "-o"]).arg(dir.path()).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("placement on 2 identical cores: cross-core traffic 4516"), "{text}");
    assert!(text.contains("AMP (placement)") && !text.contains("recommended on"), "{text}");
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("analysis.json")).unwrap()).unwrap();
    assert_eq!(v["objective"], "traffic");
    assert!(v.get("recommendation").is_none() && v.get("timing").is_none());
    // The constraints file names the objective and deadlines; the command
    // line's objective wins.
    let constraints = dir.path().join("c.toml");
    std::fs::write(&constraints, "objective = \"deadlines\"\n[[deadline]]\ntask = \"LcdDriver\"\nms = 2\n").unwrap();
    let place = |extra: &[&str]| {
        let out = corera()
            .args(["place", SAMPLE, "--replay-budget", "60", "--json", "-q", "--constraints"])
            .arg(&constraints)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let deadlines = place(&[]);
    assert_eq!(deadlines["objective"], "deadlines");
    let text = deadlines["recommendation"]["value"]["text"].as_str().unwrap();
    assert!(text.ends_with(" late") && text.contains("deadline misses"), "{text}");
    assert_eq!(place(&["--objective", "response"])["objective"], "response");
    // A tighter deadline on the command line misses more on one core.
    let misses = |v: &serde_json::Value| v["recommendation"]["improvement_pct"].clone();
    assert_ne!(misses(&deadlines), misses(&place(&["--deadline", "LcdDriver=0.5"])));
    for (flag, want) in [
        ("Nobody=2", "--deadline Nobody=2: there is no task `Nobody` in the trace"),
        ("LcdDriver=-1", "expected NAME=MS with a positive number of milliseconds"),
    ] {
        corera().args(["place", SAMPLE, "--deadline", flag]).assert().code(2).stderr(predicate::str::contains(want));
    }
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

#[test]
fn as_recorded_replays_the_recorded_placement_against_the_recording() {
    corera_testdata::shared_or_skip!("traces/btf");
    let out = corera()
        .args(["simulate", shared("traces/btf/freertos_v11_rv64sim_2cores.btf"), "--as-recorded", "--json", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
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

#[test]
fn priorities_are_inferred_reported_and_overridden() {
    corera_testdata::shared_or_skip!("traces/btf");
    let trace = shared("traces/btf/app4mc_example1_task_only_short.btf");
    corera()
        .args(["graph", trace, "-q"])
        .assert()
        .success()
        .stdout(predicate::str::contains("priorities: inferred for 4 from 4 ordered pairs"));
    let out = corera().args(["graph", trace, "-q", "--json", "--priority", "Task_D=9"]).output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = json["graph"]["tasks"].as_array().unwrap().iter().find(|t| t["name"] == "Task_D").unwrap().clone();
    assert_eq!((d["priority"].clone(), d["priority_source"].clone()), (9.into(), "override".into()));
    // The constraints file, for analyze; the flag is added after it.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.toml");
    std::fs::write(&file, "[[priority]]\ntask = \"Task_B\"\npriority = 7\n").unwrap();
    corera()
        .args(["analyze", trace, "-q", "--replay-budget", "20", "--priority", "Task_A=8", "--constraints"])
        .arg(&file)
        .arg("-o")
        .arg(dir.path().join("out"))
        .assert()
        .success()
        .stdout(predicate::str::contains("set by --priority for 2"));
    // The printer trace gives every priority: nothing is said.
    corera().args(["graph", SAMPLE, "-q"]).assert().success().stdout(predicate::str::contains("priorities:").not());
    corera()
        .args(["graph", trace, "--priority", "Nope=1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no task `Nope` in the trace"));
    corera()
        .args(["graph", trace, "--priority", "Task_A"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("expected NAME=N"));
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

/// Regression: a replay budget smaller than the search's starting points
/// (`--replay-budget 1`) panicked ("the traffic optimum is always a
/// start"); the search now starts from the first of them, one replay over
/// the budget.
#[test]
fn a_budget_smaller_than_the_starting_points_still_recommends() {
    for budget in ["1", "2", "3"] {
        corera()
            .args(["place", SAMPLE, "-q", "--cores", "2", "--replay-budget", budget, "--json"])
            .assert()
            .success()
            .stdout(predicate::str::contains("\"recommendation\""));
    }
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

/// `analyze` replays the recording as recorded first and says how well it
/// reproduces it, in the summary, `analysis.json` and the report, by the
/// figures `simulate --as-recorded` prints per task.
#[test]
fn analyze_states_the_replays_fidelity_to_the_recording() {
    let dir = tempfile::tempdir().unwrap();
    let out = corera().args(["analyze", SAMPLE, "--replay-budget", "20", "-q", "-o"]).arg(dir.path()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = String::from_utf8(out.stdout).unwrap();
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("analysis.json")).unwrap()).unwrap();
    let f = &json["replay"]["fidelity"];
    let rows = corera().args(["simulate", SAMPLE, "--as-recorded", "--json", "-q"]).output().unwrap();
    let rows: serde_json::Value = serde_json::from_slice(&rows.stdout).unwrap();
    assert_eq!(f["rows"], rows["tasks"], "one as-recorded replay, whichever command runs it");
    let within = rows["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| {
            let (rec, rep) = (t["recorded_response_mean_ns"].as_f64(), t["replayed_response_mean_ns"].as_f64());
            rec.zip(rep).is_some_and(|(a, b)| (b - a).abs() <= 0.1 * a)
        })
        .count();
    assert_eq!(f["response_within"], within);
    let line = format!("{} of {} tasks within 10 % on mean response", within, f["with_response"]);
    assert!(
        summary.contains(&format!("replay fidelity: the recording replayed as recorded (amp): {line}")),
        "{summary}"
    );
    assert!(!summary.contains("caution:"), "the printer sample is reproduced: {summary}");
    let report = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    assert!(report.contains("<section id=\"fidelity\">") && report.contains(&line));
}

/// A recording the replay cannot reproduce (priorities given that the
/// recording contradicts: the less urgent task kept running while the more
/// urgent one waited READY): the recommendation says it rests on such a
/// replay and what to supply.
#[test]
fn a_recommendation_on_a_replay_that_does_not_reproduce_says_so() {
    let mut log =
        String::from("corera-log 1 clock=us\ntask 1 task 2 Urgent\ntask 2 task 1 Lazy\ntask 3 task 3 Other\n");
    for k in 0..20u64 {
        let t = k * 1000;
        log += &format!(
            "{} 0 rdy 2\n{} 0 in 2\n{} 0 rdy 1\n{} 0 out 2 done\n{} 0 in 1\n{} 0 out 1 done\n",
            t,
            t,
            t + 10,
            t + 400,
            t + 400,
            t + 500
        );
        log += &format!("{} 0 rdy 3\n{} 0 in 3\n{} 0 out 3 done\n", t + 600, t + 600, t + 700);
    }
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("contradicts.log");
    std::fs::write(&trace, log).unwrap();
    let out = corera()
        .arg("analyze")
        .arg(&trace)
        .args(["--replay-budget", "20", "-q", "-o"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = String::from_utf8(out.stdout).unwrap();
    assert!(summary.contains("caution: this rests on a replay that does not reproduce the recording"), "{summary}");
    assert!(summary.contains("--priority TASK=N"), "{summary}");
    assert!(summary.contains("furthest: Urgent"), "{summary}");
}

/// A recording whose every wake onto an idle core takes 7 µs (an untraced
/// dispatch path): `simulate --as-recorded` measures it, says so and
/// charges it, and reproduces the recorded responses.
#[test]
fn as_recorded_charges_the_recorded_dispatch_delay() {
    let mut text = String::from("corera-log 1 clock=us os=freertos\ntask 1 task 1 T\ntask 9 idle 0 IDLE\n0 0 in 9\n");
    for k in 1..=5u64 {
        let t = 1000 * k;
        text += &format!(
            "{t} 0 rdy 1\n{} 0 out 9 preempt\n{} 0 in 1\n{} 0 out 1 done\n{} 0 in 9\n",
            t + 7,
            t + 7,
            t + 37,
            t + 37
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("dispatch.log");
    std::fs::write(&trace, text).unwrap();
    corera()
        .arg("simulate")
        .arg(&trace)
        .args(["--as-recorded", "-q"])
        .assert()
        .success()
        .stdout(predicate::str::contains("dispatch on the same core: 7.0 µs (median of 5 wakes onto an idle core"))
        .stdout(predicate::str::contains("charged to each local release"))
        .stdout(predicate::str::contains(
            "mean response within 10 % for 1 of 1 tasks with job ends; largest error 0.0 %",
        ));
}

/// `corera diff` on two analyses of the printer sample, on 2 and 3 cores:
/// the recommendation and the figures that moved beyond the threshold
/// first; an analysis against itself changes nothing; a file that is no
/// analysis is an error naming it.
#[test]
fn diff_shows_what_changed_between_two_analyses() {
    let dir = tempfile::tempdir().unwrap();
    for cores in ["2", "3"] {
        let out = dir.path().join(cores);
        corera()
            .args(["analyze", SAMPLE, "--cores", cores, "--replay-budget", "20", "-q", "-o"])
            .arg(&out)
            .assert()
            .success();
    }
    let a = dir.path().join("2/analysis.json");
    let b = dir.path().join("3/analysis.json");
    let out = corera().arg("diff").arg(&a).arg(&b).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("on 2 identical cores") && text.contains("on 3 identical cores"), "{text}");
    assert!(text.contains("recommendation: changed"), "{text}");
    let json = corera().arg("diff").arg(&a).arg(&b).args(["--json", "--threshold", "10"]).output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let rows = json["rows"].as_array().unwrap();
    let beyond: Vec<bool> = rows.iter().map(|r| r["beyond"].as_bool().unwrap()).collect();
    let first_within = beyond.iter().position(|b| !b).unwrap_or(beyond.len());
    assert!(first_within > 0 && beyond[first_within..].iter().all(|b| !b), "beyond first: {beyond:?}");
    for r in &rows[..first_within] {
        let (x, y) = (r["a"].as_f64(), r["b"].as_f64());
        if let (Some(x), Some(y), Some(c)) = (x, y, r["change_pct"].as_f64()) {
            assert!(c.abs() > 10.0 && ((y - x) / x.abs() * 100.0 - c).abs() < 1e-6, "{r}");
        }
    }
    // The recorded load is the trace's: the same in both.
    assert!(rows.iter().filter(|r| r["figure"] == "load %").all(|r| r["a"] == r["b"]));
    corera()
        .arg("diff")
        .arg(&a)
        .arg(&a)
        .assert()
        .success()
        .stdout(predicate::str::contains("recommendation: unchanged"))
        .stdout(predicate::str::contains("0 of"));
    corera()
        .arg("diff")
        .arg(&a)
        .arg(repo(SAMPLE))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("printer.log` is not an analysis written by `corera analyze`"));
}

/// The test cases of a JUnit file: (name, failure message if it failed).
fn junit_cases(text: &str) -> Vec<(String, Option<String>)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(text);
    let mut cases: Vec<(String, Option<String>)> = Vec::new();
    let attr = |e: &quick_xml::events::BytesStart, key: &str| -> String {
        e.try_get_attribute(key)
            .unwrap()
            .map(|a| a.normalized_value(quick_xml::XmlVersion::Implicit1_0).unwrap().into_owned())
            .unwrap_or_default()
    };
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) | Event::Empty(e) if e.name().0 == "testcase" => cases.push((attr(&e, "name"), None)),
            Event::Start(e) | Event::Empty(e) if e.name().0 == "failure" => {
                cases.last_mut().expect("a failure inside a test case").1 = Some(attr(&e, "message"));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    cases
}

/// `corera check` on the printer sample under its analysed placement: a
/// chain deadline that holds exits 0; one that fails exits 4, naming the
/// chain, its worst instance and by how much; the JUnit XML lists every
/// requirement as a test case and the failure in the one that fails.
#[test]
fn check_judges_a_recording_under_the_firmwares_placement() {
    let dir = tempfile::tempdir().unwrap();
    corera()
        .args(["analyze", SAMPLE, "--cores", "2", "--replay-budget", "20", "-q", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let placement = dir.path().join("analysis.json");
    let run = |chain: &str, junit: &std::path::Path| {
        corera()
            .args(["check", SAMPLE, "--cores", "2", "--placement"])
            .arg(&placement)
            .args(["--chain", chain, "--max-response", "Rasterizer=50", "--junit"])
            .arg(junit)
            .output()
            .unwrap()
    };
    let holds = run("page=NetRxIsr>NetStack>JobParser@20", &dir.path().join("holds.xml"));
    assert_eq!(holds.status.code(), Some(0), "{}", String::from_utf8_lossy(&holds.stderr));
    let text = String::from_utf8(holds.stdout).unwrap();
    assert!(text.contains("holds  chain page within 20.000 ms: worst instance"), "{text}");
    assert!(text.contains("all 5 requirements hold"), "{text}");
    let fails = run("page=NetRxIsr>NetStack>JobParser@0.5", &dir.path().join("fails.xml"));
    assert_eq!(fails.status.code(), Some(4), "{}", String::from_utf8_lossy(&fails.stderr));
    let text = String::from_utf8(fails.stdout).unwrap();
    let line = text.lines().find(|l| l.starts_with("FAILS  chain page within 0.500 ms")).expect(&text);
    assert!(line.contains("worst instance") && line.contains("released at") && line.contains("ms over"), "{line}");
    assert!(String::from_utf8_lossy(&fails.stderr).contains("1 of 5 requirements fail"));
    let cases = junit_cases(&std::fs::read_to_string(dir.path().join("fails.xml")).unwrap());
    assert_eq!(cases.len(), 5, "{cases:?}");
    let names: Vec<&str> = cases.iter().map(|c| c.0.as_str()).collect();
    assert!(names.contains(&"core 0 busy at most 100.0 %") && names.contains(&"Rasterizer responds within 50.000 ms"));
    let failed: Vec<&(String, Option<String>)> = cases.iter().filter(|c| c.1.is_some()).collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].0, "chain page within 0.500 ms");
    assert!(failed[0].1.as_ref().unwrap().contains("ms over"));
    // The constraints file's requirements count as the flags' do.
    let req = dir.path().join("req.toml");
    std::fs::write(&req, "[[max_response]]\ntask = \"MotorPaper\"\nms = 0.05\n").unwrap();
    corera()
        .args(["check", SAMPLE, "--cores", "2", "--placement"])
        .arg(&placement)
        .arg("--constraints")
        .arg(&req)
        .assert()
        .code(4)
        .stdout(predicate::str::contains("FAILS  MotorPaper responds within 0.050 ms: longest response"));
    // A limit on a task the recording does not have is a usage error.
    corera()
        .args(["check", SAMPLE, "--cores", "2", "--placement"])
        .arg(&placement)
        .args(["--max-ready", "Nope=1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no task `Nope`"));
}

/// A model's own deadlines (its `ProcessRequirement`s) are requirements of
/// `check` as the constraints file's are: one verdict per task.
#[test]
fn check_judges_a_models_own_deadlines() {
    let model = corera_testdata::shared_or_skip!("amalthea/modeling_example_periodic_9.amxmi");
    let dir = tempfile::tempdir().unwrap();
    let placement = dir.path().join("place.json");
    let out = corera().args(["place", "-q", "--json"]).arg(&model).output().unwrap();
    assert!(out.status.success());
    std::fs::write(&placement, &out.stdout).unwrap();
    let out = corera().args(["check", "-q", "--json"]).arg(&model).arg("--placement").arg(&placement).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = v.to_string();
    for task in ["Task_1", "Task_4", "Task_7"] {
        assert!(text.contains(&format!("{task} within its deadline")), "no deadline verdict for {task}: {text}");
    }
}
