//! Linux ftrace text reader: the kernel/systrace form, `trace-cmd report`
//! (default and `-R` raw forms) and `perf script` sched lines.
//!
//! Each line is `TASK-PID [(TGID)] [CPU] [FLAGS] SECS.FRACTION: EVENT: PAYLOAD`
//! (`perf script`: `COMM TID [CPU] SECS.FRACTION: sched:EVENT: PAYLOAD`).
//! What corera takes:
//!
//! | event | model |
//! |---|---|
//! | `sched_switch` | the previous task switched out (`prev_state` `R`/`R+` or raw 0: preempted; anything else: blocked), the next switched in |
//! | `sched_waking` (`sched_wakeup`, `sched_wakeup_new` while no `sched_waking` was seen) | the woken task ready on its target CPU, and a waker → wakee wakeup unless the waker is idle or in interrupt context |
//! | `sched_migrate_task` | noted (counted) |
//! | anything else | skipped and counted |
//!
//! Linux priorities are lower-is-more-urgent. The idle task (pid 0,
//! `<idle>`/`swapper/N`) is one idle task for all CPUs. Task filters
//! (`--pid`, `--tgid`, `--comm`) keep the workload and drop the rest after
//! reading, since a thread's name and process can be learned late.

use rustc_hash::FxHashMap as HashMap;
use std::io::BufRead;

use crate::error::{ParseError, ParseErrorKind};
use crate::lines::{Builder, LineFormat, run_lines};
use crate::model::{Clock, Event, EventKind, PriorityOrder, Task, TaskId, TaskKind, Trace};
use crate::{Parsed, ReadOptions, TraceFormat};

/// Format name used in messages and `--format`.
pub const NAME: &str = "ftrace";

const PREFIX: &str = "an ftrace line `TASK-PID [CPU] [FLAGS] SECONDS: EVENT: PAYLOAD`";

/// Reader of ftrace text.
#[derive(Clone, Debug, Default)]
pub struct Ftrace {
    options: ReadOptions,
}

impl From<ReadOptions> for Ftrace {
    fn from(options: ReadOptions) -> Ftrace {
        Ftrace { options }
    }
}

impl TraceFormat for Ftrace {
    fn name(&self) -> &'static str {
        NAME
    }

    fn is_applicable(&mut self, head: &str) -> Option<bool> {
        for line in head.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if line.starts_with("# tracer:") || line.starts_with("cpus=") {
                return Some(true);
            }
            if line.starts_with('#') || line.starts_with("version =") || line.starts_with("CPU ") {
                continue;
            }
            return Some(split_line(line).is_ok());
        }
        None
    }

    fn parse(&mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        Reader::new(&self.options).run(reader)
    }
}

/// The parts of one event line.
#[derive(Debug, PartialEq, Eq)]
struct LineParts<'a> {
    comm: &'a str,
    pid: u64,
    tgid: Option<u64>,
    cpu: u16,
    /// The flags column (`d..3`), when present.
    flags: &'a str,
    time_ns: u64,
    /// The timestamp as written, for messages.
    time_text: &'a str,
    event: &'a str,
    payload: &'a str,
}

type Fail<'a> = (&'a str, ParseErrorKind);

/// Finds the `[CPU]` bracket: `[` digits `]` after whitespace.
fn cpu_bracket(line: &str) -> Option<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut from = 0;
    while let Some(off) = line[from..].find('[') {
        let open = from + off;
        let digits = bytes[open + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if open > 0
            && bytes[open - 1].is_ascii_whitespace()
            && digits > 0
            && bytes.get(open + 1 + digits) == Some(&b']')
        {
            return Some((open, open + 1 + digits));
        }
        from = open + 1;
    }
    None
}

/// Seconds with a fraction (`365761.623995`) to ns.
fn seconds(text: &str) -> Option<u64> {
    let (secs, frac) = text.split_once('.').unwrap_or((text, ""));
    if secs.is_empty() || frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let secs: u64 = secs.parse().ok()?;
    let mut ns: u64 = if frac.is_empty() { 0 } else { frac.parse().ok()? };
    for _ in frac.len()..9 {
        ns *= 10;
    }
    secs.checked_mul(1_000_000_000)?.checked_add(ns)
}

