//! POSIX threads on Linux: `cpu_set_t` and `pthread_setaffinity_np`.

use std::fmt::Write as _;

use super::cpu_set_function;

/// POSIX threads on Linux: define `_GNU_SOURCE` and include `<pthread.h>`
/// and `<sched.h>` first.
pub(super) fn posix(s: &mut String) {
    let _ = writeln!(
        s,
        "/* POSIX threads on Linux: define _GNU_SOURCE and include <pthread.h> and <sched.h>\n \
         * before this header. */\n"
    );
    cpu_set_function(s, "corera_cpu_set");
    let _ = writeln!(
        s,
        "/* Sets thread `thread` to the CPUs of task `index`; returns pthread_setaffinity_np's result. */\n\
         static inline int corera_pin_pthread(pthread_t thread, unsigned index) {{\n    \
         cpu_set_t set;\n    \
         corera_cpu_set(index, &set);\n    \
         return pthread_setaffinity_np(thread, sizeof set, &set);\n}}\n"
    );
}
