/*
 * A minimal FreeRTOSConfig.h for compiling corera's FreeRTOS header against
 * the real FreeRTOS-Kernel headers (tests/header.rs). SMP with core
 * affinity, as the header needs; INCLUDE_xTaskGetHandle is left to the test
 * (it defines CORERA_TEST_GET_HANDLE to 0 or 1 on the command line).
 *
 * The kernel's POSIX simulator port (portable/ThirdParty/GCC/Posix) is
 * single-core: the SMP port macros it lacks are defined here as no-ops,
 * enough to compile (nothing here is linked or run against the kernel).
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configNUMBER_OF_CORES                   4
#define configUSE_CORE_AFFINITY                 1
#define configRUN_MULTIPLE_PRIORITIES           1
#define configUSE_PASSIVE_IDLE_HOOK             0
#define configUSE_PREEMPTION                    1
#define configUSE_IDLE_HOOK                     0
#define configUSE_TICK_HOOK                     0
#define configTICK_RATE_HZ                      1000
#define configMAX_PRIORITIES                    32
#define configMINIMAL_STACK_SIZE                128
#define configMAX_TASK_NAME_LEN                 16
#define configTICK_TYPE_WIDTH_IN_BITS           TICK_TYPE_WIDTH_64_BITS
#define configSUPPORT_DYNAMIC_ALLOCATION        1
#define configUSE_TIMERS                        0
#define configUSE_MUTEXES                       1

#ifndef CORERA_TEST_GET_HANDLE
#define CORERA_TEST_GET_HANDLE 1
#endif
#define INCLUDE_xTaskGetHandle                  CORERA_TEST_GET_HANDLE

/* SMP port macros the POSIX port does not have (compile only). */
#define portGET_CORE_ID()                       0
#define portYIELD_CORE( x )                     ( ( void ) ( x ) )
#define portRELEASE_TASK_LOCK( x )              ( ( void ) ( x ) )
#define portGET_TASK_LOCK( x )                  ( ( void ) ( x ) )
#define portRELEASE_ISR_LOCK( x )               ( ( void ) ( x ) )
#define portGET_ISR_LOCK( x )                   ( ( void ) ( x ) )
#define portENTER_CRITICAL_FROM_ISR()           0
#define portEXIT_CRITICAL_FROM_ISR( x )         ( ( void ) ( x ) )

#endif /* FREERTOS_CONFIG_H */