fn split_line(line: &str) -> Result<LineParts<'_>, Fail<'_>> {
    let (open, close) = cpu_bracket(line).ok_or((line, ParseErrorKind::expected(PREFIX, line)))?;
    let cpu: u16 = line[open + 1..close]
        .parse()
        .map_err(|_| (&line[open..], ParseErrorKind::expected("a CPU number", &line[open..=close])))?;
    let mut prefix = line[..open].trim();
    let mut tgid = None;
    if prefix.ends_with(')')
        && let Some(p) = prefix.rfind('(')
    {
        tgid = prefix[p + 1..prefix.len() - 1].trim().parse().ok();
        prefix = prefix[..p].trim_end();
    }
    let (comm, pid) = match prefix.rfind('-') {
        Some(dash) if prefix[dash + 1..].bytes().all(|b| b.is_ascii_digit()) && dash + 1 < prefix.len() => {
            (prefix[..dash].trim_start(), &prefix[dash + 1..])
        }
        // perf script: `comm tid`.
        _ => match prefix.rsplit_once(char::is_whitespace) {
            Some((comm, tid)) => (comm.trim(), tid.rsplit('/').next().unwrap_or(tid)),
            None => return Err((prefix, ParseErrorKind::expected("`TASK-PID` before the CPU column", prefix))),
        },
    };
    let pid: u64 = pid.parse().map_err(|_| (pid, ParseErrorKind::expected("a pid", pid)))?;
    let mut rest = line[close + 1..].trim_start();
    let mut flags = "";
    let first = rest.split_whitespace().next().unwrap_or("");
    let time_tok = if first.ends_with(':') && seconds(&first[..first.len() - 1]).is_some() {
        first
    } else {
        flags = first;
        rest = rest[first.len()..].trim_start();
        rest.split_whitespace().next().unwrap_or("")
    };
    let time_ns = time_tok
        .strip_suffix(':')
        .and_then(seconds)
        .ok_or((time_tok, ParseErrorKind::expected("a timestamp in seconds such as `2084.021443:`", time_tok)))?;
    rest = rest[time_tok.len()..].trim_start();
    let event_tok = rest.split_whitespace().next().unwrap_or("");
    let event = event_tok
        .strip_suffix(':')
        .ok_or((event_tok, ParseErrorKind::expected("an event name followed by `:`", event_tok)))?;
    let event = event.rsplit(':').next().unwrap_or(event);
    let payload = rest[event_tok.len()..].trim();
    Ok(LineParts { comm, pid, tgid, cpu, flags, time_ns, time_text: time_tok, event, payload })
}

/// The value after `key=` up to the next ` <name>=` (values may hold
/// spaces, as thread names do).
fn value<'a>(payload: &'a str, key: &str) -> Option<&'a str> {
    let mut from = 0;
    let start = loop {
        let at = from + payload[from..].find(key)?;
        if at == 0 || payload.as_bytes()[at - 1] == b' ' {
            break at + key.len();
        }
        from = at + key.len();
    };
    let rest = &payload[start..];
    let mut end = rest.len();
    let mut search = 0;
    while let Some(sp) = rest[search..].find(' ') {
        let after = &rest[search + sp + 1..];
        let word_end = after.find(' ').unwrap_or(after.len());
        let word = &after[..word_end];
        if word == "==>"
            || (word.contains('=')
                && word
                    .split('=')
                    .next()
                    .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')))
        {
            end = search + sp;
            break;
        }
        search += sp + 1;
    }
    Some(rest[..end].trim())
}

/// One side of a sched_switch: comm, pid, prio, and (for prev) state.
struct Side<'a> {
    comm: &'a str,
    pid: u64,
    prio: Option<i32>,
    state: &'a str,
}

/// `comm:pid [prio] S` (trace-cmd default form).
fn short_side(text: &str) -> Option<Side<'_>> {
    let text = text.trim();
    let open = text.rfind(" [")?;
    let close = open + text[open..].find(']')?;
    let (comm, pid) = text[..open].rsplit_once(':')?;
    Some(Side {
        comm,
        pid: pid.parse().ok()?,
        prio: text[open + 2..close].parse().ok(),
        state: text[close + 1..].trim(),
    })
}

