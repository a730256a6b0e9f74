/* A pipeline of queues beside two independent workers: written here to
 * record a pair (1 core, 2 cores) for corera's prediction check. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include "FreeRTOS.h"
#include "task.h"
#include "semphr.h"
#include "queue.h"

#define ITEMS      400
#define STACK      256u
#define CRUNCH_N   60

static QueueHandle_t q1, q2, q3;
static SemaphoreHandle_t done;
static volatile uint64_t sink;

static void work( uint32_t n )
{
    for( uint32_t i = 0; i < n; ++i ) { sink += i * 2654435761u; __asm__ volatile( "" ); }
}

static void vSource( void *p )
{
    ( void ) p;
    for( uint32_t i = 0; i < ITEMS; ++i )
    {
        work( 300 );
        xQueueSend( q1, &i, portMAX_DELAY );
        if( ( i % 8 ) == 7 ) vTaskDelay( 1 );
    }
    vTaskDelete( NULL );
}

static void vStage( void *p )
{
    QueueHandle_t *io = ( QueueHandle_t * ) p;
    uint32_t v;
    for( uint32_t i = 0; i < ITEMS; ++i )
    {
        xQueueReceive( io[ 0 ], &v, portMAX_DELAY );
        work( 1500 );
        xQueueSend( io[ 1 ], &v, portMAX_DELAY );
    }
    vTaskDelete( NULL );
}

static void vSink( void *p )
{
    ( void ) p;
    uint32_t v;
    for( uint32_t i = 0; i < ITEMS; ++i )
    {
        xQueueReceive( q3, &v, portMAX_DELAY );
        work( 800 );
    }
    xSemaphoreGive( done );
    vTaskDelete( NULL );
}

static void vCrunch( void *p )
{
    ( void ) p;
    for( uint32_t i = 0; i < CRUNCH_N; ++i )
    {
        work( 20000 );
        vTaskDelay( 2 );
    }
    xSemaphoreGive( done );
    vTaskDelete( NULL );
}

static QueueHandle_t s1[ 2 ], s2[ 2 ];

static void vRunner( void *p )
{
    ( void ) p;
    q1 = xQueueCreate( 4, sizeof( uint32_t ) );
    q2 = xQueueCreate( 4, sizeof( uint32_t ) );
    q3 = xQueueCreate( 4, sizeof( uint32_t ) );
    done = xSemaphoreCreateCounting( 3, 0 );
    s1[ 0 ] = q1; s1[ 1 ] = q2; s2[ 0 ] = q2; s2[ 1 ] = q3;
    configASSERT( xTaskCreate( vSink, "Sink", STACK, NULL, 2, NULL ) == pdPASS );
    configASSERT( xTaskCreate( vStage, "StageB", STACK, s2, 2, NULL ) == pdPASS );
    configASSERT( xTaskCreate( vStage, "StageA", STACK, s1, 2, NULL ) == pdPASS );
    configASSERT( xTaskCreate( vCrunch, "Crunch0", STACK, NULL, 1, NULL ) == pdPASS );
    configASSERT( xTaskCreate( vCrunch, "Crunch1", STACK, NULL, 1, NULL ) == pdPASS );
    configASSERT( xTaskCreate( vSource, "Source", STACK, NULL, 3, NULL ) == pdPASS );
    for( int i = 0; i < 3; ++i ) xSemaphoreTake( done, portMAX_DELAY );
#if configUSE_TRACE_FACILITY
    traceEND();
#endif
    printf( "pipeline: done\n" );
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
