//! `place`: METIS graphs, seeds, platforms, every search method, the ILP and the Pareto front.

use predicates::prelude::*;

use super::SAMPLE;
use crate::{corera, repo, shared};

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
