//! The timeline opens where the set-ups differ: on a trace made so that
//! they differ in one known place, `analyze`'s report and `simulate
//! --timeline` open there; a window the user asks for is the one drawn.

use crate::corera;

/// Two tasks on one core, each 200 µs every millisecond, apart (A at the
/// millisecond, B half a millisecond later), except at 60 ms, where both
/// are released at once and B waits READY 200 µs behind A: the only
/// READY of the run, which a second core takes away.
fn made_log() -> String {
    let mut s = String::from("corera-log 1 clock=us\ntask 1 task 2 A\ntask 2 task 1 B\n");
    for k in 0..100u64 {
        let t = k * 1_000;
        s += &format!("{t} 0 rdy 1\n{t} 0 in 1\n");
        if k == 60 {
            s += &format!("{t} 0 rdy 2\n{} 0 out 1 done\n{} 0 in 2\n{} 0 out 2 done\n", t + 200, t + 200, t + 400);
        } else {
            s += &format!(
                "{} 0 out 1 done\n{} 0 rdy 2\n{} 0 in 2\n{} 0 out 2 done\n",
                t + 200,
                t + 500,
                t + 500,
                t + 700
            );
        }
    }
    s
}

fn window_of(timeline: &serde_json::Value) -> [u64; 2] {
    let w = timeline["window_ns"].as_array().expect("a window");
    [w[0].as_u64().unwrap(), w[1].as_u64().unwrap()]
}

#[test]
fn the_report_opens_where_the_set_ups_differ() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("made.log");
    std::fs::write(&log, made_log()).unwrap();
    let out = dir.path().join("out");
    corera().arg("analyze").arg(&log).args(["-q", "--cores", "2", "-o"]).arg(&out).assert().success();
    let a: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("analysis.json")).unwrap()).unwrap();
    let t = &a["replay"]["timeline"];
    let [from, to] = window_of(t);
    assert!(from <= 60_200_000 && to >= 60_400_000, "{from}..{to}: {}", t["why"]);
    assert!(to - from <= 20_000_000, "a window, not the run: {from}..{to}");
    // The recording above the five set-ups; the recording's READY at 60 ms.
    let rows = t["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1 + a["replay"]["policies"].as_array().unwrap().len());
    assert_eq!(rows[0]["label"], "as recorded");
    let ready: Vec<u64> = rows[0]["ready"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    assert_eq!(ready, [1, 60_000_000, 60_200_000, 0], "B waited 200 µs, in the first READY row");
    // The run is small: every segment is kept, none merged.
    let [d0, d1] = [t["detail_ns"][0].as_u64().unwrap(), t["detail_ns"][1].as_u64().unwrap()];
    assert_eq!((d0, d1), (0, t["end_ns"].as_u64().unwrap()));
    assert_eq!(rows[0]["lanes"][0].as_array().unwrap().len(), 3 * 200);
    // The page carries it.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("where READY differs most between"), "the report says why");
}

#[test]
fn simulate_writes_the_timeline_of_a_window() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("made.log");
    std::fs::write(&log, made_log()).unwrap();
    let page = dir.path().join("t.html");
    let embedded = |page: &std::path::Path| -> serde_json::Value {
        let html = std::fs::read_to_string(page).unwrap();
        let start = html.find("id=\"timeline-data\">").unwrap() + "id=\"timeline-data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        serde_json::from_str(&html[start..end].replace("<\\/", "</")).unwrap()
    };
    // Unasked, it opens where the replay on two cores and the recording differ.
    corera()
        .arg("simulate")
        .arg(&log)
        .args(["-q", "--policy", "smp", "--cores", "2", "--timeline"])
        .arg(&page)
        .assert()
        .success();
    let [from, to] = window_of(&embedded(&page)["timeline"]);
    assert!(from <= 60_000_000 && to >= 60_200_000, "{from}..{to}");
    // Asked, it opens on the window given, in ms.
    corera()
        .arg("simulate")
        .arg(&log)
        .args(["-q", "--policy", "smp", "--cores", "2", "--window", "10..12.5ms", "--timeline"])
        .arg(&page)
        .assert()
        .success();
    let t = embedded(&page);
    assert_eq!(window_of(&t["timeline"]), [10_000_000, 12_500_000]);
    assert_eq!(t["timeline"]["rows"][1]["label"], "SMP (global) on 2 core(s)");
    // A window that ends before it starts, or starts after the run.
    for (window, says) in [("12..10", "ends before it starts"), ("500..600", "the run ends at 99.70")] {
        corera()
            .arg("simulate")
            .arg(&log)
            .args(["-q", "--policy", "smp", "--cores", "2", "--window", window, "--timeline"])
            .arg(&page)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(says));
    }
}
