//! Which OS API call a SystemView packet id is, per OS.
//!
//! SystemView numbers an OS's API calls (ids 32 to 511) as that OS's glue
//! chooses, and a description file (`SYSVIEW_<OS>.txt`) names them. The
//! recording names its OS in its system description (`O=FreeRTOS`); the
//! table comes from that OS, never from another one. Each call is mapped
//! onto the trace model by its name ([`role`]).

use rustc_hash::FxHashMap as HashMap;

use crate::PriorityOrder;
use crate::model::ObjectKind;

/// What an API call does, in the trace model's terms. The call's first
/// parameter is the object (or, for [`Role::Notify`] and
/// [`Role::Priority`], the task).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// Puts a message into a queue, mailbox, pipe or FIFO. For FreeRTOS's
    /// `xQueueGenericSend`, a send with no item (second parameter 0) is a
    /// semaphore's or mutex's give.
    Send,
    /// Takes a message from one.
    Receive,
    /// Gives a semaphore or unlocks a mutex.
    Give(ObjectKind),
    /// Takes a semaphore or locks a mutex.
    Take(ObjectKind),
    /// Notifies the task its first parameter names.
    Notify,
    /// Sets the priority of the task its first parameter names to its
    /// second.
    Priority,
    /// Sets an event group, event flags or a condition variable.
    Signal,
    /// Delays or waits: the calling task blocks if it is switched out next.
    Wait,
    /// Anything corera does not use.
    Other,
}

/// One OS's API calls.
#[derive(Clone, Debug)]
pub(super) struct Api {
    /// The OS, as messages name it.
    pub(super) os: String,
    /// Where the table comes from, for messages.
    pub(super) source: String,
    /// Whether a larger priority number is more urgent.
    pub(super) priority_order: PriorityOrder,
    calls: HashMap<u32, (String, Role)>,
}

/// SEGGER's FreeRTOS glue: `apiID_OFFSET` (32) plus `apiID_...` from 1, in
/// order (`SEGGER_SYSVIEW_FreeRTOS.h`, V3).
const SEGGER_FREERTOS: [&str; 111] = [
    "vTaskAllocateMPURegions",
    "vTaskDelete",
    "vTaskDelay",
    "vTaskDelayUntil",
    "uxTaskPriorityGet",
    "uxTaskPriorityGetFromISR",
    "eTaskGetState",
    "vTaskPrioritySet",
    "vTaskSuspend",
    "vTaskResume",
    "xTaskResumeFromISR",
    "vTaskStartScheduler",
    "vTaskEndScheduler",
    "vTaskSuspendAll",
    "xTaskResumeAll",
    "xTaskGetTickCount",
    "xTaskGetTickCountFromISR",
    "uxTaskGetNumberOfTasks",
    "pcTaskGetTaskName",
    "uxTaskGetStackHighWaterMark",
    "vTaskSetApplicationTaskTag",
    "xTaskGetApplicationTaskTag",
    "vTaskSetThreadLocalStoragePointer",
    "pvTaskGetThreadLocalStoragePointer",
    "xTaskCallApplicationTaskHook",
    "xTaskGetIdleTaskHandle",
    "uxTaskGetSystemState",
    "vTaskList",
    "vTaskGetRunTimeStats",
    "xTaskGenericNotify",
    "xTaskGenericNotifyFromISR",
    "xTaskNotifyWait",
    "vTaskNotifyGiveFromISR",
    "ulTaskNotifyTake",
    "xTaskNotifyStateClear",
    "xTaskGetCurrentTaskHandle",
    "vTaskSetTimeOutState",
    "xTaskCheckForTimeOut",
    "vTaskMissedYield",
    "xTaskGetSchedulerState",
    "vTaskPriorityInherit",
    "xTaskPriorityDisinherit",
    "xTaskGenericCreate",
    "uxTaskGetTaskNumber",
    "vTaskSetTaskNumber",
    "vTaskStepTick",
    "eTaskConfirmSleepModeStatus",
    "xTimerCreate",
    "pvTimerGetTimerID",
    "vTimerSetTimerID",
    "xTimerIsTimerActive",
    "xTimerGetTimerDaemonTaskHandle",
    "xTimerPendFunctionCallFromISR",
    "xTimerPendFunctionCall",
    "pcTimerGetTimerName",
    "xTimerCreateTimerTask",
    "xTimerGenericCommand",
    "xQueueGenericSend",
    "xQueuePeekFromISR",
    "xQueueGenericReceive",
    "uxQueueMessagesWaiting",
    "uxQueueSpacesAvailable",
    "vQueueDelete",
    "xQueueGenericSendFromISR",
    "xQueueGiveFromISR",
    "xQueueReceiveFromISR",
    "xQueueIsQueueEmptyFromISR",
    "xQueueIsQueueFullFromISR",
    "uxQueueMessagesWaitingFromISR",
    "xQueueAltGenericSend",
    "xQueueAltGenericReceive",
    "xQueueCRSendFromISR",
    "xQueueCRReceiveFromISR",
    "xQueueCRSend",
    "xQueueCRReceive",
    "xQueueCreateMutex",
    "xQueueCreateCountingSemaphore",
    "xQueueGetMutexHolder",
    "xQueueTakeMutexRecursive",
    "xQueueGiveMutexRecursive",
    "vQueueAddToRegistry",
    "vQueueUnregisterQueue",
    "xQueueGenericCreate",
    "xQueueCreateSet",
    "xQueueAddToSet",
    "xQueueRemoveFromSet",
    "xQueueSelectFromSet",
    "xQueueSelectFromSetFromISR",
    "xQueueGenericReset",
    "vListInitialise",
    "vListInitialiseItem",
    "vListInsert",
    "vListInsertEnd",
    "uxListRemove",
    "xEventGroupCreate",
    "xEventGroupWaitBits",
    "xEventGroupClearBits",
    "xEventGroupClearBitsFromISR",
    "xEventGroupSetBits",
    "xEventGroupSetBitsFromISR",
    "xEventGroupSync",
    "xEventGroupGetBitsFromISR",
    "vEventGroupDelete",
    "uxEventGroupGetNumber",
    "xStreamBufferCreate",
    "vStreamBufferDelete",
    "xStreamBufferReset",
    "xStreamBufferSend",
    "xStreamBufferSendFromISR",
    "xStreamBufferReceive",
    "xStreamBufferReceiveFromISR",
];

