#!/usr/bin/env bash
# Records the printer workload of ../systemview/printer/main.c in Zephyr's CTF format: FreeRTOS-Kernel's POSIX
# port schedules it, harness/ctf_hooks.h records its switches, readiness, blocking, semaphores and mutexes as
# Zephyr's CTF tracing encodes them (metadata: Zephyr's subsys/tracing/ctf/tsdl/metadata, unmodified). Writes
# OUT_DIR/metadata and OUT_DIR/channel0_0, a CTF trace that babeltrace2 reads. Needs gcc-multilib.
# Usage: samples/zephyr-ctf/record.sh OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); out=${1:?usage: record.sh OUT_DIR}
V=${CORERA_VENDOR:-$(cd "$here/../../../shared/vendor" && pwd)}; K=$V/freertos-kernel
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp "$here/../systemview/printer/main.c" "$work/"
gcc -m32 -O1 -w -include errno.h -I"$here/harness" -I"$K/include" -I"$K/portable/ThirdParty/GCC/Posix" \
    -I"$K/portable/ThirdParty/GCC/Posix/utils" \
    "$work/main.c" "$here/harness/ctf_host.c" "$K"/{tasks,queue,list,timers,event_groups}.c \
    "$K/portable/MemMang/heap_3.c" "$K/portable/ThirdParty/GCC/Posix/port.c" \
    "$K/portable/ThirdParty/GCC/Posix/utils/wait_for_event.c" -o "$work/app" -lpthread
(cd "$work" && ./app > /dev/null)
mkdir -p "$out"
mv "$work/channel0_0" "$out/channel0_0"
cp "$here/metadata" "$out/metadata"
mv "$work/counts.txt" "$out.counts"
echo "wrote $out/channel0_0 ($(wc -c < "$out/channel0_0") bytes)"
