//! The C affinity headers: the generic part every header starts with, and
//! one module per RTOS for what its affinity API needs (FreeRTOS SMP,
//! ESP-IDF, Zephyr, ThreadX SMP, NuttX, POSIX threads), and a `taskset`
//! script for Linux processes.

mod esp_idf;
mod freertos;
mod nuttx;
mod posix;
mod taskset;
mod threadx;
mod zephyr;

pub use taskset::TasksetScript;

use std::collections::HashSet;
use std::fmt::Write as _;

use corera_trace_ingest::TaskKind;

use crate::records::{Analysis, PlacedTask};
use crate::{Emitter, VERSION};

/// Generic C header: one `#define CORERA_CORE_<TASK> <core>` per task, a
/// task → core table (as an initializer macro, and as a `static const`
/// array when `CORERA_AFFINITY_TABLE` is defined before inclusion), and
/// per-core task counts and lists for AMP start-up code.
///
/// Each [`HeaderTarget`] adds what its RTOS needs after the generic part:
/// affinity masks, a check against the RTOS's core count, and a function
/// that applies the placement to the running tasks by name.
#[derive(Clone, Copy, Debug, Default)]
pub struct CHeader {
    /// Which RTOS API the header also speaks.
    pub target: HeaderTarget,
}

/// The RTOS API a header targets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HeaderTarget {
    /// Plain C: defines and tables only.
    #[default]
    Generic,
    /// FreeRTOS SMP (`configUSE_CORE_AFFINITY`): masks for
    /// `vTaskCoreAffinitySet`, checks of the kernel configuration,
    /// `corera_freertos_pin_handle()` and `corera_apply_freertos()` (by
    /// name: needs `INCLUDE_xTaskGetHandle`, or the header says so).
    FreeRtos,
    /// Zephyr SMP (`CONFIG_SCHED_CPU_MASK`): CPU masks, a check against
    /// `CONFIG_MP_MAX_NUM_CPUS`, and `corera_apply_zephyr()` (pins threads
    /// found by name with `k_thread_cpu_pin`).
    Zephyr,
    /// POSIX threads on Linux: `corera_cpu_set()` fills a `cpu_set_t` and
    /// `corera_pin_pthread()` calls `pthread_setaffinity_np`.
    Posix,
    /// ESP-IDF (its FreeRTOS, at most two cores): the core per task for
    /// `xTaskCreatePinnedToCore` (0, 1 or `tskNO_AFFINITY`) and a creation
    /// macro; ESP-IDF has no `vTaskCoreAffinitySet`.
    EspIdf,
    /// ThreadX SMP: exclusion maps for `tx_thread_smp_core_exclude`.
    ThreadX,
    /// NuttX SMP: `cpu_set_t` per task for `sched_setaffinity`.
    NuttX,
}

/// Turns task names into unique C identifier suffixes, deterministically:
/// upper case, every run of other characters becomes one `_`, a leading
/// digit gets a `_` before it, and a name that collides with an earlier
/// one (in the order given) gets `_2`, `_3`, ... appended.
pub fn c_identifiers<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut seen = HashSet::new();
    names
        .into_iter()
        .map(|name| {
            let mut id = String::new();
            for ch in name.chars() {
                if ch.is_ascii_alphanumeric() {
                    id.push(ch.to_ascii_uppercase());
                } else if !id.ends_with('_') {
                    id.push('_');
                }
            }
            let id = id.trim_matches('_').to_string();
            let mut id = if id.is_empty() { "TASK".to_string() } else { id };
            if id.starts_with(|c: char| c.is_ascii_digit()) {
                id.insert(0, '_');
            }
            unique(&mut seen, id)
        })
        .collect()
}

/// `id`, or `id_2`, `id_3`, ... when an earlier name in `seen` took it.
pub(crate) fn unique(seen: &mut HashSet<String>, id: String) -> String {
    let mut candidate = id.clone();
    let mut n = 2;
    while !seen.insert(candidate.clone()) {
        candidate = format!("{id}_{n}");
        n += 1;
    }
    candidate
}

/// A C function `name(index, set)` that fills a `cpu_set_t` with the CPUs
/// of placed task `index` (`CPU_ZERO`, then `CPU_SET` per core): the same
/// in glibc and NuttX.
pub(super) fn cpu_set_function(s: &mut String, name: &str) {
    let _ = writeln!(
        s,
        "/* Fills *set with the CPUs of placed task `index` (a CORERA_TASK_ID_ value). */\n\
         static inline void {name}(unsigned index, cpu_set_t *set) {{\n    \
         static const corera_task_core_t table[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;\n    \
         unsigned cpu;\n    \
         CPU_ZERO(set);\n    \
         if (index >= CORERA_NUM_TASKS) return;\n    \
         for (cpu = 0; cpu < CORERA_NUM_CORES && cpu < 64; cpu++) {{\n        \
         if (table[index].cores >> cpu & 1ull) CPU_SET(cpu, set);\n    }}\n}}\n"
    );
}

