//! ESP32 recordings made by Espressif on real boards (`../shared/data/recordings/esp-idf-sysview/`),
//! checked against ESP-IDF's own decoder (`sysviewtrace_proc.py`, its
//! output kept beside them): every layout (one file per core, the
//! `ESP_Extension` stream, SystemView 3.60's multi-core file) decodes to the
//! events the reference decodes, per kind, per core and per task, and to
//! the busy time each core's stream records.

use std::collections::BTreeMap;
use std::io::{BufRead, Read};

use crate::{EventKind, FormatChoice, Parsed, ReadOptions, TaskKind, read, read_per_core};

fn path(rel: &str) -> std::path::PathBuf {
    corera_testdata::shared_dir().join("recordings/esp-idf-sysview").join(rel)
}

fn bytes(rel: &str) -> Vec<u8> {
    std::fs::read(path(rel)).unwrap()
}

/// Reads one file, or several as one file per core.
fn parse(files: &[&str]) -> Parsed {
    if let [one] = files {
        return read(&mut &bytes(one)[..], FormatChoice::AUTO, &ReadOptions::new(one)).unwrap();
    }
    let inputs: Vec<(String, Box<dyn BufRead>)> =
        files.iter().map(|f| (f.to_string(), Box::new(std::io::Cursor::new(bytes(f))) as Box<dyn BufRead>)).collect();
    read_per_core(inputs, FormatChoice::AUTO, &ReadOptions::new(files[0])).unwrap()
}

/// One event of the reference decoder's output: time (ns), core, name,
/// the task id it names (`tid:`), if any.
struct Reference {
    time: u64,
    core: u16,
    name: String,
    tid: Option<u64>,
    task_name: Option<String>,
}

fn reference(rel: &str) -> Vec<Reference> {
    let mut text = String::new();
    std::fs::File::open(path(rel)).unwrap().read_to_string(&mut text).unwrap();
    text.lines()
        .filter(|l| l.starts_with("EVENT["))
        .map(|l| {
            let rest = l.split_once("]: ").unwrap().1;
            let (time, rest) = rest.split_once(" - core[").unwrap();
            let (core, rest) = rest.split_once("].").unwrap();
            let name = rest.split_once('(').unwrap().0.to_string();
            let param = |key: &str| rest.split_once(key).map(|(_, v)| v.split([',', ']']).next().unwrap().to_string());
            let seconds: f64 = time.parse().unwrap();
            Reference {
                time: (seconds * 1e9).round() as u64,
                core: core.parse().unwrap(),
                name,
                tid: param("tid: ").map(|t| t.parse().unwrap()),
                task_name: param("name: "),
            }
        })
        .collect()
}

/// Counts by (core, what).
type Counts = BTreeMap<(u16, String), usize>;

/// What the reference's events become in corera's model, per core: ISR
/// entries and exits (an exit with no entry, the recording starting inside
/// an ISR, is no ISR run), semaphore gives and takes (these programs'
/// queues are all semaphores and mutexes), notifications, and task
/// switches (a task, or the idle loop, starting to run where another ran).
fn expected(events: &[Reference]) -> (Counts, Counts) {
    let names: BTreeMap<u64, String> = events
        .iter()
        .filter(|e| e.name == "svTaskInfo")
        .map(|e| (e.tid.unwrap(), e.task_name.clone().unwrap()))
        .collect();
    let mut kinds = Counts::new();
    let mut switches = Counts::new();
    let mut running: BTreeMap<u16, String> = BTreeMap::new();
    let mut depth: BTreeMap<u16, usize> = BTreeMap::new();
    for e in events {
        let depth = depth.entry(e.core).or_default();
        let kind = match e.name.as_str() {
            "svIsrEnter" => {
                *depth += 1;
                Some("isr_enter")
            }
            "svIsrExit" | "svExitIsrToScheduler" if *depth > 0 => {
                *depth -= 1;
                Some("isr_exit")
            }
            "xQueueGenericSend" => Some("give"),
            "xQueueGenericReceive" => Some("take"),
            "xTaskGenericNotify" => Some("event_set"),
            _ => None,
        };
        if let Some(k) = kind {
            *kinds.entry((e.core, k.to_string())).or_default() += 1;
        }
        let now = match e.name.as_str() {
            "svTaskStartExec" => names[&e.tid.unwrap()].clone(),
            "svIdle" => "IDLE".to_string(),
            _ => continue,
        };
        if running.insert(e.core, now.clone()).as_ref() != Some(&now) {
            *switches.entry((e.core, now)).or_default() += 1;
        }
    }
    (kinds, switches)
}

