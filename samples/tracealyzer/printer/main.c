/* A printer controller in miniature, recorded with Percepio TraceRecorder (PSF) on FreeRTOS's POSIX port.
 *
 *   EncoderIrq (prio 6, every tick)  --binary semaphore--> MotorCtl (5) --SPI mutex
 *   NetRxIrq   (prio 6, every 2 ticks) --netq--> NetStack (4) --jobq--> Parser (3) --bandq--> Raster (2)
 *   Raster --task notification--> PrintEngine (3) --SPI mutex, event group "status"--> UiMgr (1)
 *   MotorCtl, Raster --logq--> Logger (1)
 *
 * The "IRQ" tasks stand in for interrupts (the POSIX port has none): the highest priority, tiny bodies.
 * Times are busy-waits in microseconds of the host's monotonic clock. How the recording was made:
 * samples/tracealyzer/README.md.
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"
#include "semphr.h"
#include "event_groups.h"

uint32_t app_trace_clock(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint32_t)(t.tv_sec * 1000000ull + t.tv_nsec / 1000);
}

static void busy_us(unsigned us) { uint32_t s = app_trace_clock(); while (app_trace_clock() - s < us) {} }

static SemaphoreHandle_t encoder, spi;
static QueueHandle_t netq, jobq, bandq, logq;
static EventGroupHandle_t status;
static TaskHandle_t print_engine;

#define RUN_TICKS 400

static void encoder_irq(void *arg) {
    (void)arg;
    TickType_t wake = xTaskGetTickCount();
    for (;;) { busy_us(5); xSemaphoreGive(encoder); vTaskDelayUntil(&wake, 1); }
}

static void netrx_irq(void *arg) {
    (void)arg;
    TickType_t wake = xTaskGetTickCount();
    for (int i = 0;; i++) {
        busy_us(8);
        if (i % 3 != 2) xQueueSend(netq, &i, 0);
        vTaskDelayUntil(&wake, 2);
    }
}

static void motor_ctl(void *arg) {
    (void)arg;
    for (int i = 0;; i++) {
        xSemaphoreTake(encoder, portMAX_DELAY);
        busy_us(60);
        xSemaphoreTake(spi, portMAX_DELAY);
        busy_us(20);
        xSemaphoreGive(spi);
        if (i % 50 == 0) xQueueSend(logq, &i, 0);
    }
}

static void net_stack(void *arg) {
    (void)arg;
    int pkt;
    for (;;) { xQueueReceive(netq, &pkt, portMAX_DELAY); busy_us(90); xQueueSend(jobq, &pkt, portMAX_DELAY); }
}

static void parser(void *arg) {
    (void)arg;
    int job;
    for (;;) { xQueueReceive(jobq, &job, portMAX_DELAY); busy_us(150); xQueueSend(bandq, &job, portMAX_DELAY); }
}

static void raster(void *arg) {
    (void)arg;
    int band;
    for (int i = 0;; i++) {
        xQueueReceive(bandq, &band, portMAX_DELAY);
        busy_us(300);
        xTaskNotifyGive(print_engine);
        if (i % 20 == 0) xQueueSend(logq, &band, 0);
    }
}

static void print_engine_task(void *arg) {
    (void)arg;
    for (int i = 0;; i++) {
        ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
        busy_us(80);
        xSemaphoreTake(spi, portMAX_DELAY);
        busy_us(30);
        xSemaphoreGive(spi);
        if (i % 10 == 9) xEventGroupSetBits(status, 1);
    }
}

static void ui_mgr(void *arg) {
    (void)arg;
    for (;;) { xEventGroupWaitBits(status, 1, pdTRUE, pdFALSE, portMAX_DELAY); busy_us(120); }
}

static void logger(void *arg) {
    (void)arg;
    int v;
    for (;;) { xQueueReceive(logq, &v, portMAX_DELAY); busy_us(200); }
}

static void stopper(void *arg) {
    (void)arg;
    vTaskDelay(RUN_TICKS);
    xTraceDisable();   /* flushes and closes the trace file */
    exit(0);
}

int main(void) {
    xTraceInitialize();
    xTraceEnable(TRC_START);
    encoder = xSemaphoreCreateBinary();
    vTraceSetSemaphoreName(encoder, "encoder");
    spi = xSemaphoreCreateMutex();
    vTraceSetMutexName(spi, "spi");
    netq = xQueueCreate(8, sizeof(int));
    vTraceSetQueueName(netq, "netq");
    jobq = xQueueCreate(4, sizeof(int));
    vTraceSetQueueName(jobq, "jobq");
    bandq = xQueueCreate(4, sizeof(int));
    vTraceSetQueueName(bandq, "bandq");
    logq = xQueueCreate(8, sizeof(int));
    vTraceSetQueueName(logq, "logq");
    status = xEventGroupCreate();
    vTraceSetEventGroupName(status, "status");
    xTaskCreate(encoder_irq, "EncoderIrq", 1024, NULL, 6, NULL);
    xTaskCreate(netrx_irq, "NetRxIrq", 1024, NULL, 6, NULL);
    xTaskCreate(motor_ctl, "MotorCtl", 1024, NULL, 5, NULL);
    xTaskCreate(net_stack, "NetStack", 1024, NULL, 4, NULL);
    xTaskCreate(parser, "Parser", 1024, NULL, 3, NULL);
    xTaskCreate(raster, "Raster", 1024, NULL, 2, NULL);
    xTaskCreate(print_engine_task, "PrintEngine", 1024, NULL, 3, &print_engine);
    xTaskCreate(ui_mgr, "UiMgr", 1024, NULL, 1, NULL);
    xTaskCreate(logger, "Logger", 1024, NULL, 1, NULL);
    xTaskCreate(stopper, "Stopper", 1024, NULL, 7, NULL);
    vTaskStartScheduler();
    return 0;
}
