//! ThreadX SMP: `tx_thread_smp_core_exclude()` takes an *exclusion* map
//! (bit n set keeps the thread off core n), the inverse of an affinity
//! mask. corera places threads, not timers: application timers keep
//! ThreadX's default (`tx_timer_smp_core_exclude()` is the user's call).

use std::fmt::Write as _;

/// The ThreadX part.
pub(super) fn threadx(s: &mut String, ids: &[String], width: usize) {
    let _ = writeln!(
        s,
        "/* ThreadX SMP: include after tx_api.h (from a ports_smp port). tx_thread_smp_core_exclude()\n \
         * takes an exclusion map: bit n set keeps the thread off core n. Create each thread with\n \
         * TX_DONT_START, call corera_threadx_exclude(), then tx_thread_resume(). ISRs: route their\n \
         * interrupts to CORERA_CORE_<ISR> in the interrupt controller. */\n\
         #ifndef TX_THREAD_SMP_MAX_CORES\n\
         #error \"the placement needs ThreadX SMP: include tx_api.h of an SMP port (TX_THREAD_SMP_MAX_CORES)\"\n\
         #endif\n\
         #if TX_THREAD_SMP_MAX_CORES < CORERA_NUM_CORES\n\
         #error \"corera placed threads on CORERA_NUM_CORES cores but TX_THREAD_SMP_MAX_CORES is smaller\"\n\
         #endif\n\
         #if TX_THREAD_SMP_MAX_CORES > 32\n\
         #error \"ThreadX exclusion maps hold at most 32 cores\"\n\
         #endif\n\n\
         /* Every core ThreadX runs on, as an exclusion map. */\n\
         #define CORERA_THREADX_ALL_CORES ((ULONG)((1ull << TX_THREAD_SMP_MAX_CORES) - 1ull))\n"
    );
    let _ = writeln!(s, "/* Exclusion map of each thread: every core it must not run on. */");
    for id in ids {
        let _ =
            writeln!(s, "#define CORERA_EXCLUDE_{id:<width$} ((ULONG)(~CORERA_CORES_{id}) & CORERA_THREADX_ALL_CORES)");
    }
    let _ = writeln!(
        s,
        "\n/* Keeps `thread` to the cores of placed task `index` (a CORERA_TASK_ID_ value); returns\n \
         * tx_thread_smp_core_exclude()'s status (TX_SUCCESS), or TX_THREAD_ERROR for a bad index. */\n\
         static inline UINT corera_threadx_exclude(TX_THREAD *thread, unsigned index) {{\n    \
         static const corera_task_core_t table[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;\n    \
         if (index >= CORERA_NUM_TASKS) return TX_THREAD_ERROR;\n    \
         return tx_thread_smp_core_exclude(thread, (ULONG)(~table[index].cores) & CORERA_THREADX_ALL_CORES);\n}}\n"
    );
}
