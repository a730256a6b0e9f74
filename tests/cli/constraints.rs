//! Constraints and objectives from flags and files: pins, forbidden cores, groups, conflicts, deadlines, priorities.

use predicates::prelude::*;

use super::SAMPLE;
use crate::{corera, shared};

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