/// ESP-IDF's FreeRTOS glue (`esp_sysview_trace` in `components/app_trace`):
/// its call ids, by id. ESP-IDF numbers the calls it traces most from 33 up
/// and the rest from 128, and adds its heap-trace events at 512.
const ESP_IDF_FREERTOS: [(u32, &str); 106] = [
    (33, "vTaskDelete"),
    (34, "vTaskDelay"),
    (35, "vTaskDelayUntil"),
    (36, "vTaskSuspend"),
    (37, "ulTaskNotifyTake"),
    (38, "vTaskNotifyGiveFromISR"),
    (39, "vTaskPriorityInherit"),
    (40, "vTaskResume"),
    (41, "vTaskStepTick"),
    (42, "xTaskPriorityDisinherit"),
    (43, "xTaskResumeFromISR"),
    (44, "xTaskGenericNotify"),
    (45, "xTaskGenericNotifyFromISR"),
    (46, "xTaskNotifyWait"),
    (47, "xQueueGenericCreate"),
    (48, "vQueueDelete"),
    (49, "xQueueGenericReceive"),
    (50, "xQueuePeekFromISR"),
    (51, "xQueueReceiveFromISR"),
    (52, "vQueueAddToRegistry"),
    (53, "xQueueGenericSend"),
    (54, "xQueueGenericSendFromISR"),
    (55, "vTaskPrioritySet"),
    (56, "uxTaskPriorityGetFromISR"),
    (57, "xTaskGetTickCountFromISR"),
    (58, "xEventGroupClearBitsFromISR"),
    (59, "xEventGroupSetBitsFromISR"),
    (60, "xEventGroupGetBitsFromISR"),
    (61, "xQueueGiveFromISR"),
    (62, "xQueueIsQueueEmptyFromISR"),
    (63, "xQueueIsQueueFullFromISR"),
    (128, "vTaskAllocateMPURegions"),
    (129, "uxTaskPriorityGet"),
    (130, "eTaskGetState"),
    (131, "vTaskStartScheduler"),
    (132, "vTaskEndScheduler"),
    (133, "vTaskSuspendAll"),
    (134, "xTaskResumeAll"),
    (135, "xTaskGetTickCount"),
    (136, "uxTaskGetNumberOfTasks"),
    (137, "pcTaskGetTaskName"),
    (138, "uxTaskGetStackHighWaterMark"),
    (139, "vTaskSetApplicationTaskTag"),
    (140, "xTaskGetApplicationTaskTag"),
    (141, "vTaskSetThreadLocalStoragePointer"),
    (142, "pvTaskGetThreadLocalStoragePointer"),
    (143, "xTaskCallApplicationTaskHook"),
    (144, "xTaskGetIdleTaskHandle"),
    (145, "uxTaskGetSystemState"),
    (146, "vTaskList"),
    (147, "vTaskGetRunTimeStats"),
    (148, "xTaskNotifyStateClear"),
    (149, "xTaskGetCurrentTaskHandle"),
    (150, "vTaskSetTimeOutState"),
    (151, "xTaskCheckForTimeOut"),
    (152, "vTaskMissedYield"),
    (153, "xTaskGetSchedulerState"),
    (154, "xTaskGenericCreate"),
    (155, "uxTaskGetTaskNumber"),
    (156, "vTaskSetTaskNumber"),
    (157, "eTaskConfirmSleepModeStatus"),
    (158, "xTimerCreate"),
    (159, "pvTimerGetTimerID"),
    (160, "vTimerSetTimerID"),
    (161, "xTimerIsTimerActive"),
    (162, "xTimerGetTimerDaemonTaskHandle"),
    (163, "xTimerPendFunctionCallFromISR"),
    (164, "xTimerPendFunctionCall"),
    (165, "pcTimerGetTimerName"),
    (166, "xTimerCreateTimerTask"),
    (167, "xTimerGenericCommand"),
    (168, "uxQueueMessagesWaiting"),
    (169, "uxQueueSpacesAvailable"),
    (170, "uxQueueMessagesWaitingFromISR"),
    (171, "xQueueAltGenericSend"),
    (172, "xQueueAltGenericReceive"),
    (173, "xQueueCRSendFromISR"),
    (174, "xQueueCRReceiveFromISR"),
    (175, "xQueueCRSend"),
    (176, "xQueueCRReceive"),
    (177, "xQueueCreateMutex"),
    (178, "xQueueCreateCountingSemaphore"),
    (179, "xQueueGetMutexHolder"),
    (180, "xQueueTakeMutexRecursive"),
    (181, "xQueueGiveMutexRecursive"),
    (182, "vQueueUnregisterQueue"),
    (183, "xQueueCreateSet"),
    (184, "xQueueAddToSet"),
    (185, "xQueueRemoveFromSet"),
    (186, "xQueueSelectFromSet"),
    (187, "xQueueSelectFromSetFromISR"),
    (188, "xQueueGenericReset"),
    (189, "vListInitialise"),
    (190, "vListInitialiseItem"),
    (191, "vListInsert"),
    (192, "vListInsertEnd"),
    (193, "uxListRemove"),
    (194, "xEventGroupCreate"),
    (195, "xEventGroupWaitBits"),
    (196, "xEventGroupClearBits"),
    (197, "xEventGroupSetBits"),
    (198, "xEventGroupSync"),
    (199, "vEventGroupDelete"),
    (200, "uxEventGroupGetNumber"),
    (512, "esp_sysview_heap_trace_alloc"),
    (513, "esp_sysview_heap_trace_free"),
];

