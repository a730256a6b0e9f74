//! `calibrate`: costs fitted to a pair of recordings of one firmware, the
//! platform file it writes, and its verdict.

use predicates::prelude::*;

use super::SAMPLE;
use crate::{corera, shared};

/// On the shared pair (one FreeRTOS workload on one core and on two): the
/// fit comes closer than the default costs, says it is poor (exit 4, the
/// furthest kinds named), which kinds the replay cut into other jobs, that
/// its replay left core 1 idle, and that both recordings' releases were
/// read from the switches, and writes
/// a platform file that `simulate` reads and replays to the fitted
/// figures.
#[test]
fn calibrate_fits_a_pair_and_its_platform_file_replays_the_fit() {
    corera_testdata::shared_or_skip!("traces/predict");
    let (single, multi) =
        (shared("traces/predict/freertos_test_1core.btf"), shared("traces/predict/freertos_test_2core_free.btf"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fitted.toml");
    let out = corera().args(["calibrate", single, multi, "--json", "-q", "-o"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let within = |c: &serde_json::Value| {
        c["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|k| match (k["predicted_ns"].as_f64(), k["recorded_ns"].as_f64()) {
                (Some(p), Some(r)) => (p / r - 1.0).abs() <= 0.1,
                _ => false,
            })
            .count()
    };
    // 19 kinds: 52 test tasks, Runner and Tmr_Svc, compared by name.
    assert_eq!(json["before"]["kinds"].as_array().unwrap().len(), 19);
    assert!(within(&json["after"]) > within(&json["before"]), "{}", json["after"]);
    assert_eq!(json["good"], false);
    assert_eq!(json["platform"]["cores"], 2);
    // The FreeRTOS logger's stock hooks write no ready events: both
    // recordings' releases are read from the switches, and it says so.
    let stock = serde_json::json!(["freertos_test_1core.btf", "freertos_test_2core_free.btf"]);
    assert_eq!(json["releases_from_switches"], stock);
    // The file replays what the fit measured.
    let replayed = corera()
        .args(["simulate", single, "--policy", "smp", "--json", "-q", "--platform"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(replayed.status.success(), "{}", String::from_utf8_lossy(&replayed.stderr));
    let o: serde_json::Value = serde_json::from_slice(&replayed.stdout).unwrap();
    let runner = o["outcome"]["tasks"].as_array().unwrap().iter().find(|t| t["name"] == "Runner").unwrap();
    let fitted = json["after"]["kinds"].as_array().unwrap().iter().find(|k| k["kind"] == "Runner").unwrap();
    // Runner blocks between its jobs: the replay's jobs are the spans the
    // fit compares (the record's mean is rounded to the ns).
    let (mean, predicted) = (runner["response_mean_ns"].as_f64().unwrap(), fitted["predicted_ns"].as_f64().unwrap());
    assert!((mean - predicted).abs() < 1.0, "{mean} against {predicted}");
    assert_eq!(o["outcome"]["makespan_ns"], json["after"]["predicted_makespan_ns"]);
    // Each kind's jobs, recorded and replayed: the producers block 27
    // times on two cores (a consumer drains their queue on the other), 51
    // times in the replay of the one-core run, as they did there.
    let qp = json["after"]["kinds"].as_array().unwrap().iter().find(|k| k["kind"] == "QP").unwrap();
    assert_eq!((qp["recorded_jobs"].as_u64(), qp["predicted_jobs"].as_u64()), (Some(27), Some(51)), "{qp}");
    // Read from the switches, no task of the one-core run could run beside
    // another: core 1 ran nothing, before the fit and after.
    assert_eq!(json["before"]["idle_cores"], serde_json::json!([1]));
    assert_eq!(json["after"]["idle_cores"], serde_json::json!([1]));
    // The text says so, and why.
    corera()
        .args(["calibrate", single, multi, "-q"])
        .assert()
        .code(4)
        .stdout(
            predicate::str::contains("kinds within 10 % on mean response")
                .and(predicate::str::contains("the fit is poor"))
                .and(predicate::str::contains("jobs cut otherwise (recorded → replayed): "))
                .and(predicate::str::contains("QP 27 → 51, summed response"))
                .and(predicate::str::contains("in the fitted replay core 1 ran nothing"))
                .and(predicate::str::contains("releases of freertos_test_1core.btf and freertos_test_2core_free.btf")),
        )
        .stderr(predicate::str::contains("not evidence"));
}

/// The recordings in the wrong order, or two single-core ones, are usage
/// errors that say which is which.
#[test]
fn calibrate_wants_a_single_core_recording_then_a_multi_core_one() {
    corera().args(["calibrate", SAMPLE, SAMPLE, "-q"]).assert().code(2).stderr(predicate::str::contains(
        "recorded on one core; calibrate fits a replay to a recording of several cores",
    ));
    corera_testdata::shared_or_skip!("traces/predict");
    let (single, multi) =
        (shared("traces/predict/freertos_test_1core.btf"), shared("traces/predict/freertos_test_2core_free.btf"));
    corera().args(["calibrate", multi, multi, "-q"]).assert().code(2).stderr(predicate::str::contains(
        "recorded on 2 cores; calibrate replays a single-core recording (give it first)",
    ));
    corera()
        .args(["calibrate", single, multi, "-q", "--platform", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the platform has 3 cores"));
}
