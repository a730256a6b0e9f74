/* SystemView configuration for FreeRTOS's POSIX port (a host process): a
   microsecond timestamp, no interrupt ids, a 16 MiB up-buffer drained to a
   file when the run ends. */
#ifndef SEGGER_SYSVIEW_CONF_H
#define SEGGER_SYSVIEW_CONF_H
#include <stdint.h>
extern uint32_t app_trace_clock(void);
#define SEGGER_SYSVIEW_GET_TIMESTAMP()     app_trace_clock()
#define SEGGER_SYSVIEW_GET_INTERRUPT_ID()  0
#define SEGGER_SYSVIEW_RTT_BUFFER_SIZE     (16u * 1024u * 1024u)
#define SEGGER_SYSVIEW_CORE                SEGGER_SYSVIEW_CORE_OTHER
#endif