fn decoded(p: &Parsed) -> (Counts, Counts) {
    let mut kinds = Counts::new();
    let mut switches = Counts::new();
    for e in &p.trace.events {
        let task = &p.trace.tasks[e.task as usize];
        match e.kind {
            EventKind::SwitchIn => {
                let name = if task.kind == TaskKind::Idle { "IDLE".to_string() } else { task.name.clone() };
                *switches.entry((e.core, name)).or_default() += 1;
            }
            EventKind::IsrEnter | EventKind::IsrExit | EventKind::Give | EventKind::Take | EventKind::EventSet => {
                *kinds.entry((e.core, e.kind.name().to_string())).or_default() += 1;
            }
            _ => {}
        }
    }
    (kinds, switches)
}

/// Per core: time from the first switch to the last event during which a
/// task other than the idle loop, or an ISR, ran.
fn busy(events: impl Iterator<Item = (u64, u16, &'static str, bool)>) -> BTreeMap<u16, u64> {
    #[derive(Default)]
    struct Core {
        idle: bool,
        isrs: usize,
        since: Option<u64>,
        busy: u64,
    }
    let mut cores: BTreeMap<u16, Core> = BTreeMap::new();
    for (time, core, what, idle) in events {
        let c = cores.entry(core).or_default();
        if let Some(since) = c.since
            && (!c.idle || c.isrs > 0)
        {
            c.busy += time - since;
        }
        match what {
            "switch" => {
                c.idle = idle;
                c.since = Some(time);
            }
            "enter" => c.isrs += 1,
            "exit" => c.isrs = c.isrs.saturating_sub(1),
            _ => {}
        }
        if c.since.is_some() {
            c.since = Some(time);
        }
    }
    cores.into_iter().map(|(c, s)| (c, s.busy)).collect()
}

fn expected_busy(events: &[Reference]) -> BTreeMap<u16, u64> {
    busy(events.iter().filter_map(|e| {
        let what = match e.name.as_str() {
            "svTaskStartExec" => ("switch", false),
            "svIdle" => ("switch", true),
            "svIsrEnter" => ("enter", false),
            "svIsrExit" | "svExitIsrToScheduler" => ("exit", false),
            _ => return None,
        };
        Some((e.time, e.core, what.0, what.1))
    }))
}

fn decoded_busy(p: &Parsed) -> BTreeMap<u16, u64> {
    let start = p.trace.start();
    busy(p.trace.events.iter().filter_map(|e| {
        let idle = p.trace.tasks[e.task as usize].kind == TaskKind::Idle;
        let what = match e.kind {
            EventKind::SwitchIn => "switch",
            EventKind::IsrEnter => "enter",
            EventKind::IsrExit => "exit",
            _ => return None,
        };
        Some((e.time - start, e.core, what, idle))
    }))
}

fn check(files: &[&str], reference_file: &str) {
    let p = parse(files);
    let r = reference(reference_file);
    assert_eq!(p.trace.cores_seen(), 2, "{files:?}");
    let (kinds, switches) = expected(&r);
    let (our_kinds, our_switches) = decoded(&p);
    assert_eq!(our_kinds, kinds, "{files:?}: events per kind and core");
    assert_eq!(our_switches, switches, "{files:?}: switches per task and core");
    // Each core's busy time, to the nanosecond up to rounding of the
    // reference's printed seconds (1 ns each).
    let (want, got) = (expected_busy(&r), decoded_busy(&p));
    assert_eq!(want.keys().collect::<Vec<_>>(), got.keys().collect::<Vec<_>>());
    for (core, w) in &want {
        let g = got[core];
        assert!(w.abs_diff(g) <= 2 * r.len() as u64, "{files:?} core {core}: busy {g} ns, ESP-IDF {w} ns");
        assert!(*w > 1_000_000, "core {core} of {files:?} is busy for {w} ns");
    }
    // Ready events: once per task and time, however many streams write it.
    let mut readies: Vec<(u64, u64)> =
        r.iter().filter(|e| e.name == "svTaskStartReady").map(|e| (e.time, e.tid.unwrap())).collect();
    readies.sort_unstable();
    readies.dedup();
    assert_eq!(p.trace.events.iter().filter(|e| e.kind == EventKind::Ready).count(), readies.len(), "{files:?}");
}

#[test]
fn one_file_per_core_decodes_as_esp_idf_decodes_it() {
    corera_testdata::shared_or_skip!("recordings/esp-idf-sysview");
    check(&["2018-pair/cpu0.svdat", "2018-pair/cpu1.svdat"], "2018-pair/expected_output");
    check(
        &["2024-esp-extension/heap_log0.svdat", "2024-esp-extension/heap_log1.svdat"],
        "2024-esp-extension/expected_output",
    );
    check(&["2025-sysview360/heap_log0.svdat", "2025-sysview360/heap_log1.svdat"], "2025-sysview360/expected_output");
}

#[test]
fn the_esp_extension_stream_decodes_as_esp_idf_decodes_it() {
    corera_testdata::shared_or_skip!("recordings/esp-idf-sysview");
    check(&["2024-esp-extension/heap_log_mcore.svdat"], "2024-esp-extension/expected_output_mcore");
}

#[test]
fn the_systemview_360_multicore_file_decodes_as_esp_idf_decodes_it() {
    corera_testdata::shared_or_skip!("recordings/esp-idf-sysview");
    check(&["2025-sysview360/heap_log_mcore.svdat"], "2025-sysview360/expected_output_mcore");
}

#[test]
fn the_header_says_what_saved_the_recording_and_the_os_picks_the_table() {
    corera_testdata::shared_or_skip!("recordings/esp-idf-sysview");
    let p = parse(&["2025-sysview360/heap_log_mcore.svdat"]);
    assert_eq!(p.format, "systemview");
    assert!(p.notes.iter().any(|n| n.contains("SEGGER SystemViewer V3.60")), "{:?}", p.notes);
    assert!(p.notes.iter().any(|n| n.contains("ESP-IDF FreeRTOS")), "{:?}", p.notes);
    // ISRs are per core, named as the recording names them.
    let names: Vec<&str> = p.trace.tasks.iter().filter(|t| t.kind == TaskKind::Isr).map(|t| t.name.as_str()).collect();
    assert!(names.contains(&"SysTick@cpu0") && names.contains(&"SysTick@cpu1"), "{names:?}");
    // The tick is read from SysTick's entries: ESP-IDF's default 1 kHz
    // (`CONFIG_FREERTOS_HZ`), a FreeRTOS that slices.
    let tick = p.trace.tick.as_ref().expect("SysTick entries");
    assert!((990_000..=1_010_000).contains(&tick.period_ns), "{tick:?}");
    assert_eq!(p.trace.os, Some(crate::Os::EspIdf));
    // ESP-IDF's idle tasks are the idle loops, not tasks to place.
    let p = parse(&["2018-pair/cpu0.svdat", "2018-pair/cpu1.svdat"]);
    let idle: Vec<&str> = p.trace.tasks.iter().filter(|t| t.kind == TaskKind::Idle).map(|t| t.name.as_str()).collect();
    assert_eq!(idle, ["IDLE0", "IDLE1"]);
    // The 122 ms in which the 2018 pair records nothing is said.
    assert!(p.warnings.iter().any(|w| w.message.contains("no event for 122.")), "{:?}", p.warnings);
}

#[test]
fn a_multicore_file_is_not_one_of_several_per_core_files() {
    corera_testdata::shared_or_skip!("recordings/esp-idf-sysview");
    let inputs: Vec<(String, Box<dyn BufRead>)> =
        ["2025-sysview360/heap_log_mcore.svdat", "2025-sysview360/heap_log1.svdat"]
            .iter()
            .map(|f| (f.to_string(), Box::new(std::io::Cursor::new(bytes(f))) as Box<dyn BufRead>))
            .collect();
    let e = read_per_core(inputs, FormatChoice::AUTO, &ReadOptions::new("x")).unwrap_err();
    assert!(super::chain(&e).contains("give it alone"), "{}", super::chain(&e));
}

#[test]
fn every_prefix_and_a_flipped_byte_of_the_multicore_files_read_without_a_panic() {
    corera_testdata::shared_or_skip!("recordings/esp-idf-sysview");
    for rel in ["2025-sysview360/heap_log_mcore.svdat", "2024-esp-extension/heap_log_mcore.svdat"] {
        let good = bytes(rel);
        for len in (0..good.len()).step_by(101) {
            let _ = read(&mut &good[..len], FormatChoice::of("systemview"), &ReadOptions::new(rel));
        }
        for at in (0..good.len()).step_by(89) {
            let mut bad = good.clone();
            bad[at] ^= 0xA5;
            let _ = read(&mut &bad[..], FormatChoice::of("systemview"), &ReadOptions::new(rel));
        }
    }
}

#[test]
fn a_stretch_the_recording_missed_is_a_gap_and_the_figures_cover_the_rest() {
    corera_testdata::shared_or_skip!("recordings/esp-idf-sysview");
    let p = parse(&["2018-pair/cpu0.svdat", "2018-pair/cpu1.svdat"]);
    assert_eq!(p.trace.gaps.len(), 1, "{:?}", p.trace.gaps);
    let gap = p.trace.gaps[0];
    assert!((122_000_000..123_000_000).contains(&(gap.end - gap.start)), "{gap:?}");
    assert_eq!(p.trace.covered(), p.trace.duration() - (gap.end - gap.start));
    assert!(p.notes.iter().any(|n| n.contains("covers 16.4 %")), "{:?}", p.notes);
    // Nothing runs inside it, and no response spans it.
    let s = crate::Schedule::of(&p.trace);
    let (from, to) = (gap.start - p.trace.start(), gap.end - p.trace.start());
    for t in &s.tasks {
        assert!(t.running.iter().all(|r| r.end_ns <= from || r.start_ns >= to));
        assert!(t.responses().all(|r| r < to - from));
    }
}

/// ESP-IDF's streams mark no task leaving the ready state: a task blocked on
/// a queue shows only as switched out, then made ready. Its jobs end where
/// it blocks, so the heap_log example's `free` tasks, which wait on a queue
/// for each block to free, have as many jobs as ESP-IDF records them woken.
#[test]
fn a_task_made_ready_while_switched_out_had_blocked() {
    corera_testdata::shared_or_skip!("recordings/esp-idf-sysview");
    let p = parse(&["2025-sysview360/heap_log_mcore.svdat"]);
    let r = reference("2025-sysview360/expected_output_mcore");
    let s = crate::Schedule::of(&p.trace);
    for name in ["free0", "free1", "free2"] {
        let t = p.trace.tasks.iter().position(|t| t.name == name).unwrap();
        let tid = r.iter().find(|e| e.name == "svTaskInfo" && e.task_name.as_deref() == Some(name)).unwrap().tid;
        let mut woken: Vec<u64> =
            r.iter().filter(|e| e.name == "svTaskStartReady" && e.tid == tid).map(|e| e.time).collect();
        woken.dedup();
        let jobs = s.tasks[t].jobs.len();
        assert!(jobs + 1 >= woken.len() && jobs <= woken.len() + 1, "{name}: {jobs} jobs, woken {}", woken.len());
        assert!(s.tasks[t].responses().count() + 2 >= woken.len(), "{name}");
        // Its last job ends where it deletes itself: switched out for core 1's
        // idle loop, never readied again. Read as preempted, it waited ready
        // for the rest of the recording (33 ms, against 0.06 ms per wake).
        assert_eq!(s.tasks[t].responses().count(), jobs, "{name}: every job ends");
        assert!(s.tasks[t].ready_ns() < 1_000_000, "{name}: ready {} ns", s.tasks[t].ready_ns());
    }
}

/// ESP-IDF's heap example wakes each `free` task on core 1 from core 0: the
/// recording shows 62.4 to 63.8 µs from the READY to its start for most of
/// the 29 wakes onto an idle core 1 (the `FROM_CPU0` interrupt, then the
/// switch: `svTaskStartReady` at 0.242773825 s, `svIsrEnter` on core 1 at
/// ...790000, `svTaskStartExec` at ...841100 in ESP-IDF's own decoding).
#[test]
fn a_cross_core_wake_takes_what_the_recording_shows() {
    corera_testdata::shared_or_skip!("recordings/esp-idf-sysview");
    let p = parse(&["2025-sysview360/heap_log_mcore.svdat"]);
    let w = p.trace.cross_core_wake(false).expect("wakes onto an idle core");
    assert!(w.wakes >= 25, "{w:?}");
    assert!((62_000..=63_000).contains(&w.median_ns), "{w:?}");
    assert!(w.is_steady(), "{w:?}");
    let r = reference("2025-sysview360/expected_output_mcore");
    let ready = r.iter().find(|e| e.name == "svTaskStartReady" && e.time == 242_773_825).expect("a READY");
    let exec = r.iter().find(|e| e.name == "svTaskStartExec" && e.tid == ready.tid && e.time > ready.time).unwrap();
    assert_eq!(exec.time - ready.time, 67_275, "one of the wakes measured");
}
