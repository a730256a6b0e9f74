/* The CTF "backend" of the harness: events go into a RAM buffer with signals (the POSIX port's tick) masked, as
   Zephyr's tracing core does with interrupts locked, and to channel0_0 when the run ends. Also stands in for the
   SystemView calls of ../../systemview/printer/main.c. Written for corera's samples. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "FreeRTOS.h"
#include "task.h"

static unsigned char buffer[16 << 20];
static size_t used;
static int recording;

static void emit(const unsigned char *fields, size_t n, unsigned char id)
{
    if (!recording) {
        return;
    }
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    unsigned int ns = (unsigned int)((unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec);
    if (used + 5 + n <= sizeof buffer) {
        memcpy(&buffer[used], &ns, 4);
        buffer[used + 4] = id;
        memcpy(&buffer[used + 5], fields, n);
        used += 5 + n;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static size_t put_thread(unsigned char *f, const void *tcb, const char *name)
{
    unsigned int id = (unsigned int)(size_t)tcb;
    memcpy(f, &id, 4);
    memset(f + 4, 0, 20);
    strncpy((char *)f + 4, name, 20);
    return 24;
}

void ctf_thread(unsigned char id, const void *tcb, const char *name)
{
    unsigned char f[24];
    emit(f, put_thread(f, tcb, name), id);
    if (id == 0x11 && strcmp(name, "IDLE") == 0) {
        emit(f, 0, 0x1E); /* idle */
    }
}

void ctf_priority(const void *tcb, const char *name, unsigned prio)
{
    unsigned char f[25];
    size_t n = put_thread(f, tcb, name);
    f[n] = (unsigned char)(configMAX_PRIORITIES - 1 - prio);
    emit(f, n + 1, 0x12);
}

void ctf_current(unsigned char id)
{
    TaskHandle_t t = xTaskGetCurrentTaskHandle();
    ctf_thread(id, t, pcTaskGetName(t));
}

void ctf_object(unsigned char id, const void *object, int with_timeout_ret)
{
    unsigned char f[12];
    unsigned int o = (unsigned int)(size_t)object, timeout = 0xFFFFFFFFu;
    int ret = 0;
    memcpy(f, &o, 4);
    size_t n = 4;
    if (id == 0x25 || id == 0x2A || with_timeout_ret) {
        memcpy(f + n, &timeout, 4);
        n += 4;
    }
    if (with_timeout_ret) {
        memcpy(f + n, &ret, 4);
        n += 4;
    }
    emit(f, n, id);
}

void ctf_plain(unsigned char id)
{
    emit(NULL, 0, id);
}

void app_sysview_start(void)
{
    recording = 1;
}

extern unsigned n_send, n_receive, n_give, n_take, n_notify;

void app_sysview_stop(void)
{
    recording = 0;
    FILE *c = fopen("counts.txt", "w");
    fprintf(c, "send %u\nreceive %u\ngive %u\ntake %u\nnotify %u\n", n_send, n_receive, n_give, n_take, n_notify);
    fclose(c);
    FILE *f = fopen("channel0_0", "wb");
    fwrite(buffer, 1, used, f);
    fclose(f);
}