/// Zephyr's SystemView glue (`subsys/tracing/sysview`): its call ids, by
/// id. Zephyr numbers priorities so that a smaller one is more urgent.
const ZEPHYR: [(u32, &str); 120] = [
    (32, "k_sched_lock"),
    (33, "k_sched_unlock"),
    (34, "k_busy_wait"),
    (35, "irq_enable"),
    (36, "irq_disable"),
    (37, "k_mutex_init"),
    (38, "k_mutex_unlock"),
    (39, "k_mutex_lock"),
    (40, "k_sem_init"),
    (41, "k_sem_give"),
    (42, "k_sem_take"),
    (43, "k_queue_init"),
    (44, "k_queue_append"),
    (45, "k_queue_alloc_append"),
    (46, "k_queue_prepend"),
    (47, "k_queue_alloc_prepend"),
    (48, "k_queue_insert"),
    (49, "k_queue_append_list"),
    (50, "k_queue_get"),
    (51, "k_queue_remove"),
    (52, "k_queue_cancel_wait"),
    (53, "k_queue_peek_head"),
    (54, "k_queue_peek_tail"),
    (55, "k_stack_init"),
    (56, "k_stack_push"),
    (57, "k_stack_pop"),
    (58, "k_stack_cleanup"),
    (59, "k_msgq_init"),
    (60, "k_msgq_put"),
    (61, "k_msgq_get"),
    (62, "k_msgq_cleanup"),
    (63, "k_msgq_peek"),
    (64, "k_msgq_purge"),
    (65, "k_mbox_init"),
    (66, "k_mbox_put"),
    (67, "k_mbox_async_put"),
    (68, "k_mbox_get"),
    (69, "k_mbox_data_get"),
    (70, "k_mbox_data_block_get"),
    (71, "k_pipe_init"),
    (72, "k_pipe_cleanup"),
    (73, "k_pipe_put"),
    (74, "k_pipe_get"),
    (75, "k_pipe_block_put"),
    (76, "k_heap_init"),
    (77, "k_heap_alloc"),
    (78, "k_heap_free"),
    (79, "k_heap_aligned_alloc"),
    (84, "k_mem_slab_init"),
    (85, "k_mem_slab_alloc"),
    (86, "k_mem_slab_free"),
    (87, "k_timer_init"),
    (88, "k_timer_start"),
    (89, "k_timer_stop"),
    (90, "k_timer_status_sync"),
    (91, "k_sem_reset"),
    (91, "k_timer_user_data_set"),
    (92, "k_timer_user_data_get"),
    (93, "timer->expiry_fn"),
    (94, "timer->stop_fn"),
    (95, "k_sleep"),
    (96, "k_msleep"),
    (97, "k_usleep"),
    (98, "k_thread_priority_set"),
    (99, "k_thread_wakeup"),
    (100, "k_thread_abort"),
    (101, "k_thread_start"),
    (102, "k_thread_suspend"),
    (103, "k_thread_resume"),
    (104, "k_thread_join"),
    (105, "k_thread_yield"),
    (106, "k_thread_usermode_enter"),
    (107, "k_thread_foreach"),
    (108, "k_thread_foreach_unlocked"),
    (109, "k_condvar_init"),
    (110, "k_condvar_signal"),
    (111, "k_condvar_broadcast"),
    (112, "k_condvar_wait"),
    (113, "k_work_cancel"),
    (114, "k_work_canel_delayable"),
    (115, "k_work_cancel_delayable_sync"),
    (116, "k_work_cancel_sync"),
    (117, "k_work_delayable_init"),
    (118, "k_work_queue_drain"),
    (119, "k_work_flush"),
    (120, "k_work_flush_delayable"),
    (121, "k_work_init"),
    (122, "k_work_poll_cancel"),
    (123, "k_work_poll_init"),
    (124, "k_work_poll_submit"),
    (125, "k_work_poll_submit_to_queue"),
    (126, "k_work_queue_start"),
    (127, "k_work_reschedule"),
    (128, "k_work_reschedule_for_queue"),
    (129, "k_work_schedule"),
    (130, "k_work_reschedule_for_queue"),
    (131, "k_work_submit"),
    (132, "k_work_submit_to_queue"),
    (133, "k_work_queue_unplug"),
    (142, "k_fifo_init"),
    (143, "k_fifo_cancel_wait"),
    (144, "k_fifo_alloc_put"),
    (145, "k_fifo_put_list"),
    (146, "k_fifo_put_slist"),
    (147, "k_fifo_peak_head"),
    (148, "k_fifo_peak_tail"),
    (149, "k_fifo_put"),
    (150, "k_fifo_get"),
    (151, "k_lifo_init"),
    (152, "k_lifo_put"),
    (153, "k_lifo_get"),
    (154, "k_lifo_alloc_put"),
    (155, "k_thread_name_set"),
    (156, "pm_system_suspend"),
    (157, "pm_device_runtime_get"),
    (158, "pm_device_runtime_put"),
    (159, "pm_device_runtime_put_async"),
    (160, "pm_device_runtime_enable"),
    (161, "pm_device_runtime_disable"),
    (162, "syscall"),
];

