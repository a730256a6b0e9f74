/* SystemView start-up for the POSIX port, and the drain of its RTT up-buffer
   to trace.SVDat when the run ends. */
#include <stdio.h>
#include "FreeRTOS.h"
#include "task.h"
#include "SEGGER_SYSVIEW.h"
#include "SEGGER_RTT.h"

extern const SEGGER_SYSVIEW_OS_API SYSVIEW_X_OS_TraceAPI;

static void send_sys_desc(void) {
    SEGGER_SYSVIEW_SendSysDesc("N=printer,D=FreeRTOS POSIX port,O=FreeRTOS");
}

void app_sysview_start(void) {
    SEGGER_SYSVIEW_Init(1000000, 1000000, &SYSVIEW_X_OS_TraceAPI, send_sys_desc);
    SEGGER_SYSVIEW_SetRAMBase(0);
    SEGGER_SYSVIEW_Start();
}

extern unsigned n_send, n_receive, n_give, n_take, n_notify;

void app_sysview_stop(void) {
    SEGGER_SYSVIEW_Stop();
    FILE *c = fopen("counts.txt", "w");
    fprintf(c, "send %u\nreceive %u\ngive %u\ntake %u\nnotify %u\n", n_send, n_receive, n_give, n_take, n_notify);
    fclose(c);
    FILE *f = fopen("trace.SVDat", "wb");
    static char chunk[65536];
    unsigned n;
    while ((n = SEGGER_RTT_ReadUpBufferNoLock(SEGGER_SYSVIEW_GetChannelID(), chunk, sizeof chunk)) > 0) {
        fwrite(chunk, 1, n, f);
    }
    fclose(f);
}
