//! `diff` and `check`: what changed between analyses, and whether a recording still meets its requirements.

use predicates::prelude::*;

use super::SAMPLE;
use crate::{corera, repo};

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
