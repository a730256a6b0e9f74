//! FreeRTOS SMP: affinity masks for `vTaskCoreAffinitySet`, creation with
//! `xTaskCreateAffinitySet`, and the by-name apply.

use std::fmt::Write as _;

use super::c_string;

/// FreeRTOS SMP: include after `FreeRTOS.h` and `task.h`. The header
/// checks the kernel configuration it needs and says how to fix it; the
/// by-name `corera_apply_freertos()` needs `INCLUDE_xTaskGetHandle`, and
/// without it the header stops with the two ways out (enable it, or pin by
/// handle with `corera_freertos_pin_handle()`).
///
/// `multiple_priorities` is the rule the replays ran by (`None`: no replay):
/// FreeRTOS SMP runs every priority at once only with
/// `configRUN_MULTIPLE_PRIORITIES` 1, whatever the affinities, so a kernel
/// configured otherwise would not do what the recommendation was judged on.
pub(super) fn freertos(
    s: &mut String,
    ids: &[String],
    width: usize,
    tasks: &[(&str, &str)],
    multiple_priorities: Option<bool>,
) {
    let _ = writeln!(
        s,
        "/* FreeRTOS SMP: include after FreeRTOS.h and task.h. */\n\
         #if !defined(configNUMBER_OF_CORES) || (configNUMBER_OF_CORES < CORERA_NUM_CORES)\n\
         #error \"corera placed tasks on CORERA_NUM_CORES cores: include FreeRTOS.h first and set configNUMBER_OF_CORES to at least that in FreeRTOSConfig.h\"\n\
         #endif\n\
         #if (CORERA_NUM_CORES > 1) && (!defined(configUSE_CORE_AFFINITY) || (configUSE_CORE_AFFINITY != 1))\n\
         #error \"the placement pins tasks with vTaskCoreAffinitySet(): set configUSE_CORE_AFFINITY to 1 in FreeRTOSConfig.h\"\n\
         #endif\n"
    );
    match multiple_priorities {
        Some(true) => {
            let _ = writeln!(
                s,
                "#if (CORERA_NUM_CORES > 1) && (!defined(configRUN_MULTIPLE_PRIORITIES) || (configRUN_MULTIPLE_PRIORITIES != 1))\n\
                 #error \"corera judged this placement with tasks of different priorities running at once on different cores: set configRUN_MULTIPLE_PRIORITIES to 1 in FreeRTOSConfig.h, or analyse again with run_multiple_priorities = false in the platform file\"\n\
                 #endif\n"
            );
        }
        Some(false) => {
            let _ = writeln!(
                s,
                "#if (CORERA_NUM_CORES > 1) && defined(configRUN_MULTIPLE_PRIORITIES) && (configRUN_MULTIPLE_PRIORITIES != 0)\n\
                 #error \"corera judged this placement with one priority at a time across the cores (configRUN_MULTIPLE_PRIORITIES 0, the kernel's default): set it to 0 in FreeRTOSConfig.h, or analyse again with run_multiple_priorities = true in the platform file\"\n\
                 #endif\n"
            );
        }
        None => {}
    }
    let _ = writeln!(s, "/* Core affinity mask of each task, for vTaskCoreAffinitySet(). */");
    for id in ids {
        let _ = writeln!(s, "#define CORERA_AFFINITY_MASK_{id:<width$} ((UBaseType_t)CORERA_CORES_{id})");
    }
    let _ = writeln!(
        s,
        "\n#if (CORERA_NUM_CORES > 1)\n\
         /* Sets the task behind `handle` to the cores of placed task `index` (a\n \
         * CORERA_TASK_ID_ value), e.g. right after xTaskCreate(). */\n\
         static inline void corera_freertos_pin_handle(TaskHandle_t handle, unsigned index) {{\n    \
         static const corera_task_core_t table[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;\n    \
         if (handle != NULL && index < CORERA_NUM_TASKS) vTaskCoreAffinitySet(handle, (UBaseType_t)table[index].cores);\n\
         }}\n\n\
         #if (tskKERNEL_VERSION_MAJOR >= 11) && (configSUPPORT_DYNAMIC_ALLOCATION == 1)\n\
         /* Creates placed task `index` (a CORERA_TASK_ID_ value) with its affinity already set, with\n \
         * xTaskCreateAffinitySet() (FreeRTOS V11 and later): prefer this to setting the affinity after\n \
         * xTaskCreate(), which races with the scheduler once it runs (a task set on a running\n \
         * scheduler does not yield to move). */\n\
         static inline BaseType_t corera_freertos_create(TaskFunction_t code, const char *name,\n    \
         configSTACK_DEPTH_TYPE stack, void *params, UBaseType_t priority, unsigned index, TaskHandle_t *handle) {{\n    \
         static const corera_task_core_t table[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;\n    \
         if (index >= CORERA_NUM_TASKS) return pdFAIL;\n    \
         return xTaskCreateAffinitySet(code, name, stack, params, priority, (UBaseType_t)table[index].cores, handle);\n\
         }}\n\
         #endif\n\n\
         #if defined(INCLUDE_xTaskGetHandle) && (INCLUDE_xTaskGetHandle == 1)\n\
         /* Sets task `name` to the cores of `mask`; returns 1 when no such task exists. */\n\
         static inline unsigned corera_freertos_pin(const char *name, UBaseType_t mask) {{\n    \
         TaskHandle_t handle = xTaskGetHandle(name);\n    \
         if (handle == NULL) return 1;\n    \
         vTaskCoreAffinitySet(handle, mask);\n    \
         return 0;\n}}\n\n\
         /* Sets every task of the placement to its cores (ISRs are left out: route their interrupts to\n \
         * CORERA_CORE_<ISR> in the interrupt controller); returns how many were not found.\n \
         * Call after creating the tasks, before vTaskStartScheduler(). */\n\
         static inline unsigned corera_apply_freertos(void) {{\n    unsigned missing = 0;"
    );
    for (name, id) in tasks {
        let _ = writeln!(s, "    missing += corera_freertos_pin({}, CORERA_AFFINITY_MASK_{id});", c_string(name));
    }
    let _ = writeln!(
        s,
        "    return missing;\n}}\n\
         #elif !defined(CORERA_FREERTOS_NO_APPLY)\n\
         #error \"corera_apply_freertos() finds tasks by name with xTaskGetHandle(): set INCLUDE_xTaskGetHandle to 1 in FreeRTOSConfig.h, or define CORERA_FREERTOS_NO_APPLY before including this header and call corera_freertos_pin_handle(handle, CORERA_TASK_ID_<TASK>) for each task you create\"\n\
         #endif\n\
         #endif /* CORERA_NUM_CORES > 1 */\n"
    );
}