/// The built-in OSes, for messages and the book.
pub const BUILT_IN: [&str; 3] =
    ["FreeRTOS (SEGGER's glue)", "ESP-IDF FreeRTOS (ESP32 parts: `D=esp32...` or an Espressif header)", "Zephyr"];

impl Api {
    /// The built-in table for the OS a recording names (`O=` of its system
    /// description, `D=` its device, `espressif` whether its file header
    /// names Espressif), if corera has one.
    pub(super) fn built_in(os: &str, device: &str, espressif: bool) -> Option<Api> {
        let os_l = os.to_ascii_lowercase();
        if os_l.starts_with("freertos") {
            if espressif || device.to_ascii_lowercase().starts_with("esp32") {
                let source = "built in: ESP-IDF's FreeRTOS call ids";
                return Some(Api::of_table(&ESP_IDF_FREERTOS, "ESP-IDF FreeRTOS", source, PriorityOrder::High));
            }
            let numbered: Vec<(u32, &str)> =
                SEGGER_FREERTOS.iter().enumerate().map(|(i, name)| (33 + i as u32, *name)).collect();
            let source = "built in: SEGGER's FreeRTOS glue";
            return Some(Api::of_table(&numbered, "FreeRTOS", source, PriorityOrder::High));
        }
        if os_l.starts_with("zephyr") {
            let source = "built in: Zephyr's SystemView call ids";
            return Some(Api::of_table(&ZEPHYR, "Zephyr", source, PriorityOrder::Low));
        }
        None
    }

