//! The generated header compiles warning-free as C99 and its table agrees
//! with the JSON placement.

use std::process::Command;

use crate::corera;

#[test]
fn header_compiles_and_matches_the_json() {
    let dir = tempfile::tempdir().unwrap();
    corera()
        .args(["analyze", "samples/printer/printer.log", "--cores", "3", "--replay-budget", "40", "-o"])
        .arg(dir.path())
        .assert()
        .success();
    let program = dir.path().join("check.c");
    std::fs::write(
        &program,
        r#"#define CORERA_AFFINITY_TABLE
#include "affinity.h"
#include <stdio.h>

static const unsigned core0[] = CORERA_CORE0_TASKS;

int main(void) {
    unsigned i, on0 = 0;
    for (i = 0; i < CORERA_NUM_TASKS; i++) {
        printf("%s=%u\n", corera_task_cores[i].name, corera_task_cores[i].core);
        if (corera_task_cores[i].core == 0) on0++;
    }
    if (on0 != CORERA_CORE0_NUM_TASKS || sizeof core0 / sizeof core0[0] != on0) return 1;
    for (i = 0; i < on0; i++) if (corera_task_cores[core0[i]].core != 0) return 2;
    return CORERA_CORE_RASTERIZER < CORERA_NUM_CORES ? 0 : 3;
}
"#,
    )
    .unwrap();
    let exe = dir.path().join("check");
    let cc = Command::new("gcc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-o"])
        .arg(&exe)
        .arg(&program)
        .current_dir(dir.path())
        .output()
        .expect("gcc is installed (.ci/run installs it)");
    assert!(cc.status.success(), "{}", String::from_utf8_lossy(&cc.stderr));
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success(), "exit {:?}", run.status.code());
    let mut from_c: Vec<String> = String::from_utf8(run.stdout).unwrap().lines().map(String::from).collect();
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("analysis.json")).unwrap()).unwrap();
    let mut from_json: Vec<String> = json["placement"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{}={}", p["task"].as_str().unwrap(), p["core"]))
        .collect();
    from_c.sort();
    from_json.sort();
    assert_eq!(from_c, from_json);
    assert_eq!(from_c.len(), 24);
}

