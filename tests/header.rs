//! The generated header compiles warning-free as C99 and its table agrees
//! with the JSON placement.

use std::process::Command;

use crate::corera;

#[test]
fn header_compiles_and_matches_the_json() {
    let dir = tempfile::tempdir().unwrap();
    corera().args(["analyze", "samples/printer/printer.log", "--cores", "3", "-o"]).arg(dir.path()).assert().success();
    let program = dir.path().join("check.c");
    std::fs::write(
        &program,
        r#"#define CORERA_AFFINITY_TABLE
#include "affinity.h"
#include <stdio.h>

static const unsigned core0[] = CORERA_CORE0_TASKS;

int main(void) {
    unsigned i, on0 = 0;
    for (i = 0; i < CORERA_NUM_TASKS; i++) {
        printf("%s=%u\n", corera_task_cores[i].name, corera_task_cores[i].core);
        if (corera_task_cores[i].core == 0) on0++;
    }
    if (on0 != CORERA_CORE0_NUM_TASKS || sizeof core0 / sizeof core0[0] != on0) return 1;
    for (i = 0; i < on0; i++) if (corera_task_cores[core0[i]].core != 0) return 2;
    return CORERA_CORE_RASTERIZER < CORERA_NUM_CORES ? 0 : 3;
}
"#,
    )
    .unwrap();
    let exe = dir.path().join("check");
    let cc = Command::new("gcc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-o"])
        .arg(&exe)
        .arg(&program)
        .current_dir(dir.path())
        .output()
        .expect("gcc is installed (.ci/run installs it)");
    assert!(cc.status.success(), "{}", String::from_utf8_lossy(&cc.stderr));
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success(), "exit {:?}", run.status.code());
    let mut from_c: Vec<String> = String::from_utf8(run.stdout).unwrap().lines().map(String::from).collect();
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("analysis.json")).unwrap()).unwrap();
    let mut from_json: Vec<String> = json["placement"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{}={}", p["task"].as_str().unwrap(), p["core"]))
        .collect();
    from_c.sort();
    from_json.sort();
    assert_eq!(from_c, from_json);
    assert_eq!(from_c.len(), 24);
}