    /// A built-in table: `(id, name)` per call.
    fn of_table(calls: &[(u32, &str)], os: &str, source: &str, priority_order: PriorityOrder) -> Api {
        Api {
            os: os.to_string(),
            source: source.to_string(),
            priority_order,
            calls: calls.iter().map(|&(id, name)| (id, (name.to_string(), role(name)))).collect(),
        }
    }

    /// Reads a description file: `ID NAME [PARAM=%FMT ...] [| Returns ...]`
    /// per line; `#` comments, blank lines, `Option`, `NamedType` and
    /// `TaskState` lines; `Option ReversePriority` when a smaller number is
    /// more urgent. An error names the line.
    pub(super) fn parse(text: &str, os: &str, source: &str) -> Result<Api, (usize, String)> {
        let mut api = Api {
            os: os.to_string(),
            source: source.to_string(),
            priority_order: PriorityOrder::High,
            calls: HashMap::default(),
        };
        for (i, line) in text.lines().enumerate() {
            let line = line.split('|').next().unwrap_or("").trim();
            let mut words = line.split_whitespace();
            let Some(first) = words.next() else { continue };
            if first.starts_with('#') || matches!(first, "NamedType" | "TaskState") {
                continue;
            }
            if first == "Option" {
                if words.any(|w| w == "ReversePriority") {
                    api.priority_order = PriorityOrder::Low;
                }
                continue;
            }
            let id: u32 = first
                .parse()
                .map_err(|_| (i + 1, format!("expected an event id (a number) to start the line, found `{first}`")))?;
            let name =
                words.next().ok_or_else(|| (i + 1, format!("expected a name after the event id {id}")))?.to_string();
            let r = role(&name);
            api.calls.insert(id, (name, r));
        }
        if api.calls.is_empty() {
            return Err((1, "no `ID NAME` line: not a SystemView description file".to_string()));
        }
        Ok(api)
    }

    /// The call with this id: its name and role.
    pub(super) fn call(&self, id: u32) -> Option<(&str, Role)> {
        self.calls.get(&id).map(|(n, r)| (n.as_str(), *r))
    }
}