/// A C string literal for `s` (escapes quotes, backslashes and non-ASCII).
pub(super) fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    out
}

impl Emitter for CHeader {
    fn name(&self) -> &'static str {
        match self.target {
            HeaderTarget::Generic => "c-header",
            HeaderTarget::FreeRtos => "freertos",
            HeaderTarget::Zephyr => "zephyr",
            HeaderTarget::Posix => "posix",
            HeaderTarget::EspIdf => "esp-idf",
            HeaderTarget::ThreadX => "threadx",
            HeaderTarget::NuttX => "nuttx",
        }
    }

    fn file_name(&self) -> &'static str {
        match self.target {
            HeaderTarget::Generic => "affinity.h",
            HeaderTarget::FreeRtos => "affinity_freertos.h",
            HeaderTarget::Zephyr => "affinity_zephyr.h",
            HeaderTarget::Posix => "affinity_posix.h",
            HeaderTarget::EspIdf => "affinity_esp_idf.h",
            HeaderTarget::ThreadX => "affinity_threadx.h",
            HeaderTarget::NuttX => "affinity_nuttx.h",
        }
    }

    fn check(&self, a: &Analysis) -> Result<(), crate::Unexpressible> {
        match self.target {
            HeaderTarget::EspIdf => esp_idf::check(a),
            _ => Ok(()),
        }
    }

    fn emit(&self, a: &Analysis) -> Vec<u8> {
        let p = &a.placement;
        let order = by_name(p);
        let ids = c_identifiers(order.iter().map(|&i| p[i].task.as_str()));
        let width = ids.iter().map(String::len).max().unwrap_or(0);
        let mut s = String::new();
        banner(&mut s, a);
        let _ = writeln!(s, "#ifndef CORERA_AFFINITY_H\n#define CORERA_AFFINITY_H\n");
        defines(&mut s, a, &order, &ids, width);
        table(&mut s, a, &order, &ids);
        // Tasks only, not ISRs.
        let tasks: Vec<(&str, &str)> = order
            .iter()
            .enumerate()
            .filter(|(_, i)| p[**i].kind != TaskKind::Isr)
            .map(|(k, &i)| (p[i].task.as_str(), ids[k].as_str()))
            .collect();
        let floating = order.iter().filter(|&&i| p[i].cores.len() > 1).count();
        match self.target {
            HeaderTarget::Generic => {}
            HeaderTarget::FreeRtos => {
                let several = a.replay.rules.as_ref().map(|r| r.multiple_priorities);
                freertos::freertos(&mut s, &ids, width, &tasks, several)
            }
            HeaderTarget::Zephyr => zephyr::zephyr(&mut s, &ids, width, floating),
            HeaderTarget::Posix => posix::posix(&mut s),
            HeaderTarget::EspIdf => {
                let rows: Vec<(Option<u16>, bool)> = order
                    .iter()
                    .map(|&i| ((p[i].cores.len() <= 1).then_some(p[i].core), p[i].kind == TaskKind::Isr))
                    .collect();
                esp_idf::esp_idf(&mut s, &ids, width, &rows);
            }
            HeaderTarget::ThreadX => threadx::threadx(&mut s, &ids, width),
            HeaderTarget::NuttX => nuttx::nuttx(&mut s),
        }
        let _ = writeln!(s, "#endif /* CORERA_AFFINITY_H */");
        s.into_bytes()
    }
}

/// The comment that opens the header: how to regenerate it, the input,
/// the objective and the load per core.
fn banner(s: &mut String, a: &Analysis) {
    let pct = |x: u64, of: u64| if of == 0 { 0.0 } else { x as f64 * 100.0 / of as f64 };
    let _ = writeln!(s, "/*");
    let _ = writeln!(s, " * Task placement generated by corera {VERSION}. Do not edit; regenerate with");
    match corera_placement::Platform::parse(&a.platform.name) {
        Ok(_) => {
            let _ = writeln!(s, " *   corera analyze {} --platform {}", a.input.name, a.platform.name);
        }
        Err(_) => {
            let _ = writeln!(s, " *   corera analyze {} with the platform file of `{}`", a.input.name, a.platform.name);
        }
    }
    let _ =
        writeln!(s, " * Input: {} ({}, {} bytes, hash {})", a.input.name, a.input.format, a.input.bytes, a.input.hash);
    match &a.recommendation {
        None => {
            let _ = writeln!(
                s,
                " * Cross-core traffic (x core distance): {} of {} ({:.1} %), {}{}.",
                a.search.cross_traffic,
                a.cost.total_traffic,
                pct(a.search.cross_traffic, a.cost.total_traffic),
                a.search.method,
                if a.search.proven_optimal { ", proven optimal" } else { "" }
            );
        }
        Some(r) => {
            let _ = writeln!(
                s,
                " * Objective {}: {} replayed ({} placement); cross-core traffic (x core distance) {} of {}.",
                a.objective, r.value.text, r.setup, a.cost.score.cross_traffic, a.cost.total_traffic
            );
        }
    }
    for (c, u) in a.cost.core_utilisation.iter().enumerate() {
        let _ = writeln!(s, " * Core {c}: {:.1} % load.", u * 100.0);
    }
    let _ = writeln!(s, " */");
}

