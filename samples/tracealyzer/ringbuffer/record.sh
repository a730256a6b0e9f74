#!/usr/bin/env bash
# Records the printer workload (../printer/main.c) with TraceRecorder's RingBuffer stream port, the way
# TraceRecorder is used without a streaming link: events overwrite the oldest in a RAM buffer, and a debugger
# saves the buffer at the end (dump.c does that at exit). Same kernel and recorder as
# ../../../../shared/recorders/freertos-psf/record.sh (FreeRTOS POSIX port, TraceRecorder v4.11, 32-bit; needs
# gcc-multilib). Usage: samples/tracealyzer/ringbuffer/record.sh OUT.bin
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); out=${1:?usage: record.sh OUT.bin}
V=${CORERA_VENDOR:-$(cd "$here/../../../../shared/vendor" && pwd)}; K=$V/freertos-kernel; T=$V/tracerecorder
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp "$here/../printer/"{main.c,FreeRTOSConfig.h,trcConfig.h,trcKernelPortConfig.h} "$work/"
cp "$here/trcStreamPortConfig.h" "$here/dump.c" "$work/"
gcc -m32 -O1 -w -include errno.h -I"$work" -I"$K/include" -I"$K/portable/ThirdParty/GCC/Posix" \
    -I"$K/portable/ThirdParty/GCC/Posix/utils" -I"$T/include" -I"$T/kernelports/FreeRTOS/include" \
    -I"$T/streamports/RingBuffer/include" \
    "$work"/*.c "$K"/{tasks,queue,list,timers,event_groups}.c "$K/portable/MemMang/heap_3.c" \
    "$K/portable/ThirdParty/GCC/Posix/port.c" "$K/portable/ThirdParty/GCC/Posix/utils/wait_for_event.c" \
    "$T"/*.c "$T/kernelports/FreeRTOS/trcKernelPort.c" "$T/streamports/RingBuffer/trcStreamPort.c" \
    -o "$work/app" -lpthread
(cd "$work" && ./app > /dev/null)
mv "$work/ringbuffer.bin" "$out"
echo "wrote $out ($(wc -c < "$out") bytes)"