/// Stand-ins for each RTOS API, with the real signatures, that record what
/// the header's apply function did; each program prints `name=mask` lines
/// (bit n: core n).
const FREERTOS_CHECK: &str = r#"#include <stddef.h>
#include <stdio.h>
#include <string.h>
/* FreeRTOS stand-ins (signatures as in FreeRTOS-Kernel 11 task.h). */
typedef unsigned long UBaseType_t;
typedef struct tskTaskControlBlock *TaskHandle_t;
#define configNUMBER_OF_CORES 3
#define configUSE_CORE_AFFINITY 1
#define configRUN_MULTIPLE_PRIORITIES 1
#define INCLUDE_xTaskGetHandle 1
struct tskTaskControlBlock { const char *name; UBaseType_t mask; };
static struct tskTaskControlBlock tcbs[64];
static unsigned ntcbs;
TaskHandle_t xTaskGetHandle(const char *pcNameToQuery);
void vTaskCoreAffinitySet(const TaskHandle_t xTask, UBaseType_t uxCoreAffinityMask);
TaskHandle_t xTaskGetHandle(const char *pcNameToQuery) {
    unsigned i;
    for (i = 0; i < ntcbs; i++) if (strcmp(tcbs[i].name, pcNameToQuery) == 0) return &tcbs[i];
    return NULL;
}
void vTaskCoreAffinitySet(const TaskHandle_t xTask, UBaseType_t uxCoreAffinityMask) { xTask->mask = uxCoreAffinityMask; }
#include "affinity_freertos.h"
int main(void) {
    static const corera_task_core_t all[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;
    unsigned i;
    for (i = 0; i < CORERA_NUM_TASKS; i++) tcbs[ntcbs++].name = all[i].name;
    if (corera_apply_freertos() != 0) return 1;
    for (i = 0; i < ntcbs; i++) {
        if (tcbs[i].mask == 0) continue;
        if (!(tcbs[i].mask >> all[i].core & 1ul)) return 2;
        printf("%s=%lu\n", tcbs[i].name, tcbs[i].mask);
    }
    return CORERA_AFFINITY_MASK_RASTERIZER == CORERA_CORES_RASTERIZER ? 0 : 3;
}
"#;

const ZEPHYR_CHECK: &str = r#"#include <errno.h>
#include <stdio.h>
#include <string.h>
/* Zephyr stand-ins (signatures as in zephyr/kernel.h, 3.x). */
#define BIT(n) (1UL << (n))
#define CONFIG_MP_MAX_NUM_CPUS 4
struct k_thread { const char *name; unsigned long mask; };
typedef struct k_thread *k_tid_t;
typedef void (*k_thread_user_cb_t)(const struct k_thread *thread, void *user_data);
static struct k_thread threads[64];
static unsigned nthreads;
void k_thread_foreach(k_thread_user_cb_t user_cb, void *user_data);
const char *k_thread_name_get(k_tid_t thread);
int k_thread_cpu_mask_clear(k_tid_t thread);
int k_thread_cpu_mask_enable(k_tid_t thread, int cpu);
void k_thread_foreach(k_thread_user_cb_t user_cb, void *user_data) {
    unsigned i;
    for (i = 0; i < nthreads; i++) user_cb(&threads[i], user_data);
}
const char *k_thread_name_get(k_tid_t thread) { return thread->name; }
int k_thread_cpu_mask_clear(k_tid_t thread) { thread->mask = 0; return 0; }
int k_thread_cpu_mask_enable(k_tid_t thread, int cpu) { thread->mask |= BIT(cpu); return 0; }
int k_thread_cpu_pin(k_tid_t thread, int cpu) { thread->mask = BIT(cpu); return 0; }
void k_thread_start(k_tid_t thread) { thread->name = "started"; }
#include "affinity_zephyr.h"
int main(void) {
    static const corera_task_core_t all[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;
    unsigned i;
    threads[nthreads++].name = "idle";
    for (i = 0; i < CORERA_NUM_TASKS; i++) threads[nthreads++].name = all[i].name;
    if (corera_apply_zephyr() != CORERA_NUM_TASKS) return 1;
    for (i = 1; i < nthreads; i++) printf("%s=%lu\n", threads[i].name, threads[i].mask);
    return threads[0].mask == 0 && CORERA_CPU_MASK_RASTERIZER == CORERA_CORES_RASTERIZER ? 0 : 3;
}
"#;

/// ThreadX SMP stand-ins (types, codes and the service's signature as in
/// ThreadX 6.4's `tx_api.h` with a `ports_smp` `tx_port.h`); the service
/// records the exclusion map each thread is given.
const THREADX_CHECK: &str = r#"#include <stdio.h>
typedef unsigned int UINT;
typedef unsigned long ULONG;
#define TX_SUCCESS ((UINT)0x00)
#define TX_THREAD_ERROR ((UINT)0x0E)
#define TX_THREAD_SMP_MAX_CORES 4
typedef struct TX_THREAD_STRUCT { ULONG tx_thread_smp_core_exclude; } TX_THREAD;
UINT tx_thread_smp_core_exclude(TX_THREAD *thread_ptr, ULONG exclusion_map);
static struct { TX_THREAD *thread; ULONG map; } maps[64];
static unsigned nmaps;
UINT tx_thread_smp_core_exclude(TX_THREAD *thread_ptr, ULONG exclusion_map) {
    maps[nmaps].thread = thread_ptr;
    maps[nmaps++].map = exclusion_map;
    return TX_SUCCESS;
}
#include "affinity_threadx.h"
int main(void) {
    static const corera_task_core_t all[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;
    static TX_THREAD threads[CORERA_NUM_TASKS];
    unsigned i;
    for (i = 0; i < CORERA_NUM_TASKS; i++) {
        if (corera_threadx_exclude(&threads[i], i) != TX_SUCCESS || maps[i].thread != &threads[i]) return 1;
        /* The cores the thread may use: those the map does not exclude. */
        printf("%s=%lu\n", all[i].name, ~maps[i].map & CORERA_THREADX_ALL_CORES);
    }
    return corera_threadx_exclude(&threads[0], CORERA_NUM_TASKS) == TX_THREAD_ERROR
        && CORERA_EXCLUDE_RASTERIZER == (~CORERA_CORES_RASTERIZER & CORERA_THREADX_ALL_CORES) ? 0 : 2;
}
"#;

/// NuttX's `<sched.h>` has glibc's names and signatures for these
/// (`cpu_set_t`, `CPU_ZERO`, `CPU_SET`, `sched_setaffinity(pid_t, size_t,
/// const cpu_set_t *)`), so the Linux one stands in and the pin is real.
const NUTTX_CHECK: &str = r#"#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include "affinity_nuttx.h"
int main(void) {
    static const corera_task_core_t all[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;
    unsigned i, c;
    for (i = 0; i < CORERA_NUM_TASKS; i++) {
        cpu_set_t set;
        unsigned long mask = 0;
        corera_nuttx_cpu_set(i, &set);
        for (c = 0; c < 64; c++) if (CPU_ISSET(c, &set)) mask |= 1ul << c;
        printf("%s=%lu\n", all[i].name, mask);
    }
    for (i = 0; i < CORERA_NUM_TASKS; i++) {
        if (all[i].cores == 1ull) return corera_nuttx_pin(0, i) == 0 ? 0 : 2;
    }
    return 0;
}
"#;

/// ESP-IDF stand-ins: the types and the signature of
/// `xTaskCreatePinnedToCore` as in ESP-IDF 5.x's `freertos/task.h`.
const ESP_IDF_CHECK: &str = r#"#include <stdint.h>
#include <stdio.h>
typedef int BaseType_t;
typedef unsigned int UBaseType_t;
typedef void (*TaskFunction_t)(void *);
typedef void *TaskHandle_t;
#define tskNO_AFFINITY ((BaseType_t)0x7FFFFFFF)
static BaseType_t created_on = -1;
BaseType_t xTaskCreatePinnedToCore(TaskFunction_t pvTaskCode, const char *const pcName, const uint32_t usStackDepth,
                                   void *const pvParameters, UBaseType_t uxPriority, TaskHandle_t *const pvCreatedTask,
                                   const BaseType_t xCoreID);
BaseType_t xTaskCreatePinnedToCore(TaskFunction_t pvTaskCode, const char *const pcName, const uint32_t usStackDepth,
                                   void *const pvParameters, UBaseType_t uxPriority, TaskHandle_t *const pvCreatedTask,
                                   const BaseType_t xCoreID) {
    (void)pvTaskCode; (void)pcName; (void)usStackDepth; (void)pvParameters; (void)uxPriority; (void)pvCreatedTask;
    created_on = xCoreID;
    return 1;
}
#include "affinity_esp_idf.h"
static void body(void *arg) { (void)arg; }
int main(void) {
    static const corera_task_core_t all[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;
    TaskHandle_t handle;
    unsigned i;
    for (i = 0; i < CORERA_NUM_TASKS; i++) {
        BaseType_t core = corera_esp_core(i);
        if (core == tskNO_AFFINITY) printf("%s=any\n", all[i].name);
        else printf("%s=%d\n", all[i].name, (int)core);
    }
    CORERA_ESP_CREATE(RASTERIZER, body, "Rasterizer", 4096, NULL, 5, &handle);
    return created_on == corera_esp_core(CORERA_TASK_ID_RASTERIZER) ? 0 : 2;
}
"#;

const POSIX_CHECK: &str = r#"#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include "affinity_posix.h"
int main(void) {
    static const corera_task_core_t all[CORERA_NUM_TASKS] = CORERA_TASK_CORE_TABLE_INIT;
    unsigned i, c;
    for (i = 0; i < CORERA_NUM_TASKS; i++) {
        cpu_set_t set;
        unsigned long mask = 0;
        corera_cpu_set(i, &set);
        for (c = 0; c < 64; c++) if (CPU_ISSET(c, &set)) mask |= 1ul << c;
        if (!CPU_ISSET(all[i].core, &set)) return 1;
        printf("%s=%lu\n", all[i].name, mask);
    }
    /* Pinning this thread to a task's CPUs really works (core 0 exists everywhere). */
    for (i = 0; i < CORERA_NUM_TASKS; i++) {
        if (all[i].cores == 1ull) return corera_pin_pthread(pthread_self(), i) == 0 ? 0 : 2;
    }
    return 0;
}
"#;

/// A placed task: name, home core, mask of cores, whether it is an ISR.
type Placed = (String, u64, u64, bool);

/// An analysis of the printer on three cores with some tasks floating:
/// the analysis `analyze` wrote, three of its tasks given a mask by hand
/// (so that the masks are there whatever the search chose), read back by
/// `emit`. Returns its directory, the analysis file and the placement as
/// `(task, core, mask, isr)`.
fn analysis_with_masks() -> (tempfile::TempDir, std::path::PathBuf, Vec<Placed>) {
    analysis_on(3, true)
}

/// The printer's analysis on `cores` cores, read back by `emit`; with
/// `masks`, three tasks given two cores by hand.
fn analysis_on(cores: u64, masks: bool) -> (tempfile::TempDir, std::path::PathBuf, Vec<Placed>) {
    let dir = tempfile::tempdir().unwrap();
    corera()
        .args(["analyze", "samples/printer/printer.log", "--cores", &cores.to_string(), "-q", "--replay-budget", "60"])
        .arg("-o")
        .arg(dir.path())
        .assert()
        .success();
    let path = dir.path().join("analysis.json");
    let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    for entry in json["placement"].as_array_mut().unwrap() {
        let core = entry["core"].as_u64().unwrap();
        let float = masks && ["Rasterizer", "Logger", "HttpServer"].iter().any(|n| entry["task"] == *n);
        entry["cores"] = if float {
            let other = (core + 1) % cores;
            serde_json::json!([core.min(other), core.max(other)])
        } else {
            serde_json::json!([core])
        };
    }
    std::fs::write(&path, corera_emit::to_json(&json)).unwrap();
    let placement = json["placement"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let mask = p["cores"].as_array().unwrap().iter().fold(0u64, |m, c| m | 1 << c.as_u64().unwrap());
            (p["task"].as_str().unwrap().to_string(), p["core"].as_u64().unwrap(), mask, p["kind"] == "isr")
        })
        .collect();
    (dir, path, placement)
}

#[test]
fn every_header_variant_compiles_against_its_api_and_sets_the_json_masks() {
    let (dir, analysis, placement) = analysis_with_masks();
    assert!(placement.iter().filter(|p| p.2.count_ones() > 1).count() >= 3, "masks to check: {placement:?}");
    assert_eq!(placement.iter().filter(|p| p.3).count(), 3, "three ISRs");
    let expect = |skip_isrs: bool| {
        let mut lines: Vec<String> =
            placement.iter().filter(|p| !skip_isrs || !p.3).map(|(t, _, m, _)| format!("{t}={m}")).collect();
        lines.sort();
        lines
    };
    for (target, file, program, skip_isrs) in [
        ("freertos", "affinity_freertos.h", FREERTOS_CHECK, true),
        ("zephyr", "affinity_zephyr.h", ZEPHYR_CHECK, false),
        ("posix", "affinity_posix.h", POSIX_CHECK, false),
        ("threadx", "affinity_threadx.h", THREADX_CHECK, false),
        ("nuttx", "affinity_nuttx.h", NUTTX_CHECK, false),
    ] {
        corera()
            .arg("emit")
            .arg(&analysis)
            .args(["-q", "--target", target, "-o"])
            .arg(dir.path().join(file))
            .assert()
            .success();
        let got = compile_and_run(dir.path(), &format!("check_{target}"), program, &[])
            .unwrap_or_else(|e| panic!("{target}: {e}"));
        assert_eq!(got, expect(skip_isrs), "{target}");
    }
    // The taskset script: valid shell, one line per task with its cores.
    let script = dir.path().join("affinity.sh");
    corera().arg("emit").arg(&analysis).args(["-q", "--target", "taskset", "-o"]).arg(&script).assert().success();
    let check = Command::new("sh").arg("-n").arg(&script).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    let text = std::fs::read_to_string(&script).unwrap();
    let mut pins: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("pin '"))
        .map(|l| {
            let (name, cores) = l.split_once("' ").unwrap();
            let mask = cores.split(',').fold(0u64, |m, c| m | 1 << c.parse::<u64>().unwrap());
            format!("{name}={mask}")
        })
        .collect();
    pins.sort();
    assert_eq!(pins, expect(false));
    // The FreeRTOS header with masks against the kernel's API too.
    let source = dir.path().join("app.c");
    std::fs::write(&source, FREERTOS_APP).unwrap();
    let cc = gcc_against_freertos(dir.path(), &source, &[]);
    assert!(cc.status.success(), "{}", String::from_utf8_lossy(&cc.stderr));
}

/// Compiles `source` in `dir` against stand-ins for FreeRTOS-Kernel V11's
/// headers ([`FREERTOS_STANDINS`], written beside it), with `defines`.
fn gcc_against_freertos(dir: &std::path::Path, source: &std::path::Path, defines: &[&str]) -> std::process::Output {
    for (name, text) in FREERTOS_STANDINS {
        std::fs::write(dir.join(name), text).unwrap();
    }
    Command::new("gcc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-c", "-o"])
        .arg(dir.join("app.o"))
        .args(defines)
        .arg(format!("-I{}", dir.display()))
        .arg(source)
        .output()
        .expect("gcc is installed (.ci/run installs it)")
}

/// Stand-ins for what `affinity_freertos.h` uses of FreeRTOS-Kernel V11.1
/// (`FreeRTOS.h`, `task.h`): its types, its configuration defaults, and
/// its declarations under the same conditions as the kernel declares them
/// (`vTaskCoreAffinitySet` and `xTaskCreateAffinitySet` only on an SMP
/// kernel with core affinity, `xTaskGetHandle` only with
/// `INCLUDE_xTaskGetHandle`), so that a header relying on something the
/// configuration leaves out fails as it would against the kernel. Written
/// for these tests; the header was also compiled by hand against the
/// kernel's own headers (V11.1, the book's outputs page).
const FREERTOS_STANDINS: [(&str, &str); 3] = [
    (
        "FreeRTOSConfig.h",
        r#"/* An SMP configuration with core affinity (4 cores), as the header needs;
   INCLUDE_xTaskGetHandle and configRUN_MULTIPLE_PRIORITIES are left to the test
   (CORERA_TEST_GET_HANDLE, CORERA_TEST_MULTIPLE_PRIORITIES). */
#define configNUMBER_OF_CORES 4
#define configUSE_CORE_AFFINITY 1
#ifndef CORERA_TEST_MULTIPLE_PRIORITIES
#define CORERA_TEST_MULTIPLE_PRIORITIES 1
#endif
#define configRUN_MULTIPLE_PRIORITIES CORERA_TEST_MULTIPLE_PRIORITIES
#define configUSE_PREEMPTION 1
#define configMAX_PRIORITIES 32
#define configMINIMAL_STACK_SIZE 128
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#ifndef CORERA_TEST_GET_HANDLE
#define CORERA_TEST_GET_HANDLE 1
#endif
#define INCLUDE_xTaskGetHandle CORERA_TEST_GET_HANDLE
"#,
    ),
    (
        "FreeRTOS.h",
        r#"#ifndef INC_FREERTOS_H
#define INC_FREERTOS_H
#include <stddef.h>
#include <stdint.h>
#include "FreeRTOSConfig.h"
typedef long BaseType_t;
typedef unsigned long UBaseType_t;
typedef unsigned long StackType_t;
#define pdFALSE ((BaseType_t)0)
#define pdTRUE ((BaseType_t)1)
#define pdPASS (pdTRUE)
#define pdFAIL (pdFALSE)
#ifndef configNUMBER_OF_CORES
#define configNUMBER_OF_CORES 1
#endif
#ifndef configUSE_CORE_AFFINITY
#define configUSE_CORE_AFFINITY 0
#endif
#ifndef configRUN_MULTIPLE_PRIORITIES
#define configRUN_MULTIPLE_PRIORITIES 0
#endif
#ifndef configSUPPORT_DYNAMIC_ALLOCATION
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#endif
#ifndef configSTACK_DEPTH_TYPE
#define configSTACK_DEPTH_TYPE StackType_t
#endif
#ifndef INCLUDE_xTaskGetHandle
#define INCLUDE_xTaskGetHandle 0
#endif
#endif
"#,
    ),
    (
        "task.h",
        r#"#ifndef INC_TASK_H
#define INC_TASK_H
#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include task.h"
#endif
#define tskKERNEL_VERSION_MAJOR 11
#define tskKERNEL_VERSION_MINOR 1
struct tskTaskControlBlock;
typedef struct tskTaskControlBlock *TaskHandle_t;
typedef void (*TaskFunction_t)(void *arg);
#if ((configUSE_CORE_AFFINITY == 1) && (configNUMBER_OF_CORES > 1))
void vTaskCoreAffinitySet(const TaskHandle_t xTask, UBaseType_t uxCoreAffinityMask);
#endif
#if ((configSUPPORT_DYNAMIC_ALLOCATION == 1) && (configNUMBER_OF_CORES > 1) && (configUSE_CORE_AFFINITY == 1))
BaseType_t xTaskCreateAffinitySet(TaskFunction_t pxTaskCode, const char *const pcName,
    const configSTACK_DEPTH_TYPE uxStackDepth, void *const pvParameters, UBaseType_t uxPriority,
    UBaseType_t uxCoreAffinityMask, TaskHandle_t *const pxCreatedTask);
#endif
#if (INCLUDE_xTaskGetHandle == 1)
TaskHandle_t xTaskGetHandle(const char *pcNameToQuery);
#endif
#endif
"#,
    ),
];

/// Compiles `program` (with `affinity_freertos.h` of a placement on `cores`
/// cores beside it) against the FreeRTOS stand-ins, with `defines`; gcc's
/// result.
fn compile_against_freertos(cores: u16, program: &str, defines: &[&str]) -> std::process::Output {
    compile_against_freertos_on(&cores.to_string(), program, defines)
}

/// [`compile_against_freertos`] on `platform` (`--platform`: a core count
/// or a platform file).
fn compile_against_freertos_on(platform: &str, program: &str, defines: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    corera()
        .args(["emit", "samples/printer/printer.log", "-q", "--replay-budget", "40", "--target", "freertos"])
        .args(["--platform", platform])
        .arg("-o")
        .arg(dir.path().join("affinity_freertos.h"))
        .assert()
        .success();
    let source = dir.path().join("app.c");
    std::fs::write(&source, program).unwrap();
    gcc_against_freertos(dir.path(), &source, defines)
}

const FREERTOS_APP: &str = r#"#include "FreeRTOS.h"
#include "task.h"
#include "affinity_freertos.h"
void start(TaskHandle_t rasterizer);
void start(TaskHandle_t rasterizer) {
    corera_freertos_pin_handle(rasterizer, CORERA_TASK_ID_RASTERIZER);
    if (corera_apply_freertos() != 0) vTaskCoreAffinitySet(rasterizer, CORERA_AFFINITY_MASK_RASTERIZER);
}
/* Creation with the affinity set (xTaskCreateAffinitySet, V11). */
static void body(void *arg) { (void)arg; }
BaseType_t create(TaskHandle_t *handle);
BaseType_t create(TaskHandle_t *handle) {
    return corera_freertos_create(body, "Rasterizer", configMINIMAL_STACK_SIZE, NULL, 1, CORERA_TASK_ID_RASTERIZER, handle);
}
"#;

const FREERTOS_BY_HANDLE: &str = r#"#define CORERA_FREERTOS_NO_APPLY
#include "FreeRTOS.h"
#include "task.h"
#include "affinity_freertos.h"
void start(TaskHandle_t rasterizer);
void start(TaskHandle_t rasterizer) { corera_freertos_pin_handle(rasterizer, CORERA_TASK_ID_RASTERIZER); }
"#;

/// Regression (issue 13): with a stock FreeRTOSConfig.h (no
/// `INCLUDE_xTaskGetHandle`), the header failed with an implicit
/// declaration of `xTaskGetHandle`. Against the kernel's declarations it
/// now compiles when the kernel has what it needs and otherwise stops with
/// an `#error` that names the fix.
#[test]
fn freertos_header_compiles_against_the_kernel_api_or_names_the_fix() {
    let cc = compile_against_freertos(3, FREERTOS_APP, &[]);
    assert!(cc.status.success(), "{}", String::from_utf8_lossy(&cc.stderr));
    let cc = compile_against_freertos(3, FREERTOS_APP, &["-DCORERA_TEST_GET_HANDLE=0"]);
    let stderr = String::from_utf8_lossy(&cc.stderr);
    assert!(!cc.status.success());
    assert!(stderr.contains("#error") && stderr.contains("set INCLUDE_xTaskGetHandle to 1"), "{stderr}");
    assert!(!stderr.contains("implicit declaration of function 'xTaskGetHandle'"), "{stderr}");
    let cc = compile_against_freertos(3, FREERTOS_BY_HANDLE, &["-DCORERA_TEST_GET_HANDLE=0"]);
    assert!(cc.status.success(), "pinning by handle needs no xTaskGetHandle: {}", String::from_utf8_lossy(&cc.stderr));
    // More cores than the kernel is configured for (4).
    let cc = compile_against_freertos(5, FREERTOS_APP, &[]);
    let stderr = String::from_utf8_lossy(&cc.stderr);
    assert!(!cc.status.success() && stderr.contains("set configNUMBER_OF_CORES to at least that"), "{stderr}");
}

/// The header holds the kernel to the rule the replays ran by: FreeRTOS
/// SMP runs tasks of several priorities at once only with
/// `configRUN_MULTIPLE_PRIORITIES` 1. A recommendation judged with it
/// stops a build configured with 0 (the kernel's default), and one judged
/// with one priority at a time (`run_multiple_priorities = false`) stops a
/// build configured with 1; each names the fix.
#[test]
fn freertos_header_holds_the_kernel_to_the_replays_priority_rule() {
    let several = compile_against_freertos(3, FREERTOS_APP, &["-DCORERA_TEST_MULTIPLE_PRIORITIES=0"]);
    let stderr = String::from_utf8_lossy(&several.stderr);
    assert!(!several.status.success() && stderr.contains("set configRUN_MULTIPLE_PRIORITIES to 1"), "{stderr}");
    let dir = tempfile::tempdir().unwrap();
    let platform = dir.path().join("one_priority.toml");
    std::fs::write(&platform, "cores = 3\nrun_multiple_priorities = false\n").unwrap();
    let platform = platform.to_str().unwrap();
    let one = compile_against_freertos_on(platform, FREERTOS_APP, &[]);
    let stderr = String::from_utf8_lossy(&one.stderr);
    assert!(!one.status.success() && stderr.contains("one priority at a time"), "{stderr}");
    let one = compile_against_freertos_on(platform, FREERTOS_APP, &["-DCORERA_TEST_MULTIPLE_PRIORITIES=0"]);
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
}

/// The ESP-IDF header on two cores: each task's core for
/// `xTaskCreatePinnedToCore` is its core, or `tskNO_AFFINITY` for a task
/// that floats over both, and the creation macro pins at creation; a
/// placement on three cores is refused with the reason.
#[test]
fn esp_idf_header_pins_at_creation_and_refuses_more_than_two_cores() {
    let (dir, analysis, placement) = analysis_on(2, true);
    assert!(placement.iter().any(|p| p.2 == 3), "a task floats: {placement:?}");
    let header = dir.path().join("affinity_esp_idf.h");
    corera().arg("emit").arg(&analysis).args(["-q", "--target", "esp-idf", "-o"]).arg(&header).assert().success();
    let got = compile_and_run(dir.path(), "check_esp_idf", ESP_IDF_CHECK, &[]).unwrap_or_else(|e| panic!("{e}"));
    let mut expected: Vec<String> = placement
        .iter()
        .map(|(t, c, m, _)| if m.count_ones() > 1 { format!("{t}=any") } else { format!("{t}={c}") })
        .collect();
    expected.sort();
    assert_eq!(got, expected);
    // Three cores: ESP-IDF cannot run them, and says so.
    let (_three, analysis3, _) = analysis_on(3, false);
    corera()
        .arg("emit")
        .arg(&analysis3)
        .args(["-q", "--target", "esp-idf"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("ESP-IDF runs FreeRTOS on at most 2 cores and this placement uses 3"));
}

/// Zephyr under `CONFIG_SCHED_CPU_MASK_PIN_ONLY`: an AMP placement pins
/// each thread with `k_thread_cpu_pin` (one CPU, as that option demands),
/// and a placement with floating threads stops the build with the reason.
#[test]
fn zephyr_pin_only_pins_strict_placements_and_refuses_masks() {
    for masks in [false, true] {
        let (dir, analysis, placement) = analysis_on(3, masks);
        let header = dir.path().join("affinity_zephyr.h");
        corera().arg("emit").arg(&analysis).args(["-q", "--target", "zephyr", "-o"]).arg(&header).assert().success();
        let result = compile_and_run(dir.path(), "check", ZEPHYR_CHECK, &["-DCONFIG_SCHED_CPU_MASK_PIN_ONLY=1"]);
        if masks {
            let stderr = result.expect_err("PIN_ONLY with floating threads must not compile");
            assert!(stderr.contains("CONFIG_SCHED_CPU_MASK_PIN_ONLY keeps every thread"), "{stderr}");
            continue;
        }
        let got = result.unwrap_or_else(|e| panic!("{e}"));
        let mut expected: Vec<String> = placement.iter().map(|(t, c, _, _)| format!("{t}={}", 1u64 << c)).collect();
        expected.sort();
        assert_eq!(got, expected);
    }
}

/// Compiles `program` (written to `DIR/NAME.c`, beside the headers) as
/// warning-free C99 with `flags`, runs it and returns its output lines,
/// sorted; `Err` with gcc's messages when it does not compile.
fn compile_and_run(dir: &std::path::Path, name: &str, program: &str, flags: &[&str]) -> Result<Vec<String>, String> {
    let source = dir.join(format!("{name}.c"));
    std::fs::write(&source, program).unwrap();
    let exe = dir.join(name);
    let cc = Command::new("gcc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pthread"])
        .args(flags)
        .arg("-o")
        .arg(&exe)
        .arg(&source)
        .current_dir(dir)
        .output()
        .expect("gcc is installed (.ci/run installs it)");
    if !cc.status.success() {
        return Err(String::from_utf8_lossy(&cc.stderr).into_owned());
    }
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success(), "{name}: exit {:?}", run.status.code());
    let mut lines: Vec<String> = String::from_utf8(run.stdout).unwrap().lines().map(String::from).collect();
    lines.sort();
    Ok(lines)
}
