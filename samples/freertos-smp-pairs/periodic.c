/* Periodic tasks at three priorities with one queue between two of them:
 * written here to record runs on 1, 2 and 4 cores for corera's
 * prediction check. Few kernel calls: most waits are vTaskDelayUntil. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include "FreeRTOS.h"
#include "task.h"
#include "queue.h"

#define RUN_TICKS  400
#define STACK      256u

static QueueHandle_t q;
static volatile uint64_t sink;

/* About 2,850 iterations per ms of the simulator's clock. */
static void work( uint32_t n )
{
    for( uint32_t i = 0; i < n; ++i ) { sink += i * 2654435761u; __asm__ volatile( "" ); }
}

struct periodic { TickType_t period; uint32_t iterations; int sends; };

static void vPeriodic( void *p )
{
    const struct periodic *c = ( const struct periodic * ) p;
    TickType_t last = xTaskGetTickCount();
    for( uint32_t k = 0;; ++k )
    {
        vTaskDelayUntil( &last, c->period );
        work( c->iterations );
        if( c->sends ) xQueueSend( q, &k, 0 );
    }
}

static void vLog( void *p )
{
    ( void ) p;
    uint32_t v;
    for( ;; )
    {
        xQueueReceive( q, &v, portMAX_DELAY );
        work( 570 );
    }
}

static const struct periodic ctl = { 2, 860, 1 };
static const struct periodic filt = { 5, 2850, 0 };
static const struct periodic bulk = { 20, 5700, 0 };

static void vRunner( void *p )
{
    ( void ) p;
    q = xQueueCreate( 8, sizeof( uint32_t ) );
    configASSERT( xTaskCreate( vPeriodic, "Ctl", STACK, ( void * ) &ctl, 3, NULL ) == pdPASS );
    configASSERT( xTaskCreate( vLog, "Log", STACK, NULL, 2, NULL ) == pdPASS );
    configASSERT( xTaskCreate( vPeriodic, "FiltA", STACK, ( void * ) &filt, 2, NULL ) == pdPASS );
    configASSERT( xTaskCreate( vPeriodic, "FiltB", STACK, ( void * ) &filt, 2, NULL ) == pdPASS );
    configASSERT( xTaskCreate( vPeriodic, "Bulk0", STACK, ( void * ) &bulk, 1, NULL ) == pdPASS );
    configASSERT( xTaskCreate( vPeriodic, "Bulk1", STACK, ( void * ) &bulk, 1, NULL ) == pdPASS );
    vTaskDelay( RUN_TICKS );
#if configUSE_TRACE_FACILITY
    traceEND();
#endif
    printf( "periodic: done\n" );
    exit( 0 );
}

void vApplicationTickHook( void ) {}

void vApplicationStackOverflowHook( TaskHandle_t t, char *name )
{
    ( void ) t;
    printf( "FATAL: stack overflow in %s\n", name );
    for( ;; ) {}
}

extern void freertos_risc_v_trap_handler( void );

int main( void )
{
    __asm__ volatile( "csrw mtvec, %0" : : "r"( ( uintptr_t ) freertos_risc_v_trap_handler ) : "memory" );
#if configUSE_TRACE_FACILITY
    traceSTART();
#endif
    configASSERT( xTaskCreate( vRunner, "Runner", STACK * 2, NULL, 4, NULL ) == pdPASS );
    vTaskStartScheduler();
    for( ;; ) {}
}
