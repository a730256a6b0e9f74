//! `analyze` from the outside: outputs, stdin, determinism, bad input and its exit codes, fidelity, colour and verbosity.

use predicates::prelude::*;

use super::SAMPLE;
use crate::{corera, repo};

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
fn usage_errors_exit_2_and_help_has_examples() {
    corera().args(["analyze", "--cores", "0"]).assert().code(2);
    corera().args(["frobnicate"]).assert().code(2);
    for cmd in ["analyze", "ingest", "graph", "place", "emit", "simulate", "gen"] {
        corera().args([cmd, "--help"]).assert().success().stdout(predicate::str::contains("Example:\n  corera "));
    }
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
