//! NuttX SMP: a `cpu_set_t` per task (`CPU_ZERO` first, then `CPU_SET`),
//! applied with `sched_setaffinity()`. Tasks inherit their creator's
//! affinity, and the default is `CONFIG_SMP_DEFAULT_CPUSET`.

use std::fmt::Write as _;

use super::cpu_set_function;

/// The NuttX part.
pub(super) fn nuttx(s: &mut String) {
    let _ = writeln!(
        s,
        "/* NuttX SMP (CONFIG_SMP=y): include after <sched.h>. A task inherits the affinity of the task\n \
         * that created it (the first ones CONFIG_SMP_DEFAULT_CPUSET): pin each task right after\n \
         * creating it, before it creates others, or every child starts on its parent's CPUs.\n \
         * ISRs: route their interrupts to CORERA_CORE_<ISR> (up_affinity_irq()). */\n\
         #if defined(CONFIG_SMP_NCPUS) && (CONFIG_SMP_NCPUS < CORERA_NUM_CORES)\n\
         #error \"corera placed tasks on CORERA_NUM_CORES CPUs but CONFIG_SMP_NCPUS is smaller\"\n\
         #endif\n"
    );
    cpu_set_function(s, "corera_nuttx_cpu_set");
    let _ = writeln!(
        s,
        "/* Sets task `pid` to the CPUs of placed task `index`; returns sched_setaffinity()'s result. */\n\
         static inline int corera_nuttx_pin(pid_t pid, unsigned index) {{\n    \
         cpu_set_t set;\n    \
         corera_nuttx_cpu_set(index, &set);\n    \
         return sched_setaffinity(pid, sizeof set, &set);\n}}\n"
    );
}
