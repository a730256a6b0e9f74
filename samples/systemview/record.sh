#!/usr/bin/env bash
# Records a SEGGER SystemView trace of a FreeRTOS workload on the host: FreeRTOS-Kernel's POSIX port runs the
# tasks, SEGGER's SystemView target sources (encoder, RTT, FreeRTOS glue) record them into an RTT up-buffer,
# which the workload drains to trace.SVDat when it ends. Usage: record.sh APP_DIR OUT.SVDat
# APP_DIR holds main.c (it must define app_trace_clock(), call app_sysview_start() before the scheduler and
# app_sysview_stop() at the end), FreeRTOSConfig.h, SEGGER_SYSVIEW_Conf.h, SEGGER_RTT_Conf.h and sysview_host.c.
# Built as a 32-bit program (SystemView ids are 32-bit addresses): needs gcc-multilib.
set -euo pipefail
app=$(cd "${1:?usage: record.sh APP_DIR OUT.SVDat}" && pwd); out=${2:?usage: record.sh APP_DIR OUT.SVDat}
V=${VENDOR:-$(cd "$(dirname "$0")/../../../shared/vendor" 2>/dev/null && pwd || echo /work/shared/vendor)}
K=$V/freertos-kernel; S=$V/segger-systemview
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
gcc -m32 -O1 -w -include errno.h -I"$app" -I"$K/include" -I"$K/portable/ThirdParty/GCC/Posix" \
    -I"$K/portable/ThirdParty/GCC/Posix/utils" -I"$S/SEGGER" -I"$S/OS" -I"$S/Config" \
    "$app"/*.c "$K"/{tasks,queue,list,timers,event_groups}.c "$K/portable/MemMang/heap_3.c" \
    "$K/portable/ThirdParty/GCC/Posix/port.c" "$K/portable/ThirdParty/GCC/Posix/utils/wait_for_event.c" \
    "$S/SEGGER/SEGGER_SYSVIEW.c" "$S/SEGGER/SEGGER_RTT.c" "$S/OS/SEGGER_SYSVIEW_FreeRTOS.c" \
    -o "$work/app" -lpthread
(cd "$work" && ./app > /dev/null)
mv "$work/trace.SVDat" "$out"
if [ -f "$work/counts.txt" ]; then mv "$work/counts.txt" "${out%.*}.counts"; fi
echo "wrote $out ($(wc -c < "$out") bytes)"
