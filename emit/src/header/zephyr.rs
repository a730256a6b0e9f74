//! Zephyr SMP: CPU masks (`CONFIG_SCHED_CPU_MASK`). A mask may change only
//! while the thread is not runnable (create it with `K_FOREVER`, set the
//! mask, then `k_thread_start`); under `CONFIG_SCHED_CPU_MASK_PIN_ONLY` a
//! thread holds exactly one CPU at all times, so the header pins with
//! `k_thread_cpu_pin` there and stops when the placement lets threads
//! float; masks cover at most 16 CPUs.

use std::fmt::Write as _;

/// The most CPUs a Zephyr CPU mask holds.
const MAX_CPUS: u16 = 16;

/// Zephyr: include after `zephyr/kernel.h` (and `string.h`); `floating`
/// threads have more than one CPU.
pub(super) fn zephyr(s: &mut String, ids: &[String], width: usize, floating: usize) {
    let _ = writeln!(
        s,
        "/* Zephyr SMP (CONFIG_SCHED_CPU_MASK=y, CONFIG_THREAD_NAME=y): include after\n \
         * <zephyr/kernel.h> and <string.h>. A thread's CPU mask may change only while it is not\n \
         * runnable: create it with K_FOREVER, then corera_zephyr_start(thread, CORERA_TASK_ID_<TASK>). */\n\
         #if defined(CONFIG_MP_MAX_NUM_CPUS) && (CONFIG_MP_MAX_NUM_CPUS < CORERA_NUM_CORES)\n\
         #error \"corera placed threads on CORERA_NUM_CORES CPUs but CONFIG_MP_MAX_NUM_CPUS is smaller\"\n\
         #endif\n\
         #if CORERA_NUM_CORES > {MAX_CPUS}\n\
         #error \"Zephyr's CPU masks hold at most {MAX_CPUS} CPUs and the placement uses CORERA_NUM_CORES\"\n\
         #endif\n\n\
         /* Threads that may run on several CPUs. */\n\
         #define CORERA_NUM_FLOATING {floating}\n\
         #if defined(CONFIG_SCHED_CPU_MASK_PIN_ONLY) && (CORERA_NUM_FLOATING > 0)\n\
         #error \"CONFIG_SCHED_CPU_MASK_PIN_ONLY keeps every thread on one CPU, but the placement lets CORERA_NUM_FLOATING threads float over several: disable it, or place with one core per task\"\n\
         #endif\n"
    );
    let _ = writeln!(s, "/* CPU mask of each thread. */");
    for id in ids {
        let _ = writeln!(s, "#define CORERA_CPU_MASK_{id:<width$} CORERA_CORES_{id}");
    }
    let _ = writeln!(
        s,
        "\n/* Sets `thread` (not yet started) to the CPUs of placed task `index`; 0 or a negative errno. */\n\
         static inline int corera_zephyr_set(k_tid_t thread, unsigned index) {{\n    \
         static const corera_task_core_t table[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;\n    \
         if (index >= CORERA_NUM_TASKS) return -EINVAL;\n\
         #if defined(CONFIG_SCHED_CPU_MASK_PIN_ONLY)\n    \
         return k_thread_cpu_pin(thread, (int)table[index].core);\n\
         #else\n    \
         {{\n        \
         int cpu, err = k_thread_cpu_mask_clear(thread);\n        \
         for (cpu = 0; cpu < CORERA_NUM_CORES && err == 0; cpu++) {{\n            \
         if (table[index].cores >> cpu & 1ull) err = k_thread_cpu_mask_enable(thread, cpu);\n        \
         }}\n        \
         return err;\n    \
         }}\n\
         #endif\n\
         }}\n\n\
         /* Sets `thread`, created with K_FOREVER, to its CPUs and starts it; 0 or a negative errno. */\n\
         static inline int corera_zephyr_start(k_tid_t thread, unsigned index) {{\n    \
         int err = corera_zephyr_set(thread, index);\n    \
         if (err == 0) k_thread_start(thread);\n    \
         return err;\n}}\n\n\
         struct corera_zephyr_apply {{\n    unsigned pinned;\n    int errors;\n}};\n\n\
         static inline void corera_zephyr_pin_one(const struct k_thread *thread, void *user_data) {{\n    \
         static const corera_task_core_t table[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;\n    \
         struct corera_zephyr_apply *result = user_data;\n    \
         const char *name = k_thread_name_get((k_tid_t)thread);\n    \
         unsigned i;\n    \
         if (name == NULL) return;\n    \
         for (i = 0; i < CORERA_NUM_TASKS; i++) {{\n        \
         if (strcmp(name, table[i].name) == 0) {{\n            \
         if (corera_zephyr_set((k_tid_t)thread, i) == 0) result->pinned++;\n            \
         else result->errors++;\n            return;\n        }}\n    }}\n}}\n\n\
         /* Sets every named thread of the table to its CPUs (threads must not be runnable:\n \
         * call before starting them); returns the number pinned, or -1 on any error. */\n\
         static inline int corera_apply_zephyr(void) {{\n    \
         struct corera_zephyr_apply result = {{0, 0}};\n    \
         k_thread_foreach(corera_zephyr_pin_one, &result);\n    \
         return result.errors ? -1 : (int)result.pinned;\n}}\n"
    );
}
