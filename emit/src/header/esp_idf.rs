//! ESP-IDF: FreeRTOS as ESP-IDF ships it (ESP32, ESP32-S3, ESP32-P4). A
//! task is pinned when it is created, with `xTaskCreatePinnedToCore(...,
//! core)` where core is 0, 1 or `tskNO_AFFINITY`; there is no
//! `vTaskCoreAffinitySet`, and at most two cores. On two cores every mask
//! is one core or both, so every placement of at most two cores is
//! expressed exactly; more cores are refused.

use std::fmt::Write as _;

use crate::records::Analysis;

/// The most cores ESP-IDF's FreeRTOS runs on.
const MAX_CORES: u16 = 2;

/// Refuses a placement on more cores than ESP-IDF has.
pub(super) fn check(a: &Analysis) -> Result<(), crate::Unexpressible> {
    if a.platform.cores > MAX_CORES {
        return Err(crate::Unexpressible(format!(
            "ESP-IDF runs FreeRTOS on at most {MAX_CORES} cores and this placement uses {} (platform `{}`): analyse \
             with --platform esp32, or choose another --target",
            a.platform.cores, a.platform.name
        )));
    }
    Ok(())
}

/// The ESP-IDF part: `rows` per task in the header's order: its core
/// (`None` for a task that floats over both), whether it is an ISR.
pub(super) fn esp_idf(s: &mut String, ids: &[String], width: usize, rows: &[(Option<u16>, bool)]) {
    let _ = writeln!(
        s,
        "/* ESP-IDF: include after \"freertos/FreeRTOS.h\" and \"freertos/task.h\". ESP-IDF pins a task when\n \
         * it is created, with xTaskCreatePinnedToCore(..., core): core 0, 1 or tskNO_AFFINITY (either\n \
         * core). It has no vTaskCoreAffinitySet(), so create each task with CORERA_ESP_CREATE(). */\n\
         #if defined(CONFIG_FREERTOS_UNICORE) && (CORERA_NUM_CORES > 1)\n\
         #error \"corera placed tasks on CORERA_NUM_CORES cores but CONFIG_FREERTOS_UNICORE runs FreeRTOS on one: disable it in menuconfig\"\n\
         #endif\n\
         #if defined(CONFIG_FREERTOS_NUMBER_OF_CORES) && (CONFIG_FREERTOS_NUMBER_OF_CORES < CORERA_NUM_CORES)\n\
         #error \"corera placed tasks on CORERA_NUM_CORES cores but CONFIG_FREERTOS_NUMBER_OF_CORES is smaller\"\n\
         #endif\n"
    );
    let _ = writeln!(
        s,
        "/* Core of each task for xTaskCreatePinnedToCore(). ISRs: allocate the interrupt with\n \
         * esp_intr_alloc() from a task running on that core (it binds to the calling core). */"
    );
    for (id, (core, isr)) in ids.iter().zip(rows) {
        let value = match core {
            Some(c) => c.to_string(),
            None => "tskNO_AFFINITY".to_string(),
        };
        let note = if *isr { "  /* ISR */" } else { "" };
        let _ = writeln!(s, "#define CORERA_ESP_CORE_{id:<width$} {value}{note}");
    }
    let _ = writeln!(
        s,
        "\n/* Creates a task pinned as placed: CORERA_ESP_CREATE(TASK, code, name, stack, params, prio,\n \
         * &handle) with TASK the task's identifier (e.g. RASTERIZER). */\n\
         #define CORERA_ESP_CREATE(TASK, code, name, stack, params, prio, handle) \\\n    \
         xTaskCreatePinnedToCore((code), (name), (stack), (params), (prio), (handle), CORERA_ESP_CORE_##TASK)\n\n\
         /* Core of placed task `index` (a CORERA_TASK_ID_ value) for xTaskCreatePinnedToCore(). */\n\
         static inline BaseType_t corera_esp_core(unsigned index) {{\n    \
         static const corera_task_core_t table[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;\n    \
         if (index >= CORERA_NUM_TASKS) return tskNO_AFFINITY;\n    \
         return (table[index].cores & (table[index].cores - 1ull)) ? tskNO_AFFINITY : (BaseType_t)table[index].core;\n}}\n"
    );
}