fn switch_sides(payload: &str) -> Option<(Side<'_>, Side<'_>)> {
    if payload.contains("prev_comm=") {
        let prev = Side {
            comm: value(payload, "prev_comm=")?,
            pid: value(payload, "prev_pid=")?.parse().ok()?,
            prio: value(payload, "prev_prio=").and_then(|p| p.parse().ok()),
            state: value(payload, "prev_state=")?,
        };
        let next = Side {
            comm: value(payload, "next_comm=")?,
            pid: value(payload, "next_pid=")?.parse().ok()?,
            prio: value(payload, "next_prio=").and_then(|p| p.parse().ok()),
            state: "",
        };
        return Some((prev, next));
    }
    let (left, right) = payload.split_once("==>")?;
    Some((short_side(left)?, short_side(right)?))
}

/// Whether a `prev_state` means the task is still runnable (preempted).
fn preempted(state: &str) -> bool {
    match state {
        "R" | "R+" => true,
        // Raw (`trace-cmd report -R`) numeric state: 0 is TASK_RUNNING; a
        // single bit at or above 0x100 is the kernel's "preempted" marker
        // (TASK_REPORT_MAX, whose value depends on the kernel version).
        _ => state.parse::<u64>().is_ok_and(|v| v == 0 || (v >= 0x100 && v.is_power_of_two())),
    }
}

/// The woken task of a wakeup payload: pid, comm, prio, target CPU.
fn wakee(payload: &str) -> Option<(u64, &str, Option<i32>, Option<u16>)> {
    if payload.contains("pid=") {
        let pid = value(payload, "pid=")?.parse().ok()?;
        let comm = value(payload, "comm=").unwrap_or("");
        let prio = value(payload, "prio=").and_then(|p| p.parse().ok());
        let cpu = value(payload, "target_cpu=").and_then(|c| c.parse().ok());
        return Some((pid, comm, prio, cpu));
    }
    // trace-cmd default: `comm:pid [prio] [success=1] CPU:002`.
    let side =
        short_side(payload.split(" CPU:").next().unwrap_or(payload).split(" success=").next().unwrap_or(payload))?;
    let cpu = payload.rsplit_once("CPU:").and_then(|(_, c)| c.trim().parse().ok());
    Some((side.pid, side.comm, side.prio, cpu))
}

struct Reader {
    out: Builder,
    filter: crate::TaskFilter,
    tasks: HashMap<u64, TaskId>,
    tgid: Vec<Option<u64>>,
    idle: Option<TaskId>,
    seen_waking: bool,
    seen_event: bool,
    skipped: crate::unused::Unused,
    migrations: u64,
}

impl LineFormat for Reader {
    const EXPECTED_FIRST: &'static str = "# tracer: nop";

    fn builder(&mut self) -> &mut Builder {
        &mut self.out
    }

    fn line<'a>(&mut self, number: u64, text: &'a str) -> Result<(), Fail<'a>> {
        let trimmed = text.trim();
        let header = ["#", "cpus=", "version =", "CPU "].iter().any(|p| trimmed.starts_with(p));
        if header { Ok(()) } else { self.event(number, text.trim_end()) }
    }

    fn started(&self) -> bool {
        self.seen_event
    }
}

impl Reader {
    fn new(options: &ReadOptions) -> Reader {
        let mut trace = Trace::new(Clock::Ns);
        trace.priority_order = PriorityOrder::Low;
        trace.os = Some(crate::Os::Linux);
        let mut out = Builder::new(trace, NAME, options);
        out.show_time = |ns| format!("{}.{:09}", ns / 1_000_000_000, ns % 1_000_000_000);
        Reader {
            out,
            filter: options.filter.clone(),
            tasks: HashMap::default(),
            tgid: Vec::new(),
            idle: None,
            seen_waking: false,
            seen_event: false,
            skipped: Default::default(),
            migrations: 0,
        }
    }

    fn run(mut self, reader: &mut dyn BufRead) -> Result<Parsed, ParseError> {
        run_lines(&mut self, reader)?;
        Ok(self.finish())
    }

