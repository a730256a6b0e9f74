//! Cause-effect chains from the outside: found in the printer trace without
//! a flag, named by the user, optimised for.

use predicates::prelude::*;
use serde_json::Value;

use crate::{corera, shared};

const SAMPLE: &str = "samples/printer/printer.log";

const PAGE: [&str; 10] = [
    "NetRxIsr",
    "NetStack",
    "JobParser",
    "PdlInterp",
    "Rasterizer",
    "ColorConv",
    "Halftone",
    "Compressor",
    "BandDma",
    "PrintEngine",
];

fn analysis(dir: &std::path::Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("analysis.json")).unwrap()).unwrap()
}

/// Each chain's p95 latency under the recommended set-up (the last run).
fn recommended_p95(a: &Value) -> Vec<u64> {
    let runs = a["replay"]["policies"].as_array().unwrap();
    let last = runs.last().unwrap();
    assert!(last["label"].as_str().unwrap().ends_with("recommended"), "{}", last["label"]);
    last["chains"].as_array().unwrap().iter().map(|c| c["latency_p95_ns"].as_u64().unwrap()).collect()
}

/// The README's command reports the page pipeline, found in the trace, per
/// set-up; `--objective chains` recommends a placement whose chain p95
/// latencies are no worse than the READY recommendation's, and better in
/// sum.
#[test]
fn the_page_pipeline_is_reported_and_optimised() {
    let ready = tempfile::tempdir().unwrap();
    corera()
        .args(["analyze", SAMPLE, "-o"])
        .arg(ready.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("  NetRxIsr..PrintEngine (triggered, found): {}\n", PAGE.join(" > "))))
        .stdout(predicate::str::contains("found in the trace's causes"));
    let a = analysis(ready.path());
    let chain = &a["replay"]["chains"][0];
    assert_eq!(chain["tasks"], serde_json::json!(PAGE));
    assert_eq!(chain["origin"], "discovered");
    let instances = chain["recorded"]["instances"].as_u64().unwrap();
    assert!(instances > 1000, "{instances}");
    for run in a["replay"]["policies"].as_array().unwrap() {
        assert_eq!(run["chains"][0]["instances"].as_u64(), Some(instances), "{}", run["label"]);
    }
    let report = std::fs::read_to_string(ready.path().join("report.html")).unwrap();
    assert!(report.contains("<section id=\"chains\">") && report.contains("NetRxIsr..PrintEngine"));

    let chains = tempfile::tempdir().unwrap();
    corera()
        .args(["analyze", SAMPLE, "-q", "--objective", "chains", "-o"])
        .arg(chains.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("(objective chains)"));
    let (by_ready, by_chains) = (recommended_p95(&a), recommended_p95(&analysis(chains.path())));
    assert!(by_chains[0] <= by_ready[0], "page p95: {by_chains:?} vs {by_ready:?}");
    assert!(by_chains.iter().sum::<u64>() < by_ready.iter().sum::<u64>(), "{by_chains:?} vs {by_ready:?}");
}