/// What a call does, by its name: FreeRTOS, Zephyr, RT-Thread and embOS
/// spellings.
pub(super) fn role(name: &str) -> Role {
    use ObjectKind::{Mutex, Semaphore};
    match name {
        "xQueueGenericSend"
        | "xQueueGenericSendFromISR"
        | "xQueueAltGenericSend"
        | "xStreamBufferSend"
        | "xStreamBufferSendFromISR"
        | "k_queue_append"
        | "k_queue_alloc_append"
        | "k_queue_prepend"
        | "k_queue_alloc_prepend"
        | "k_queue_insert"
        | "k_queue_append_list"
        | "k_msgq_put"
        | "k_mbox_put"
        | "k_mbox_async_put"
        | "k_pipe_put"
        | "k_pipe_block_put"
        | "k_fifo_put"
        | "k_fifo_alloc_put"
        | "k_lifo_put"
        | "k_lifo_alloc_put"
        | "k_stack_push"
        | "rt_mq_send"
        | "rt_mq_send_wait"
        | "rt_mq_urgent"
        | "rt_mb_send"
        | "rt_mb_send_wait" => Role::Send,
        "xQueueGenericReceive"
        | "xQueueReceive"
        | "xQueueReceiveFromISR"
        | "xQueueAltGenericReceive"
        | "xStreamBufferReceive"
        | "xStreamBufferReceiveFromISR"
        | "k_queue_get"
        | "k_msgq_get"
        | "k_mbox_get"
        | "k_pipe_get"
        | "k_fifo_get"
        | "k_lifo_get"
        | "k_stack_pop"
        | "rt_mq_recv"
        | "rt_mb_recv" => Role::Receive,
        "xQueueGiveFromISR" | "k_sem_give" | "rt_sem_release" => Role::Give(Semaphore),
        "xQueueSemaphoreTake" | "k_sem_take" | "rt_sem_take" | "rt_sem_trytake" => Role::Take(Semaphore),
        "xQueueGiveMutexRecursive" | "k_mutex_unlock" | "rt_mutex_release" => Role::Give(Mutex),
        "xQueueTakeMutexRecursive" | "k_mutex_lock" | "rt_mutex_take" => Role::Take(Mutex),
        "xTaskGenericNotify"
        | "xTaskGenericNotifyFromISR"
        | "vTaskNotifyGiveFromISR"
        | "vTaskGenericNotifyGiveFromISR" => Role::Notify,
        "vTaskPrioritySet" | "k_thread_priority_set" => Role::Priority,
        "xEventGroupSetBits"
        | "xEventGroupSetBitsFromISR"
        | "k_condvar_signal"
        | "k_condvar_broadcast"
        | "k_event_post"
        | "k_event_set"
        | "k_poll_signal_raise"
        | "rt_event_send" => Role::Signal,
        "vTaskDelay"
        | "vTaskDelayUntil"
        | "xTaskDelayUntil"
        | "ulTaskNotifyTake"
        | "ulTaskGenericNotifyTake"
        | "xTaskNotifyWait"
        | "xTaskGenericNotifyWait"
        | "xEventGroupWaitBits"
        | "xEventGroupSync"
        | "k_sleep"
        | "k_msleep"
        | "k_usleep"
        | "k_condvar_wait"
        | "k_event_wait"
        | "k_poll"
        | "rt_thread_delay"
        | "rt_thread_mdelay"
        | "rt_thread_delay_until"
        | "rt_event_recv" => Role::Wait,
        _ => embos_role(name),
    }
}

/// embOS's calls, whose names carry the object kind (`OS_MAILBOX_Put`,
/// `OS_SEMAPHORE_Give`, and the classic `OS_PutMail`, `OS_SignalCSema`).
fn embos_role(name: &str) -> Role {
    use ObjectKind::{Mutex, Semaphore};
    let Some(rest) = name.strip_prefix("OS_") else { return Role::Other };
    let starts = |p: &[&str]| p.iter().any(|p| rest.starts_with(p));
    if starts(&["MAILBOX_Put", "QUEUE_Put", "PutMail", "Q_Put"]) {
        Role::Send
    } else if starts(&["MAILBOX_Get", "QUEUE_Get", "GetMail", "Q_Get"]) {
        Role::Receive
    } else if starts(&["SEMAPHORE_Give", "SignalCSema"]) {
        Role::Give(Semaphore)
    } else if starts(&["SEMAPHORE_Take", "WaitCSema"]) {
        Role::Take(Semaphore)
    } else if starts(&["MUTEX_Unlock", "Unuse"]) {
        Role::Give(Mutex)
    } else if starts(&["MUTEX_Lock", "Use"]) && !rest.starts_with("UseMPU") {
        Role::Take(Mutex)
    } else if starts(&["EVENT_Set", "EVENT_Pulse"]) {
        Role::Signal
    } else if starts(&["Delay", "TASK_Delay", "WaitEvent", "TASKEVENT_GetBlocked", "EVENT_GetBlocked"]) {
        Role::Wait
    } else {
        Role::Other
    }
}

/// Whether an OS numbers priorities so that a smaller one is more urgent
/// (for OSes corera has no table of, so that priorities still read right).
pub(super) fn priority_order(os: &str) -> PriorityOrder {
    let os = os.to_ascii_lowercase();
    if os.starts_with("zephyr") || os.starts_with("rt-thread") || os.starts_with("rtthread") {
        PriorityOrder::Low
    } else {
        PriorityOrder::High
    }
}

/// Whether an OS's SystemView port writes `TASK_STOP_READY` for the task it
/// switches out at every switch, preempted or not: RT-Thread's scheduler
/// hook does (`STOP_READY(from)` before `START_EXEC(to)`), so one stop is a
/// switch-out and a second one (its suspend hook's) is a block.
pub(super) fn stops_at_every_switch(os: &str) -> bool {
    let os = os.to_ascii_lowercase();
    os.starts_with("rt-thread") || os.starts_with("rtthread")
}
