/* FreeRTOS trace hooks that record in Zephyr's CTF format (subsys/tracing/ctf: the event ids and field layouts of
   its tsdl/metadata, packed as ctf_top.h's CTF_EVENT packs them, with CONFIG_TRACING_CTF_TIMESTAMP: a 32-bit ns
   timestamp, the 8-bit event id, then the fields). Written for corera's samples: a real scheduler (FreeRTOS's
   POSIX port) recorded in Zephyr's encoding. Priorities are written as Zephyr counts them (0 most urgent). */
#ifndef CTF_HOOKS_H
#define CTF_HOOKS_H
void ctf_thread(unsigned char id, const void *tcb, const char *name);
void ctf_priority(const void *tcb, const char *name, unsigned prio);
void ctf_current(unsigned char id);
void ctf_object(unsigned char id, const void *object, int with_timeout_ret);
void ctf_plain(unsigned char id);

#define traceTASK_SWITCHED_OUT() ctf_thread(0x10, pxCurrentTCB, pxCurrentTCB->pcTaskName)
#define traceTASK_SWITCHED_IN() ctf_thread(0x11, pxCurrentTCB, pxCurrentTCB->pcTaskName)
#define traceTASK_CREATE(pxNewTCB) \
    do { ctf_thread(0x13, pxNewTCB, pxNewTCB->pcTaskName); ctf_priority(pxNewTCB, pxNewTCB->pcTaskName, pxNewTCB->uxPriority); } while (0)
#define traceMOVED_TASK_TO_READY_STATE(pxTCB) ctf_thread(0x17, pxTCB, pxTCB->pcTaskName)
#define traceTASK_DELAY() ctf_current(0x18)
#define traceTASK_DELAY_UNTIL(x) ctf_current(0x18)
#define traceTASK_NOTIFY_TAKE_BLOCK(i) ctf_current(0x18)
#define traceTASK_NOTIFY_WAIT_BLOCK(i) ctf_current(0x18)
#define traceEVENT_GROUP_WAIT_BITS_BLOCK(g, b) ctf_current(0x18)
/* Semaphores and mutexes: Zephyr's give/unlock enter, take/lock exit and blocking events; queues have no event
   in this metadata. */
#define CTF_IS_MUTEX(q) ((q)->ucQueueType == 1 || (q)->ucQueueType == 4)
#define CTF_IS_SEM(q) ((q)->ucQueueType == 2 || (q)->ucQueueType == 3)
#define traceQUEUE_SEND(q) \
    do { if (CTF_IS_MUTEX(q)) ctf_object(0x2C, q, 0); else if (CTF_IS_SEM(q)) ctf_object(0x22, q, 0); } while (0)
#define traceQUEUE_SEND_FROM_ISR(q) do { if (CTF_IS_SEM(q)) ctf_object(0x22, q, 0); } while (0)
#define traceQUEUE_RECEIVE(q) \
    do { if (CTF_IS_MUTEX(q)) ctf_object(0x2B, q, 1); else if (CTF_IS_SEM(q)) ctf_object(0x26, q, 1); } while (0)
#define traceBLOCKING_ON_QUEUE_RECEIVE(q) \
    do { if (CTF_IS_MUTEX(q)) ctf_object(0x2A, q, 0); else if (CTF_IS_SEM(q)) ctf_object(0x25, q, 0); \
         ctf_current(0x18); } while (0)
#define traceBLOCKING_ON_QUEUE_SEND(q) ctf_current(0x18)
#endif
