/* RTT for a host process: the lock masks the POSIX port's signals (its tick),
   as its critical sections do. */
#ifndef SEGGER_RTT_CONF_H
#define SEGGER_RTT_CONF_H
#include <signal.h>
#include <pthread.h>
#define SEGGER_RTT_MAX_NUM_UP_BUFFERS   (3)
#define SEGGER_RTT_MAX_NUM_DOWN_BUFFERS (3)
#define BUFFER_SIZE_UP                  (1024)
#define BUFFER_SIZE_DOWN                (16)
#define SEGGER_RTT_PRINTF_BUFFER_SIZE   (64u)
#define SEGGER_RTT_MODE_DEFAULT         SEGGER_RTT_MODE_NO_BLOCK_SKIP
#define SEGGER_RTT_MAX_INTERRUPT_PRIORITY 0
#define SEGGER_RTT_LOCK()   { sigset_t _all, _old; sigfillset(&_all); pthread_sigmask(SIG_BLOCK, &_all, &_old);
#define SEGGER_RTT_UNLOCK()   pthread_sigmask(SIG_SETMASK, &_old, NULL); }
#endif