/// A chain the user names, with a deadline, replaces the discovered ones;
/// its misses count the instances over the deadline; a task that is not in
/// the trace is refused with its name; `corera graph` lists candidates.
#[test]
fn user_chains_have_deadlines_and_are_checked() {
    let out = corera()
        .args(["simulate", SAMPLE, "--policy", "single", "--chain", "band=Rasterizer>ColorConv>Halftone@0.5"])
        .assert()
        .success()
        .stdout(predicate::str::contains("band (triggered): Rasterizer > ColorConv > Halftone, deadline 0.500 ms"))
        .stdout(predicate::str::contains("NetRxIsr..PrintEngine").not())
        .get_output()
        .stdout
        .clone();
    let json = corera()
        .args(["simulate", SAMPLE, "--policy", "single", "--json", "--chain", "band=Rasterizer>ColorConv>Halftone@0.5"])
        .output()
        .unwrap();
    let o: Value = serde_json::from_slice(&json.stdout).unwrap();
    let band = &o["outcome"]["chains"][0];
    let (misses, max) = (band["deadline_misses"].as_u64().unwrap(), band["latency_max_ns"].as_u64().unwrap());
    assert!(misses > 0 && max > 500_000, "{band}");
    assert!(String::from_utf8(out).unwrap().contains(&format!(" {misses}\n")));

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.toml");
    std::fs::write(&file, "[[chain]]\nname = \"x\"\ntasks = [\"NetStack\", \"Nope\"]\n").unwrap();
    corera()
        .args(["simulate", SAMPLE, "--constraints"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("chain `x`: there is no task `Nope` in the trace"));
    // A named chain the trace never travels is reported with its cut.
    corera()
        .args(["simulate", SAMPLE, "--policy", "single", "--chain", "idle=Watchdog>Logger"])
        .assert()
        .success()
        .stderr(predicate::str::contains("chain `idle`: no job of `Watchdog` releases a job of `Logger` in the trace"));
    corera()
        .args(["simulate", SAMPLE, "--chain", "x=A>>B"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("expected [KIND:]NAME=A>B>C[@MS]"));
    corera()
        .args(["place", "samples/tile64-daq/daq.log", "--objective", "chains", "-q"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has no cause-effect chain to optimise"));
    corera()
        .args(["graph", SAMPLE])
        .assert()
        .success()
        .stdout(predicate::str::contains("NetRxIsr..PrintEngine").and(predicate::str::contains("Keypad..LcdDriver")));
}

/// TORO's example model (`../shared/data/amalthea/toro_example.amxmi`, IDA-TUBS/TORO's `example.amxmi`): its four
/// event chains are measured as data chains in every replay, against the
/// figures TORO (IDA-TUBS/TORO @ 54bcf10a, `ChainAnalysis` of
/// `chain_analysis/analysis_LET_BET.py` on its networkx path, with a stand-in
/// for pyCPA's `Task`) computes for them. TORO needs each BET task's WCRT
/// and BCRT: they were given as corera's replay of the model's own mapping
/// has them (WCRT: the largest response; BCRT: the execution time, as TORO
/// requires), in µs: T1 1000/6000, T2 5000/5000, T5 2000/6000, T6
/// 4000/4000, T10 2000/3000, T11 1000/1000; LET tasks with their
/// response-time requirements as LETs (T7 4, T8 5, T9 8, T12 8, T13 3 ms).
/// TORO's maximum data ages: chain1 25 ms, chain2 15 ms, chain3 18 ms,
/// chain4 28 ms. The LET chain's latency is fixed by periods and LETs, so
/// corera must find exactly 18 ms, in every set-up; for the others,
/// corera's observed maximum under the model's mapping must not exceed
/// TORO's bound.
#[test]
fn toro_example_chains_against_toro() {
    corera_testdata::shared_or_skip!("amalthea");
    let dir = tempfile::tempdir().unwrap();
    corera()
        .args(["analyze", shared("amalthea/toro_example.amxmi"), "-q", "--replay-budget", "20", "-o"])
        .arg(dir.path())
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "chain3_let (age, from the model): LET_T7 > LET_T8 > LET_T9, deadline 25.000 ms",
        ));
    let a = analysis(dir.path());
    let chains = a["replay"]["chains"].as_array().unwrap();
    let names: Vec<&str> = chains.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["chain1_bet", "chain2_bet", "chain3_let", "chain4_mixed"]);
    assert!(chains.iter().all(|c| c["origin"] == "model" && c["kind"] == "age"));
    let runs = a["replay"]["policies"].as_array().unwrap();
    let model =
        runs.iter().find(|r| r["label"] == "AMP, the model's mapping").expect("the model's mapping is replayed");
    // The response times TORO was given are still the replay's.
    let tasks: Vec<&str> = a["replay"]["tasks"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
    let wcrt = |name: &str| {
        let i = tasks.iter().position(|t| *t == name).unwrap();
        model["tasks"][i]["response_max_ns"].as_u64().unwrap() / 1000
    };
    let given =
        [("BET_T1", 6000), ("BET_T2", 5000), ("BET_T5", 6000), ("BET_T6", 4000), ("BET_T10", 3000), ("BET_T11", 1000)];
    for (task, us) in given {
        assert_eq!(wcrt(task), us, "{task}: TORO's figures below were computed with another WCRT; run TORO again");
    }
    let toro_ns = [25_000_000u64, 15_000_000, 18_000_000, 28_000_000];
    for (k, bound) in toro_ns.iter().enumerate() {
        let c = &model["chains"][k];
        let max = c["latency_max_ns"].as_u64().unwrap();
        assert!(c["instances"].as_u64().unwrap() >= 4, "{}", names[k]);
        assert!(max <= *bound, "{}: corera {max} ns above TORO's bound {bound} ns", names[k]);
    }
    for run in runs {
        let let_chain = &run["chains"][2];
        if let_chain["instances"].as_u64().unwrap() > 0 {
            assert_eq!(let_chain["latency_quartiles_ns"][0], 18_000_000, "{}", run["label"]);
            assert_eq!(let_chain["latency_max_ns"], 18_000_000, "{}", run["label"]);
        }
    }
}