/// The defines: each task's core and cores, the tasks per core, each
/// task's index (`order`: the tasks by name, `ids` their C names).
fn defines(s: &mut String, a: &Analysis, order: &[usize], ids: &[String], width: usize) {
    let p = &a.placement;
    let cores = a.platform.cores;
    let pct = |x: u64, of: u64| if of == 0 { 0.0 } else { x as f64 * 100.0 / of as f64 };
    let _ = writeln!(s, "#define CORERA_NUM_CORES {cores}");
    let _ = writeln!(s, "#define CORERA_NUM_TASKS {}\n", p.len());
    let _ = writeln!(s, "/* Core of each task. */");
    let horizon = a.graph.duration_ns;
    for (k, &i) in order.iter().enumerate() {
        let _ = writeln!(
            s,
            "#define CORERA_CORE_{:<width$} {}  /* {}, {:.2} % */",
            ids[k],
            p[i].core,
            p[i].task.replace("*/", "* /"),
            pct(p[i].load_ns, horizon)
        );
    }
    let _ = writeln!(
        s,
        "\n/* Cores each task may run on, bit n for core n: one bit for a task bound to its\n \
         * core, several for one that floats (its affinity mask; ISRs never float). */"
    );
    for (k, &i) in order.iter().enumerate() {
        let _ = writeln!(s, "#define CORERA_CORES_{:<width$} {}", ids[k], mask_literal(&p[i]));
    }
    let _ = writeln!(s, "\n/* Tasks per core (that each starts on). */");
    for c in 0..cores {
        let on: Vec<&str> =
            order.iter().enumerate().filter(|(_, i)| p[**i].core == c).map(|(k, _)| ids[k].as_str()).collect();
        let _ = writeln!(s, "#define CORERA_CORE{c}_NUM_TASKS {}", on.len());
        let list: Vec<String> = on.iter().map(|id| format!("CORERA_TASK_ID_{id}")).collect();
        let _ = writeln!(
            s,
            "#define CORERA_CORE{c}_TASKS {{ {} }}",
            if list.is_empty() { "0".to_string() } else { list.join(", ") }
        );
    }
    let _ = writeln!(s, "\n/* Index of each task in the task -> core table. */");
    for (k, id) in ids.iter().enumerate() {
        let _ = writeln!(s, "#define CORERA_TASK_ID_{id:<width$} {k}");
    }
}

/// The task -> core table type and its initialiser.
fn table(s: &mut String, a: &Analysis, order: &[usize], ids: &[String]) {
    let p = &a.placement;
    let _ = writeln!(
        s,
        "\ntypedef struct corera_task_core {{\n    const char *name;\n    unsigned core;\n    \
         unsigned long long cores;\n}} corera_task_core_t;\n"
    );
    let _ = writeln!(s, "/* Task -> core (and cores) table, sorted by task name. */");
    let _ = writeln!(s, "#define CORERA_TASK_CORE_TABLE_INIT {{ \\");
    for (k, &i) in order.iter().enumerate() {
        let sep = if k + 1 == order.len() { "" } else { "," };
        let id = &ids[k];
        let _ = writeln!(s, "    {{ {}, CORERA_CORE_{id}, CORERA_CORES_{id} }}{sep} \\", c_string(&p[i].task));
    }
    let _ = writeln!(s, "}}\n");
    let _ = writeln!(s, "#ifdef CORERA_AFFINITY_TABLE");
    let _ = writeln!(
        s,
        "static const corera_task_core_t corera_task_cores[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;"
    );
    let _ = writeln!(s, "#endif\n");
}

/// A task's cores as a C constant (bit n for core n); cores above 63
/// cannot be expressed and are left out (the table's `core` still holds).
fn mask_literal(p: &PlacedTask) -> String {
    let cores: Vec<u16> = if p.cores.is_empty() { vec![p.core] } else { p.cores.clone() };
    let mask = cores.iter().filter(|&&c| c < 64).fold(0u64, |m, &c| m | 1 << c);
    format!("{mask:#x}ull")
}

/// Placement indices sorted by task name (ties by index).
pub(super) fn by_name(p: &[PlacedTask]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[a].task.cmp(&p[b].task).then(a.cmp(&b)));
    order
}
