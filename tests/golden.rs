//! Golden files: the printer sample's outputs, reviewed by eye once and
//! kept in `samples/printer/expected/`. Set `CORERA_BLESS=1` to rewrite
//! them after an intended change, then review the diff.

use crate::{corera, repo};

fn check(name: &str, actual: &str) {
    check_in("samples/printer/expected", name, actual);
}

fn check_in(dir: &str, name: &str, actual: &str) {
    let path = repo(dir).join(name);
    if std::env::var_os("CORERA_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "{dir}/{name} differs from the golden file at line {} (expected / actual):\n{:?}\n{:?}\n\
             rerun with CORERA_BLESS=1 if the change is intended",
            first + 1,
            expected.lines().nth(first),
            actual.lines().nth(first)
        );
    }
}

#[test]
fn printer_sample_outputs_match_the_golden_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = corera().args(["analyze", "samples/printer/printer.log", "-o"]).arg(dir.path()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = String::from_utf8(out.stdout).unwrap();
    // The last line names the temporary directory.
    let summary: String = summary.lines().filter(|l| !l.starts_with("wrote ")).map(|l| format!("{l}\n")).collect();
    check("summary.txt", &summary);
    check("affinity.h", &std::fs::read_to_string(dir.path().join("affinity.h")).unwrap());
    check("analysis.json", &std::fs::read_to_string(dir.path().join("analysis.json")).unwrap());
}

/// The RP-2 sample: 38 tasks of an automotive domain controller on two
/// clusters of four cores.
#[test]
fn rp2_cluster_sample_outputs_match_the_golden_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = corera()
        .args(["analyze", "samples/rp2-cluster/ecu.log", "--platform", "rp2", "-o"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = String::from_utf8(out.stdout).unwrap();
    let summary: String = summary.lines().filter(|l| !l.starts_with("wrote ")).map(|l| format!("{l}\n")).collect();
    check_in("samples/rp2-cluster/expected", "summary.txt", &summary);
    check_in(
        "samples/rp2-cluster/expected",
        "affinity.h",
        &std::fs::read_to_string(dir.path().join("affinity.h")).unwrap(),
    );
}
