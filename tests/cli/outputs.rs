//! `ingest`, `graph`, `emit` and `gen`: what each writes and prints.

use predicates::prelude::*;

use super::SAMPLE;
use crate::{corera, repo};

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
