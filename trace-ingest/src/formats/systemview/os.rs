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
/// parameter is the object (or, for [`Role::Notify`], the task).
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

const ESP_IDF_FREERTOS: &str = include_str!("os/SYSVIEW_FreeRTOS.esp-idf.txt");
const ZEPHYR: &str = include_str!("os/SYSVIEW_Zephyr.txt");

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
                let source = "built in: ESP-IDF's SYSVIEW_FreeRTOS.txt";
                return Some(Api::parse(ESP_IDF_FREERTOS, "ESP-IDF FreeRTOS", source).expect("valid built-in table"));
            }
            let calls = SEGGER_FREERTOS
                .iter()
                .enumerate()
                .map(|(i, name)| (33 + i as u32, ((*name).to_string(), role(name))))
                .collect();
            return Some(Api {
                os: "FreeRTOS".into(),
                source: "built in: SEGGER's FreeRTOS glue".into(),
                priority_order: PriorityOrder::High,
                calls,
            });
        }
        if os_l.starts_with("zephyr") {
            let source = "built in: Zephyr's SYSVIEW_Zephyr.txt";
            return Some(Api::parse(ZEPHYR, "Zephyr", source).expect("valid built-in table"));
        }
        None
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
