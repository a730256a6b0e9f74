#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H
#define configUSE_PREEMPTION 1
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#define configTICK_RATE_HZ 1000
#define configMINIMAL_STACK_SIZE ((unsigned short)256)
#define configTOTAL_HEAP_SIZE ((size_t)(256*1024))
#define configMAX_TASK_NAME_LEN 16
#define configUSE_TRACE_FACILITY 1
#define configUSE_16_BIT_TICKS 0
#define configIDLE_SHOULD_YIELD 1
#define configUSE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configUSE_RECURSIVE_MUTEXES 1
#define configQUEUE_REGISTRY_SIZE 10
#define configUSE_TIMERS 1
#define configTIMER_TASK_PRIORITY 5
#define configTIMER_QUEUE_LENGTH 10
#define configTIMER_TASK_STACK_DEPTH 256
#define configMAX_PRIORITIES 8
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 0
#define configUSE_TASK_NOTIFICATIONS 1
#define configCHECK_FOR_STACK_OVERFLOW 0
#define configUSE_MALLOC_FAILED_HOOK 0
#define INCLUDE_vTaskDelay 1
#define INCLUDE_vTaskDelayUntil 1
#define INCLUDE_xTaskGetHandle 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_xTaskGetSchedulerState 1
#define INCLUDE_xTaskGetCurrentTaskHandle 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_uxTaskPriorityGet 1
#define INCLUDE_xTaskGetIdleTaskHandle 0
#define configUSE_POSIX_ERRNO 0
#ifndef __ASSEMBLER__
#include "SEGGER_SYSVIEW_FreeRTOS.h"
/* FreeRTOS V11 passes the notification index to these hooks; SEGGER's
   header (for 10.4) defines them without it. Same records, new signature. */
#undef traceTASK_NOTIFY
#undef traceTASK_NOTIFY_FROM_ISR
#undef traceTASK_NOTIFY_GIVE_FROM_ISR
#undef traceTASK_NOTIFY_TAKE
#undef traceTASK_NOTIFY_WAIT
#define traceTASK_NOTIFY(uxIndexToNotify) SEGGER_SYSVIEW_RecordU32x4(apiID_OFFSET + apiID_XTASKGENERICNOTIFY, SEGGER_SYSVIEW_ShrinkId((U32)pxTCB), ulValue, eAction, (U32)pulPreviousNotificationValue)
#define traceTASK_NOTIFY_FROM_ISR(uxIndexToNotify) SEGGER_SYSVIEW_RecordU32x5(apiID_OFFSET + apiID_XTASKGENERICNOTIFYFROMISR, SEGGER_SYSVIEW_ShrinkId((U32)pxTCB), ulValue, eAction, (U32)pulPreviousNotificationValue, (U32)pxHigherPriorityTaskWoken)
#define traceTASK_NOTIFY_GIVE_FROM_ISR(uxIndexToNotify) SEGGER_SYSVIEW_RecordU32x2(apiID_OFFSET + apiID_VTASKNOTIFYGIVEFROMISR, SEGGER_SYSVIEW_ShrinkId((U32)pxTCB), (U32)pxHigherPriorityTaskWoken)
#define traceTASK_NOTIFY_TAKE(uxIndexToWaitOn) SEGGER_SYSVIEW_RecordU32x2(apiID_OFFSET + apiID_ULTASKNOTIFYTAKE, xClearCountOnExit, xTicksToWait)
/* SEGGER's kernel patch for 10.4 records a task leaving the ready state when
   it blocks without a timeout; the unpatched V11 kernel has these hooks for
   it instead. */
#define traceBLOCKING_ON_QUEUE_RECEIVE(pxQueue) SEGGER_SYSVIEW_OnTaskStopReady((U32)xTaskGetCurrentTaskHandle(), (1u << 2))
#define traceBLOCKING_ON_QUEUE_SEND(pxQueue) SEGGER_SYSVIEW_OnTaskStopReady((U32)xTaskGetCurrentTaskHandle(), (1u << 2))
#define traceTASK_NOTIFY_TAKE_BLOCK(uxIndexToWaitOn) SEGGER_SYSVIEW_OnTaskStopReady((U32)xTaskGetCurrentTaskHandle(), (1u << 2))
#define traceTASK_NOTIFY_WAIT_BLOCK(uxIndexToWaitOn) SEGGER_SYSVIEW_OnTaskStopReady((U32)xTaskGetCurrentTaskHandle(), (1u << 2))
#define traceEVENT_GROUP_WAIT_BITS_BLOCK(xEventGroup, uxBitsToWaitFor) SEGGER_SYSVIEW_OnTaskStopReady((U32)xTaskGetCurrentTaskHandle(), (1u << 2))
/* Room in the glue's task list for every task of the workload. */
#undef SYSVIEW_FREERTOS_MAX_NOF_TASKS
#define SYSVIEW_FREERTOS_MAX_NOF_TASKS 16
#define traceTASK_NOTIFY_WAIT(uxIndexToWaitOn) SEGGER_SYSVIEW_RecordU32x4(apiID_OFFSET + apiID_XTASKNOTIFYWAIT, ulBitsToClearOnEntry, ulBitsToClearOnExit, (U32)pulNotificationValue, xTicksToWait)
#endif
#endif