    fn task(&mut self, pid: u64, comm: &str, tgid: Option<u64>) -> TaskId {
        if pid == 0
            && let Some(idle) = self.idle
        {
            return idle;
        }
        if let Some(&id) = self.tasks.get(&pid) {
            let t = &mut self.out.trace.tasks[id as usize];
            // Threads rename themselves (exec, prctl): keep the latest name.
            if pid != 0 && !comm.is_empty() && t.name != comm && comm != "<...>" {
                t.name = comm.to_string();
            }
            if tgid.is_some() {
                self.tgid[id as usize] = tgid;
            }
            return id;
        }
        let id = self.out.trace.tasks.len() as TaskId;
        let (name, kind) =
            if pid == 0 { ("<idle>".to_string(), TaskKind::Idle) } else { (comm.to_string(), TaskKind::Task) };
        self.out.trace.tasks.push(Task { name, kind, priority: None, handle: pid });
        self.tgid.push(tgid);
        self.tasks.insert(pid, id);
        if pid == 0 {
            self.idle = Some(id);
        }
        id
    }

    fn event<'a>(&mut self, number: u64, text: &'a str) -> Result<(), Fail<'a>> {
        let p = split_line(text.trim_start())?;
        self.seen_event = true;
        let time = p.time_ns;
        match p.event {
            "sched_switch" => {
                let (prev, next) = switch_sides(p.payload)
                    .ok_or((p.payload, ParseErrorKind::expected("a sched_switch payload `prev_comm=.. prev_pid=.. prev_state=.. ==> next_comm=.. next_pid=..` or `prev:pid [prio] S ==> next:pid [prio]`", p.payload)))?;
                let prev_id = self.task(prev.pid, prev.comm, if prev.pid == p.pid { p.tgid } else { None });
                if prev.prio.is_some() && prev.pid != 0 {
                    self.out.trace.tasks[prev_id as usize].priority = prev.prio;
                }
                let kind = if preempted(prev.state) { EventKind::Preempted } else { EventKind::Blocked };
                self.out.push(number, Event::new(time, p.cpu, kind, prev_id), time).map_err(|k| (p.time_text, k))?;
                let next_id = self.task(next.pid, next.comm, None);
                if next.prio.is_some() && next.pid != 0 {
                    self.out.trace.tasks[next_id as usize].priority = next.prio;
                }
                self.out
                    .push(number, Event::new(time, p.cpu, EventKind::SwitchIn, next_id), time)
                    .map_err(|k| (p.time_text, k))
            }
            "sched_waking" | "sched_wakeup" | "sched_wakeup_new" => {
                if p.event == "sched_waking" {
                    self.seen_waking = true;
                } else if self.seen_waking {
                    self.skipped.add(&format!("{} (sched_waking used)", p.event));
                    return Ok(());
                }
                let (pid, comm, prio, cpu) = wakee(p.payload).ok_or((
                    p.payload,
                    ParseErrorKind::expected("a wakeup payload `comm=.. pid=.. prio=.. target_cpu=..`", p.payload),
                ))?;
                let waker = self.task(p.pid, p.comm, p.tgid);
                let woken = self.task(pid, comm, None);
                if prio.is_some() && pid != 0 {
                    self.out.trace.tasks[woken as usize].priority = prio;
                }
                let core = cpu.unwrap_or(p.cpu);
                // Flags `d.h.`: the third column is h/s/H in hard or soft
                // interrupt context, where the waker is not a task.
                let irq = matches!(p.flags.as_bytes().get(2), Some(b'h' | b's' | b'H'));
                if p.pid != 0 && !irq && waker != woken {
                    let e = Event::new(time, p.cpu, EventKind::Wakeup, waker).with_peer(woken);
                    self.out.push(number, e, time).map_err(|k| (p.time_text, k))?;
                }
                self.out
                    .push(number, Event::new(time, core, EventKind::Ready, woken), time)
                    .map_err(|k| (p.time_text, k))
            }
            "sched_migrate_task" => {
                self.migrations += 1;
                Ok(())
            }
            other => {
                self.skipped.add(other);
                Ok(())
            }
        }
    }

    fn finish(mut self) -> Parsed {
        if let Some(message) = self.skipped.message() {
            self.out.warn(0, message);
        }
        if self.migrations > 0 {
            self.out.warn(
                0,
                format!("{} sched_migrate_task events noted (the input ran on several CPUs)", self.migrations),
            );
        }
        if !self.filter.is_empty() {
            let keep: Vec<bool> = self
                .out
                .trace
                .tasks
                .iter()
                .zip(&self.tgid)
                .map(|(t, tgid)| t.kind == TaskKind::Idle || self.filter.selects(t.handle, *tgid, &t.name))
                .collect();
            let kept = keep.iter().filter(|k| **k).count();
            let total = keep.len();
            self.out.trace.retain_tasks(&keep);
            self.out.warn(0, format!("task filter kept {kept} of {total} tasks (the idle task included)"));
        }
        self.out.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_every_line_form() {
        let kernel =
            split_line("     rcu_preempt-8     [002] d..3 365761.624149: sched_switch: prev_comm=rcu_preempt").unwrap();
        assert_eq!(
            (kernel.comm, kernel.pid, kernel.cpu, kernel.flags, kernel.time_ns),
            ("rcu_preempt", 8, 2, "d..3", 365_761_624_149_000)
        );
        let tgid =
            split_line("com.google.android.youtube-23071 (23071) [002] d..5 214168.479892: sched_wakeup: comm=x pid=1")
                .unwrap();
        assert_eq!((tgid.comm, tgid.pid, tgid.tgid), ("com.google.android.youtube", 23071, Some(23071)));
        let dashes =
            split_line("  Binder:549-4 x-2029 (-----) [000] .... 1.000000001: sched_waking: comm=a pid=3").unwrap();
        assert_eq!(
            (dashes.comm, dashes.pid, dashes.tgid, dashes.time_ns),
            ("Binder:549-4 x", 2029, None, 1_000_000_001)
        );
        let cmd = split_line("     kworker/2:1-2923  [002]  2084.021765: sched_switch:         kworker/2:1:2923 [120] D ==> swapper/2:0 [120]").unwrap();
        assert_eq!((cmd.comm, cmd.event, cmd.flags), ("kworker/2:1", "sched_switch", ""));
        let perf = split_line("  Chrome IO 1234/1300 [001] 12.5: sched:sched_switch: prev_comm=a").unwrap();
        assert_eq!(
            (perf.comm, perf.pid, perf.event, perf.time_ns),
            ("Chrome IO", 1300, "sched_switch", 12_500_000_000)
        );
        assert!(split_line("garbage line").is_err());
    }

    #[test]
    fn reads_switch_payloads_of_all_forms() {
        let (prev, next) = switch_sides("prev_comm=Chrome IO prev_pid=12 prev_prio=120 prev_state=R+ ==> next_comm=kworker/u8:2 next_pid=7 next_prio=100").unwrap();
        assert_eq!((prev.comm, prev.pid, prev.prio, prev.state), ("Chrome IO", 12, Some(120), "R+"));
        assert_eq!((next.comm, next.pid, next.prio), ("kworker/u8:2", 7, Some(100)));
        let (prev, next) = switch_sides("kworker/2:1:2923 [120] D ==> swapper/2:0 [120]").unwrap();
        assert_eq!((prev.comm, prev.pid, prev.state, next.comm, next.pid), ("kworker/2:1", 2923, "D", "swapper/2", 0));
        let (prev, next) =
            switch_sides("prev_comm=sh prev_pid=5 prev_prio=120 prev_state=1 next_comm=b next_pid=6 next_prio=120")
                .unwrap();
        assert_eq!((prev.state, next.pid), ("1", 6));
        assert!(preempted("R") && preempted("R+") && preempted("0") && preempted("256") && preempted("2048"));
        assert!(!preempted("S") && !preempted("D|K") && !preempted("1") && !preempted("258"));
    }

    #[test]
    fn reads_wakeup_payloads() {
        assert_eq!(
            wakee("comm=rcu_preempt pid=8 prio=120 success=1 target_cpu=002"),
            Some((8, "rcu_preempt", Some(120), Some(2)))
        );
        assert_eq!(wakee("comm=a b pid=9 prio=98 target_cpu=1"), Some((9, "a b", Some(98), Some(1))));
        assert_eq!(wakee("kworker/0:1:17 [120] success=1 CPU:000"), Some((17, "kworker/0:1", Some(120), Some(0))));
    }

    #[test]
    fn seconds_take_micro_and_nano_fractions() {
        assert_eq!(seconds("1.5"), Some(1_500_000_000));
        assert_eq!(seconds("2084.021443"), Some(2_084_021_443_000));
        assert_eq!(seconds("3.000000007"), Some(3_000_000_007));
        assert_eq!(seconds("3.0000000071"), None);
        assert_eq!(seconds("x.1"), None);
    }
}
